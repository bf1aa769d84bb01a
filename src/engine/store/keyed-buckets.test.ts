import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  addKeysToBucket,
  addToBucket,
  BUCKET_SHARDS,
  bucketsListedBefore,
  clearBucket,
  PAGE_KEYS,
  readBucket,
  type KeyedBucketDocument,
} from "./keyed-buckets.js";
import { KeyedLock } from "./keyed-lock.js";

let client: MongoClient;
const database = () => client.db(`keyed_buckets_${process.pid}`);

beforeAll(async () => {
  client = await new MongoClient(inject("mongoUri")).connect();
});
afterAll(async () => {
  await database()
    .dropDatabase()
    .catch(() => undefined);
  await client?.close();
});

const keysOf = (n: number, prefix = "tenant/user-") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe("keyed buckets", () => {
  it("tell which time buckets before a given one hold pages, oldest first (named buckets left out)", async () => {
    const buckets = database().collection<KeyedBucketDocument>("listed");
    const locks = new KeyedLock();
    await addKeysToBucket(buckets, locks, 1200, keysOf(PAGE_KEYS * 3)); // several pages and shards
    await addToBucket(buckets, locks, 30, "tenant/a");
    await addToBucket(buckets, locks, 1300, "tenant/b");
    await addToBucket(buckets, locks, "some-tenant", "user");
    expect(await bucketsListedBefore(buckets, 1300)).toEqual([30, 1200]);
    expect(await bucketsListedBefore(buckets, 1301)).toEqual([30, 1200, 1300]);
    expect(await bucketsListedBefore(buckets, 30)).toEqual([]);
    await clearBucket(buckets, (await readBucket(buckets, 30)).documentIds);
    expect(await bucketsListedBefore(buckets, 1300)).toEqual([1200]);
  });

  it("keep every page bounded however many keys a bucket gets, and read back and clear them all", async () => {
    const buckets = database().collection<KeyedBucketDocument>("paged");
    const locks = new KeyedLock();
    const keys = keysOf(40 * BUCKET_SHARDS * 3); // about three pages per shard
    await Promise.all(keys.map((key) => addToBucket(buckets, locks, 7, key)));
    await addToBucket(buckets, locks, 8, "another/bucket");

    const pages = await buckets.find({}).toArray();
    expect(Math.max(...pages.map((p) => p.keys.length))).toBe(PAGE_KEYS);
    const read = await readBucket(buckets, 7);
    expect(read.keys.sort()).toEqual([...keys].sort());
    expect(read.documentIds.length).toBeGreaterThan(BUCKET_SHARDS);

    await clearBucket(buckets, read.documentIds);
    expect(await readBucket(buckets, 7)).toEqual({ keys: [], documentIds: [] });
    expect((await readBucket(buckets, 8)).keys).toEqual(["another/bucket"]);
    // Cleared, a bucket starts again from its first page.
    await addToBucket(buckets, locks, 7, "tenant/late");
    expect(await readBucket(buckets, 7)).toMatchObject({ keys: ["tenant/late"], documentIds: [expect.any(String)] });
  });

  it("after a restart (the next pages forgotten) a writer walks forward, each full page taking at most one more key", async () => {
    const before = database().collection<KeyedBucketDocument>("restart");
    const locks = new KeyedLock();
    const first = keysOf(PAGE_KEYS * BUCKET_SHARDS * 2, "t/a-");
    await Promise.all(first.map((key) => addToBucket(before, locks, 1, key)));

    // A new client: a new collection object, as in a process that just started.
    const other = await new MongoClient(inject("mongoUri")).connect();
    try {
      const after = other.db(database().databaseName).collection<KeyedBucketDocument>("restart");
      const second = keysOf(PAGE_KEYS * BUCKET_SHARDS, "t/b-");
      for (const key of second) await addToBucket(after, new KeyedLock(), 1, key);
      const pages = await after.find({}).toArray();
      expect(Math.max(...pages.map((p) => p.keys.length))).toBeLessThanOrEqual(PAGE_KEYS + 1);
      expect((await readBucket(after, 1)).keys.sort()).toEqual([...first, ...second].sort());
    } finally {
      await other.close();
    }
  });

  it("take keys in batches: one command per shard and PAGE_KEYS keys, pages still bounded", async () => {
    const buckets = database().collection<KeyedBucketDocument>("batched");
    const locks = new KeyedLock();
    const keys = keysOf(PAGE_KEYS * BUCKET_SHARDS * 2, "t/batch-");
    await addKeysToBucket(buckets, locks, 3, keys.slice(0, 10));
    await addKeysToBucket(buckets, locks, 3, keys.slice(10));
    await addKeysToBucket(buckets, locks, 3, keys.slice(0, 5)); // listed again: read once
    const pages = await buckets.find({}).toArray();
    // A page at most full plus one batch (of at most PAGE_KEYS).
    expect(Math.max(...pages.map((p) => p.keys.length))).toBeLessThan(PAGE_KEYS * 2);
    const read = await readBucket(buckets, 3);
    expect(read.keys.sort()).toEqual([...keys].sort());
    expect(read.keys).toHaveLength(keys.length);
  });

  it("still read the shard documents of earlier versions (one document per shard, `users` in the oldest)", async () => {
    const buckets = database().collection<KeyedBucketDocument>("earlier");
    const many = keysOf(PAGE_KEYS * 3, "t/old-");
    await buckets.insertMany([
      { _id: "5/0", keys: many },
      { _id: "5/3", keys: [], users: ["t/oldest"] },
    ]);
    await addToBucket(buckets, new KeyedLock(), 5, "t/new");
    const read = await readBucket(buckets, 5);
    expect(read.keys.sort()).toEqual([...many, "t/oldest", "t/new"].sort());
    await clearBucket(buckets, read.documentIds);
    expect(await buckets.countDocuments()).toBe(0);
  });
});
