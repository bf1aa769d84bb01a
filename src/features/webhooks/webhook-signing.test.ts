import { describe, expect, it } from "vitest";
import { REFERENCE_SIGNATURE_HEADER, referenceSignature, sign, signatureHeader, signingInput } from "./webhook-signing.js";

describe("signing (Standard Webhooks)", () => {
  // The test vector of the Standard Webhooks reference library (libraries/javascript/src/webhook.test.ts).
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const payload = '{"test": 2432232314}';

  it("signs id.timestamp.body with HMAC-SHA256 of the secret's key bytes", () => {
    expect(signingInput(id, 1614265330, payload)).toBe(`${id}.1614265330.${payload}`);
    expect(sign(secret, id, 1614265330, payload)).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("sends one signature per secret, space-separated, the current one first", () => {
    const other = "whsec_" + Buffer.alloc(32, 7).toString("base64");
    const header = signatureHeader([other, secret], id, 1614265330, payload);
    expect(header.split(" ")).toEqual([sign(other, id, 1614265330, payload), "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="]);
  });

  it("refuses a secret without the whsec_ prefix", () => {
    expect(() => sign("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", id, 1, payload)).toThrow(/whsec_/);
  });
});

describe("signing (the reference's X-Trophy-Signature)", () => {
  it("is base64 HMAC-SHA256 of the raw body keyed with the whole secret string (vector computed with Python's hmac)", () => {
    expect(REFERENCE_SIGNATURE_HEADER).toBe("x-trophy-signature");
    expect(referenceSignature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", '{"test": 2432232314}')).toBe("gOyKic480iEzoQZsrstNBP6nRnZXyFFNcX7ELDilyUw=");
    expect(referenceSignature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", '{"test":2432232314}')).not.toBe("gOyKic480iEzoQZsrstNBP6nRnZXyFFNcX7ELDilyUw=");
  });
});
