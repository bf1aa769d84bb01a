import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * How webhook signing secrets are kept at rest. A signing secret must be usable for HMAC, so it
 * cannot be hashed like an API key. With a server key (`WEBHOOK_SECRETS_KEY`, 32 bytes in base64)
 * secrets are sealed with AES-256-GCM, so a copy of the database (a backup, a replica) does not let
 * anyone sign webhooks; without one they are stored as they are, and the database must be guarded
 * like the secrets themselves. Either way the API never returns a stored secret: it is shown once,
 * when created or rotated.
 */
export interface SecretCodec {
  /** The form to store. */
  seal(secret: string): string;
  /** The secret from its stored form; throws when it was sealed and this instance has no (or another) key. */
  open(stored: string): string;
  /** Whether secrets are encrypted at rest. */
  readonly encrypts: boolean;
}

const SEALED_PREFIX = "aes256gcm:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Parses a server key (base64 of 32 bytes); throws with a message naming the variable. */
export function parseSecretsKey(base64: string): Buffer {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new Error(`WEBHOOK_SECRETS_KEY must be 32 bytes in base64 (e.g. openssl rand -base64 32), got ${key.length} bytes`);
  return key;
}

export function createSecretCodec(key: Buffer | null): SecretCodec {
  return {
    encrypts: key !== null,
    seal(secret) {
      if (!key) return secret;
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64");
    },
    open(stored) {
      if (!stored.startsWith(SEALED_PREFIX)) return stored;
      if (!key) throw new Error("this webhook secret is encrypted at rest, but WEBHOOK_SECRETS_KEY is not set on this instance");
      const raw = Buffer.from(stored.slice(SEALED_PREFIX.length), "base64");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    },
  };
}
