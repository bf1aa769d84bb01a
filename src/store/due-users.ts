import type { Collection } from "mongodb";
import type { KeyedLock } from "./keyed-lock.js";

/**
 * Which users have time-driven work due in a minute: per minute, DUE_SHARDS documents keyed
 * `minute/shard`, each listing `tenant/user` keys. The scheduler reads a minute's documents by `_id`
 * and deletes them once the minute is done, so the collection holds pending work only.
 *
 * An entry is added (before the user write that sets the due time) whenever a user's due minute
 * changes; entries are never removed one by one: a user visited in a minute where nothing is due
 * any more is left alone (the work checks the stored due time).
 */
export interface DueUsersDocument {
  _id: string;
  users: string[];
}

/** Spreads one minute's users over several documents, so no document grows with all of them. */
export const DUE_SHARDS = 16;

function shardOf(key: string): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return Math.abs(hash) % DUE_SHARDS;
}

export async function addDueUser(buckets: Collection<DueUsersDocument>, locks: KeyedLock, minute: number, tenantId: string, userId: string): Promise<void> {
  const key = `${tenantId}/${userId}`;
  const _id = `${minute}/${shardOf(key)}`;
  // FerretDB applies an update as a read then a write: concurrent additions to one bucket would lose
  // entries, so this process adds to a bucket one at a time (MongoDB's $addToSet is atomic anyway).
  await locks.run(`due:${_id}`, () => buckets.updateOne({ _id }, { $addToSet: { users: key } }, { upsert: true }));
}

/** The users listed as due in a minute, and the documents that listed them (to clear afterwards). */
export async function findDueUsers(buckets: Collection<DueUsersDocument>, minute: number): Promise<{ users: Array<{ tenantId: string; userId: string }>; bucketIds: string[] }> {
  const docs = (await Promise.all(Array.from({ length: DUE_SHARDS }, (_, shard) => buckets.findOne({ _id: `${minute}/${shard}` })))).filter((d) => d !== null);
  const users = docs.flatMap((doc) =>
    doc.users.map((key) => {
      const slash = key.indexOf("/"); // tenant IDs never contain "/"
      return { tenantId: key.slice(0, slash), userId: key.slice(slash + 1) };
    }),
  );
  return { users, bucketIds: docs.map((d) => d._id) };
}

/** Forgets a minute's documents once their users were all visited. */
export async function clearDueBuckets(buckets: Collection<DueUsersDocument>, bucketIds: readonly string[]): Promise<void> {
  if (bucketIds.length === 0) return;
  await buckets.bulkWrite(bucketIds.map((_id) => ({ deleteOne: { filter: { _id } } })), { ordered: false });
}
