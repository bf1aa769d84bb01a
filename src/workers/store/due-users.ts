import { LRUCache } from "lru-cache";
import type { Collection } from "mongodb";
import type { KeyedLock } from "../../engine/store/keyed-lock.js";
import { addKeysToBucket, addToBucket, clearBucket, readBucket, type KeyedBucketDocument } from "../../engine/store/keyed-buckets.js";

/**
 * Which users have time-driven work due in a minute: keyed buckets (engine/store/keyed-buckets.ts) of
 * `tenant/user` keys per minute. A user is always listed at or before their stored due time, in a
 * minute the scheduler has not finished: a write lists the user (before it stores the due time)
 * only when the due time is new, earlier, or follows one already past (engine/user-commit.ts
 * `needsDueEntry`); a due time that moves later keeps the entry it has, and the scheduler, meeting
 * the user there before anything is due, lists them again at their due time, many users to a
 * command (workers/scheduler.ts).
 */
export type DueUsersDocument = KeyedBucketDocument;

/**
 * Entries this process added lately, by minute and user, so that the same entry asked for twice (a
 * change starts it early, beside its ranking writes, and its commit asks again) costs one command.
 * Only minutes at least REUSE_AHEAD_MS ahead are remembered, for at most REUSE_MS: a minute's
 * buckets are cleared only once that minute has passed, so a remembered entry is still stored.
 */
const recentlyAdded = new WeakMap<Collection<DueUsersDocument>, LRUCache<string, Promise<void>>>();
const REUSE_MS = 60_000;
const REUSE_AHEAD_MS = 3 * 60_000;

/** Lists a user in a minute's bucket; `now` decides whether the entry may be reused (see above). */
export function addDueUser(
  buckets: Collection<DueUsersDocument>,
  locks: KeyedLock,
  minute: number,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<void> {
  const key = `${minute}/${tenantId}/${userId}`;
  const reusable = minute * 60_000 >= now.getTime() + REUSE_AHEAD_MS;
  let recent = recentlyAdded.get(buckets);
  if (!recent) recentlyAdded.set(buckets, (recent = new LRUCache({ max: 10_000, ttl: REUSE_MS })));
  const known = reusable ? recent.get(key) : undefined;
  if (known) return known;
  const added = addToBucket(buckets, locks, minute, key.slice(key.indexOf("/") + 1));
  if (reusable) {
    recent.set(key, added);
    added.catch(() => recent.delete(key)); // a failed write is tried again by the next caller
  }
  return added;
}

/** Lists users again, each at a minute of its own, in as few commands as their minutes and shards allow. */
export async function addDueUsers(
  buckets: Collection<DueUsersDocument>,
  locks: KeyedLock,
  entries: ReadonlyArray<{ minute: number; tenantId: string; userId: string }>,
): Promise<void> {
  const byMinute = new Map<number, string[]>();
  for (const { minute, tenantId, userId } of entries) {
    const keys = byMinute.get(minute) ?? [];
    keys.push(`${tenantId}/${userId}`);
    byMinute.set(minute, keys);
  }
  await Promise.all([...byMinute].map(([minute, keys]) => addKeysToBucket(buckets, locks, minute, keys)));
}

/** The users listed as due in a minute, and the documents that listed them (to clear afterwards). */
export async function findDueUsers(
  buckets: Collection<DueUsersDocument>,
  minute: number,
): Promise<{ users: Array<{ tenantId: string; userId: string }>; bucketIds: string[] }> {
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
