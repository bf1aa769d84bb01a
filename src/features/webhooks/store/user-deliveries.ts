import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Collection } from "mongodb";
import { bodyNamesUser, usersNamedIn } from "../domain/webhooks.js";
import { addToBucket, dayOf, removeFromBucket, type KeyedBucketDocument } from "../../../engine/store/keyed-buckets.js";
import type { KeyedLock } from "../../../engine/store/keyed-lock.js";
import { retryOnDuplicate } from "../../../engine/store/database.js";
import { DAY_MS } from "../../../engine/domain/plain-dates.js";
import type { WebhookDeliveryDocument } from "./webhook-store.js";

/**
 * Which deliveries name a user (their body holds a `user.id` or a `userId` equal to theirs: see
 * `usersNamedIn`), per user and UTC day of the hand-over: `webhook_user_deliveries`, `_id` =
 * `tenantId/day/<hash of the user ID>`. Written before the deliveries it lists, so no stored
 * delivery naming a user is unlisted: exporting and erasing a user read the listings of the days a
 * delivery may still be kept, by `_id`, instead of querying every delivery of the tenant.
 *
 * A listing goes with its deliveries: it is listed for the webhook purge (`webhook_purge`, key
 * PURGE_KEY_PREFIX + `_id`) on the day the last delivery it may list is purged, and the purge
 * deletes it then, or a day later while one of them remains (a delivery redelivered since). A
 * redelivery lists the delivery again on its day.
 */
export interface UserDeliveriesDocument {
  _id: string;
  tenantId: string;
  deliveries: string[];
}

/**
 * The longest a delivery stays pending before it finishes, in days: the retry schedule's 8 attempts,
 * each at most a day after the one before (a receiver's Retry-After is capped at a day), and a margin.
 */
const MAX_PENDING_DAYS = 10;

/** How the purge bucket names a listing (delivery IDs start with `msg_`). */
export const LISTING_PURGE_PREFIX = "user-deliveries:";

/** Users are named by a hash: purge keys and IDs stay short, and name no one in plain text. */
export function userDeliveriesId(tenantId: string, day: number, userId: string): string {
  return `${tenantId}/${day}/${hash("sha256", userId, "base64url")}`;
}

/** Days from a listing's day to the purge of the last delivery it may list. */
function keptDays(retentionMs: number): number {
  return Math.ceil(retentionMs / DAY_MS) + MAX_PENDING_DAYS + 1;
}

/** Listings this process put on the purge's list already (one bucket entry per listing is enough). */
const listedForPurge = new WeakMap<Collection<UserDeliveriesDocument>, LRUCache<string, true>>();

export interface UserDeliveriesStore {
  listings: Collection<UserDeliveriesDocument>;
  purge: Collection<KeyedBucketDocument>;
  locks: KeyedLock;
  retentionMs: number;
}

/** Lists deliveries under each user their body names (before they are stored). */
export async function listUserDeliveries(
  store: UserDeliveriesStore,
  deliveries: ReadonlyArray<Pick<WebhookDeliveryDocument, "_id" | "tenantId" | "body">>,
  now: Date,
): Promise<void> {
  const day = dayOf(now);
  const byListing = new Map<string, { tenantId: string; ids: string[] }>();
  for (const d of deliveries) {
    for (const userId of usersNamedIn(d.body)) {
      const _id = userDeliveriesId(d.tenantId, day, userId);
      const listing = byListing.get(_id) ?? { tenantId: d.tenantId, ids: [] };
      listing.ids.push(d._id);
      byListing.set(_id, listing);
    }
  }
  let listed = listedForPurge.get(store.listings);
  if (!listed) listedForPurge.set(store.listings, (listed = new LRUCache({ max: 50_000 })));
  await Promise.all(
    [...byListing].map(([_id, { tenantId, ids }]) =>
      // FerretDB applies `$addToSet` as a read then a write: this process adds to a listing one at a time.
      store.locks.run(`${store.listings.collectionName}:${_id}`, async () => {
        if (!listed.has(_id)) {
          await addToBucket(store.purge, store.locks, day + keptDays(store.retentionMs), LISTING_PURGE_PREFIX + _id);
          listed.set(_id, true);
        }
        await retryOnDuplicate(() =>
          store.listings.updateOne({ _id }, { $addToSet: { deliveries: { $each: ids } }, $setOnInsert: { tenantId } }, { upsert: true }),
        );
      }),
    ),
  );
}

