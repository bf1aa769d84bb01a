/**
 * How a webhook delivery is signed (Standard Webhooks, and the reference's own header when an
 * endpoint asks for it). The delivery protocol, not a rule of the domain: it needs HMAC.
 */
import { createHmac } from "node:crypto";

/** The prefix of a serialized symmetric signing secret (Standard Webhooks). */
export const SECRET_PREFIX = "whsec_";
/** Random bytes in a signing secret (the specification asks for 24 to 64). */
export const SECRET_BYTES = 32;

/** A new signing secret from random bytes: `whsec_` and the bytes in base64. */
export function formatSecret(bytes: Uint8Array): string {
  return `${SECRET_PREFIX}${Buffer.from(bytes).toString("base64")}`;
}

/** The HMAC key of a secret: the base64 after `whsec_`, decoded. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error("a webhook secret starts with whsec_");
  return Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
}

/** What is signed: `{webhook-id}.{webhook-timestamp}.{body}`. */
export function signingInput(messageId: string, timestampSeconds: number, body: string): string {
  return `${messageId}.${timestampSeconds}.${body}`;
}

/** One `v1,` signature: base64 of HMAC-SHA256 of the signing input with the secret's key bytes. */
export function sign(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac("sha256", secretKey(secret))
    .update(signingInput(messageId, timestampSeconds, body), "utf8")
    .digest("base64")}`;
}

/** The reference's signature header (docs: webhooks, security). */
export const REFERENCE_SIGNATURE_HEADER = "x-trophy-signature";

/**
 * The reference's signature of a delivery: base64 of HMAC-SHA256 of the raw body, keyed with the
 * whole secret string as UTF-8 (what a receiver following the reference's docs keeps in its
 * environment and passes to `createHmac`), with no timestamp or message ID in the signed text.
 */
export function referenceSignature(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("base64");
}

/**
 * The `webhook-signature` header: one signature per secret, space-separated (the current secret
 * first; during a rotation's grace period the previous one too, so receivers may switch at leisure).
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestampSeconds: number, body: string): string {
  return secrets.map((s) => sign(s, messageId, timestampSeconds, body)).join(" ");
}
