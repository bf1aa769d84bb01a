import type { Binary, Collection, Db } from "mongodb";
import type { DecimalString } from "../../../engine/domain/decimal.js";
import { encodeValue, rankLine, type ChunkLimits, type PackedIndex, type RankedStanding, type Standing } from "../domain/leaderboard-ranking.js";
import type { ChunkContent } from "./chunk-content.js";
import type { Collections } from "../../../engine/store/database.js";
import { createRankingContext, scopeKey } from "./ranking-context.js";
import { readAgainOnStale, loadRoot, readGroupsOfRun, readPage, readRankOf, readThreshold, readVersion } from "./ranking-reads.js";
import { submit } from "./ranking-write-queue.js";
import { bulkLoad } from "./ranking-bulk-load.js";
import { deleteTenantRankings } from "./ranking-writes.js";
import { deleteLeaderboardRankings } from "./ranking-delete.js";

export { ATTEMPT_MS, leaderboardRankingsFilter, RankingConflictError, RETAIN_MS, scopeKey, tenantRankingsFilter, versionOfRoot } from "./ranking-context.js";

/**
 * Leaderboard rankings in the database: one ranking per leaderboard, run and breakdown group (a
 * SCOPE), laid out as src/features/leaderboards/domain/leaderboard-ranking.ts describes (chunks of lines in rank order, a
 * second chunked list by user ID, and an index of both).
 *
 * Documents, all read and written by `_id` only:
 * - `leaderboard_rank_chunks` / `leaderboard_user_chunks`: `{_id, tenantId, leaderboardId, lines}`,
 *   `lines` the chunk's lines joined by "\n", or `packed`, the same compressed (chunk-content.ts). A chunk is never changed: a change writes a new chunk,
 *   or, when it edits a few lines, a PATCH on the chunk it edits (`chunkParts` in the domain: the
 *   index names it `base~patch`, or `base~patch~patch` with a small patch on a patched chunk, and
 *   a patch document's lines are the lines added, "+line", and the places in the patched chunk of
 *   the lines removed, "#place": `diffChunkLines`; patches written before list removed lines
 *   whole, "-line"), so a commit writes a few lines per list rather than whole chunks of up to
 *   1,000 lines. A commit's patches, of both lists, are the sections of ONE patch document stored
 *   with the rank chunks (`sectionsContent`; the index names a patch `doc.section`, and the
 *   document is freed once no index entry names it): one document and one insert per commit, not
 *   one per list and chunk (patches written before are documents of their own, in their list's
 *   collection). Chunk IDs are "R" or "U", the writing process's random token and a counter
 *   (`newRankChunkId`): unique as random IDs are, but the IDs one root lists share their token and
 *   compress to a few bytes each.
 * - `leaderboard_rankings`: the scope's ROOT versions `{_id: "r<version>:<scope>", index,
 *   indexPatch, freed, createdAt, oldest}` and its HEAD `{_id: "h:<scope>", tenantId, leaderboardId,
 *   run, group, version}`, a hint of the latest version; per run, the GROUPS document
 *   `{_id: "g:<tenant, leaderboard, run>", groups}` listing its scopes' groups. A root's version,
 *   tenant and leaderboard are in its `_id` only (`versionOfRoot`; a tenant's deletion matches them
 *   there: `tenantRankingsFilter`; a leaderboard's are deleted by key, ranking-delete.ts), its number of participants is the sum
 *   of its rank index's counts; roots written before carry `tenantId`, `leaderboardId`, `version`
 *   and `participants` too, and roots written before index patches (and bulk loads, erasures) list
 *   the indexes whole in `rank` and `users`.
 *
 * Commit. A change loads the latest root and the chunks it touches, applies the change in memory,
 * inserts the changed chunks under new IDs, then INSERTS the root of the next version. The unique
 * `_id` of that insert is the commit: of two writers that read the same version, exactly one can
 * insert the next (the loser deletes its chunks, reloads and applies again). Insert-if-absent is the
 * one write that FerretDB makes atomic (it applies an update as a read then a write, so even a
 * version check in an update's filter can let two writers both win, and `$inc` can lose counts),
 * and on MongoDB it is atomic too, so counts stay exact with any number of writers on any number of
 * instances. Nothing is ever half-applied: a crash before the root insert leaves only unreferenced
 * chunks behind, and after it the change is complete. Retrying a write with the same value changes
 * nothing (a participant keeps the time they reached their value), so the event pipeline can repeat
 * it after a crash.
 *
 * A version's root must outlive every writer that could still try to insert it: were root v + 1
 * deleted while a slow writer still held root v as the latest, that writer's insert of v + 1 would
 * succeed and fork the ranking (its change lost). So an attempt gives up (and starts again) when
 * more than `ATTEMPT_MS` passed since it began reading, and a superseded root is kept, stripped to a
 * small tombstone (keeping `freed`), until its successor is `RETAIN_MS` old; later commits delete
 * such roots in batches, from the oldest (`oldest`). This assumes instances' clocks agree within
 * `RETAIN_MS - ATTEMPT_MS` (100 s), as the leases of background work already do.
 *
 * Reads. A reader reads the head, then the root of that version and of the next in parallel (and
 * further while they exist: the head may lag behind a commit whose writer has not updated it yet),
 * then the chunks it needs. Chunks named by a root stay readable until a later commit deletes them
 * (each root lists in `freed` the few documents its commit stopped naming, rather than carrying a
 * growing list of everything not yet deleted; they are deleted, before it, with the root before it:
 * `expiredRoots`); a reader that finds one gone reads again from the head. A user's rank: head, roots, one user chunk, one rank
 * chunk. A page: head, roots and the one or two rank chunks holding it. The number of documents read
 * does not grow with the number of participants; the index grows by one entry per chunk (about 1,300
 * per list for a million participants, a few tens of kilobytes).
 *
 * In one process the writes of a scope are queued and committed in groups (every change waiting
 * while a commit runs goes into the next one), so concurrent events cost one commit per group, not
 * one each, and never conflict with each other. The inserts of commits running side by side in
 * several scopes (one event's leaderboards) go out together, one unordered `insertMany` per
 * collection (engine/store/insert-batcher.ts); each root insert still succeeds or fails on its own.
 */

