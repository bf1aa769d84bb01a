/**
 * SHA-256 of a text's UTF-8 bytes. The domain derives stable IDs and buckets from it but imports no
 * crypto: the adapter passes Node's (engine/sha256.ts) in, with the engine configuration.
 */
export type Sha256 = (text: string) => Uint8Array;

/** Bytes as lowercase hexadecimal. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
