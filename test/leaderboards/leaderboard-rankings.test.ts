import { MongoClient, type Collection } from "mongodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  applyIndexPatch,
  chunkDocuments,
  indexesOfLines,
  packIndex,
  rankLine,
  rankWithin,
  unpackIndex,
  userLine,
  type Standing,
} from "../../src/features/leaderboards/domain/leaderboard-ranking.js";
import {
  createLeaderboardRankings,
  leaderboardRankingsFilter,
  rankingCollections,
  scopeKey,
  type ChunkDocument,
  type EntryChange,
  type LeaderboardRankings,
  type RankingCollections,
  type RankingDocument,
  type RankingScope,
  versionOfRoot,
} from "../../src/features/leaderboards/store/leaderboard-rankings.js";
import { linesOfContent, unpackLines } from "../../src/features/leaderboards/store/chunk-content.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { seededRandom } from "../helpers/seeded-random.js";
import { onStoppedClock } from "../helpers/stopped-clock.js";

const T0 = Date.parse("2026-01-05T00:00:00Z");
const TENANT = "6c0f1c4e-0000-4000-8000-000000000001";
let scopes = 0;
/** A fresh scope (its own leaderboard) per test. */
const newScope = (over: Partial<RankingScope> = {}): RankingScope => ({
  tenantId: TENANT,
  leaderboardId: `lb-${++scopes}`,
  run: "2026-01-05",
  group: "",
  ...over,
});

/**
 * The brute-force ranking: every participant's standing, sorted on demand by the documented rule
 * (higher value, earlier time reaching it, user ID). Values here are small decimals, exact as numbers.
 */
class BruteForce {
  readonly standings = new Map<string, Standing>();

  apply(userId: string, value: string | null, at: Date): { previousPosition: number | null; position: number | null; previousValue: string | null } {
    const before = this.standings.get(userId);
    const previousPosition = before ? this.positionOf(userId) : null;
    if (value === null) this.standings.delete(userId);
    else if (!before || Number(before.value) !== Number(value)) this.standings.set(userId, { userId, value, reachedAt: at });
    return { previousPosition, position: value === null ? null : this.positionOf(userId), previousValue: before ? String(Number(before.value)) : null };
  }

  positionOf(userId: string): number {
    const me = this.standings.get(userId)!;
    let above = 0;
    for (const other of this.standings.values()) if (BruteForce.compare(other, me) < 0) above++;
    return above + 1;
  }

  sorted(): Standing[] {
    return [...this.standings.values()].sort((a, b) => BruteForce.compare(a, b));
  }

  static compare(a: Standing, b: Standing): number {
    return Number(b.value) - Number(a.value) || a.reachedAt.getTime() - b.reachedAt.getTime() || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);
  }
}

/**
 * Timing for tests of superseded roots' expiry. Retention is measured on the process clock (`Date`,
 * roots' `createdAt`), which `onStoppedClock` stops and moves on only when the test says so; an
 * attempt's duration is measured with `performance.now()`, in real time, so attempts get the default
 * 20 s, far more than any attempt takes on a slow machine.
 */
const STOPPED_CLOCK_TIMING = { retainMs: 20_000, attemptMs: 20_000 };
/** Moving the stopped clock on this much expires every root superseded before. */
const PAST_RETENTION_MS = 30_000;

const view = (s: Standing) => ({ userId: s.userId, value: String(Number(s.value)), reachedAt: s.reachedAt.getTime() });