export interface RankingScope {
  tenantId: string;
  leaderboardId: string;
  /** The run's first day (YYYY-MM-DD); a perpetual leaderboard's one run starts on its `start`. */
  run: string;
  /** The breakdown group (`groupKey`); "" without breakdowns. */
  group: string;
}

export interface RankingDocument {
  _id: string;
  /** On heads, the groups document and roots written before a root left it to its `_id` (`tenantRankingsFilter`). */
  tenantId?: string;
  /** On heads, the groups document and roots written before a root left it to its `_id` (`leaderboardRankingsFilter`). */
  leaderboardId?: string;
  /** On heads and the groups document (run only); a root has them in its _id only (older roots carry them too). */
  run?: string;
  group?: string;
  /** On heads; roots written before the version was left to their `_id` (`versionOfRoot`) also carry it. */
  version?: number;
  /** Roots written before it was left to the rank index's counts. */
  participants?: number;
  /** The indexes written whole (roots before index patches, and bulk loads). */
  rank?: PackedIndex;
  users?: PackedIndex;
  /**
   * Or both indexes as the lines of `indexLines`: the base, a chunk document in
   * `leaderboard_rank_chunks` named here, with `indexPatch` (the "\n"-joined patch of the entries
   * changed since the base, compressed when that is smaller: chunk-content.ts) applied.
   */
  index?: string;
  indexPatch?: string | Binary;
  /**
   * The chunk documents this commit stopped naming (named by the version before), space-separated:
   * deleted when the version before is (`expiredRoots`). Kept on a tombstone.
   */
  freed?: string;
  /** Roots written before `freed`: every replaced document not deleted yet (all roots up to it). */
  garbage?: string;
  /** When the version was committed (the committing instance's clock). */
  createdAt?: Date;
  /** The oldest version of the scope not deleted yet. */
  oldest?: number;
  /** The run's groups document only: the groups that have a ranking in the run. */
  groups?: string[];
  /** Set when a later version replaced this one (a tombstone: no index any more). */
  supersededAt?: Date;
}

/** A chunk, a patch or an index base: its lines stored as `chunkContent` says (compressed or not). */
export interface ChunkDocument extends ChunkContent {
  _id: string;
  tenantId: string;
  leaderboardId: string;
}

export interface RankingCollections {
  rankings: Collection<RankingDocument>;
  rankChunks: Collection<ChunkDocument>;
  userChunks: Collection<ChunkDocument>;
}

