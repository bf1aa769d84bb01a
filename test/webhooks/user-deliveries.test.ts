// The listings of deliveries per user (src/features/webhooks/store/user-deliveries.ts) on the real
// database: what an export or erasure finds through them, the purge, and deliveries stored before
// listings existed.
import type { Collection } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyedLock } from "../../src/engine/store/keyed-lock.js";
import { readBucket, type KeyedBucketDocument } from "../../src/engine/store/keyed-buckets.js";
import {
  deleteUserListings,
  ensureListingsBaseline,
  findDeliveriesNamingUser,
  LISTING_PURGE_PREFIX,
  listUserDeliveries,
  purgeUserListing,
  type UserDeliveriesDocument,
  type UserDeliveriesStore,
} from "../../src/features/webhooks/store/user-deliveries.js";
import type { WebhookDeliveryDocument } from "../../src/features/webhooks/store/webhook-store.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";

const DAY = 86_400_000;
const T0 = new Date("2026-06-10T12:00:00Z");
const RETENTION_MS = 30 * DAY;

let database: TestDatabase;
let deliveries: Collection<WebhookDeliveryDocument>;
let store: UserDeliveriesStore;

beforeAll(async () => {
  database = await openTestDatabase();
  deliveries = database.db.collection("webhook_deliveries");
  store = {
    listings: database.db.collection<UserDeliveriesDocument>("webhook_user_deliveries"),
    purge: database.db.collection<KeyedBucketDocument>("webhook_purge"),
    locks: new KeyedLock(),
    retentionMs: RETENTION_MS,
  };
}, 180_000);

afterAll(async () => {
  await database?.close();
});

/** A stored delivery whose body names `users` (a user payload for one, a ranking for several). */
async function delivery(id: string, tenantId: string, users: string[], at: Date): Promise<WebhookDeliveryDocument> {
  const body = JSON.stringify(
    users.length === 1 ? { type: "points.changed", user: { id: users[0] } } : { leaderboard: { rankings: users.map((userId) => ({ userId })) } },
  );
  const doc = { _id: id, tenantId, body, type: "points.changed" } as unknown as WebhookDeliveryDocument;
  await listUserDeliveries(store, [doc], at);
  await deliveries.insertOne(doc);
  return doc;
}

const ids = (docs: WebhookDeliveryDocument[]) => docs.map((d) => d._id).sort();

describe("deliveries listed per user", () => {
  it("are found by the users their bodies name, within their tenant, over the days they may be kept", async () => {
    await ensureListingsBaseline(store.listings, deliveries, T0); // an empty database: nothing from before
    await delivery("msg_a/e1", "t1", ["ann"], new Date(T0.getTime() - 35 * DAY));
    await delivery("msg_b/e1", "t1", ["ann", "bob"], T0);
    await delivery("msg_c/e1", "t2", ["ann"], T0);
    await delivery("msg_d/e1", "t1", ["bob"], new Date(T0.getTime() + DAY));
    const now = new Date(T0.getTime() + DAY);
    expect(ids(await findDeliveriesNamingUser(store, deliveries, "t1", "ann", now))).toEqual(["msg_a/e1", "msg_b/e1"]);
    expect(ids(await findDeliveriesNamingUser(store, deliveries, "t1", "bob", now))).toEqual(["msg_b/e1", "msg_d/e1"]);
    expect(ids(await findDeliveriesNamingUser(store, deliveries, "t2", "ann", now))).toEqual(["msg_c/e1"]);
    // Listed by a hash: no listing or purge entry names a user in plain text.
    const stored = JSON.stringify([await store.listings.find({}).toArray(), await store.purge.find({}).toArray()]);
    expect(stored).not.toContain("ann");
    expect(stored).not.toContain("bob");
  });

  it("go from the purge's list with their deliveries: a listing waits while one of them remains", async () => {
    const day = Math.floor(T0.getTime() / DAY) + 30 + 10 + 1;
    const { keys } = await readBucket(store.purge, day);
    const listing = keys.find((k) => k.startsWith(`${LISTING_PURGE_PREFIX}t2/`))!;
    expect(listing).toBeDefined();
    await purgeUserListing(store, deliveries, listing, day);
    expect(await store.listings.countDocuments({ tenantId: "t2" })).toBe(1); // msg_c is still kept
    expect((await readBucket(store.purge, day + 1)).keys).toContain(listing);
    await deliveries.deleteOne({ _id: "msg_c/e1" });
    await purgeUserListing(store, deliveries, listing, day + 1);
    expect(await store.listings.countDocuments({ tenantId: "t2" })).toBe(0);
  });

  it("are deleted with their purge entries when the user is erased", async () => {
    const now = new Date(T0.getTime() + DAY);
    await deleteUserListings(store, "t1", "ann", now);
    expect(await findDeliveriesNamingUser(store, deliveries, "t1", "ann", now)).toEqual([]);
    // bob keeps the listing of the delivery naming both.
    expect(ids(await findDeliveriesNamingUser(store, deliveries, "t1", "bob", now))).toEqual(["msg_b/e1", "msg_d/e1"]);
  });

  it("on a database that held deliveries before listings: also queried, until those are purged", async () => {
    const other = await openTestDatabase();
    try {
      const olderDeliveries = other.db.collection<WebhookDeliveryDocument>("webhook_deliveries");
      const otherStore = { ...store, listings: other.db.collection<UserDeliveriesDocument>("webhook_user_deliveries") };
      await olderDeliveries.insertOne({
        _id: "msg_old/e1",
        tenantId: "t1",
        body: JSON.stringify({ user: { id: "cy" } }),
      } as unknown as WebhookDeliveryDocument);
      await ensureListingsBaseline(otherStore.listings, olderDeliveries, T0);
      expect(ids(await findDeliveriesNamingUser(otherStore, olderDeliveries, "t1", "cy", T0))).toEqual(["msg_old/e1"]);
      expect(await findDeliveriesNamingUser(otherStore, olderDeliveries, "t1", "cy", new Date(T0.getTime() + 45 * DAY))).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
