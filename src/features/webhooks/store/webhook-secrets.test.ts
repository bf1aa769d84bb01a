import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretCodec, parseSecretsKey } from "./webhook-secrets.js";

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

describe("webhook secrets at rest", () => {
  it("are sealed with the server key and opened again; the stored form does not contain the secret", () => {
    const codec = createSecretCodec(randomBytes(32));
    const stored = codec.seal(secret);
    expect(stored).toMatch(/^aes256gcm:/);
    expect(stored).not.toContain("MfKQ9r8G");
    expect(codec.seal(secret)).not.toBe(stored); // a fresh IV every time
    expect(codec.open(stored)).toBe(secret);
  });

  it("cannot be opened with another key or without one", () => {
    const stored = createSecretCodec(randomBytes(32)).seal(secret);
    expect(() => createSecretCodec(randomBytes(32)).open(stored)).toThrow();
    expect(() => createSecretCodec(null).open(stored)).toThrow(/WEBHOOK_SECRETS_KEY/);
  });

  it("are kept as they are without a key, and such secrets stay readable once a key is set", () => {
    expect(createSecretCodec(null).seal(secret)).toBe(secret);
    expect(createSecretCodec(randomBytes(32)).open(secret)).toBe(secret);
  });

  it("need a 32-byte server key", () => {
    expect(parseSecretsKey(randomBytes(32).toString("base64"))).toHaveLength(32);
    expect(() => parseSecretsKey(randomBytes(16).toString("base64"))).toThrow(/32 bytes/);
  });
});
