import escapeRegExp from "escape-string-regexp";
import { LRUCache } from "lru-cache";
import type { Collection } from "mongodb";
import type { KeyedLock } from "./keyed-lock.js";

/**
 * Which keys have work in a time bucket (a minute, a day): per bucket, BUCKET_SHARDS shards, each a
 * chain of pages of at most PAGE_KEYS keys (`bucket/shard`, then `bucket/shard/1`, `/2`, ...). A
 * loop reads a bucket's pages by `_id` and deletes them once the bucket is done, so the collection
 * holds pending work only, however large the data it points at; and no document grows with the
 * bucket: FerretDB rewrites a whole document to add one key, so an addition costs what its document
 * holds (measured: 0.7 ms of database CPU into an empty page, 1.6 ms at 64 keys, 10 ms at 1,250,
 * 35 ms at 5,000 — what one shard of the minute every daily streak of 80,000 users falls due in held
 * before pages).
 * Used for the users due in a minute (`due_users`), deliveries due for a retry (`webhook_due`),
 * finished deliveries to purge on a day (`webhook_purge`), the idempotency and batch purges, and
 * the users of each tenant (`tenant_users`, a bucket per tenant that is never cleared).
 *
 * A key is added BEFORE the write that gives its document work in that bucket, so a crash in between
 * leaves an extra entry, never forgotten work; entries are not removed one by one (only an erasure
 * removes keys that name a user): the loop checks each listed document and leaves alone what has
 * nothing to do in that bucket any more.
 */
export interface KeyedBucketDocument {
  _id: string;
  keys: string[];
  /** How `due_users` named its keys before it used this module (still read). */
  users?: string[];
}

/** A bucket: a time bucket's number, or a name (a tenant's ID: engine/store/tenant-users.ts). Never contains "/". */
export type BucketKey = number | string;

/** The day bucket of an instant: whole UTC days since the epoch. */
export function dayOf(at: Date): number {
  return Math.floor(at.getTime() / 86_400_000);
}

/** The first whole day after `retainMs` from `at`: by then it has expired, whenever that day is purged. */
export function purgeDayOf(at: Date, retainMs: number): number {
  return dayOf(new Date(at.getTime() + retainMs)) + 1;
}

/** Shards of a bucket: additions to different shards run side by side, and their pages are read in parallel. */
export const BUCKET_SHARDS = 16;

function shardOf(key: string): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return Math.abs(hash) % BUCKET_SHARDS;
}

/** Keys grouped by the shard of a bucket they belong to (`bucket/shard`). */
function keysByShard(bucket: BucketKey, keys: readonly string[]): Map<string, string[]> {
  const byShard = new Map<string, string[]>();
  for (const key of keys) {
    const shard = `${bucket}/${shardOf(key)}`;
    const shardKeys = byShard.get(shard) ?? [];
    shardKeys.push(key);
    byShard.set(shard, shardKeys);
  }
  return byShard;
}

/** Keys per page: an addition to a page of 64 costs about twice one to an empty page (see above). */
export const PAGE_KEYS = 64;

function pageId(shard: string, page: number): string {
  return page === 0 ? shard : `${shard}/${page}`;
}

/**
 * The page each shard adds to next, per collection. Forgotten (a restart, an evicted entry, another
 * instance), a writer starts again at page 0 and walks forward: each full page it meets takes that
 * one addition (a key, or a batch of at most PAGE_KEYS) and sends it on, so a page holds at most
 * PAGE_KEYS plus one addition per such walk.
 */
const nextPages = new WeakMap<Collection<KeyedBucketDocument>, LRUCache<string, number>>();
function nextPagesOf(buckets: Collection<KeyedBucketDocument>): LRUCache<string, number> {
  let pages = nextPages.get(buckets);
  if (!pages) nextPages.set(buckets, (pages = new LRUCache({ max: 50_000 })));
  return pages;
}

export async function addToBucket(buckets: Collection<KeyedBucketDocument>, locks: KeyedLock, bucket: BucketKey, key: string): Promise<void> {
  await addKeysToBucket(buckets, locks, bucket, [key]);
}

