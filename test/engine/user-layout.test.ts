// A user document written before fields at their defaults were left out (engine/store/user-encoding.ts)
// reads as it was written, and the next write through the store leaves a document that reads as
// the new state, on the real database.
import type { Collection } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserState } from "../../src/engine/domain/user.js";
import { readStoredUser, saveUser, type UserDocument } from "../../src/engine/store/user-documents.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { richState, storedBeforeDefaultsWereLeftOut } from "../helpers/user-layouts.js";

let database: TestDatabase;
let users: Collection<UserDocument>;
beforeAll(async () => {
  database = await openTestDatabase();
  users = database.db.collection<UserDocument>("users");
});
afterAll(() => database.close());

describe("a user document in the layout before defaults were left out", () => {
  it("reads exactly as written, and after the next write reads as the new state, its explicit derived fields gone", async () => {
    await users.insertOne({ ...storedBeforeDefaultsWereLeftOut(), _id: "t1/u1", tenantId: "t1", version: 3 });
    const read = await readStoredUser(users, "t1", "u1");
    expect(read!.state).toEqual(richState());
    expect(read!.version).toBe(3);
    expect(read!.derivedStored?.sort()).toEqual(["leaderboards.lb.value", "points.xp.metricProgress.trg-1.highWater"]);

    // The fields those followed move on: the stored high-water mark and value must not be read back.
    const before = read!.state;
    const lb = before.leaderboards.lb!;
    const next: UserState = {
      ...before,
      points: { xp: { ...before.points.xp!, metricProgress: { "trg-1": { metricId: "m1", total: "9", highWater: "9" } } } },
      leaderboards: { lb: { ...lb, value: "9", history: [lb.history[0]!, { ...lb.history[1]!, rank: 1, value: "9" }] } },
    };
    expect(await saveUser(users, database.db.collection("user_pages"), "t1", read, next, "single-instance")).toBe(true);
    const again = await readStoredUser(users, "t1", "u1");
    expect(again!.state).toEqual(next);
    expect(again!.derivedStored).toBeUndefined();
    const raw = (await users.findOne({ _id: "t1/u1" })) as any;
    expect(raw.leaderboards.lb).not.toHaveProperty("value");
    expect(raw.points.xp.metricProgress["trg-1"]).toEqual({ metricId: "m1", total: "9" });
    // Explicit defaults that still hold (an empty map, a null) stay and read the same.
    expect(raw.points.xp.timeSettledAt).toEqual({});
  });
});