describe("leaderboard rankings on the database", () => {
  let database: TestDatabase;
  let collections: RankingCollections;

  beforeAll(async () => {
    database = await openTestDatabase();
    collections = rankingCollections(database.db);
  });

  afterAll(async () => {
    await database?.close();
  });

  /**
   * The chunk IDs a root's indexes name, and the documents holding its index (the base of a patched
   * index: none when the root lists its indexes whole).
   */
  async function rootIndexes(root: RankingDocument): Promise<{ ids: string[]; indexDocs: string[] }> {
    if (root.index === undefined) return { ids: [...unpackIndex(root.rank!).ids, ...unpackIndex(root.users!).ids], indexDocs: [] };
    const base = await collections.rankChunks.findOne({ _id: root.index });
    const lines = applyIndexPatch(linesOfContent(base!), unpackLines(root.indexPatch));
    const { rank, users } = indexesOfLines(lines);
    return { ids: [...rank.ids, ...users.ids], indexDocs: [root.index] };
  }
  const hasIndexes = (root: RankingDocument) => root.rank !== undefined || root.index !== undefined;

  /**
   * Every chunk stored for a scope's leaderboard is named by its latest root, or was freed by a
   * root still stored (deleted with the root before it).
   */
  async function expectNoLostChunks(scope: RankingScope): Promise<void> {
    const key = scopeKey(scope);
    const roots = (await collections.rankings.find(leaderboardRankingsFilter(scope.tenantId, scope.leaderboardId)).toArray()).filter((r) =>
      r._id.endsWith(`:${key}`),
    );
    const latest = roots.filter((r) => r._id.startsWith("r")).sort((a, b) => versionOfRoot(b) - versionOfRoot(a))[0]!;
    expect(hasIndexes(latest)).toBe(true);
    expect(latest._id).toBe(`r${versionOfRoot(latest)}:${key}`);
    // A patched chunk (`base~patch`) is two documents; a patched index names its base.
    const indexes = await rootIndexes(latest);
    const named = new Set([...indexes.ids.flatMap(chunkDocuments), ...indexes.indexDocs]);
    const garbage = new Set(roots.flatMap((r) => `${r.freed ?? ""} ${r.garbage ?? ""}`.split(" ")).filter(Boolean));
    const stored = [
      ...(await collections.rankChunks.find({ leaderboardId: scope.leaderboardId }, { projection: { _id: 1 } }).toArray()),
      ...(await collections.userChunks.find({ leaderboardId: scope.leaderboardId }, { projection: { _id: 1 } }).toArray()),
    ].map((d) => d._id);
    for (const id of named) expect(stored).toContain(id);
    for (const id of stored) expect(named.has(id) || garbage.has(id)).toBe(true);
  }

  it.each([
    ["shared by several writers", false],
    ["written by this process alone (cached roots, single-instance mode)", true],
  ])(
    "is exact against a brute-force ranking, %s: thousands of entries with ties, moving up and down, leaving, pages and thresholds",
    async (_mode, exclusive) => {
      const scope = newScope();
      // Small chunks, so 2,500 participants make hundreds of chunks that split and merge all the time.
      const store = createLeaderboardRankings(collections, { limits: { max: 24, min: 6 }, garbageBatch: 16, exclusive, cachedChunks: 64 });
      const truth = new BruteForce();
      const next = seededRandom(7);
      const users = Array.from({ length: 2500 }, (_, i) => `user-${i}`);
      let clock = T0;
      for (let wave = 0; wave < 24; wave++) {
        // 250 writes at once; half of each wave shares one instant, so equal values tie on time too.
        const ops = Array.from({ length: 250 }, (_, i) => {
          const userId = users[Math.floor(next() * (wave < 8 ? users.length : 600))]!; // later waves revisit the same users
          const remove = wave >= 4 && next() < 0.08;
          const value = remove ? null : String(Math.floor(next() * 40) - 5 + (next() < 0.2 ? 0.5 : 0));
          const at = new Date(i % 2 === 0 ? clock : clock + i);
          return { userId, value, at };
        });
        clock += 1000;
        const results = await Promise.all(
          ops.map((op) =>
            op.value === null
              ? store.removeEntry(scope, op.userId, { maxParticipants: 100 })
              : store.upsertEntry(scope, op.userId, op.value, op.at, { maxParticipants: 100 }),
          ),
        );
        ops.forEach((op, i) => {
          const expected = truth.apply(op.userId, op.value, op.at);
          const got: EntryChange = results[i]!;
          expect({ user: op.userId, previousPosition: got.previousPosition, position: got.position, previousValue: got.previousValue }).toEqual({
            user: op.userId,
            previousPosition: expected.previousPosition,
            position: expected.position,
            previousValue: expected.previousValue,
          });
          expect(got.rank).toBe(rankWithin(expected.position, 100));
          expect(got.previousRank).toBe(rankWithin(expected.previousPosition, 100));
        });
        const sorted = truth.sorted();
        expect(results.at(-1)!.participants).toBe(sorted.length);
        expect(results.at(-1)!.threshold ?? null).toBe(sorted.length >= 100 ? String(Number(sorted[99]!.value)) : null);

        // Reads: some users' ranks, the top page, a page in the middle, thresholds.
        for (let k = 0; k < 20; k++) {
          const userId = users[Math.floor(next() * 600)]!;
          const standing = await store.rankOf(scope, userId);
          if (!truth.standings.has(userId)) expect(standing).toBeNull();
          else
            expect({ ...view(standing!), position: standing!.position }).toEqual({ ...view(truth.standings.get(userId)!), position: truth.positionOf(userId) });
        }
        const top = await store.page(scope, 0, 100);
        expect(top.participants).toBe(sorted.length);
        expect(top.entries.map((e) => ({ ...view(e), position: e.position }))).toEqual(sorted.slice(0, 100).map((s, i) => ({ ...view(s), position: i + 1 })));
        const offset = Math.floor(next() * sorted.length);
        const middle = await store.page(scope, offset, 37);
        expect(middle.entries.map(view)).toEqual(sorted.slice(offset, offset + 37).map(view));
        expect(await store.threshold(scope, 1000)).toBe(sorted.length >= 1000 ? String(Number(sorted[999]!.value)) : null);
      }
      const all = await store.page(scope, 0, 10_000);
      expect(all.entries.map(view)).toEqual(truth.sorted().map(view));
      expect(await store.participants(scope)).toBe(truth.standings.size);
      await expectNoLostChunks(scope);
    },
    240_000,
  );

  it("two instances writing at once lose nothing: every participant and every count is there", async () => {
    const scope = newScope();
    const otherClient = await new MongoClient(database.uri).connect();
    try {
      const a = createLeaderboardRankings(collections, { limits: { max: 16, min: 4 } });
      const b = createLeaderboardRankings(rankingCollections(otherClient.db(database.dbName)), { limits: { max: 16, min: 4 } });
      const truth = new BruteForce();
      // One write at a time per instance (nothing to group), both instances at once: they race for
      // every version and the losers apply their write again.
      const writer = async (store: LeaderboardRankings, name: string) => {
        for (let i = 0; i < 60; i++) {
          const value = String((i * 7) % 23);
          await store.upsertEntry(scope, `${name}-${i % 45}`, value, new Date(T0 + i));
        }
      };
      // And many writes at once per instance (grouped commits racing each other).
      const burst = (store: LeaderboardRankings, name: string) =>
        Promise.all(Array.from({ length: 150 }, (_, i) => store.upsertEntry(scope, `${name}-burst-${i}`, String(i % 11), new Date(T0 + 1000))));
      await Promise.all([writer(a, "a"), writer(b, "b"), burst(a, "a"), burst(b, "b")]);
      for (const name of ["a", "b"]) {
        for (let i = 0; i < 60; i++) truth.apply(`${name}-${i % 45}`, String((i * 7) % 23), new Date(T0 + i));
        for (let i = 0; i < 150; i++) truth.apply(`${name}-burst-${i}`, String(i % 11), new Date(T0 + 1000));
      }
      expect(await a.participants(scope)).toBe(2 * 45 + 2 * 150);
      expect((await b.page(scope, 0, 1000)).entries.map(view)).toEqual(truth.sorted().map(view));
      for (const userId of ["a-3", "b-44", "a-burst-149", "b-burst-0"]) expect((await b.rankOf(scope, userId))!.position).toBe(truth.positionOf(userId));
      await expectNoLostChunks(scope);
    } finally {
      await otherClient.close();
    }
  }, 120_000);

  it("a reader that sees a root stripped and its successor not yet committed reads again", async () => {
    const scope = newScope();
    const writer = createLeaderboardRankings(collections);
    await writer.upsertEntry(scope, "u1", 1, new Date(T0));
    await writer.upsertEntry(scope, "u2", 2, new Date(T0)); // root 1 is now a tombstone, root 2 the latest
    const key = scopeKey(scope);
    await collections.rankings.updateOne({ _id: `h:${key}` }, { $set: { version: 1 } }); // a head one behind
    // The reader's read of root 2 runs just before its commit: the first time it finds nothing.
    let hidden = false;
    const rankings = new Proxy(collections.rankings, {
      get(target, property, receiver) {
        if (property !== "findOne") return Reflect.get(target, property, receiver);
        return (filter: { _id?: string }, ...rest: unknown[]) => {
          if (!hidden && filter._id === `r2:${key}`) return ((hidden = true), Promise.resolve(null));
          return (target.findOne as (...args: unknown[]) => unknown).call(target, filter, ...rest);
        };
      },
    });
    const reader = createLeaderboardRankings({ ...collections, rankings });
    expect((await reader.page(scope, 0, 10)).entries.map((e) => e.userId)).toEqual(["u2", "u1"]);
    expect(hidden).toBe(true);
  });

  it("a writer slower than the attempt limit starts again instead of forking the ranking", async () => {
    const scope = newScope();
    const otherClient = await new MongoClient(database.uri).connect();
    // An attempt's duration (`performance.now()`) runs in real time, plus what the test adds for a stall.
    const realNow = performance.now.bind(performance);
    let stalledMs = 0;
    const attemptClock = vi.spyOn(performance, "now").mockImplementation(() => realNow() + stalledMs);
    try {
      // Versions are deleted one at a time once their successor is older than retainMs; attempts may take attemptMs.
      const timing = { garbageBatch: 1, ...STOPPED_CLOCK_TIMING };
      const a = createLeaderboardRankings(collections, timing);
      const other = rankingCollections(otherClient.db(database.dbName));
      // Instance b stalls (a pause, a slow network) on its first chunk insert, after reading the root
      // and the chunks it changes, until the test lets it go on: a stall longer than attemptMs.
      let stalls = 1;
      let stalled!: () => void;
      let release!: () => void;
      const isStalled = new Promise<void>((resolve) => (stalled = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const rankChunks = new Proxy(other.rankChunks, {
        get(target, property, receiver) {
          if (property === "insertMany") {
            return async (...args: Parameters<typeof target.insertMany>) => {
              if (stalls-- > 0) {
                stalled();
                await released;
                stalledMs += timing.attemptMs + 1;
              }
              return target.insertMany(...args);
            };
          }
          const value = Reflect.get(target, property, receiver) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const b = createLeaderboardRankings({ ...other, rankChunks }, timing);
      await onStoppedClock(async (moveOn) => {
        await a.upsertEntry(scope, "a0", 1, new Date(T0));
        const slow = b.upsertEntry(scope, "b", 50, new Date(T0));
        await isStalled; // b read version 1: it would commit version 2
        // Meanwhile instance a commits version after version, and deletes the replaced ones.
        for (let i = 1; i <= 12; i++) {
          await a.upsertEntry(scope, `a${i}`, i + 1, new Date(T0 + i));
          moveOn(PAST_RETENTION_MS); // the version this commit replaced expires
        }
        // Version 2 is gone: only the attempt limit keeps b from committing a version 2 of its own.
        expect(await collections.rankings.findOne({ _id: `r2:${scopeKey(scope)}` })).toBeNull();
        release();
        expect(await slow).toMatchObject({ changed: true, position: 1 });
      });
      const page = await a.page(scope, 0, 100);
      expect(page.participants).toBe(14);
      expect(page.entries.map((e) => e.userId)).toEqual(["b", ...Array.from({ length: 13 }, (_, i) => `a${12 - i}`)]);
      await expectNoLostChunks(scope);
    } finally {
      attemptClock.mockRestore();
      await otherClient.close();
    }
  });

  it("keeps the time a value was reached when a write repeats it, and writes nothing", async () => {
    const scope = newScope();
    const store = createLeaderboardRankings(collections);
    const first = await store.upsertEntry(scope, "u1", 10, new Date(T0));
    expect(first).toMatchObject({ changed: true, previousPosition: null, position: 1, value: "10", reachedAt: new Date(T0), participants: 1 });
    const head = async () => (await collections.rankings.findOne({ _id: `h:${scopeKey(scope)}` }))!.version;
    const version = await head();
    // A retry after a crash, or a later event that leaves the value as it was.
    const again = await store.upsertEntry(scope, "u1", "10.0", new Date(T0 + 5000));
    expect(again).toMatchObject({ changed: false, previousPosition: 1, position: 1, previousValue: "10", value: "10", reachedAt: new Date(T0) });
    expect(await head()).toBe(version);
    // u2 reaches 10 later: behind u1.
    expect(await store.upsertEntry(scope, "u2", 10, new Date(T0 + 1000))).toMatchObject({ position: 2 });
    // u1 goes up and comes back to 10: it reached 10 again later than u2 did, so it is behind now.
    await store.upsertEntry(scope, "u1", 11, new Date(T0 + 2000));
    expect(await store.upsertEntry(scope, "u1", 10, new Date(T0 + 3000))).toMatchObject({ previousPosition: 1, position: 2 });
  });

  it("ranks only maxParticipants: a newcomer must beat the lowest ranked value to enter", async () => {
    const scope = newScope();
    const store = createLeaderboardRankings(collections);
    const max = { maxParticipants: 3 };
    await store.upsertEntry(scope, "a", 30, new Date(T0), max);
    await store.upsertEntry(scope, "b", 20, new Date(T0 + 1), max);
    expect(await store.upsertEntry(scope, "c", 10, new Date(T0 + 2), max)).toMatchObject({ rank: 3, threshold: "10" });
    expect(await store.threshold(scope, 3)).toBe("10");
    expect(await store.threshold(scope, 4)).toBeNull(); // room for a fourth: any value enters
    // Equal to the lowest ranked value, but reached later: 4th, not ranked.
    expect(await store.upsertEntry(scope, "d", 10, new Date(T0 + 3), max)).toMatchObject({ position: 4, rank: null, threshold: "10" });
    // Beating it: 3rd, and c drops out of the ranked places.
    expect(await store.upsertEntry(scope, "d", 11, new Date(T0 + 4), max)).toMatchObject({ previousRank: null, rank: 3, threshold: "11" });
    expect(rankWithin((await store.rankOf(scope, "c"))!.position, 3)).toBeNull();
    // A ranked value falls: c, ordered all along, is ranked again.
    expect(await store.upsertEntry(scope, "a", 1, new Date(T0 + 5), max)).toMatchObject({ previousRank: 1, rank: null, threshold: "10" });
    expect((await store.rankOf(scope, "c"))!.position).toBe(3);
  });

  it("keeps runs and breakdown groups apart", async () => {
    const store = createLeaderboardRankings(collections);
    const base = newScope();
    const london = { ...base, group: '["London"]' };
    const paris = { ...base, group: '["Paris"]' };
    const nextRun = { ...london, run: "2026-01-12" };
    await Promise.all([
      store.upsertEntry(london, "a", 5, new Date(T0)),
      store.upsertEntry(london, "b", 9, new Date(T0)),
      store.upsertEntry(paris, "c", 1, new Date(T0)),
      store.upsertEntry(nextRun, "a", 2, new Date(T0)),
    ]);
    expect((await store.page(london, 0, 10)).entries.map((e) => [e.userId, e.position])).toEqual([
      ["b", 1],
      ["a", 2],
    ]);
    expect((await store.rankOf(paris, "c"))!.position).toBe(1);
    expect(await store.rankOf(paris, "a")).toBeNull();
    expect(await store.rankOf(nextRun, "a")).toMatchObject({ position: 1, value: "2" });
  });

  it("removes participants; removing a non-participant changes nothing", async () => {
    const scope = newScope();
    const store = createLeaderboardRankings(collections);
    for (const [u, v] of [
      ["a", 3],
      ["b", 2],
      ["c", 1],
    ] as const)
      await store.upsertEntry(scope, u, v, new Date(T0));
    expect(await store.removeEntry(scope, "a")).toMatchObject({
      changed: true,
      previousPosition: 1,
      position: null,
      previousValue: "3",
      value: null,
      participants: 2,
    });
    expect((await store.rankOf(scope, "c"))!.position).toBe(2);
    expect(await store.removeEntry(scope, "nobody")).toMatchObject({ changed: false, previousPosition: null, participants: 2 });
    await store.removeEntry(scope, "b");
    await store.removeEntry(scope, "c");
    expect(await store.page(scope, 0, 10)).toEqual({ participants: 0, entries: [] });
    expect(await store.rankOf(scope, "c")).toBeNull();
  });

  it("stores any user ID and exact decimals", async () => {
    const scope = newScope();
    const store = createLeaderboardRankings(collections);
    const odd = ["line\nbreak", "\x00nul", "tab\there", "é😀", "a b", "\x0bvt", "x".repeat(255)];
    const values = ["0.1", "-2.5", "123456789012345678901234567890.123", "0", "1e-20", "-0.000001", "7"];
    await Promise.all(odd.map((u, i) => store.upsertEntry(scope, u, values[i]!, new Date(T0 + i))));
    const page = await store.page(scope, 0, 10);
    const expected = odd.map((u, i) => ({ userId: u, value: values[i]! })).sort((a, b) => Number(b.value) - Number(a.value));
    expect(page.entries.map((e) => e.userId)).toEqual(expected.map((e) => e.userId));
    expect(page.entries.find((e) => e.userId === odd[2])!.value).toBe("123456789012345678901234567890.123");
    expect(page.entries.find((e) => e.userId === odd[4])!.value).toBe("0.00000000000000000001");
    for (const u of odd) expect((await store.rankOf(scope, u))!.userId).toBe(u);
    await expect(store.upsertEntry(scope, "u", Number.NaN, new Date(T0))).rejects.toThrow(RangeError);
    await expect(store.upsertEntry(scope, "u", "1e600", new Date(T0))).rejects.toThrow(RangeError);
  });

  it("readers and writers find the latest version when the head lags behind (a writer crashed before moving it)", async () => {
    const scope = newScope();
    const store = createLeaderboardRankings(collections);
    for (let i = 0; i < 5; i++) await store.upsertEntry(scope, `u${i}`, i, new Date(T0));
    const headId = `h:${scopeKey(scope)}`;
    const latest = (await collections.rankings.findOne({ _id: headId }))!.version!;
    // The head two versions behind (both those roots already deleted), or gone altogether.
    await collections.rankings.updateOne({ _id: headId }, { $set: { version: latest - 2 } });
    expect((await store.rankOf(scope, "u4"))!.position).toBe(1);
    expect(await store.upsertEntry(scope, "u9", 9, new Date(T0))).toMatchObject({ position: 1, participants: 6 });
    expect((await collections.rankings.findOne({ _id: headId }))!.version).toBe(latest + 1); // the commit moved it on
    // Far behind: every root it names is gone; readers look further ahead.
    await collections.rankings.updateOne({ _id: headId }, { $set: { version: 1 } });
    expect((await store.page(scope, 0, 10)).entries.map((e) => e.userId)).toEqual(["u9", "u4", "u3", "u2", "u1", "u0"]);
  });

  it("leaves the ranking untouched when a writer dies before its commit", async () => {
    const scope = newScope();
    const store = createLeaderboardRankings(collections);
    await store.upsertEntry(scope, "a", 1, new Date(T0));
    // What a writer that died after writing its chunks, before inserting the root, leaves behind.
    await collections.rankChunks.insertOne({ _id: "Rorphan", tenantId: TENANT, leaderboardId: scope.leaderboardId, lines: "garbage" });
    expect((await store.page(scope, 0, 10)).entries.map((e) => e.userId)).toEqual(["a"]);
    expect(await store.upsertEntry(scope, "b", 2, new Date(T0))).toMatchObject({ position: 1, participants: 2 });
  });

  it("bulk-loaded rankings are the same data: reads and writes continue on them", async () => {
    const scope = newScope();
    const store = createLeaderboardRankings(collections, { limits: { max: 40, min: 10 } });
    const truth = new BruteForce();
    const next = seededRandom(9);
    const standings = Array.from({ length: 700 }, (_, i): Standing => ({
      userId: `u${i}`,
      value: String(Math.floor(next() * 50)),
      reachedAt: new Date(T0 + Math.floor(next() * 5)),
    }));
    for (const s of standings) truth.apply(s.userId, s.value, s.reachedAt);
    await store.bulkLoad(scope, standings);
    await expect(store.bulkLoad(scope, standings)).rejects.toThrow(/empty/);
    expect((await store.page(scope, 0, 1000)).entries.map(view)).toEqual(truth.sorted().map(view));
    const writes = Array.from({ length: 100 }, (_, i) => ({
      userId: `u${Math.floor(next() * 800)}`,
      value: String(Math.floor(next() * 50)),
      at: new Date(T0 + 10 + i),
    }));
    const results = await Promise.all(writes.map((w) => store.upsertEntry(scope, w.userId, w.value, w.at)));
    writes.forEach((w, i) => expect(results[i]!.position).toBe(truth.apply(w.userId, w.value, w.at).position));
    expect((await store.page(scope, 0, 1000)).entries.map(view)).toEqual(truth.sorted().map(view));
    await expectNoLostChunks(scope);
  });

  it("a write stores the lines it changed as a small patch on a patched chunk, a large patch on its base, or whole, as the limits allow", async () => {
    const scope = newScope();
    // Chunks of 250 to 1,000 lines (the default); large patches up to 62 lines, small ones up to 15.
    const store = createLeaderboardRankings(collections, { patchMax: 62, smallPatchMax: 15 });
    await store.bulkLoad(
      scope,
      Array.from({ length: 2000 }, (_, i): Standing => ({ userId: `u${i}`, value: String(i), reachedAt: new Date(T0) })),
    );
    const storedLines = async () => {
      // The rank lines each document holds (a rank chunk, or a commit's patch document, whose user
      // section is left out: user lines start with the user ID); index bases ("r\x01…") hold none.
      const rankLines = (lines: string[]) => lines.filter((line) => /^\+?[123]/.test(line)).length;
      const docs = (await collections.rankChunks.find({ leaderboardId: scope.leaderboardId }).toArray()).map((d) => ({
        _id: d._id,
        lines: rankLines(linesOfContent(d)),
      }));
      return new Map(docs.filter((d) => d.lines > 0).map((d) => [d._id, d.lines]));
    };
    let before = await storedLines();
    const written: number[] = []; // lines of the rank document each commit inserted
    for (let i = 0; i < 70; i++) {
      // Newcomers at the top: every one lands in the first chunk.
      expect(await store.upsertEntry(scope, `new${i}`, 10_000 + i, new Date(T0))).toMatchObject({ position: 1, participants: 2001 + i });
      const after = await storedLines();
      const inserted = [...after].filter(([id]) => !before.has(id));
      expect(inserted).toHaveLength(1);
      written.push(inserted[0]![1]);
      before = after;
    }
    // The first newcomer: a large patch of one line on the bulk-loaded base. Then small patches on
    // that patched chunk of 1, 2, ... 15 lines (each holds every line added since it); the 17th
    // newcomer's small patch would hold 16: a large patch on the base, of all 17 lines, instead;
    // and so on until a large patch would pass 62 lines: the 65th newcomer writes the chunk whole
    // (its 750 lines and the 65 new ones), and patches start again on it.
    const smalls = Array.from({ length: 15 }, (_, i) => i + 1);
    expect(written).toEqual([1, ...smalls, 17, ...smalls, 33, ...smalls, 49, ...smalls, 815, 1, 1, 2, 3, 4]);
    const top = (await store.page(scope, 0, 71)).entries.map((e) => e.userId);
    expect(top).toEqual([...Array.from({ length: 70 }, (_, i) => `new${69 - i}`), "u1999"]);
    expect(await store.rankOf(scope, "u0")).toMatchObject({ position: 2070 });
    await expectNoLostChunks(scope);
  });

  it("a commit stores the root's index as a patch on a base, written whole again when the patch outgrows its limit", async () => {
    const scope = newScope();
    const store = createLeaderboardRankings(collections, { indexPatchMax: 6 });
    await store.bulkLoad(
      scope,
      Array.from({ length: 3000 }, (_, i): Standing => ({ userId: `u${String(i).padStart(4, "0")}`, value: String(i), reachedAt: new Date(T0) })),
    );
    const latestRoot = async () =>
      (await collections.rankings.find(leaderboardRankingsFilter(scope.tenantId, scope.leaderboardId)).toArray())
        .filter((d) => d._id.startsWith("r"))
        .sort((a, b) => versionOfRoot(b) - versionOfRoot(a))[0]!;
    expect((await latestRoot()).rank).toBeDefined(); // a bulk load lists the indexes whole
    const roots: RankingDocument[] = [];
    // Newcomers at the top: each commit edits the first rank chunk and one user chunk, so the patch
    // holds those two entries (one line each: the entry as it is now) whatever the number of commits.
    for (let i = 0; i < 5; i++) {
      await store.upsertEntry(scope, `new${i}`, 10_000 + i, new Date(T0));
      roots.push(await latestRoot());
    }
    expect(roots.map((r) => r.rank)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    const base = roots[0]!.index!;
    expect(roots.map((r) => r.index)).toEqual([base, base, base, base, base]);
    const patchLines = (root: RankingDocument) => unpackLines(root.indexPatch).length;
    expect(roots.map(patchLines)).toEqual([0, 2, 2, 2, 2]);
    // Users in other chunks move: the patch grows by their entries (never past the limit), and the
    // base is written anew (an empty patch) when it would.
    let bases = 1;
    for (const [i, user] of ["u0500", "u1000", "u1500", "u2000", "u2500"].entries()) {
      const before = roots.at(-1)!;
      await store.upsertEntry(scope, user, 20_000 + i, new Date(T0));
      const root = await latestRoot();
      roots.push(root);
      if (root.index === before.index) expect(patchLines(root)).toBeGreaterThanOrEqual(patchLines(before));
      else {
        bases++;
        expect(root.indexPatch).toBe("");
      }
      expect(patchLines(root)).toBeLessThanOrEqual(6);
    }
    expect(bases).toBeGreaterThan(1);
    const top = ["u2500", "u2000", "u1500", "u1000", "u0500", "new4"];
    expect((await store.page(scope, 0, 6)).entries.map((e) => e.userId)).toEqual(top);
    expect(await store.rankOf(scope, "u0000")).toMatchObject({ position: 3005 });
    // A reader in another process reads the patched index from the database.
    const reader = createLeaderboardRankings(collections);
    expect((await reader.page(scope, 0, 6)).entries.map((e) => e.userId)).toEqual(top);
    await expectNoLostChunks(scope);
  });

  it("a rank read reads a commit's patch document once for the chunks of both lists it patches", async () => {
    const scope = newScope();
    const writer = createLeaderboardRankings(collections, { limits: { max: 24, min: 6 } });
    for (let i = 0; i < 40; i++) await writer.upsertEntry(scope, `u${i}`, i, new Date(T0));
    await writer.upsertEntry(scope, "u7", 100, new Date(T0 + 1)); // one commit patches a user chunk and a rank chunk
    const reads: string[] = [];
    const counted = <T extends Collection<ChunkDocument>>(collection: T): T =>
      new Proxy(collection, {
        get(target, property, receiver) {
          if (property !== "findOne") return Reflect.get(target, property, receiver);
          return (filter: { _id: string }, ...rest: unknown[]) => {
            reads.push(filter._id);
            return (target.findOne as (...args: unknown[]) => unknown)(filter, ...rest);
          };
        },
      });
    // A reader with nothing cached (another process).
    const reader = createLeaderboardRankings({ ...collections, rankChunks: counted(collections.rankChunks), userChunks: counted(collections.userChunks) });
    expect(await reader.rankOf(scope, "u7")).toMatchObject({ position: 1, value: "100" });
    const patchDocuments = reads.filter((id) => reads.indexOf(id) !== reads.lastIndexOf(id));
    expect(patchDocuments).toEqual([]);
    expect(reads.length).toBeGreaterThanOrEqual(4); // the index base, two chunks' bases and their patch document
  });

  it("a process that dies right after a commit leaves no expired root behind: they go before the root that says so", async () => {
    const scope = newScope();
    const timing = { garbageBatch: 2, ...STOPPED_CLOCK_TIMING };
    const store = createLeaderboardRankings(collections, timing);
    for (let i = 0; i < 3; i++) await store.upsertEntry(scope, `u${i}`, i, new Date(T0));
    // The next commit's root insert lands, and nothing of that process runs after it.
    let crashed = false;
    const rankings = new Proxy(collections.rankings, {
      get(target, property, receiver) {
        if (property !== "insertMany") return Reflect.get(target, property, receiver);
        return async (...args: Parameters<typeof target.insertMany>) => {
          const result = await target.insertMany(...args);
          if (crashed) return result;
          crashed = true;
          throw new Error("the process died");
        };
      },
    });
    await onStoppedClock(async (moveOn) => {
      moveOn(PAST_RETENTION_MS); // versions 1 and 2 have expired
      await createLeaderboardRankings({ ...collections, rankings }, timing)
        .upsertEntry(scope, "u9", 9, new Date(T0))
        .catch(() => undefined);
    });
    expect(crashed).toBe(true);
    const key = scopeKey(scope);
    const roots = (await collections.rankings.find(leaderboardRankingsFilter(scope.tenantId, scope.leaderboardId)).toArray()).filter(
      (r) => r._id.startsWith("r") && r._id.endsWith(`:${key}`),
    );
    const latest = roots.sort((a, b) => versionOfRoot(b) - versionOfRoot(a))[0]!;
    expect(versionOfRoot(latest)).toBe(4);
    expect(latest.oldest).toBe(3);
    expect(roots.map(versionOfRoot).sort()).toEqual([3, 4]);
    await expectNoLostChunks(scope);
  });

  it("deletes superseded roots in batches, with the chunks they freed, so stored chunks stay close to the live ones", async () => {
    const scope = newScope();
    // Superseded roots are kept (as tombstones) only while their successor is younger than retainMs,
    // then deleted ten at a time with the chunks their successors freed. The clock moves past
    // retainMs after every fifth commit.
    const store = createLeaderboardRankings(collections, { limits: { max: 8, min: 2 }, garbageBatch: 10, ...STOPPED_CLOCK_TIMING });
    await onStoppedClock(async (moveOn) => {
      for (let i = 0; i < 120; i++) {
        await store.upsertEntry(scope, `u${i % 30}`, i, new Date(T0 + i));
        if (i % 5 === 0) moveOn(PAST_RETENTION_MS);
      }
    });
    const docs = await collections.rankings.find(leaderboardRankingsFilter(scope.tenantId, scope.leaderboardId)).toArray();
    const roots = docs.filter((d) => d._id.startsWith("r"));
    const live = roots.filter(hasIndexes);
    expect(live.map(versionOfRoot)).toEqual([Math.max(...roots.map(versionOfRoot))]); // one root with an index: the latest
    // Tombstones of the last few commits: at most a batch waiting, and the five younger than retainMs.
    expect(roots.length).toBeLessThanOrEqual(10 + 6);
    const indexes = await rootIndexes(live[0]!);
    const chunkCount = new Set(indexes.ids.flatMap(chunkDocuments)).size + indexes.indexDocs.length;
    const stored =
      (await collections.rankChunks.countDocuments({ leaderboardId: scope.leaderboardId })) +
      (await collections.userChunks.countDocuments({ leaderboardId: scope.leaderboardId }));
    // What is stored beyond the live chunks is what the stored roots freed (a few per commit).
    const freed = roots.flatMap((r) => (r.freed ?? "").split(" ").filter(Boolean));
    expect(stored - chunkCount).toBeLessThanOrEqual(freed.length);
    expect(freed.length).toBeLessThanOrEqual(4 * roots.length);
    await expectNoLostChunks(scope);
    // A leaderboard whose ID starts with this one's (its roots' _ids too) is another leaderboard.
    const neighbour = { ...scope, leaderboardId: `${scope.leaderboardId}x` };
    await store.upsertEntry(neighbour, "u0", 1, new Date(T0));
    // Roots name their leaderboard in their _id only: the filter finds them there.
    const rankingDocs = await collections.rankings.find(leaderboardRankingsFilter(TENANT, scope.leaderboardId)).toArray();
    expect(rankingDocs.filter((d) => d._id.startsWith("r") && d.leaderboardId === undefined).length).toBeGreaterThan(0);
    // By key: the runs of its calendar (here the one), their groups, each scope's roots and what they name or freed.
    await store.deleteLeaderboard(TENANT, scope.leaderboardId, [scope.run]);
    expect(await store.page(neighbour, 0, 10)).toMatchObject({ participants: 1 });
    expect(await collections.rankings.countDocuments({ _id: { $in: rankingDocs.map((d) => d._id) } })).toBe(0);
    expect(await collections.rankChunks.countDocuments({ leaderboardId: scope.leaderboardId })).toBe(0);
    expect(await collections.userChunks.countDocuments({ leaderboardId: scope.leaderboardId })).toBe(0);
    expect(await collections.rankings.countDocuments(leaderboardRankingsFilter(scope.tenantId, scope.leaderboardId))).toBe(0);
  });

  it("reads and continues a ranking stored before compression and `freed`: plain lines, a root's accumulated garbage", async () => {
    const scope = newScope();
    const key = scopeKey(scope);
    const fields = { tenantId: TENANT, leaderboardId: scope.leaderboardId };
    // Version 1 as an earlier release wrote it: uncompressed chunks, indexes whole, pending garbage,
    // a patch of whole lines ("-line", "+line") on each list moving b from 1 to 1.5.
    const [oldB, newB] = ["1", "1.5"].map((value) => rankLine({ userId: "b", value, reachedAt: new Date(T0) }));
    await collections.rankChunks.insertOne({ _id: "Rop", ...fields, lines: `+${newB}\n-${oldB}` });
    await collections.userChunks.insertOne({ _id: "Uop", ...fields, lines: `+${userLine(newB!)}\n-${userLine(oldB!)}` });
    await collections.rankChunks.insertMany([
      {
        _id: "Rold",
        ...fields,
        lines: ["a", "b"]
          .map((u, i) => rankLine({ userId: u, value: String(2 - i), reachedAt: new Date(T0) }))
          .sort()
          .join("\n"),
      },
      { _id: "Rleft1", ...fields, lines: "x" },
    ]);
    await collections.userChunks.insertMany([
      {
        _id: "Uold",
        ...fields,
        lines: ["a", "b"]
          .map((u, i) => userLine(rankLine({ userId: u, value: String(2 - i), reachedAt: new Date(T0) })))
          .sort()
          .join("\n"),
      },
      { _id: "Uleft1", ...fields, lines: "y" },
    ]);
    await collections.rankings.insertOne({
      _id: `r1:${key}`,
      ...fields,
      run: scope.run,
      group: scope.group,
      version: 1,
      participants: 2,
      rank: packIndex({ ids: ["Rold~Rop"], fences: [""], counts: [2] }),
      users: packIndex({ ids: ["Uold~Uop"], fences: [""], counts: [2] }),
      garbage: "Rleft1 Uleft1",
      createdAt: new Date(),
      oldest: 1,
    });
    await collections.rankings.insertOne({ _id: `h:${key}`, ...fields, run: scope.run, group: scope.group, version: 1 });
    const store = createLeaderboardRankings(collections, { garbageBatch: 1, ...STOPPED_CLOCK_TIMING });
    expect((await store.page(scope, 0, 10)).entries.map((e) => [e.userId, e.value])).toEqual([
      ["a", "2"],
      ["b", "1.5"],
    ]);
    expect(await store.rankOf(scope, "b")).toMatchObject({ position: 2, value: "1.5" });
    expect(await store.upsertEntry(scope, "c", 3, new Date(T0))).toMatchObject({ position: 1, participants: 3 });
    // Later roots leave their version to the _id and their participants to the index's counts.
    const root2 = (await collections.rankings.findOne({ _id: `r2:${key}` }))!;
    expect(root2).not.toHaveProperty("version");
    expect(root2).not.toHaveProperty("participants");
    expect(await createLeaderboardRankings(collections).participants(scope)).toBe(3);
    // The next root hands the old garbage on as what it freed; the commit after deletes it with root 1.
    expect((await collections.rankings.findOne({ _id: `r2:${key}` }))!.freed!.split(" ")).toEqual(expect.arrayContaining(["Rleft1", "Uleft1"]));
    expect(await collections.rankChunks.findOne({ _id: "Rleft1" })).not.toBeNull();
    await onStoppedClock(async (moveOn) => {
      moveOn(PAST_RETENTION_MS); // root 2 is now older than retainMs: root 1 expired
      await store.upsertEntry(scope, "d", 4, new Date(T0));
    });
    expect(await collections.rankChunks.findOne({ _id: "Rleft1" })).toBeNull();
    expect(await collections.userChunks.findOne({ _id: "Uleft1" })).toBeNull();
    expect(await collections.rankings.findOne({ _id: `r1:${key}` })).toBeNull();
    expect((await store.page(scope, 0, 10)).entries.map((e) => e.userId)).toEqual(["d", "c", "a", "b"]);
    await expectNoLostChunks(scope);
  });
});
