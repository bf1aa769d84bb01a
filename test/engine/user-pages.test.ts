// The older awards of a points system kept in pages of their own (engine/store/list-pages.ts), on
// the real database: the document holds the recent ones, the reads that show more put the pages
// back in front of them, pages no read needs are deleted, and a write a crash stopped between the
// pages and the document leaves nothing a later write or read gets wrong.
import type { Collection } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UserState } from "../../src/engine/domain/user.js";
import { MAX_RECENT_AWARDS, type PointsAward } from "../../src/features/points/domain/points.js";
import { PAGE_SIZE, TAIL_MAX, type UserPageDocument } from "../../src/engine/store/list-pages.js";
import { readStoredUser, saveUser, type UserDocument, type VersionedUser } from "../../src/engine/store/user-documents.js";
import { userPageIds, withPagedItems } from "../../src/engine/store/user-pages.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { richState, trigger } from "../helpers/user-layouts.js";

let database: TestDatabase;
let users: Collection<UserDocument>;
let pages: Collection<UserPageDocument>;
beforeAll(async () => {
  database = await openTestDatabase();
  users = database.db.collection<UserDocument>("users");
  pages = database.db.collection<UserPageDocument>("user_pages");
});
afterAll(() => database.close());

const award = (i: number): PointsAward => ({
  id: `aw-${i}`,
  awarded: 10,
  date: new Date(Date.UTC(2026, 0, 1, 0, i)),
  total: 10 * (i + 1),
  trigger,
  boosts: [],
});

/** The state after `n` awards in system xp, as the points rules keep them (the most recent MAX_RECENT_AWARDS). */
function withAwards(state: UserState, from: number, to: number): UserState {
  const xp = state.points.xp!;
  const added = Array.from({ length: to - from }, (_, i) => award(from + i));
  return { ...state, points: { ...state.points, xp: { ...xp, awards: [...xp.awards, ...added].slice(-MAX_RECENT_AWARDS) } } };
}

const ids = (list: readonly PointsAward[]) => list.map((a) => a.id);
const expected = (to: number) => Array.from({ length: Math.min(to, MAX_RECENT_AWARDS) }, (_, i) => `aw-${to - Math.min(to, MAX_RECENT_AWARDS) + i}`);
const pageCount = async (tenantId: string) => (await pages.find({ tenantId }).toArray()).length;

/** Writes the user's awards one event at a time up to `to`, each write through the store; returns what it read last. */
async function award1by1(tenantId: string, from: number, to: number): Promise<VersionedUser> {
  for (let i = from; i < to; i++) {
    const read = await readStoredUser(users, tenantId, "u1");
    expect(await saveUser(users, pages, tenantId, read, withAwards(read!.state, i, i + 1), "single-instance")).toBe(true);
  }
  return (await readStoredUser(users, tenantId, "u1"))!;
}

describe("a points system's older awards", () => {
  it("move to pages as they age: the document keeps at most TAIL_MAX, the read with pages shows the last MAX_RECENT_AWARDS in order", async () => {
    const start = { ...richState(), points: { xp: { ...richState().points.xp!, awards: [] } } };
    expect(await saveUser(users, pages, "t1", null, start, "single-instance")).toBe(true);
    for (const to of [TAIL_MAX, TAIL_MAX + 1, 3 * PAGE_SIZE + 5, MAX_RECENT_AWARDS, MAX_RECENT_AWARDS + 2 * PAGE_SIZE + 3]) {
      const from = ((await readStoredUser(users, "t1", "u1"))!.pages?.["awards:xp"]?.next ?? 0) * PAGE_SIZE;
      const read = await award1by1("t1", from + (await readStoredUser(users, "t1", "u1"))!.state.points.xp!.awards.length, to);
      expect(read.state.points.xp!.awards.length, `after ${to}`).toBeLessThanOrEqual(TAIL_MAX);
      expect(ids((await withPagedItems(pages, "t1", read)).points.xp!.awards), `after ${to}`).toEqual(expected(to));
    }
    // Pages no read needs are gone: what is left holds fewer than MAX_RECENT_AWARDS + PAGE_SIZE items.
    const read = (await readStoredUser(users, "t1", "u1"))!;
    const range = read.pages!["awards:xp"]!;
    expect(range.first).toBeGreaterThan(0);
    expect(await pageCount("t1")).toBe(range.next - range.first);
    expect((range.next - range.first) * PAGE_SIZE + read.state.points.xp!.awards.length).toBeLessThan(MAX_RECENT_AWARDS + PAGE_SIZE);
  });

  it("in a document written before pages (a hundred in the document) read as they are and move on the next write", async () => {
    const full = withAwards({ ...richState(), userId: "u1", points: { xp: { ...richState().points.xp!, awards: [] } } }, 0, 120);
    const { userDocument } = await import("../../src/engine/store/user-documents.js");
    await users.insertOne(userDocument("t2", full));
    const read = (await readStoredUser(users, "t2", "u1"))!;
    expect(read.pages).toBeUndefined();
    expect(ids(read.state.points.xp!.awards)).toEqual(expected(120));
    const after = await award1by1("t2", 120, 121);
    expect(after.state.points.xp!.awards.length).toBeLessThanOrEqual(TAIL_MAX);
    expect(ids((await withPagedItems(pages, "t2", after)).points.xp!.awards)).toEqual(expected(121));
  });

  it("of a system the state no longer holds are deleted with the next write; an erasure's list of IDs covers every page", async () => {
    await saveUser(
      users,
      pages,
      "t3",
      null,
      withAwards({ ...richState(), points: { xp: { ...richState().points.xp!, awards: [] } } }, 0, 0),
      "single-instance",
    );
    const read = await award1by1("t3", 0, 70);
    expect(await pageCount("t3")).toBeGreaterThan(0);
    const stored = await pages.find({ tenantId: "t3" }).toArray();
    expect(userPageIds("t3", read)).toEqual(expect.arrayContaining(stored.map((p) => p._id)));
    const { xp: _dropped, ...others } = read.state.points;
    expect(await saveUser(users, pages, "t3", read, { ...read.state, points: others }, "single-instance")).toBe(true);
    expect(await pageCount("t3")).toBe(0);
    expect((await readStoredUser(users, "t3", "u1"))!.pages).toBeUndefined();
  });

  it("survive a crash between the pages and the document: the next write from the same state writes the same pages", async () => {
    await saveUser(
      users,
      pages,
      "t4",
      null,
      withAwards({ ...richState(), points: { xp: { ...richState().points.xp!, awards: [] } } }, 0, TAIL_MAX),
      "single-instance",
    );
    const read = (await readStoredUser(users, "t4", "u1"))!;
    // A first attempt writes its page and dies before the document (here: the document write is refused).
    const failing = { ...users, updateOne: () => Promise.reject(new Error("crash")) } as unknown as Collection<UserDocument>;
    await expect(saveUser(failing, pages, "t4", read, withAwards(read.state, TAIL_MAX, TAIL_MAX + 1), "single-instance")).rejects.toThrow("crash");
    expect(await pageCount("t4")).toBe(1);
    expect((await readStoredUser(users, "t4", "u1"))!.pages).toBeUndefined();
    // The retry (another event) writes the same page again, and the whole list reads right.
    expect(await saveUser(users, pages, "t4", read, withAwards(read.state, TAIL_MAX, TAIL_MAX + 2), "single-instance")).toBe(true);
    const after = (await readStoredUser(users, "t4", "u1"))!;
    expect(await pageCount("t4")).toBe(1);
    expect(ids((await withPagedItems(pages, "t4", after)).points.xp!.awards)).toEqual(expected(TAIL_MAX + 2));
  });
});

