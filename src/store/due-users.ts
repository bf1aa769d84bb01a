import type { Collection } from "mongodb";
import type { KeyedLock } from "./keyed-lock.js";
import { addToBucket, clearBucket, readBucket, type KeyedBucketDocument } from "./keyed-buckets.js";

/**
 * Which users have time-driven work due in a minute: keyed buckets (store/keyed-buckets.ts) of
 * `tenant/user` keys per minute. An entry is added (before the user write that sets the due time)
 * whenever a user's due minute changes; a user visited in a minute where nothing is due any more is
 * left alone (the work checks the stored due time).
 */
export type DueUsersDocument = KeyedBucketDocument;

export async function addDueUser(buckets: Collection<DueUsersDocument>, locks: KeyedLock, minute: number, tenantId: string, userId: string): Promise<void> {
  await addToBucket(buckets, locks, minute, `${tenantId}/${userId}`);
}

/** The users listed as due in a minute, and the documents that listed them (to clear afterwards). */
export async function findDueUsers(buckets: Collection<DueUsersDocument>, minute: number): Promise<{ users: Array<{ tenantId: string; userId: string }>; bucketIds: string[] }> {
  const { keys, documentIds } = await readBucket(buckets, minute);
  const users = keys.map((key) => {
    const slash = key.indexOf("/"); // tenant IDs never contain "/"
    return { tenantId: key.slice(0, slash), userId: key.slice(slash + 1) };
  });
  return { users, bucketIds: documentIds };
}

/** Forgets a minute's documents once their users were all visited. */
export async function clearDueBuckets(buckets: Collection<DueUsersDocument>, bucketIds: readonly string[]): Promise<void> {
  await clearBucket(buckets, bucketIds);
}
