import { describe, expect, it } from "vitest";
import { validate as isUuid, version as uuidVersion } from "uuid";
import { pauseIdOf, pauseIdsOf } from "./streak-pauses.js";

const CREATED = new Date("2026-03-01T10:00:00Z");

describe("pause IDs", () => {
  it("are name-based UUIDs of the tenant, the user, when the user was created, and the pause's number", () => {
    const id = pauseIdOf("t1", "u1", CREATED, 0);
    expect(isUuid(id) && uuidVersion(id)).toBe(5);
    // The same creation made again (after a crash) gets the same ID.
    expect(pauseIdOf("t1", "u1", CREATED, 0)).toBe(id);
    const others = [
      pauseIdOf("t1", "u1", CREATED, 1),
      pauseIdOf("t2", "u1", CREATED, 0),
      pauseIdOf("t1", "u2", CREATED, 0),
      // A user erased and seen again under the same ID.
      pauseIdOf("t1", "u1", new Date(CREATED.getTime() + 1), 0),
    ];
    expect(new Set([id, ...others]).size).toBe(5);
  });

  it("of a user: every pause created, and the one a creation stopped by a crash may have left; unknown for a state from before", () => {
    expect(pauseIdsOf("t1", { userId: "u1", created: CREATED, pausesCreated: 2 })).toEqual([0, 1, 2].map((n) => pauseIdOf("t1", "u1", CREATED, n)));
    expect(pauseIdsOf("t1", { userId: "u1", created: CREATED, pausesCreated: 0 })).toEqual([pauseIdOf("t1", "u1", CREATED, 0)]);
    expect(pauseIdsOf("t1", { userId: "u1", created: CREATED, pausesCreated: null })).toBeNull();
  });
});
