import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unpackIndex } from "../../src/features/leaderboards/domain/leaderboard-ranking.js";
import {
  createLeaderboardRankings,
  leaderboardRankingsFilter,
  rankingCollections,
  scopeKey,
  type RankingCollections,
  type RankingScope,
} from "../../src/features/leaderboards/store/leaderboard-rankings.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { holdsPacked, storedText } from "../helpers/stored-text.js";
import { onStoppedClock } from "../helpers/stopped-clock.js";

// Erasing a participant from a ranking (features/leaderboards/store/leaderboard-rankings.ts `eraseEntry`): the others close
// up exactly, and no stored document of the ranking names the participant any more, although
// patches, replaced chunks waiting for their root's expiry (`freed`), fences and earlier root
// versions all did. Chunk lines are stored brotli-compressed: the search decodes them.

const ERASED = "erase-me-7f3a";
const TENANT = "tenant-erase";
const T0 = Date.parse("2026-01-05T00:00:00Z");

describe("erasing a participant from a ranking", () => {
  let database: TestDatabase;
  let collections: RankingCollections;

  beforeAll(async () => {
    database = await openTestDatabase();
    collections = rankingCollections(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  /** The documents of a leaderboard's rankings that name `text` (compressed content decoded). */
  async function documentsNaming(leaderboardId: string, text: string, which: (doc: object) => boolean = () => true): Promise<string[]> {
    const all = await Promise.all([
      collections.rankings.find(leaderboardRankingsFilter(TENANT, leaderboardId)).toArray(),
      ...[collections.rankChunks, collections.userChunks].map((c) => c.find({ leaderboardId }).toArray()),
    ]);
    return all
      .flat()
      .filter((d) => which(d) && storedText(d).includes(text))
      .map((d) => d._id);
  }
  /** Documents that name `text` only once decoded: the search would miss them without decoding. */
  const namingWhenDecoded = (leaderboardId: string, text: string) =>
    documentsNaming(leaderboardId, text, (d) => holdsPacked(d) && !JSON.stringify(d).includes(text));

  it.each([
    ["shared by several writers", false],
    ["written by this process alone", true],
  ])(
    "leaves the others in order and no document naming them, %s",
    async (_mode, exclusive) => {
      const scope: RankingScope = { tenantId: TENANT, leaderboardId: `lb-${exclusive}`, run: "2026-01-05", group: "" };
      // Small chunks: 300 participants fill many chunks, and moving the participant patches several.
      const store = createLeaderboardRankings(collections, { limits: { max: 24, min: 6 }, garbageBatch: 1000, exclusive });
      const values = new Map<string, number>();
      const users = Array.from({ length: 300 }, (_, i) => `user-${String(i).padStart(3, "0")}`);
      await Promise.all(users.map((u, i) => store.upsertEntry(scope, u, (i * 7) % 301, new Date(T0)).then(() => values.set(u, (i * 7) % 301))));
      // The participant climbs through the ranking: their lines go into patches and replaced chunks.
      for (const [step, value] of [5, 60, 150, 240, 299, 120].entries()) await store.upsertEntry(scope, ERASED, value, new Date(T0 + step + 1));
      expect(await documentsNaming(scope.leaderboardId, ERASED)).not.toEqual([]);
      expect(await namingWhenDecoded(scope.leaderboardId, ERASED)).not.toEqual([]);
      const before = await store.rankOf(scope, ERASED);
      expect(before?.position).toBeGreaterThan(1);

      // Others keep writing while the erasure runs.
      const [erased] = await Promise.all([
        store.eraseEntry(scope, ERASED),
        store.upsertEntry(scope, "user-000", 1000, new Date(T0 + 100)).then(() => values.set("user-000", 1000)),
      ]);
      expect(erased).toMatchObject({ changed: true, previousPosition: expect.any(Number), previousValue: "120" });

      const expected = [...values.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([u]) => u);
      const page = await store.page(scope, 0, 1000);
      expect(page.participants).toBe(300);
      expect(page.entries.map((e) => e.userId)).toEqual(expected);
      expect(await store.rankOf(scope, ERASED)).toBeNull();
      expect(await documentsNaming(scope.leaderboardId, ERASED)).toEqual([]);

      // A reader that caches nothing (another instance) reads the same, and writes go on from there.
      const fresh = createLeaderboardRankings(collections, { limits: { max: 24, min: 6 } });
      expect((await fresh.page(scope, 0, 1000)).entries.map((e) => e.userId)).toEqual(expected);
      await store.upsertEntry(scope, "user-001", 2000, new Date(T0 + 200));
      expect((await fresh.page(scope, 0, 2)).entries.map((e) => e.userId)).toEqual(["user-001", "user-000"]);
      // Erasing again (a retried erasure) changes nothing.
      expect(await store.eraseEntry(scope, ERASED)).toMatchObject({ changed: false });
      expect((await store.page(scope, 0, 1000)).participants).toBe(300);
    },
    120_000,
  );

  it("cut short after its commit, leaves nothing naming them once repeated (by a restarted process)", async () => {
    const scope: RankingScope = { tenantId: TENANT, leaderboardId: "lb-crash", run: "", group: "" };
    const limits = { limits: { max: 24, min: 6 }, garbageBatch: 1000 };
    const store = createLeaderboardRankings(collections, limits);
    for (let i = 0; i < 100; i++) await store.upsertEntry(scope, `user-${i}`, i, new Date(T0));
    for (const [step, value] of [10, 50, 90].entries()) await store.upsertEntry(scope, ERASED, value, new Date(T0 + step + 1));
    // The process dies right after the erasure's commit: earlier versions not stripped, chunks not deleted.
    let crashed = false;
    const crashing = new Proxy(collections.rankings, {
      get(target, property) {
        if (property === "updateOne")
          return (...args: Parameters<typeof target.updateOne>) => {
            if ("$unset" in (args[1] as object) && !crashed) {
              crashed = true;
              return Promise.reject(new Error("simulated crash"));
            }
            return target.updateOne(...args);
          };
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const dying = createLeaderboardRankings({ ...collections, rankings: crashing }, limits);
    await expect(dying.eraseEntry(scope, ERASED)).rejects.toThrow("simulated crash");
    expect(await documentsNaming(scope.leaderboardId, ERASED)).not.toEqual([]);

    const restarted = createLeaderboardRankings(collections, limits);
    expect(await restarted.eraseEntry(scope, ERASED)).toMatchObject({ changed: false });
    expect(await documentsNaming(scope.leaderboardId, ERASED)).toEqual([]);
    expect((await restarted.page(scope, 0, 200)).entries.map((e) => e.userId)).toEqual(Array.from({ length: 100 }, (_, i) => `user-${99 - i}`));
  }, 180_000);

  it("with superseded roots expiring in batches meanwhile, leaves only the chunks its version names", async () => {
    const scope: RankingScope = { tenantId: TENANT, leaderboardId: "lb-expiring", run: "", group: "" };
    // The process clock moves 30 s on after each write: every superseded root has expired by the
    // next commit and is deleted, three at a time, with what its successor freed. Attempts run in
    // real time, with the default 20 s limit (a loaded machine never reaches it).
    const store = createLeaderboardRankings(collections, { limits: { max: 24, min: 6 }, garbageBatch: 3, retainMs: 20_000, attemptMs: 20_000 });
    await onStoppedClock(async (moveOn) => {
      const write = async (userId: string, value: number, at: number) => {
        await store.upsertEntry(scope, userId, value, new Date(at));
        moveOn(30_000);
      };
      for (let i = 0; i < 120; i++) await write(`user-${String(i).padStart(3, "0")}`, i, T0);
      // The last moves stay in one rank chunk: their commits stop naming the patch document before
      // (each commit's patches share one), which waits in `freed`.
      for (const [step, value] of [10, 70, 115, 40, 41, 42].entries()) await write(ERASED, value, T0 + step + 1);
    });
    const rootsBefore = await collections.rankings.find(leaderboardRankingsFilter(TENANT, scope.leaderboardId)).toArray();
    expect(rootsBefore.filter((r) => r._id.startsWith("r")).length).toBeLessThan(10); // expired roots were deleted
    expect(rootsBefore.some((r) => r.freed !== undefined)).toBe(true); // and later ones wait with what they freed
    expect(await namingWhenDecoded(scope.leaderboardId, ERASED)).not.toEqual([]);

    expect(await store.eraseEntry(scope, ERASED)).toMatchObject({ changed: true, previousValue: "42" });
    expect(await documentsNaming(scope.leaderboardId, ERASED)).toEqual([]);
    const head = await collections.rankings.findOne({ _id: `h:${scopeKey(scope)}` });
    const latest = await collections.rankings.findOne({ _id: `r${head!.version}:${scopeKey(scope)}` });
    const named = [...unpackIndex(latest!.rank!).ids, ...unpackIndex(latest!.users!).ids];
    const stored = [
      ...(await collections.rankChunks.find({ leaderboardId: scope.leaderboardId }, { projection: { _id: 1 } }).toArray()),
      ...(await collections.userChunks.find({ leaderboardId: scope.leaderboardId }, { projection: { _id: 1 } }).toArray()),
    ].map((d) => d._id);
    expect(stored.sort()).toEqual(named.sort());
    expect((await store.page(scope, 0, 200)).entries.map((e) => e.userId)).toEqual(
      Array.from({ length: 120 }, (_, i) => `user-${String(119 - i).padStart(3, "0")}`),
    );
  }, 180_000);

  it("writes nothing for a ranking that does not exist", async () => {
    const store = createLeaderboardRankings(collections);
    const scope: RankingScope = { tenantId: TENANT, leaderboardId: "lb-none", run: "", group: "" };
    expect(await store.eraseEntry(scope, ERASED)).toMatchObject({ changed: false, participants: 0 });
    expect(await collections.rankings.countDocuments({ leaderboardId: "lb-none" })).toBe(0);
  });
});
