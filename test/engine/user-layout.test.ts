// User documents written by earlier versions read as they were written, and the next write through
// the store packs them (engine/store/user-encoding.ts `packUserFields`), on the real database: the
// layout before fields at their defaults were left out, and the unpacked layout right before packing.
import type { Collection } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserState } from "../../src/engine/domain/user.js";
import { encodeUserState } from "../../src/engine/store/user-encoding.js";
import { readStoredUser, saveUser, userDocument, type UserDocument } from "../../src/engine/store/user-documents.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { richState, storedBeforeDefaultsWereLeftOut } from "../helpers/user-layouts.js";

let database: TestDatabase;
let users: Collection<UserDocument>;
beforeAll(async () => {
  database = await openTestDatabase();
  users = database.db.collection<UserDocument>("users");
});
afterAll(() => database.close());

/** The state after an event that moves the fields a document before defaults were left out held explicitly as derived values. */
function nextOf(before: UserState): UserState {
  const lb = before.leaderboards.lb!;
  return {
    ...before,
    points: { xp: { ...before.points.xp!, metricProgress: { "trg-1": { metricId: "m1", total: "9", highWater: "9" } } } },
    leaderboards: { lb: { ...lb, value: "9", history: [lb.history[0]!, { ...lb.history[1]!, rank: 1, value: "9" }] } },
  };
}

describe.each([
  ["before fields at their defaults were left out", () => storedBeforeDefaultsWereLeftOut()],
  ["before the state was packed", () => encodeUserState(richState())],
])("a user document in the layout %s", (_name, storedFields) => {
  it("reads exactly as written, and after the next write is packed and reads as the new state", async () => {
    const _id = `t1/${_name.length}`;
    const userId = String(_name.length);
    await users.insertOne({ ...storedFields(), userId, _id, tenantId: "t1", version: 3 });
    const read = await readStoredUser(users, "t1", userId);
    expect(read!.state).toEqual({ ...richState(), userId });
    expect(read!.version).toBe(3);
    expect(read!.unpackedFields).toEqual(expect.arrayContaining(["metrics", "points", "leaderboards", "streak"]));

    const next = nextOf(read!.state);
    expect(await saveUser(users, database.db.collection("user_pages"), "t1", read, next, "single-instance")).toBe(true);
    const again = await readStoredUser(users, "t1", userId);
    expect(again!.state).toEqual(next);
    expect(again!.version).toBe(4);
    expect(again!.unpackedFields).toBeUndefined();
    // Exactly the document a new user in that state would have: nothing of the earlier layout is left.
    expect(await users.findOne({ _id })).toEqual({ ...userDocument("t1", next, 4), _id });
  });
});
