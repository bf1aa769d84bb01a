/**
 * An idempotency key in use: the event it produced and the fingerprint of the request that used it.
 * Keys are scoped by tenant, user, metric and key: the same key on another metric is a new request.
 */
export interface IdempotencyRecord {
  /** Unique within the user (engine/store/idempotency-records.ts `idempotencyRecordId`). */
  id: string;
  metricId: string;
  fingerprint: string;
  eventId: string;
  at: Date;
}

/** True when a record is still within the duplicate-detection window (null: unlimited). */
export function isWithinWindow(record: Pick<IdempotencyRecord, "at">, now: Date, windowMs: number | null): boolean {
  return windowMs === null || now.getTime() - record.at.getTime() < windowMs;
}
