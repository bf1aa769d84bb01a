import { hash } from "node:crypto";
import type { Collection } from "mongodb";
import { isWithinWindow, type IdempotencyRecord } from "../domain/idempotency.js";
import { addToBucket, clearBucket, purgeDayOf, readBucket, removeFromBucket, type KeyedBucketDocument } from "./keyed-buckets.js";
import type { KeyedLock } from "./keyed-lock.js";
import { pageId, type UserPageDocument } from "./list-pages.js";
import { packList, unpackList } from "./user-encoding.js";

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

/**
 * Lists the records of a user's move number `move` (the user's `idempotencyMoves` before it) by ID
 * in a page of their own (`user_pages`), BEFORE they are saved, so no saved record is unlisted: an
 * export or erasure reads the user's listings by `_id` instead of querying the collection by user.
 * A move a crash stopped before the user write is made again under the same number: its listing
 * keeps what the first attempt listed. With a window, the listing goes with its records: it is
 * listed for the purge on its newest record's day.
 */
export async function listMovedRecords(
  pages: Collection<UserPageDocument>,
  buckets: Collection<KeyedBucketDocument>,
  locks: KeyedLock,
  tenantId: string,
  userId: string,
  move: number,
  batch: readonly IdempotencyRecord[],
  windowMs: number | null,
): Promise<void> {
  const _id = pageId(tenantId, userId, MOVES_KEY, move);
  const earlier = await pages.findOne({ _id });
  const ids = [...new Set([...(earlier ? (unpackList(earlier.items) as string[]) : []), ...batch.map((r) => documentId(tenantId, userId, r.id))])];
  if (windowMs !== null && batch.length > 0) await addToBucket(buckets, locks, purgeDayOf(newestAt(batch), windowMs), _id);
  await pages.replaceOne({ _id }, { tenantId, items: packList(ids) }, { upsert: true });
}

const MOVES_KEY = "idempotency-moves";
const isListing = (key: string) => key.split("/").at(-2) === MOVES_KEY;
const newestAt = (records: ReadonlyArray<{ at: Date }>) => new Date(Math.max(...records.map((r) => r.at.getTime())));

/** A user's listings: those of `moves` moves, and the one a move stopped by a crash may have left. */
async function readListings(pages: Collection<UserPageDocument>, tenantId: string, userId: string, moves: number) {
  const ids = Array.from({ length: moves + 1 }, (_, move) => pageId(tenantId, userId, MOVES_KEY, move));
  const docs = await Promise.all(ids.map((_id) => pages.findOne({ _id })));
  return ids.map((_id, i) => ({ _id, records: docs[i] ? (unpackList(docs[i].items) as string[]) : [] }));
}

/** The records still stored of a listing (all the user's moves, or one page's). */
async function storedRecords(records: Collection<IdempotencyDocument>, ids: readonly string[]): Promise<IdempotencyDocument[]> {
  const found = await Promise.all(ids.map((_id) => records.findOne({ _id })));
  return found.filter((doc): doc is IdempotencyDocument => doc !== null);
}

/**
 * The records a user moved out of their document, with the listings that name them: read by `_id`
 * from their listings (`moves`), or for a document stored before moves were listed (null) by a
 * query on the user (a scan on FerretDB; no listings).
 */
async function movedRecordsOf(
  records: Collection<IdempotencyDocument>,
  pages: Collection<UserPageDocument>,
  tenantId: string,
  userId: string,
  moves: number | null,
): Promise<{ listings: Array<{ _id: string; records: string[] }>; found: IdempotencyDocument[] }> {
  if (moves === null) return { listings: [], found: await records.find({ tenantId, userId }).toArray() };
  const listings = await readListings(pages, tenantId, userId, moves);
  return {
    listings,
    found: await storedRecords(
      records,
      listings.flatMap((l) => l.records),
    ),
  };
}

/** The records a user moved out of their document (an export). */
export async function findMovedRecords(
  records: Collection<IdempotencyDocument>,
  pages: Collection<UserPageDocument>,
  tenantId: string,
  userId: string,
  moves: number | null,
): Promise<IdempotencyDocument[]> {
  return (await movedRecordsOf(records, pages, tenantId, userId, moves)).found;
}

/**
 * Deletes a user's moved records and their listings, and takes both out of the purge buckets
 * (their IDs name the user).
 */
export async function deleteMovedRecords(
  records: Collection<IdempotencyDocument>,
  pages: Collection<UserPageDocument>,
  buckets: Collection<KeyedBucketDocument>,
  locks: KeyedLock,
  tenantId: string,
  userId: string,
  moves: number | null,
  windowMs: number | null,
): Promise<void> {
  const { listings, found } = await movedRecordsOf(records, pages, tenantId, userId, moves);
  if (windowMs !== null) {
    const at = new Map(found.map((doc) => [doc._id, doc.at]));
    const byDay = new Map<number, string[]>();
    const list = (day: number, key: string) => byDay.set(day, [...(byDay.get(day) ?? []), key]);
    for (const doc of found) list(purgeDayOf(doc.at, windowMs), doc._id);
    for (const listing of listings) {
      const stored = listing.records.flatMap((id) => (at.has(id) ? [{ at: at.get(id)! }] : []));
      if (stored.length > 0) list(purgeDayOf(newestAt(stored), windowMs), listing._id);
    }
    for (const [day, keys] of byDay) await removeFromBucket(buckets, locks, day, keys);
  }
  const deleteAll = (ids: string[]) => ids.map((_id) => ({ deleteOne: { filter: { _id } } }));
  if (found.length > 0) await records.bulkWrite(deleteAll(found.map((doc) => doc._id)), { ordered: false });
  if (listings.length > 0) await pages.bulkWrite(deleteAll(listings.map((l) => l._id)), { ordered: false });
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
  pages: Collection<UserPageDocument>,
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
      if (isListing(_id)) {
        // A move's listing goes once none of its records is within the window (a retried move may have added one).
        const listing = await pages.findOne({ _id });
        if (!listing) continue;
        const kept = (await storedRecords(records, unpackList(listing.items) as string[])).filter((doc) => isWithinWindow(doc, now, windowMs));
        if (kept.length > 0) await addToBucket(buckets, locks, purgeDayOf(newestAt(kept), windowMs), _id);
        else await pages.deleteOne({ _id });
        continue;
      }
      const doc = await records.findOne({ _id }, { projection: { at: 1 } });
      if (!doc) continue;
      if (isWithinWindow(doc, now, windowMs)) await addToBucket(buckets, locks, purgeDayOf(doc.at, windowMs), _id);
      else deleted += (await records.deleteOne({ _id })).deletedCount;
    }
  }
  await clearBucket(buckets, documentIds);
  return deleted;
}
