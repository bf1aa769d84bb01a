// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- TODO(issue 17): hashing moves out of the domain (another change)
import { createHash } from "node:crypto";

/**
 * An idempotency key in use: the event it produced and the fingerprint of the request that used it.
 * Keys are scoped by tenant, user, metric and key: the same key on another metric is a new request.
 */
export interface IdempotencyRecord {
  /** `metricId/sha256(key)`: unique within the user. */
  id: string;
  metricId: string;
  fingerprint: string;
  eventId: string;
  at: Date;
}

/** The record ID of a key on a metric; the key is hashed so any length or character is safe. */
export function idempotencyRecordId(metricId: string, key: string): string {
  return `${metricId}/${createHash("sha256").update(key).digest("base64url")}`;
}

/**
 * A fingerprint of what the request asks for (value, event attributes, timestamp), so that a key
 * reused with a different request is refused instead of silently answering with the old result.
 */
export function fingerprintRequest(request: { value: number; attributes: Record<string, string>; timestamp?: Date }): string {
  const canonical = JSON.stringify([
    request.value,
    Object.entries(request.attributes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    request.timestamp?.toISOString() ?? null,
  ]);
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

/** True when a record is still within the duplicate-detection window (null: unlimited). */
export function isWithinWindow(record: IdempotencyRecord, now: Date, windowMs: number | null): boolean {
  return windowMs === null || now.getTime() - record.at.getTime() < windowMs;
}
