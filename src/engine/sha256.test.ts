import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { experimentBucket } from "../features/account/domain/settings.js";
import { deterministicMessageId } from "../features/webhooks/domain/webhooks.js";
import { sha256 } from "./sha256.js";

// Message IDs and control-group buckets are stored and compared across versions: the injected hash
// must give exactly what hashing in the domain gave (Node's SHA-256 of the UTF-8 text).
describe("the SHA-256 the domain is given", () => {
  const texts = ["user-1", "", "ünïcødé ✓", JSON.stringify(["lifecycle", null, "u", "emails.recap_due", "2026-03-02"])];

  it.each(texts)("derives the same message ID and bucket as before for %j", (text) => {
    expect(deterministicMessageId(text, sha256)).toBe(`msg_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`);
    expect(experimentBucket(text, sha256)).toBe(createHash("sha256").update(text, "utf8").digest().readUInt32BE(0) % 100);
  });
});