/** The listings of a user that may still exist: one per day a delivery handed over then may still be kept. */
function listingIdsOf(store: UserDeliveriesStore, tenantId: string, userId: string, now: Date): Array<{ _id: string; day: number }> {
  const today = dayOf(now);
  const span = keptDays(store.retentionMs) + 1; // a listing may wait a day past its purge
  return Array.from({ length: span + 1 }, (_, i) => today - span + i).map((day) => ({ _id: userDeliveriesId(tenantId, day, userId), day }));
}

/** The tenant's stored deliveries whose body names the user (an export, an erasure), by `_id` from the user's listings. */
export async function findDeliveriesNamingUser(
  store: UserDeliveriesStore,
  deliveries: Collection<WebhookDeliveryDocument>,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<WebhookDeliveryDocument[]> {
  const listings = await Promise.all(listingIdsOf(store, tenantId, userId, now).map(({ _id }) => store.listings.findOne({ _id })));
  const ids = new Set(listings.flatMap((l) => l?.deliveries ?? []));
  const found = await Promise.all([...ids].map((_id) => deliveries.findOne({ _id })));
  // Shortly after upgrading from a version without listings: also a query over the tenant's deliveries (a scan on FerretDB).
  const unlisted = (await unlistedMayRemain(store, now)) ? (await deliveries.find({ tenantId }).toArray()).filter((d) => !ids.has(d._id)) : [];
  return [...found, ...unlisted].filter((d): d is WebhookDeliveryDocument => d !== null && d.tenantId === tenantId && bodyNamesUser(d.body, userId));
}

/** Deletes a user's listings (an erasure, after the deliveries they list), and their entries in the purge's buckets. */
export async function deleteUserListings(store: UserDeliveriesStore, tenantId: string, userId: string, now: Date): Promise<void> {
  const candidates = listingIdsOf(store, tenantId, userId, now);
  const found = await Promise.all(candidates.map(({ _id }) => store.listings.findOne({ _id }, { projection: { _id: 1 } })));
  const existing = candidates.filter((_, i) => found[i] !== null);
  for (const { _id, day } of existing) await removeFromBucket(store.purge, store.locks, day + keptDays(store.retentionMs), [LISTING_PURGE_PREFIX + _id]);
  if (existing.length > 0)
    await store.listings.bulkWrite(
      existing.map(({ _id }) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
}

/**
 * The purge of a listing on its day (`purgeDeliveries`; `key` as the bucket names it): deleted
 * once none of its deliveries remains, else listed again for the next day.
 */
export async function purgeUserListing(
  store: Omit<UserDeliveriesStore, "retentionMs">,
  deliveries: Collection<WebhookDeliveryDocument>,
  key: string,
  day: number,
): Promise<void> {
  const _id = key.slice(LISTING_PURGE_PREFIX.length);
  const listing = await store.listings.findOne({ _id });
  if (!listing) return;
  const remaining = await Promise.all(listing.deliveries.map((id) => deliveries.findOne({ _id: id }, { projection: { _id: 1 } })));
  if (remaining.some((d) => d !== null)) await addToBucket(store.purge, store.locks, day + 1, key);
  else await store.listings.deleteOne({ _id });
}

/**
 * The database's marker (`_id` "*"): when listing began on a database that held deliveries from
 * before (null: it held none). Until those are purged, finding a user's deliveries also queries.
 */
interface ListingsBaseline {
  _id: string;
  tenantId: string;
  since: Date | null;
}

const BASELINE_ID = "*";

/** At start-up, once per database: whether deliveries from before the listings may exist. */
export async function ensureListingsBaseline(
  listings: Collection<UserDeliveriesDocument>,
  deliveries: Collection<WebhookDeliveryDocument>,
  now: Date,
): Promise<void> {
  const baselines = listings as unknown as Collection<ListingsBaseline>;
  if (await baselines.findOne({ _id: BASELINE_ID })) return;
  const hadDeliveries = (await deliveries.findOne({}, { projection: { _id: 1 } })) !== null;
  await baselines.updateOne({ _id: BASELINE_ID }, { $setOnInsert: { tenantId: "", since: hadDeliveries ? now : null } }, { upsert: true });
}

/** Whether deliveries handed over before the listings may still be kept. */
async function unlistedMayRemain(store: UserDeliveriesStore, now: Date): Promise<boolean> {
  const baseline = await (store.listings as unknown as Collection<ListingsBaseline>).findOne({ _id: BASELINE_ID });
  const since = baseline?.since;
  return since instanceof Date && now.getTime() < since.getTime() + (keptDays(store.retentionMs) + 1) * DAY_MS;
}