/** The ranking collections of the service's database. */
export function rankingCollectionsOf(c: Pick<Collections, "leaderboardRankings" | "leaderboardRankChunks" | "leaderboardUserChunks">): RankingCollections {
  return { rankings: c.leaderboardRankings, rankChunks: c.leaderboardRankChunks, userChunks: c.leaderboardUserChunks };
}

/** The same collections, by name, in any database (tests, benchmarks). */
export function rankingCollections(db: Db): RankingCollections {
  return {
    rankings: db.collection("leaderboard_rankings"),
    rankChunks: db.collection("leaderboard_rank_chunks"),
    userChunks: db.collection("leaderboard_user_chunks"),
  };
}

/** What a write did to one participant. Positions are 1-based places in the order. */
export interface EntryChange {
  userId: string;
  /** Whether the ranking changed (false: same value as before, or removing a non-participant). */
  changed: boolean;
  previousPosition: number | null;
  position: number | null;
  /** The positions as ranks: within `maxParticipants` (when given), else null. */
  previousRank: number | null;
  rank: number | null;
  previousValue: DecimalString | null;
  value: DecimalString | null;
  /** When the participant reached the current value. */
  reachedAt: Date | null;
  /** Participants after the change (everyone ordered, ranked or not). */
  participants: number;
  /**
   * With `maxParticipants`: the value to beat to enter (the lowest ranked value when full, else
   * null: any value enters). Undefined without `maxParticipants`.
   */
  threshold?: DecimalString | null;
}

export interface WriteOptions {
  /** The leaderboard's limit: fills `previousRank`, `rank` and `threshold`. */
  maxParticipants?: number;
}

export interface RankingPage {
  participants: number;
  entries: RankedStanding[];
}

export interface LeaderboardRankings {
  /**
   * Sets a participant's value (adding them if new). The time they reached it is `at`, unless the
   * value is unchanged (then nothing is written). Returns the positions before and after.
   */
  upsertEntry(scope: RankingScope, userId: string, value: DecimalString | number, at: Date, options?: WriteOptions): Promise<EntryChange>;
  /** Takes a participant out of the ranking. */
  removeEntry(scope: RankingScope, userId: string, options?: WriteOptions): Promise<EntryChange>;
  /**
   * Takes a participant out of the ranking and leaves no stored document naming them (erasing a
   * user): the ranking is written again whole (no chunk patch keeps their old lines, no fence is
   * cut from their ID), every earlier version is stripped to a tombstone and every chunk it named
   * is deleted. Costs a read and a write of the whole ranking; repeating it is harmless.
   */
  eraseEntry(scope: RankingScope, userId: string): Promise<EntryChange>;
  /** A participant's position and standing, or null when they are not in the ranking. */
  rankOf(scope: RankingScope, userId: string): Promise<(RankedStanding & { participants: number }) | null>;
  /** Participants at positions `offset + 1` to `offset + limit`, in order. */
  page(scope: RankingScope, offset: number, limit: number): Promise<RankingPage>;
  /** The value at position `maxParticipants` (the value to beat), or null when there is room. */
  threshold(scope: RankingScope, maxParticipants: number): Promise<DecimalString | null>;
  /** The number of participants. */
  participants(scope: RankingScope): Promise<number>;
  /**
   * Writes a whole ranking at once into an EMPTY scope (imports, benchmarks): the same documents
   * as one write per participant would leave, built in bulk.
   */
  bulkLoad(scope: RankingScope, standings: readonly Standing[]): Promise<void>;
  /** Deletes every ranking of a leaderboard (the runs given, every group of each), by key. */
  deleteLeaderboard(tenantId: string, leaderboardId: string, runs: readonly string[]): Promise<void>;
  /**
   * Deletes every ranking of a tenant (the tenant deleted): roots name their tenant in their `_id`
   * only, so a delete of the tenant's documents by `tenantId` leaves them.
   */
  deleteTenant(tenantId: string): Promise<void>;
  /** The groups of a run that have a ranking (from their heads), by group, with the head's version (a hint). */
  groupsOfRun(tenantId: string, leaderboardId: string, run: string): Promise<Array<{ group: string; version: number }>>;
  /**
   * The latest committed version of a scope (0: never written), which changes with every change of
   * the ranking: the head, and later roots if it lags. `known`: a version known to be committed (a
   * head's, from `groupsOfRun`), so the head is not read again.
   */
  version(scope: RankingScope, known?: number): Promise<number>;
}

