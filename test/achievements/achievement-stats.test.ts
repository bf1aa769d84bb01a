import { userIdsOfTenant } from "../../src/engine/store/tenant-users.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserState } from "../../src/engine/domain/user.js";
import { applyStatsChanges, readAchievementStats, statsChanges } from "../../src/features/achievements/store/achievement-stats.js";
import { openDatabase, type Database } from "../../src/engine/store/database.js";
import { KeyedLock } from "../../src/engine/store/keyed-lock.js";
import { storedStatesOfTenant, userDocument } from "../../src/engine/store/user-documents.js";
import { encodeUserState } from "../../src/engine/store/user-encoding.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";

// The counters behind achievement rarity: kept by user writes from the first user on, and counted
// once per tenant in a database that had users before the counters existed.

const T0 = new Date("2026-06-01T12:00:00Z");
const completed = { achievedAt: T0 } as never;
let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await openTestDatabase();
});
afterAll(async () => {
  await testDb.close();
});

describe("achievement counters", () => {
  it("count each write's new users and completions (and a completion taken back)", () => {
    const before = { ...createUserState("u1", T0), achievements: { a1: completed, a2: completed } };
    expect([...statsChanges(null, before)]).toEqual([
      ["users", 1],
      ["a/a1", 1],
      ["a/a2", 1],
    ]);
    expect([...statsChanges(before, { ...before, achievements: { a1: completed, a3: completed } })]).toEqual([
      ["a/a3", 1],
      ["a/a2", -1],
    ]);
    expect(statsChanges(before, before).size).toBe(0);
  });

  it("count a database's earlier users once per tenant, then follow the writes", async () => {
    // Users stored before the counters existed: the start-up baseline says so.
    await testDb.db.collection("users").insertMany([
      // One as versions before packed states stored it, one packed.
      { ...encodeUserState({ ...createUserState("old-1", T0), achievements: { a1: completed } }), _id: "t1/old-1", tenantId: "t1", version: 1 },
      userDocument("t1", { ...createUserState("old-2", T0), achievements: { a1: completed } }),
      userDocument("t1", createUserState("old-3", T0)),
    ] as never[]);
    const database: Database = await openDatabase(testDb.uri, testDb.dbName);
    try {
      const { users, achievementStats } = database.collections;
      const locks = new KeyedLock();
      let counts = 0;
      const countOnce = async () => {
        counts += 1;
        const states = [];
        const userIds = await userIdsOfTenant(database.collections.tenantUsers, users, locks, "t1"); // listed from `users` this once
        for await (const { stored } of storedStatesOfTenant(users, "t1", userIds, ["achievements"])) states.push(stored);
        return { users: states.length, completions: new Map([["a1", states.filter((s) => Object.hasOwn(s.achievements ?? {}, "a1")).length]]) };
      };
      expect(await readAchievementStats(achievementStats, locks, "t1", ["a1"], countOnce)).toEqual({ users: 3, completions: new Map([["a1", 2]]) });
      await applyStatsChanges(achievementStats, locks, "t1", statsChanges(null, { ...createUserState("new", T0), achievements: { a1: completed } }));
      expect(await readAchievementStats(achievementStats, locks, "t1", ["a1"], countOnce)).toEqual({ users: 4, completions: new Map([["a1", 3]]) });
      expect(counts).toBe(1);
    } finally {
      await database.close();
    }
  });
});
