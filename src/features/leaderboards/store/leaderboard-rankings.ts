import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Binary, Collection, Db } from "mongodb";
import type { DecimalString } from "../../../engine/domain/decimal.js";
import {
  applyIndexPatch,
  applyPatch,
  chunkAtPosition,
  chunkFor,
  chunkDocuments,
  chunkParts,
  chunkSortedLines,
  countBefore,
  DEFAULT_CHUNK_LIMITS,
  diffIndexLines,
  diffSortedLines,
  emptyIndex,
  encodeValue,
  indexesOfLines,
  indexLines,
  lowerBound,
  packIndex,
  parseRankLine,
  patchedChunkId,
  patchOptions,
  rankLine,
  rankLineOfUserLine,
  rankListDraft,
  rankWithin,
  unpackIndex,
  userKeyOf,
  userLine,
  userListDraft,
  userProbe,
  valueCodeOf,
  type ChunkIndex,
  type ChunkLimits,
  type ChunkListDraft,
  type PackedIndex,
  type RankedStanding,
  type Standing,
  type WrittenChunk,
} from "../domain/leaderboard-ranking.js";
import { chunkContent, linesOfContent, packLines, unpackLines, type ChunkContent } from "./chunk-content.js";
import { isDuplicateKeyError, retryOnDuplicate, type Collections } from "../../../engine/store/database.js";
import { processNow, processNowMs } from "../../../engine/process-clock.js";
import { batchInserts } from "../../../engine/store/insert-batcher.js";
import { KeyedLock } from "../../../engine/store/keyed-lock.js";

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
 *   a patch document's lines are the lines added and removed), so a commit writes a few lines per
 *   list rather than whole chunks of up to 1,000 lines.
 * - `leaderboard_rankings`: the scope's ROOT versions `{_id: "r<version>:<scope>", tenantId, leaderboardId, version,
 *   participants, rank, users, freed, createdAt, oldest}` (`rank` and `users` the packed
 *   indexes) and its HEAD `{_id: "h:<scope>", version}`, a hint of the latest version; per run, the
 *   GROUPS document `{_id: "g:<tenant, leaderboard, run>", groups}` listing its scopes' groups.
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
  tenantId: string;
  leaderboardId: string;
  /** On heads, the groups document (run only), bulk-loaded and older roots; a committed root has them in its _id only. */
  run?: string;
  group?: string;
  version: number;
  /** Root versions only. */
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
  /** Deletes every ranking of a leaderboard (all runs and groups). */
  deleteLeaderboard(tenantId: string, leaderboardId: string): Promise<void>;
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

/** Thrown when a write could not commit after `maxAttempts` (other instances kept winning). */
export class RankingConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RankingConflictError";
  }
}

/** A root read a moment ago named a chunk that is gone: a later commit replaced it; read again. */
class StaleRead extends Error {}

interface RootState {
  version: number;
  createdAt: Date;
  oldest: number;
  participants: number;
  rank: ChunkIndex;
  users: ChunkIndex;
  /** The chunk holding the base of the indexes (null: the root lists them whole). */
  indexBase: string | null;
  /** What this root's commit freed. */
  freed: string[];
  /** A root written before `freed`: its `garbage`, handed on to the next root's `freed`. */
  legacyGarbage: string[];
}

/** What later commits need of a root to delete the one before it. */
interface RootFacts {
  createdAt: Date;
  freed: string[];
}

interface Operation {
  userId: string;
  /** Erase (see `eraseEntry`): committed alone. */
  erase?: boolean;
  /** null: remove. */
  value: DecimalString | null;
  valueCode: string | null;
  at: Date;
  maxParticipants?: number;
}

interface Job {
  op: Operation;
  resolve(change: EntryChange): void;
  reject(error: unknown): void;
}

const EMPTY_ROOT: RootState = {
  version: 0,
  createdAt: new Date(0),
  oldest: 1,
  participants: 0,
  rank: emptyIndex(),
  users: emptyIndex(),
  indexBase: null,
  freed: [],
  legacyGarbage: [],
};
/** How far past a missing root a reader looks for a later one (the head can lag a few commits). */
const ROOT_PROBE_LIMIT = 16;
/** The longest a commit attempt may take from its first read to its root insert. */
export const ATTEMPT_MS = 20_000;
/** How long a superseded root is kept after its successor was committed. */
export const RETAIN_MS = 120_000;
/** Exclusive mode: the head moves on every this many versions (below ROOT_PROBE_LIMIT). */
const EXCLUSIVE_HEAD_EVERY = 8;
/**
 * A root's index patch, at most: a commit that edits one chunk of each list changes 2 entries (one
 * line each, `diffIndexLines`), and a commit of the full profile about 3, so a base serves five or
 * more commits. Measured with bench/ranking-bytes.ts at 20,000 participants: 12 and 16 write the
 * least, 24 and 32 more (the patch, rewritten by every commit, grows faster than the bases saved).
 */
const INDEX_PATCH_MAX = 16;

/** The scope as a string (JSON, so no two scopes share one). */
export function scopeKey(scope: RankingScope): string {
  return JSON.stringify([scope.tenantId, scope.leaderboardId, scope.run, scope.group]);
}

const headId = (scope: string) => `h:${scope}`;
const groupsId = (tenantId: string, leaderboardId: string, run: string) => `g:${JSON.stringify([tenantId, leaderboardId, run])}`;
const rootId = (scope: string, version: number) => `r${version}:${scope}`;
/** Chunk IDs say which collection holds them: "R…" rank chunks, "U…" user chunks. */
const newRankChunkId = () => "R" + randomBytes(9).toString("base64url");
const newUserChunkId = () => "U" + randomBytes(9).toString("base64url");

function normalizeValue(value: DecimalString | number): DecimalString {
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return String(value);
}

export function createLeaderboardRankings(collections: RankingCollections, options: RankingStoreOptions = {}): LeaderboardRankings {
  const { rankings, rankChunks, userChunks } = collections;
  const limits = options.limits ?? DEFAULT_CHUNK_LIMITS;
  const garbageBatch = Math.max(1, options.garbageBatch ?? 16);
  const patchLimits = {
    large: options.patchMax ?? Math.max(1, Math.floor(limits.max / 4)),
    small: options.smallPatchMax ?? Math.max(1, Math.floor(limits.max / 64)),
  };
  const indexPatchMax = options.indexPatchMax ?? INDEX_PATCH_MAX;
  const maxAttempts = options.maxAttempts ?? 50;
  const batchSize = options.batchSize ?? 500;
  const attemptMs = options.attemptMs ?? ATTEMPT_MS;
  const retainMs = options.retainMs ?? RETAIN_MS;
  if (retainMs < attemptMs) throw new RangeError("retainMs must be at least attemptMs");
  const queues = new Map<string, Job[]>();
  const exclusive = options.exclusive ?? false;
  // The commits of several scopes at once (one event's leaderboards) share their round trips.
  const insertRankChunks = batchInserts(rankChunks);
  const insertUserChunks = batchInserts(userChunks);
  const insertRoots = batchInserts(rankings);
  const groupLocks = new KeyedLock();
  /** Chunk lines by chunk ID. */
  const chunkCache = new LRUCache<string, string[]>({ max: options.cachedChunks ?? 4096 });
  /** Exclusive mode: the latest root document of each scope, and when recent roots were created. */
  const rootCache = new LRUCache<string, RankingDocument>({ max: 4096 });
  const rootFacts = new LRUCache<string, RootFacts>({ max: 16_384 });

  async function loadRoot(scope: string): Promise<RootState> {
    const cached = exclusive ? rootCache.get(scope) : undefined;
    if (cached) return await toRootState(cached);
    const root = await readRoot(scope);
    return root;
  }

  async function readRoot(scope: string): Promise<RootState> {
    const head = await rankings.findOne({ _id: headId(scope) }, { projection: { version: 1 } });
    const version = head?.version ?? 0;
    const [current, next] = await Promise.all([
      version > 0 ? rankings.findOne({ _id: rootId(scope, version) }) : null,
      rankings.findOne({ _id: rootId(scope, version + 1) }),
    ]);
    if (!next && current && hasIndexes(current)) return remember(scope, current);
    if (!next && !current && version === 0) return EMPTY_ROOT;
    // The two reads run side by side: the successor may have been committed, and this root stripped,
    // between them (the successor read as missing, this one as a tombstone). Read again.
    if (!next && current && !hasIndexes(current)) throw new StaleRead();
    let latest: RankingDocument | null = next;
    let probe = version + 2;
    // The head lags more than one version behind: look further for the latest.
    for (; latest === null && probe < version + 2 + ROOT_PROBE_LIMIT; probe++) latest = await rankings.findOne({ _id: rootId(scope, probe) });
    if (latest === null) throw new Error(`no ranking root found after version ${version} of ${scope}`);
    for (;;) {
      const later: RankingDocument | null = await rankings.findOne({ _id: rootId(scope, latest.version + 1) });
      if (!later) return remember(scope, latest);
      latest = later;
    }
  }

  async function remember(scope: string, doc: RankingDocument): Promise<RootState> {
    const state = await toRootState(doc);
    if (exclusive) rootCache.set(scope, doc);
    return state;
  }

  async function toRootState(doc: RankingDocument): Promise<RootState> {
    // A tombstone without a successor: its successor was read as missing a moment before it was
    // committed (and this root stripped). Read again.
    if (!hasIndexes(doc)) throw new StaleRead();
    let indexes: { rank: ChunkIndex; users: ChunkIndex };
    if (doc.index !== undefined) {
      const base = await chunkLines(rankChunks, doc.index); // a base already replaced and deleted: StaleRead
      const patch = unpackLines(doc.indexPatch);
      indexes = indexesOfLines(patch.length > 0 ? applyIndexPatch(base, patch) : base);
    } else indexes = { rank: unpackIndex(doc.rank!), users: unpackIndex(doc.users!) };
    return {
      version: doc.version,
      createdAt: doc.createdAt ?? new Date(0),
      oldest: doc.oldest ?? 1,
      participants: doc.participants ?? 0,
      ...indexes,
      indexBase: doc.index ?? null,
      freed: doc.freed ? doc.freed.split(" ") : [],
      legacyGarbage: doc.garbage ? doc.garbage.split(" ") : [],
    };
  }

  /**
   * The index fields of a root listing `rank` and `users`: the base of `root` with a patch while the
   * patch is at most `indexPatchMax` lines, else a new base (`written`, to insert with the chunks).
   */
  async function indexFields(
    root: RootState,
    rank: ChunkIndex,
    users: ChunkIndex,
  ): Promise<{ fields: Pick<RankingDocument, "index" | "indexPatch">; written: { docId: string; lines: string[] } | null }> {
    const lines = indexLines(rank, users);
    if (root.indexBase !== null) {
      const patch = diffIndexLines(await chunkLines(rankChunks, root.indexBase), lines);
      if (patch.length <= indexPatchMax) return { fields: { index: root.indexBase, indexPatch: packLines(patch) }, written: null };
    }
    const docId = newRankChunkId();
    return { fields: { index: docId, indexPatch: "" }, written: { docId, lines } };
  }

  /**
   * Points the head at a committed version (never back, on MongoDB; on FerretDB two concurrent
   * moves can leave it one behind, which readers look past).
   */
  /**
   * Lists a scope's group in its run's GROUPS document (`g:<tenant, leaderboard, run>`), read by
   * `groupsOfRun` by `_id`. Done before the scope's first root is inserted, so a crash leaves at most
   * a listed group without a ranking (read as empty), never a ranking its run does not list.
   */
  async function registerGroup(scope: RankingScope): Promise<void> {
    const _id = groupsId(scope.tenantId, scope.leaderboardId, scope.run);
    // FerretDB applies an update as a read then a write: one addition at a time in this process.
    await groupLocks.run(_id, () =>
      retryOnDuplicate(() =>
        rankings.updateOne(
          { _id },
          { $addToSet: { groups: scope.group }, $setOnInsert: { tenantId: scope.tenantId, leaderboardId: scope.leaderboardId, run: scope.run } },
          { upsert: true },
        ),
      ),
    );
  }

  async function moveHead(scope: RankingScope, key: string, version: number): Promise<void> {
    await retryOnDuplicate(() => rankings.updateOne({ _id: headId(key) }, { $max: { version }, $setOnInsert: scopeFields(scope) }, { upsert: true }));
  }

  /** The chunks' lines (copies, free to change). */
  async function fetchChunks(collection: Collection<ChunkDocument>, ids: readonly string[]): Promise<string[][]> {
    // One lookup by _id each, in parallel: an `$in` is not pushed down by FerretDB (a scan).
    return Promise.all(ids.map(async (id) => [...(await chunkLines(collection, id))]));
  }

  /**
   * A chunk's lines (the cached array itself: not to be changed); a patched chunk reads the chunk
   * it patches (recursively: all its documents at once) and the patch.
   */
  async function chunkLines(collection: Collection<ChunkDocument>, id: string): Promise<readonly string[]> {
    const cached = chunkCache.get(id);
    if (cached) return cached;
    const { base, patch } = chunkParts(id);
    const storedLines = async (docId: string) => {
      const doc = await collection.findOne({ _id: docId });
      if (!doc) throw new StaleRead();
      return linesOfContent(doc);
    };
    const lines =
      patch === null ? await storedLines(id) : await Promise.all([chunkLines(collection, base), storedLines(patch)]).then(([b, p]) => applyPatch(b, p));
    chunkCache.set(id, lines);
    return lines;
  }

  /**
   * What a commit inserts for the chunks a list's draft wrote: a chunk that edits a stored one
   * becomes a patch when one of its `patchOptions` holds the difference, any other is written
   * whole. Renames the patched chunks in `index`.
   */
  async function chunkWrites(
    collection: Collection<ChunkDocument>,
    written: readonly WrittenChunk[],
    index: ChunkIndex,
    newId: () => string,
  ): Promise<Array<{ id: string; docId: string; stored: string[]; lines: string[] }>> {
    return Promise.all(
      written.map(async (chunk) => {
        for (const { on, max } of chunk.origin ? patchOptions(chunk.origin.id, patchLimits) : []) {
          const onLines = on === chunk.origin!.id ? chunk.origin!.lines : await chunkLines(collection, on);
          const diff = diffSortedLines(onLines, chunk.lines);
          if (diff.length <= max) {
            const docId = newId();
            const id = patchedChunkId(on, docId);
            index.ids[index.ids.indexOf(chunk.id)] = id;
            return { id, docId, stored: diff, lines: chunk.lines };
          }
        }
        return { id: chunk.id, docId: chunk.id, stored: chunk.lines, lines: chunk.lines };
      }),
    );
  }

  /** The stored documents no longer needed once `index` replaced the chunks `replaced` (see chunkDocuments). */
  function documentsFreed(replaced: readonly string[], ...indexes: ChunkIndex[]): string[] {
    const used = new Set(indexes.flatMap((index) => index.ids.flatMap(chunkDocuments)));
    return [...new Set(replaced.flatMap(chunkDocuments))].filter((doc) => !used.has(doc));
  }

  async function loadInto(draft: ChunkListDraft, collection: Collection<ChunkDocument>, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const chunks = await fetchChunks(collection, ids);
    ids.forEach((id, i) => draft.load(id, chunks[i]!));
  }

  async function deleteChunks(ids: readonly string[]): Promise<void> {
    for (const id of ids) chunkCache.delete(id);
    const rank = ids.filter((id) => id.startsWith("R"));
    const user = ids.filter((id) => id.startsWith("U"));
    // One delete by _id each (an `$in` is a scan on FerretDB), in one command per collection.
    const byId = (id: string) => ({ deleteOne: { filter: { _id: id } } });
    await Promise.all([
      rank.length > 0 ? rankChunks.bulkWrite(rank.map(byId), { ordered: false }) : null,
      user.length > 0 ? userChunks.bulkWrite(user.map(byId), { ordered: false }) : null,
    ]);
  }

  /** One attempt to apply a group of writes; null when another writer committed first. */
  async function tryCommit(scope: RankingScope, key: string, ops: readonly Operation[]): Promise<EntryChange[] | null> {
    const started = performance.now();
    const root = await loadRoot(key);
    const ranks = rankListDraft(root.rank, limits);
    const users = userListDraft(root.users, limits);

    // 1. Where everyone stands now (the list by user ID), then what each write makes of it.
    await loadInto(users, userChunks, users.missingFor(ops.map((op) => userProbe(op.userId))));
    const current = new Map<string, string | null>();
    const plan = ops.map((op) => {
      let before = current.get(op.userId);
      if (before === undefined) {
        const found = users.findByPrefix(userProbe(op.userId));
        before = found === null ? null : rankLineOfUserLine(found);
      }
      let after: string | null = null;
      if (op.value !== null) {
        after = before !== null && valueCodeOf(before) === op.valueCode ? before : rankLine({ userId: op.userId, value: op.value, reachedAt: op.at });
      }
      current.set(op.userId, after);
      return { op, before, after };
    });
    const touched = plan.flatMap((p) => [p.before, p.after]).filter((line): line is string => line !== null);
    await loadInto(ranks, rankChunks, ranks.missingFor(touched));

    // 2. Apply in order, noting each write's positions.
    const changes = plan.map(({ op, before, after }): EntryChange => {
      const previousPosition = before === null ? null : ranks.positionOf(before);
      if (after !== before) {
        if (before !== null) {
          ranks.remove(before);
          users.remove(userLine(before));
        }
        if (after !== null) {
          ranks.insert(after);
          users.insert(userLine(after));
        }
      }
      const position = after === null ? null : ranks.positionOf(after);
      const was = before === null ? null : parseRankLine(before);
      const is = after === null ? null : parseRankLine(after);
      const max = op.maxParticipants ?? Number.POSITIVE_INFINITY;
      return {
        userId: op.userId,
        changed: after !== before,
        previousPosition,
        position,
        previousRank: rankWithin(previousPosition, max),
        rank: rankWithin(position, max),
        previousValue: was?.value ?? null,
        value: is?.value ?? null,
        reachedAt: is?.reachedAt ?? null,
        participants: ranks.total,
      };
    });
    if (!ranks.isChanged) return withThresholds(changes, ops, ranks, root.rank);

    // 3. Split and merge, loading the neighbours that asks for.
    for (;;) {
      const [rankNeeds, userNeeds] = [ranks.rebalance(), users.rebalance()];
      if (rankNeeds.length === 0 && userNeeds.length === 0) break;
      await Promise.all([loadInto(ranks, rankChunks, rankNeeds), loadInto(users, userChunks, userNeeds)]);
    }

    // 4. Write the new chunks, then claim the next version by inserting its root.
    const rank = ranks.finish(newRankChunkId);
    const user = users.finish(newUserChunkId);
    const [rankWrites, userWrites] = await Promise.all([
      chunkWrites(rankChunks, rank.written, rank.index, newRankChunkId),
      chunkWrites(userChunks, user.written, user.index, newUserChunkId),
    ]);
    // After chunkWrites: the index names the patched chunks.
    const indexed = await indexFields(root, rank.index, user.index);
    const indexWrites = indexed.written
      ? [{ id: indexed.written.docId, docId: indexed.written.docId, stored: indexed.written.lines, lines: indexed.written.lines }]
      : [];
    const chunkDoc = (c: { docId: string; stored: string[] }): ChunkDocument => ({
      _id: c.docId,
      tenantId: scope.tenantId,
      leaderboardId: scope.leaderboardId,
      ...chunkContent(c.stored),
    });
    await Promise.all([insertRankChunks([...rankWrites, ...indexWrites].map(chunkDoc)), insertUserChunks(userWrites.map(chunkDoc))]);
    // A replaced index base is garbage like a replaced chunk (readers of older roots may still read it a while).
    const replacedBase = indexed.written && root.indexBase !== null ? [root.indexBase] : [];
    const freed = [...root.legacyGarbage, ...replacedBase, ...documentsFreed([...ranks.replaced, ...users.replaced], rank.index, user.index)];
    const expired = await expiredRoots(key, root);
    const version = root.version + 1;
    if (version === 1) await registerGroup(scope);
    const written = [...rankWrites, ...indexWrites, ...userWrites].map((c) => c.docId);
    if (performance.now() - started > attemptMs) {
      // Too slow: the version after the one read may be committed and deleted by now (see above).
      await deleteChunks(written);
      throw new StaleRead();
    }
    const committed = {
      _id: rootId(key, version),
      // The scope's run and group are in the _id and on its head; tenant and leaderboard stay for deletes.
      tenantId: scope.tenantId,
      leaderboardId: scope.leaderboardId,
      version,
      participants: ranks.total,
      ...indexed.fields,
      ...(freed.length > 0 ? { freed: freed.join(" ") } : {}),
      createdAt: processNow(),
      oldest: root.oldest + expired.versions.length,
    } satisfies RankingDocument;
    try {
      await insertRoots([{ ...committed }]);
    } catch (error) {
      rootCache.delete(key); // whatever happened, the next attempt reads the database
      if (!isDuplicateKeyError(error)) throw error;
      await deleteChunks(written);
      return null;
    }
    for (const c of [...rankWrites, ...indexWrites, ...userWrites]) chunkCache.set(c.id, c.lines);
    rootFacts.set(committed._id, { createdAt: committed.createdAt, freed });
    if (exclusive) rootCache.set(key, committed);

    // 5. Committed: move the head, strip the previous root to a tombstone (keeping `freed`), and
    //    now and then delete a batch of expired roots with the chunks their successors freed.
    // The head is a hint readers probe forward from; this process alone reads its cached root, so
    // in exclusive mode it moves the head now and then only (a restarted reader probes a few roots).
    if (!exclusive || version === 1 || version % EXCLUSIVE_HEAD_EVERY === 0) await moveHead(scope, key, version);
    await Promise.all([
      root.version > 0 && !exclusive
        ? rankings.updateOne(
            { _id: rootId(key, root.version) },
            { $unset: { rank: "", users: "", index: "", indexPatch: "", garbage: "" }, $set: { supersededAt: processNow() } },
          )
        : null,
      deleteExpired(key, expired),
    ]);
    return withThresholds(changes, ops, ranks, rank.index);
  }

  /** A sorted list written whole (bulk loads, erasures): chunks filled to three quarters, and their index. */
  function wholeList(sorted: readonly string[], keyOf: ((line: string) => string) | undefined, newId: () => string) {
    const chunks = chunkSortedLines(sorted, Math.floor((limits.max * 3) / 4), keyOf).map((c) => ({ ...c, id: newId() }));
    return { chunks, index: { ids: chunks.map((c) => c.id), fences: chunks.map((c) => c.fence), counts: chunks.map((c) => c.lines.length) } };
  }

  /**
   * One attempt to erase a participant (see `eraseEntry`); null when another writer committed first.
   * Reads every chunk of the latest version, writes the ranking without the participant as whole
   * chunks (as `bulkLoad` does) under the next version, then strips every earlier version to a
   * tombstone (a slow writer still holding one cannot insert over it) and deletes every chunk document
   * they named: the ones the read version names (bases, patches, its index base) and the ones each
   * version not yet deleted freed (`freed`, and a root of the earlier format's `garbage`), which
   * wait for their root's expiry and may still hold the participant's lines.
   */
  async function tryErase(scope: RankingScope, key: string, userId: string): Promise<EntryChange[] | null> {
    const started = performance.now();
    const root = await loadRoot(key);
    const none: EntryChange = {
      userId,
      changed: false,
      previousPosition: null,
      position: null,
      previousRank: null,
      rank: null,
      previousValue: null,
      value: null,
      reachedAt: null,
      participants: root.participants,
    };
    if (root.version === 0) return [none];
    const [rankLines, userLines] = await Promise.all([fetchChunks(rankChunks, root.rank.ids), fetchChunks(userChunks, root.users.ids)]);
    const probe = userProbe(userId);
    const userLine = userLines.flat().find((line) => line.startsWith(probe)) ?? null;
    const line = userLine === null ? null : rankLineOfUserLine(userLine);
    const ranked = rankLines.flat();
    const keptRank = line === null ? ranked : ranked.filter((l) => l !== line);
    const keptUsers = userLines.flat().filter((l) => l !== userLine);
    const rank = wholeList(keptRank, undefined, newRankChunkId);
    const users = wholeList(keptUsers, userKeyOf, newUserChunkId);
    const chunkDoc = (c: { id: string; lines: string[] }): ChunkDocument => ({
      _id: c.id,
      tenantId: scope.tenantId,
      leaderboardId: scope.leaderboardId,
      ...chunkContent(c.lines),
    });
    const earlier = Array.from({ length: root.version - root.oldest + 1 }, (_, i) => root.oldest + i);
    const [earlierFacts] = await Promise.all([
      Promise.all(earlier.map((v) => rootFactsOf(key, root, v))),
      insertRankChunks(rank.chunks.map(chunkDoc)),
      insertUserChunks(users.chunks.map(chunkDoc)),
    ]);
    const written = [...rank.chunks, ...users.chunks].map((c) => c.id);
    if (performance.now() - started > attemptMs) {
      await deleteChunks(written);
      throw new StaleRead();
    }
    const version = root.version + 1;
    // Every chunk document the earlier versions named goes: listed as what the new version freed,
    // so an erasure cut short after this commit deletes them when it is repeated (and expiry again, harmlessly).
    const named = [...root.rank.ids, ...root.users.ids].flatMap(chunkDocuments);
    const waiting = earlierFacts.flatMap((facts) => facts?.freed ?? []);
    const freed = [...new Set([...named, ...(root.indexBase === null ? [] : [root.indexBase]), ...root.legacyGarbage, ...waiting])];
    const committed = {
      _id: rootId(key, version),
      tenantId: scope.tenantId,
      leaderboardId: scope.leaderboardId,
      version,
      participants: keptRank.length,
      rank: packIndex(rank.index),
      users: packIndex(users.index),
      ...(freed.length > 0 ? { freed: freed.join(" ") } : {}),
      createdAt: processNow(),
      oldest: root.oldest,
    } satisfies RankingDocument;
    try {
      await insertRoots([{ ...committed }]);
    } catch (error) {
      rootCache.delete(key);
      if (!isDuplicateKeyError(error)) throw error;
      await deleteChunks(written);
      return null;
    }
    for (const c of [...rank.chunks, ...users.chunks]) chunkCache.set(c.id, c.lines);
    rootFacts.set(committed._id, { createdAt: committed.createdAt, freed });
    if (exclusive) rootCache.set(key, committed);
    await moveHead(scope, key, version);
    const tombstone = { $unset: { rank: "", users: "", index: "", indexPatch: "", garbage: "" }, $set: { supersededAt: processNow() } } as const;
    await Promise.all(earlier.map((v) => rankings.updateOne({ _id: rootId(key, v) }, tombstone)));
    await deleteChunks(freed);
    const position = line === null ? null : ranked.indexOf(line) + 1;
    const was = line === null ? null : parseRankLine(line);
    return [
      { ...none, changed: line !== null, previousPosition: position, previousRank: position, previousValue: was?.value ?? null, participants: keptRank.length },
    ];
  }

  /** What version `v` of the scope whose latest root is `root` freed, and when it was committed; null once deleted. */
  async function rootFactsOf(key: string, root: RootState, v: number): Promise<RootFacts | null> {
    if (v === root.version) return { createdAt: root.createdAt, freed: root.freed };
    const known = rootFacts.get(rootId(key, v));
    if (known) return known;
    const doc = await rankings.findOne({ _id: rootId(key, v) }, { projection: { createdAt: 1, freed: 1 } });
    if (!doc) return null;
    const facts = { createdAt: doc.createdAt ?? new Date(0), freed: doc.freed ? doc.freed.split(" ") : [] };
    rootFacts.set(rootId(key, v), facts); // a committed root's facts never change: read once
    return facts;
  }

  /**
   * The `garbageBatch` oldest superseded versions, once the successor of the last of them is older
   * than `RETAIN_MS` (versions are committed in order, so all of them are), with the chunks they
   * named that their successors freed: a commit deletes them, the chunks first. Nothing while fewer
   * have expired, so deleting costs a few commands per batch, not per commit.
   */
  async function expiredRoots(key: string, root: RootState): Promise<{ versions: number[]; chunks: string[] }> {
    const none = { versions: [], chunks: [] };
    const last = root.oldest + garbageBatch; // the successor of the last version to delete
    if (last > root.version) return none;
    // A missing successor was deleted already, with what it freed: it expired long ago.
    const newest = await rootFactsOf(key, root, last);
    if (newest && newest.createdAt.getTime() > processNowMs() - retainMs) return none;
    const versions = Array.from({ length: garbageBatch }, (_, i) => root.oldest + i);
    const successors = [...(await Promise.all(versions.slice(0, -1).map((v) => rootFactsOf(key, root, v + 1)))), newest];
    return { versions, chunks: successors.flatMap((facts) => facts?.freed ?? []) };
  }

  /** Deletes expired roots and what their successors freed: the chunks first, so a crash between leaks nothing. */
  async function deleteExpired(key: string, expired: { versions: number[]; chunks: string[] }): Promise<void> {
    if (expired.versions.length === 0) return;
    await deleteChunks(expired.chunks);
    await rankings.bulkWrite(
      expired.versions.map((v) => ({ deleteOne: { filter: { _id: rootId(key, v) } } })),
      { ordered: false },
    );
    for (const v of expired.versions) rootFacts.delete(rootId(key, v));
  }

  /** Adds `threshold` to the changes of writes that gave `maxParticipants`. */
  async function withThresholds(changes: EntryChange[], ops: readonly Operation[], ranks: ChunkListDraft, index: ChunkIndex): Promise<EntryChange[]> {
    const lines = new Map<number, string | null>();
    for (const [i, op] of ops.entries()) {
      if (op.maxParticipants === undefined) continue;
      const max = op.maxParticipants;
      if (!lines.has(max)) {
        let line = ranks.lineAt(max);
        if (line === undefined) line = await lineAtPosition(rankChunks, index, max);
        lines.set(max, line);
      }
      const line = lines.get(max)!;
      changes[i]!.threshold = line === null ? null : parseRankLine(line).value;
    }
    return changes;
  }

  async function lineAtPosition(collection: Collection<ChunkDocument>, index: ChunkIndex, position: number): Promise<string | null> {
    const found = chunkAtPosition(index.counts, position);
    if (!found) return null;
    const [lines] = await fetchChunks(collection, [index.ids[found.chunk]!]);
    return lines![position - found.before - 1] ?? null;
  }

  async function commit(scope: RankingScope, ops: readonly Operation[]): Promise<EntryChange[]> {
    const key = scopeKey(scope);
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      try {
        const changes = ops[0]?.erase ? await tryErase(scope, key, ops[0].userId) : await tryCommit(scope, key, ops);
        if (changes) return changes;
      } catch (error) {
        if (!(error instanceof StaleRead)) throw error;
        rootCache.delete(key);
      }
      // Another instance committed first: wait a little (more after each loss), then apply again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
    }
    throw new RankingConflictError(`the ranking ${key} kept changing; ${ops.length} write(s) not applied after ${maxAttempts} attempts`);
  }

  async function drain(scope: RankingScope, key: string, queue: Job[]): Promise<void> {
    await Promise.resolve(); // let writes submitted in the same tick join the first commit
    while (queue.length > 0) {
      // An erase is committed alone; other writes go in groups up to the next erase.
      const erasing = queue.findIndex((job) => job.op.erase);
      const jobs = queue.splice(0, erasing === 0 ? 1 : erasing > 0 ? Math.min(erasing, batchSize) : batchSize);
      try {
        const changes = await commit(
          scope,
          jobs.map((j) => j.op),
        );
        jobs.forEach((job, i) => job.resolve(changes[i]!));
      } catch (error) {
        for (const job of jobs) job.reject(error);
      }
    }
    queues.delete(key);
  }

  function submit(scope: RankingScope, op: Operation): Promise<EntryChange> {
    return new Promise((resolve, reject) => {
      const key = scopeKey(scope);
      const queue = queues.get(key);
      if (queue) {
        queue.push({ op, resolve, reject });
        return;
      }
      const fresh: Job[] = [{ op, resolve, reject }];
      queues.set(key, fresh);
      void drain(scope, key, fresh);
    });
  }

  /** Runs a read again when a commit replaced what it was reading. */
  async function read<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (!(error instanceof StaleRead) || attempt >= maxAttempts) throw error;
        rootCache.clear(); // rare: what was cached no longer matches the database
      }
    }
  }

  return {
    async upsertEntry(scope, userId, value, at, writeOptions = {}) {
      const decimal = normalizeValue(value);
      const valueCode = encodeValue(decimal); // refuses what cannot be ranked before queueing
      rankLine({ userId, value: decimal, reachedAt: at });
      return submit(scope, { userId, value: decimal, valueCode, at, maxParticipants: writeOptions.maxParticipants });
    },

    removeEntry(scope, userId, writeOptions = {}) {
      return submit(scope, { userId, value: null, valueCode: null, at: new Date(0), maxParticipants: writeOptions.maxParticipants });
    },

    eraseEntry(scope, userId) {
      return submit(scope, { userId, value: null, valueCode: null, at: new Date(0), erase: true });
    },

    rankOf(scope, userId) {
      return read(async () => {
        const root = await loadRoot(scopeKey(scope));
        const probe = userProbe(userId);
        const u = chunkFor(root.users.fences, probe);
        if (u < 0) return null;
        const [userLines] = await fetchChunks(userChunks, [root.users.ids[u]!]);
        const found = userLines![lowerBound(userLines!, probe)];
        if (found === undefined || userKeyOf(found) !== probe) return null;
        const line = rankLineOfUserLine(found);
        const r = chunkFor(root.rank.fences, line);
        const [rankLines] = await fetchChunks(rankChunks, [root.rank.ids[r]!]);
        const at = lowerBound(rankLines!, line);
        if (rankLines![at] !== line) throw new StaleRead(); // cannot happen with one consistent root
        return { ...parseRankLine(line), position: countBefore(root.rank.counts, r) + at + 1, participants: root.participants };
      });
    },

    page(scope, offset, limit) {
      return read(async () => {
        const root = await loadRoot(scopeKey(scope));
        const first = offset + 1;
        const last = Math.min(offset + limit, root.participants);
        if (limit <= 0 || first > last) return { participants: root.participants, entries: [] };
        const from = chunkAtPosition(root.rank.counts, first)!;
        const to = chunkAtPosition(root.rank.counts, last)!;
        const chunks = await fetchChunks(rankChunks, root.rank.ids.slice(from.chunk, to.chunk + 1));
        const lines = chunks.flat().slice(first - from.before - 1, last - from.before);
        return { participants: root.participants, entries: lines.map((line, i) => ({ ...parseRankLine(line), position: first + i })) };
      });
    },

    threshold(scope, maxParticipants) {
      return read(async () => {
        const root = await loadRoot(scopeKey(scope));
        const line = await lineAtPosition(rankChunks, root.rank, maxParticipants);
        return line === null ? null : parseRankLine(line).value;
      });
    },

    async participants(scope) {
      return (await loadRoot(scopeKey(scope))).participants;
    },

    async bulkLoad(scope, standings) {
      const key = scopeKey(scope);
      if ((await loadRoot(key)).version !== 0) throw new Error(`bulkLoad needs an empty ranking; ${key} has one`);
      const lines = standings.map(rankLine).sort();
      for (let i = 1; i < lines.length; i++) if (lines[i] === lines[i - 1]) throw new Error(`bulkLoad: a participant is listed twice`);
      const byUser = lines.map(userLine).sort();
      const rank = wholeList(lines, undefined, newRankChunkId);
      const user = wholeList(byUser, userKeyOf, newUserChunkId);
      const write = async (collection: Collection<ChunkDocument>, chunks: Array<{ id: string; lines: string[] }>) => {
        for (let i = 0; i < chunks.length; i += 50) {
          await collection.insertMany(
            chunks.slice(i, i + 50).map((c) => ({ _id: c.id, tenantId: scope.tenantId, leaderboardId: scope.leaderboardId, ...chunkContent(c.lines) })),
          );
        }
      };
      await Promise.all([write(rankChunks, rank.chunks), write(userChunks, user.chunks), registerGroup(scope)]);
      await rankings.insertOne({
        _id: rootId(key, 1),
        ...scopeFields(scope),
        version: 1,
        participants: lines.length,
        rank: packIndex(rank.index),
        users: packIndex(user.index),
        createdAt: processNow(),
        oldest: 1,
      });
      await moveHead(scope, key, 1);
      rootCache.delete(key);
    },

    async deleteLeaderboard(tenantId, leaderboardId) {
      rootCache.clear(); // rare: forget every cached root rather than find this leaderboard's
      await Promise.all([
        rankings.deleteMany({ tenantId, leaderboardId }),
        rankChunks.deleteMany({ tenantId, leaderboardId }),
        userChunks.deleteMany({ tenantId, leaderboardId }),
      ]);
    },

    async groupsOfRun(tenantId, leaderboardId, run) {
      const listed = await rankings.findOne({ _id: groupsId(tenantId, leaderboardId, run) }, { projection: { groups: 1 } });
      const groups = [...(listed?.groups ?? [])].sort();
      const heads = await Promise.all(
        groups.map((group) => rankings.findOne({ _id: headId(scopeKey({ tenantId, leaderboardId, run, group })) }, { projection: { version: 1 } })),
      );
      return groups.map((group, i) => ({ group, version: heads[i]?.version ?? 0 }));
    },

    async version(scope, known) {
      const key = scopeKey(scope);
      let version = known ?? (await rankings.findOne({ _id: headId(key) }, { projection: { version: 1 } }))?.version ?? 0;
      while (await rankings.findOne({ _id: rootId(key, version + 1) }, { projection: { _id: 1 } })) version += 1;
      return version;
    },
  };
}

/** A root that lists its indexes (whole or as base and patch), not a tombstone. */
function hasIndexes(doc: RankingDocument): boolean {
  return doc.index !== undefined || (doc.rank !== undefined && doc.users !== undefined);
}

function scopeFields(scope: RankingScope): Pick<RankingDocument, "tenantId" | "leaderboardId" | "run" | "group"> {
  return { tenantId: scope.tenantId, leaderboardId: scope.leaderboardId, run: scope.run, group: scope.group };
}
