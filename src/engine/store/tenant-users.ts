import type { Collection } from "mongodb";
import type { KeyedLock } from "./keyed-lock.js";
import { addKeysToBucket, clearBucket, readBucket, removeFromBucket, type KeyedBucketDocument } from "./keyed-buckets.js";
import type { UserDocument } from "./user-documents.js";

/**
 * The users of each tenant, listed by key (`tenant_users`: a keyed bucket per tenant,
 * engine/store/keyed-buckets.ts, of user IDs): the walks over a tenant's users (points and level
 * summaries, achievement backdating) read its pages by `_id` and then each user by `_id`, instead
 * of a query on `users` that FerretDB answers by reading every tenant's users. A user is listed
 * before the write that creates their document (a crash leaves a listed user without a document,
 * which walks skip) and taken out after their erasure deleted it.
 *
 * Users created before the listings existed are listed once per tenant, by the first walk (one
 * query on `users`), when the database held users at the first start-up with listings: the
 * database's marker (`_id` "*") says whether it did, a tenant's (`<tenant>/listed`) that its
 * users are all listed.
 */
export type TenantUsersDocument = KeyedBucketDocument;

interface ListingMarker {
  _id: string;
  /** The database's marker: every user was listed from the first (it held none at the first start-up with listings). */
  complete?: boolean;
  /** A tenant's marker: its users from before were listed. */
  listed?: true;
}

const DATABASE_MARKER = "*";
const tenantMarker = (tenantId: string) => `${tenantId}/listed`;
const markers = (listings: Collection<TenantUsersDocument>) => listings as unknown as Collection<ListingMarker>;

/** At start-up, once per database: whether users from before the listings may exist. */
export async function ensureTenantUsersBaseline(listings: Collection<TenantUsersDocument>, users: Collection<UserDocument>): Promise<void> {
  if (await markers(listings).findOne({ _id: DATABASE_MARKER })) return;
  const hadUsers = (await users.findOne({}, { projection: { _id: 1 } })) !== null;
  await markers(listings).updateOne({ _id: DATABASE_MARKER }, { $setOnInsert: { complete: !hadUsers } }, { upsert: true });
}

/** Lists new users (before the writes that create their documents). */
export function listTenantUsers(listings: Collection<TenantUsersDocument>, locks: KeyedLock, tenantId: string, userIds: readonly string[]): Promise<void> {
  return addKeysToBucket(listings, locks, tenantId, userIds);
}

/** Takes an erased user out (after their document was deleted). */
export function unlistTenantUser(listings: Collection<TenantUsersDocument>, locks: KeyedLock, tenantId: string, userId: string): Promise<void> {
  return removeFromBucket(listings, locks, tenantId, [userId]);
}

/** The IDs of a tenant's users (possibly a few whose document a crash left unwritten or an erasure deleted). */
export async function userIdsOfTenant(
  listings: Collection<TenantUsersDocument>,
  users: Collection<UserDocument>,
  locks: KeyedLock,
  tenantId: string,
): Promise<string[]> {
  // The tenant's marker matters only in a database that held users before the listings.
  const database = await markers(listings).findOne({ _id: DATABASE_MARKER });
  if (!database?.complete && !(await markers(listings).findOne({ _id: tenantMarker(tenantId) }))) {
    // Once per tenant of a database that held users before the listings: list them from `users`.
    const ids: string[] = [];
    for await (const doc of users.find({ tenantId }, { projection: { userId: 1 } })) ids.push(doc.userId);
    await listTenantUsers(listings, locks, tenantId, ids);
    await markers(listings).updateOne({ _id: tenantMarker(tenantId) }, { $setOnInsert: { listed: true } }, { upsert: true });
  }
  return (await readBucket(listings, tenantId)).keys;
}

/** Forgets a deleted tenant's listings. */
export async function deleteTenantListings(listings: Collection<TenantUsersDocument>, tenantId: string): Promise<void> {
  const { documentIds } = await readBucket(listings, tenantId);
  await Promise.all([clearBucket(listings, documentIds), markers(listings).deleteOne({ _id: tenantMarker(tenantId) })]);
}
