import { brotliDecompressSync } from "node:zlib";
import { Binary } from "mongodb";

/**
 * A stored document as text to search for a user ID, compressed fields included: ranking chunks
 * keep their lines brotli-compressed in `packed` and a root may keep its index patch so
 * (features/leaderboards/store/chunk-content.ts), where an ID is not visible as text. Every binary
 * value that decompresses is searched as its text (decoded here, not by the store's own reader, so
 * a store that wrote the ID in a form it cannot read back would still be caught); any other binary
 * as its base64.
 */
export function storedText(doc: unknown): string {
  return JSON.stringify(decoded(doc));
}

/** Whether `doc` holds any compressed binary value (so a search of its raw JSON would miss what it holds). */
export function holdsPacked(doc: unknown): boolean {
  return storedText(doc) !== JSON.stringify(doc);
}

function decoded(value: unknown): unknown {
  if (value instanceof Binary) return inflated(value) ?? value.toString("base64");
  if (Array.isArray(value)) return value.map(decoded);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, decoded(field)]));
  }
  return value;
}

function inflated(binary: Binary): string | null {
  try {
    return brotliDecompressSync(binary.buffer).toString("utf8");
  } catch {
    return null;
  }
}
