import { describe, expect, it } from "vitest";
import { createStandingsRegistry, forgetStandings, noteDeleted, noteWritten, standingOf, standingsOfTenant, type UserStanding } from "./tenant-standings.js";

const standing = (total: number, plan?: string): UserStanding => ({ attributes: plan ? { plan } : {}, attributeIds: {}, points: { xp: total } });
const totals = (standings: Iterable<UserStanding>) => [...standings].map((s) => s.points.xp).sort((a, b) => a! - b!);

/** A walk over stored users that stops after `pauseAfter` users until `resume` is called. */
function pausedWalk(users: Array<[string, UserStanding]>, pauseAfter: number) {
  let resume!: () => void;
  const resumed = new Promise<void>((resolve) => (resume = resolve));
  let reads = 0;
  async function* read() {
    reads += 1;
    for (const [i, [userId, s]] of users.entries()) {
      if (i === pauseAfter) await resumed;
      yield { userId, standing: s };
    }
  }
  return { read, resume, reads: () => reads };
}

describe("a tenant's standings", () => {
  it("are what a user's state or stored state holds: attributes and each system's total", () => {
    expect(standingOf({ attributes: { plan: "pro" }, attributeIds: { plan: "a1" }, points: { xp: { total: 5 }, coins: { total: 0 } } })).toEqual({
      attributes: { plan: "pro" },
      attributeIds: { plan: "a1" },
      points: { xp: 5, coins: 0 },
    });
    expect(standingOf({})).toEqual({ attributes: {}, attributeIds: {}, points: {} });
  });

  it("are read once, then kept by the writes they are told of", async () => {
    const registry = createStandingsRegistry();
    const walk = pausedWalk(
      [
        ["a", standing(1)],
        ["b", standing(2)],
      ],
      99,
    );
    expect(totals(await standingsOfTenant(registry, "t", walk.read))).toEqual([1, 2]);
    noteWritten(registry, "t", "a", () => standing(10));
    noteWritten(registry, "t", "c", () => standing(3));
    noteDeleted(registry, "t", "b");
    noteWritten(registry, "other", "x", () => standing(7)); // a tenant never read: nothing kept
    expect(totals(await standingsOfTenant(registry, "t", walk.read))).toEqual([3, 10]);
    expect(walk.reads()).toBe(1);
    expect(registry.tenants.has("other")).toBe(false);
  });

  it("take the writes made while the first read runs over what that read found (they are newer)", async () => {
    const registry = createStandingsRegistry();
    const walk = pausedWalk(
      [
        ["a", standing(1)],
        ["b", standing(2)],
        ["c", standing(3)],
      ],
      1,
    );
    const reading = standingsOfTenant(registry, "t", walk.read);
    const alsoReading = standingsOfTenant(registry, "t", walk.read); // waits for the same read
    noteWritten(registry, "t", "b", () => standing(20)); // the walk reads b's older state after this
    noteDeleted(registry, "t", "c");
    noteWritten(registry, "t", "d", () => standing(4));
    walk.resume();
    expect(totals(await reading)).toEqual([1, 4, 20]);
    expect(totals(await alsoReading)).toEqual([1, 4, 20]);
    expect(walk.reads()).toBe(1);
  });

  it("are kept up to the registry's bound of users in all: a tenant past it is read every time", async () => {
    const registry = createStandingsRegistry(3);
    const small = pausedWalk(
      [
        ["a", standing(1)],
        ["b", standing(2)],
      ],
      99,
    );
    const large = pausedWalk(
      [
        ["x", standing(1)],
        ["y", standing(2)],
      ],
      99,
    );
    await standingsOfTenant(registry, "small", small.read);
    expect(totals(await standingsOfTenant(registry, "large", large.read))).toEqual([1, 2]); // answered, not kept: 4 users > 3
    expect([...registry.tenants.keys()]).toEqual(["small"]);
    await standingsOfTenant(registry, "large", large.read);
    expect(large.reads()).toBe(2);
    noteWritten(registry, "small", "a", () => standing(5)); // a change keeps it
    noteWritten(registry, "small", "c", () => standing(3)); // a third user: 3, within the bound
    expect(registry.tenants.has("small")).toBe(true);
    noteWritten(registry, "small", "d", () => standing(4)); // a fourth: forgotten
    expect(registry.tenants.has("small")).toBe(false);
  });

  it("are read again after they were forgotten or their read failed, and every time without a registry", async () => {
    const registry = createStandingsRegistry();
    let fail = true;
    async function* read() {
      if (fail) throw new Error("database down");
      yield { userId: "a", standing: standing(1) };
    }
    await expect(standingsOfTenant(registry, "t", read)).rejects.toThrow("database down");
    fail = false;
    expect(totals(await standingsOfTenant(registry, "t", read))).toEqual([1]);
    forgetStandings(registry, "t");
    expect(registry.tenants.has("t")).toBe(false);
    const walk = pausedWalk([["a", standing(1)]], 99);
    await standingsOfTenant(undefined, "t", walk.read);
    await standingsOfTenant(undefined, "t", walk.read);
    expect(walk.reads()).toBe(2);
  });
});