/** Adds many keys at once: one command per shard they fall in (and per PAGE_KEYS of them). */
export async function addKeysToBucket(buckets: Collection<KeyedBucketDocument>, locks: KeyedLock, bucket: BucketKey, keys: readonly string[]): Promise<void> {
  // FerretDB applies an update as a read then a write: concurrent additions to one document would lose
  // keys, so this process adds to a shard one at a time (MongoDB's $addToSet is atomic anyway).
  await Promise.all(
    [...keysByShard(bucket, keys)].map(([shard, shardKeys]) =>
      locks.run(`${buckets.collectionName}:${shard}`, async () => {
        const pages = nextPagesOf(buckets);
        for (let from = 0; from < shardKeys.length; from += PAGE_KEYS) {
          const page = pages.get(shard) ?? 0;
          const batch = shardKeys.slice(from, from + PAGE_KEYS);
          const stored = await buckets.findOneAndUpdate(
            { _id: pageId(shard, page) },
            { $addToSet: { keys: batch.length === 1 ? batch[0]! : { $each: batch } } },
            { upsert: true, returnDocument: "after" },
          );
          if ((stored?.keys.length ?? 0) >= PAGE_KEYS) pages.set(shard, page + 1);
        }
      }),
    ),
  );
}

/**
 * The keys listed in a bucket, and the pages that listed them (to clear afterwards). Each shard's
 * pages are read in order up to the first missing one: a writer starts a page only after it found
 * the one before full.
 */
export async function readBucket(buckets: Collection<KeyedBucketDocument>, bucket: BucketKey): Promise<{ keys: string[]; documentIds: string[] }> {
  const shards = await Promise.all(
    Array.from({ length: BUCKET_SHARDS }, async (_, shard) => {
      const pages: KeyedBucketDocument[] = [];
      for (let page = 0; ; page++) {
        const doc = await buckets.findOne({ _id: pageId(`${bucket}/${shard}`, page) });
        if (!doc) return pages;
        pages.push(doc);
      }
    }),
  );
  const docs = shards.flat();
  return { keys: [...new Set(docs.flatMap((doc) => [...(doc.keys ?? []), ...(doc.users ?? [])]))], documentIds: docs.map((d) => d._id) };
}

/**
 * The time buckets before `before` that hold any page, oldest first: a scan of the collection, so
 * only for collections of pending work, and only where a loop has no cursor to walk from yet.
 */
export async function bucketsListedBefore(buckets: Collection<KeyedBucketDocument>, before: number): Promise<number[]> {
  const listed = new Set<number>();
  for await (const { _id } of buckets.find({}, { projection: { _id: 1 } })) {
    const bucket = Number(_id.split("/", 1)[0]);
    if (Number.isInteger(bucket) && bucket < before) listed.add(bucket);
  }
  return [...listed].sort((a, b) => a - b);
}

/** Takes keys out of a bucket (a user's erasure: keys name the user), page by page along their shards' chains. */
export async function removeFromBucket(buckets: Collection<KeyedBucketDocument>, locks: KeyedLock, bucket: BucketKey, keys: readonly string[]): Promise<void> {
  for (const [shard, shardKeys] of keysByShard(bucket, keys)) {
    await locks.run(`${buckets.collectionName}:${shard}`, async () => {
      for (let page = 0; ; page++) {
        const result = await buckets.updateOne({ _id: pageId(shard, page) }, { $pullAll: { keys: shardKeys } });
        if (result.matchedCount === 0) return;
      }
    });
  }
}

/**
 * Forgets, in every bucket, the keys that start with `prefix` (a deleted tenant's: `<tenantId>/`),
 * in `field` (due_users' older pages name their keys `users`). Finds the pages with a scan of the
 * whole collection, sent once per deleted tenant (every bucket collection holds pending work only),
 * then pulls the exact keys by `_id` (FerretDB matches a `$pull` condition but removes nothing).
 */
export async function forgetKeysStartingWith(
  buckets: Collection<KeyedBucketDocument>,
  locks: KeyedLock,
  prefix: string,
  field: "keys" | "users" = "keys",
): Promise<void> {
  const pages = await buckets.find({ [field]: new RegExp(`^${escapeRegExp(prefix)}`) }, { projection: { [field]: 1 } }).toArray();
  await Promise.all(
    pages.map((page) =>
      // The lock its shard's additions take (`bucket/shard` of the page's `_id`).
      locks.run(`${buckets.collectionName}:${page._id.split("/").slice(0, 2).join("/")}`, () =>
        buckets.updateOne({ _id: page._id }, { $pullAll: { [field]: (page[field] ?? []).filter((key) => key.startsWith(prefix)) } }),
      ),
    ),
  );
}

/** Forgets a bucket's pages once their keys were all handled. */
export async function clearBucket(buckets: Collection<KeyedBucketDocument>, documentIds: readonly string[]): Promise<void> {
  if (documentIds.length === 0) return;
  await buckets.bulkWrite(
    documentIds.map((_id) => ({ deleteOne: { filter: { _id } } })),
    { ordered: false },
  );
  const pages = nextPages.get(buckets);
  for (const _id of documentIds) pages?.delete(_id.split("/").slice(0, 2).join("/"));
}
