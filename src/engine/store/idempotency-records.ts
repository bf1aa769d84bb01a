import { hash } from "node:crypto";
import type { Collection } from "mongodb";
import type { IdempotencyRecord } from "../domain/idempotency.js";
import { addToBucket, clearBucket, purgeDayOf, readBucket, type KeyedBucketDocument } from "./keyed-buckets.js";
import type { KeyedLock } from "./keyed-lock.js";

/** Idempotency records moved out of user documents; `_id` is `tenantId/userId/recordId`. */
export interface IdempotencyDocument extends Omit<IdempotencyRecord, "id"> {
  _id: string;
  tenantId: string;
  userId: string;
}

/** The record ID of a key on a metric (`metricId/sha256(key)`); the key is hashed so any length or character is safe. */
export function idempotencyRecordId(metricId: string, key: string): string {
  return `${metricId}/${hash("sha256", key, "base64url")}`;
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
  return hash("sha256", canonical, "hex").slice(0, 16);
}

function documentId(tenantId: string, userId: string, recordId: string): string {
  return `${tenantId}/${userId}/${recordId}`;
}

export async function findIdempotencyRecord(
  records: Collection<IdempotencyDocument>,
  tenantId: string,
  userId: string,
  recordId: string,
): Promise<IdempotencyRecord | null> {
  const doc = await records.findOne({ _id: documentId(tenantId, userId, recordId) });
  if (!doc) return null;
  const { _id, tenantId: _t, userId: _u, ...record } = doc;
  return { id: recordId, ...record };
}

/** Stores records; idempotent (upserts by ID), so a retry after a crash completes instead of doubling. */
export async function saveIdempotencyRecords(
  records: Collection<IdempotencyDocument>,
  tenantId: string,
  userId: string,
  batch: IdempotencyRecord[],
): Promise<void> {
  if (batch.length === 0) return;
  await records.bulkWrite(
    batch.map(({ id, ...record }) => ({
      replaceOne: {
        filter: { _id: documentId(tenantId, userId, id) },
        replacement: { _id: documentId(tenantId, userId, id), tenantId, userId, ...record },
        upsert: true,
      },
    })),
    { ordered: false },
  );
}

/**
 * With an idempotency window, lists records moved to the collection in the purge bucket of the day
 * after their window ends (keyed buckets, `idempotency_purge`), BEFORE they are saved: the purge
 * then finds them by `_id`, never by a query over the collection. Without a window (the default)
 * records are kept for ever, as the window is.
 */
export async function listForPurge(
  buckets: Collection<KeyedBucketDocument>,
  locks: KeyedLock,
  tenantId: string,
  userId: string,
  batch: readonly IdempotencyRecord[],
  windowMs: number | null,
): Promise<void> {
  if (windowMs === null) return;
  await Promise.all(batch.map((r) => addToBucket(buckets, locks, purgeDayOf(r.at, windowMs), documentId(tenantId, userId, r.id))));
}

/**
 * Deletes the records listed for `day` whose window has ended (a record still within a window
 * lengthened since is listed again for its new day), then the day's bucket. Returns how many it deleted.
 */
export async function purgeIdempotencyRecords(
  records: Collection<IdempotencyDocument>,
  buckets: Collection<KeyedBucketDocument>,
  locks: KeyedLock,
  day: number,
  windowMs: number | null,
  now: Date,
): Promise<number> {
  const { keys, documentIds } = await readBucket(buckets, day);
  let deleted = 0;
  // A window lifted since the records were listed: they are kept for ever, only the bucket goes.
  if (windowMs !== null) {
    for (const _id of keys) {
      const doc = await records.findOne({ _id }, { projection: { at: 1 } });
      if (!doc) continue;
      if (now.getTime() - doc.at.getTime() < windowMs) await addToBucket(buckets, locks, purgeDayOf(doc.at, windowMs), _id);
      else deleted += (await records.deleteOne({ _id })).deletedCount;
    }
  }
  await clearBucket(buckets, documentIds);
  return deleted;
}
