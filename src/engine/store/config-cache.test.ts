import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../test/helpers/database.js";
import { ConfigCache } from "./config-cache.js";
import { openDatabase, type Database } from "./database.js";

let testDb: TestDatabase;
let database: Database;
let finds = 0;

beforeAll(async () => {
  testDb = await openTestDatabase();
  database = await openDatabase(testDb.uri, testDb.dbName);
  // A second, monitored client counts the reads the cache makes.
  const monitored = new MongoClient(testDb.uri, { monitorCommands: true });
  monitored.on("commandStarted", (event) => {
    if (event.commandName === "find") finds++;
  });
  await monitored.connect();
  database.collections.metrics = monitored.db(testDb.dbName).collection("metrics");
  afterAll(() => monitored.close());
});
afterAll(async () => {
  await database.close();
  await testDb.close();
});

describe("ConfigCache", () => {
  it("shares one read between concurrent misses and serves hits until the TTL ends", async () => {
    let now = 0;
    const cache = new ConfigCache(database.collections, 1000, () => now);
    finds = 0;
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.metricByKey("t", "k")));
    expect([finds, results.every((r) => r === null)]).toEqual([1, true]);
    await database.collections.metrics.insertOne({
      _id: "m",
      tenantId: "t",
      key: "k",
      name: "K",
      unitType: "number",
      units: "",
      created: new Date(),
      updated: new Date(),
    });
    now = 999;
    expect(await cache.metricByKey("t", "k")).toBeNull(); // still cached
    now = 1000;
    expect(await cache.metricByKey("t", "k")).toMatchObject({ id: "m", key: "k" });
    expect(finds).toBe(2);
  });

  it("keeps a bounded number of entries, the least recently used going first", async () => {
    const cache = new ConfigCache(database.collections, 1000, () => 0, 2);
    finds = 0;
    await cache.metricByKey("t", "a");
    await cache.metricByKey("t", "b");
    await cache.metricByKey("t", "a"); // a hit: "b" is now the least recently used
    await cache.metricByKey("t", "c");
    expect(finds).toBe(3);
    await cache.metricByKey("t", "a");
    await cache.metricByKey("t", "c");
    expect(finds).toBe(3); // both kept
    await cache.metricByKey("t", "b");
    expect(finds).toBe(4); // "b" was dropped
  });

  it("forgets everything on invalidate", async () => {
    const cache = new ConfigCache(database.collections, 1000, () => 0);
    finds = 0;
    await cache.metricByKey("t", "k");
    cache.invalidate();
    await cache.metricByKey("t", "k");
    expect(finds).toBe(2);
  });
});