describe("two instances writing the same user at once (versioned mode)", () => {
  it("the loser of the version race wrote the same pages as the winner; its retry from the winner's state reads right", async () => {
    await saveUser(
      users,
      pages,
      "t6",
      null,
      withAwards({ ...richState(), points: { xp: { ...richState().points.xp!, awards: [] } } }, 0, TAIL_MAX),
      "versioned",
    );
    const read = (await readStoredUser(users, "t6", "u1"))!;
    // Both add an award to the same stored state, so both cut page 0 from it.
    const winner = withAwards(read.state, TAIL_MAX, TAIL_MAX + 1);
    const loser = { ...read.state, points: { xp: { ...read.state.points.xp!, awards: [...read.state.points.xp!.awards, award(900)] } } };
    expect(await saveUser(users, pages, "t6", read, winner, "versioned")).toBe(true);
    expect(await saveUser(users, pages, "t6", read, loser, "versioned")).toBe(false);
    const again = (await readStoredUser(users, "t6", "u1"))!;
    expect(ids((await withPagedItems(pages, "t6", again)).points.xp!.awards)).toEqual(expected(TAIL_MAX + 1));
    expect(await saveUser(users, pages, "t6", again, withAwards(again.state, TAIL_MAX + 1, TAIL_MAX + 2), "versioned")).toBe(true);
    const last = (await readStoredUser(users, "t6", "u1"))!;
    expect(ids((await withPagedItems(pages, "t6", last)).points.xp!.awards)).toEqual(expected(TAIL_MAX + 2));
    expect(await pageCount("t6")).toBe(1);
  });
});

describe("a leaderboard's older rank history", () => {
  const item = (i: number) => ({ run: "2026-01-01", date: day(i), previousRank: null, rank: 1, previousValue: null, value: String(i) });
  const day = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  const withItems = (state: UserState, from: number, to: number): UserState => {
    const entry = state.leaderboards.lb!;
    const added = Array.from({ length: to - from }, (_, i) => item(from + i));
    return { ...state, leaderboards: { lb: { ...entry, value: String(to - 1), history: [...entry.history, ...added].slice(-100) } } };
  };

  it("moves to pages like awards, and pages entirely older than the retention's oldest date go", async () => {
    const start: UserState = { ...richState(), leaderboards: { lb: { ...richState().leaderboards.lb!, history: [] } } };
    expect(await saveUser(users, pages, "t5", null, start, "single-instance")).toBe(true);
    for (let i = 0; i < 60; i++) {
      const read = (await readStoredUser(users, "t5", "u1"))!;
      expect(await saveUser(users, pages, "t5", read, withItems(read.state, i, i + 1), "single-instance")).toBe(true);
    }
    let read = (await readStoredUser(users, "t5", "u1"))!;
    expect(read.state.leaderboards.lb!.history.length).toBeLessThanOrEqual(TAIL_MAX);
    expect(read.pages!["history:lb"]).toEqual({ first: 0, next: 2, newest: [day(15), day(31)] });
    expect((await withPagedItems(pages, "t5", read)).leaderboards.lb!.history.map((h) => h.date)).toEqual(Array.from({ length: 60 }, (_, i) => day(i)));

    // Kept from day 16 on: page 0 (days 0-15) goes with the next write, page 1 (days 16-31) stays.
    expect(await saveUser(users, pages, "t5", read, withItems(read.state, 60, 61), "single-instance", day(16))).toBe(true);
    read = (await readStoredUser(users, "t5", "u1"))!;
    expect(read.pages!["history:lb"]).toEqual({ first: 1, next: 2, newest: [day(31)] });
    expect(await pageCount("t5")).toBe(1);
  });
});