export interface RankingStoreOptions {
  limits?: ChunkLimits;
  /** Superseded roots are deleted, with the chunks their successors freed, this many at a time (default 16). */
  garbageBatch?: number;
  /** Commits attempted before giving up under contention (default 50). */
  maxAttempts?: number;
  /** Most writes per commit (default 500). */
  batchSize?: number;
  /** See `ATTEMPT_MS` and `RETAIN_MS` (tests shorten them). */
  attemptMs?: number;
  retainMs?: number;
  /**
   * This process is the database's only writer (single-instance mode, engine/store/user-documents.ts): the latest
   * root of each scope it read or committed is kept in memory and is exact, so a commit reads
   * nothing, and a superseded root is not stripped to a tombstone (no slower writer can fork it).
   */
  exclusive?: boolean;
  /** Chunks kept in memory (default 4,096; chunks never change, so this is safe with any writers). */
  cachedChunks?: number;
  /**
   * The most lines a large patch (on a chunk's base) may hold before the chunk is written whole
   * again (default max / 4), and a small one (on a patched chunk; default max / 64): see
   * `patchOptions` in the domain.
   */
  patchMax?: number;
  smallPatchMax?: number;
  /** The most lines a root's index patch may hold before the index is written whole again (default 16). */
  indexPatchMax?: number;
}

/**
 * The store's parts, each a module of top-level functions taking the shared `RankingContext`
 * (collections, resolved options, caches, write queues, locks: ranking-context.ts):
 * - ranking-reads.ts: the latest root, chunks (cached), the queries, reading again on `StaleRead`;
 * - ranking-write-queue.ts: queues a scope's writes and commits them in groups, retrying lost commits;
 * - ranking-commit.ts: one commit attempt (chunks, patches, index, the root insert);
 * - ranking-erase.ts: one erasure attempt (the whole ranking written again);
 * - ranking-expiry.ts: deleting superseded roots in batches;
 * - ranking-writes.ts: the groups list, the head, deleting chunks, whole lists;
 * - ranking-bulk-load.ts: writing a whole ranking at once.
 */
export function createLeaderboardRankings(collections: RankingCollections, options: RankingStoreOptions = {}): LeaderboardRankings {
  const ctx = createRankingContext(collections, options);
  return {
    async upsertEntry(scope, userId, value, at, writeOptions = {}) {
      const decimal = normalizeValue(value);
      const valueCode = encodeValue(decimal); // refuses what cannot be ranked before queueing
      rankLine({ userId, value: decimal, reachedAt: at });
      return submit(ctx, scope, { userId, value: decimal, valueCode, at, maxParticipants: writeOptions.maxParticipants });
    },

    removeEntry(scope, userId, writeOptions = {}) {
      return submit(ctx, scope, { userId, value: null, valueCode: null, at: new Date(0), maxParticipants: writeOptions.maxParticipants });
    },

    eraseEntry(scope, userId) {
      return submit(ctx, scope, { userId, value: null, valueCode: null, at: new Date(0), erase: true });
    },

    rankOf: (scope, userId) => readAgainOnStale(ctx, () => readRankOf(ctx, scope, userId)),
    page: (scope, offset, limit) => readAgainOnStale(ctx, () => readPage(ctx, scope, offset, limit)),
    threshold: (scope, maxParticipants) => readAgainOnStale(ctx, () => readThreshold(ctx, scope, maxParticipants)),

    async participants(scope) {
      return (await loadRoot(ctx, scopeKey(scope))).participants;
    },

    bulkLoad: (scope, standings) => bulkLoad(ctx, scope, standings),
    deleteLeaderboard: (tenantId, leaderboardId, runs) => deleteLeaderboardRankings(ctx, tenantId, leaderboardId, runs),
    deleteTenant: (tenantId) => deleteTenantRankings(ctx, tenantId),
    groupsOfRun: (tenantId, leaderboardId, run) => readGroupsOfRun(ctx, tenantId, leaderboardId, run),
    version: (scope, known) => readVersion(ctx, scope, known),
  };
}

function normalizeValue(value: DecimalString | number): DecimalString {
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return String(value);
}
