import type { Collection } from "mongodb";
import type { KeyedLock } from "./keyed-lock.js";

/**
 * Which keys have work in a time bucket (a minute, a day): per bucket, BUCKET_SHARDS documents keyed
 * `bucket/shard`, each listing keys. A loop reads a bucket's documents by `_id` and deletes them once
 * the bucket is done, so the collection holds pending work only, however large the data it points
 * at. Used for the users due in a minute (`due_users`), deliveries due for a retry
 * (`webhook_due`) and finished deliveries to purge on a day (`webhook_purge`).
 *
 * A key is added BEFORE the write that gives its document work in that bucket, so a crash in between
 * leaves an extra entry, never forgotten work; entries are never removed one by one: the loop checks
 * each listed document and leaves alone what has nothing to do in that bucket any more.
 */
export interface KeyedBucketDocument {
  _id: string;
  keys: string[];
  /** How `due_users` named its keys before it used this module (still read). */
  users?: string[];
}

/** The day bucket of an instant: whole UTC days since the epoch. */
export function dayOf(at: Date): number {
  return Math.floor(at.getTime() / 86_400_000);
}

/** The first whole day after `retainMs` from `at`: by then it has expired, whenever that day is purged. */
export function purgeDayOf(at: Date, retainMs: number): number {
  return dayOf(new Date(at.getTime() + retainMs)) + 1;
}

/** Spreads one bucket's keys over several documents, so no document grows with all of them. */
export const BUCKET_SHARDS = 16;

function shardOf(key: string): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return Math.abs(hash) % BUCKET_SHARDS;
}

export async function addToBucket(buckets: Collection<KeyedBucketDocument>, locks: KeyedLock, bucket: number, key: string): Promise<void> {
  const _id = `${bucket}/${shardOf(key)}`;
  // FerretDB applies an update as a read then a write: concurrent additions to one document would lose
  // keys, so this process adds to a document one at a time (MongoDB's $addToSet is atomic anyway).
  await locks.run(`${buckets.collectionName}:${_id}`, () => buckets.updateOne({ _id }, { $addToSet: { keys: key } }, { upsert: true }));
}

/** The keys listed in a bucket, and the documents that listed them (to clear afterwards). */
export async function readBucket(buckets: Collection<KeyedBucketDocument>, bucket: number): Promise<{ keys: string[]; documentIds: string[] }> {
  const docs = (await Promise.all(Array.from({ length: BUCKET_SHARDS }, (_, shard) => buckets.findOne({ _id: `${bucket}/${shard}` })))).filter(
    (d) => d !== null,
  );
  return { keys: [...new Set(docs.flatMap((doc) => [...(doc.keys ?? []), ...(doc.users ?? [])]))], documentIds: docs.map((d) => d._id) };
}

/** Forgets a bucket's documents once their keys were all handled. */
export async function clearBucket(buckets: Collection<KeyedBucketDocument>, documentIds: readonly string[]): Promise<void> {
  if (documentIds.length === 0) return;
  await buckets.bulkWrite(
    documentIds.map((_id) => ({ deleteOne: { filter: { _id } } })),
    { ordered: false },
  );
}
