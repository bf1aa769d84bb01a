import { randomBytes } from "node:crypto";
import escapeRegExp from "escape-string-regexp";
import { LRUCache } from "lru-cache";
import type { Filter } from "mongodb";
import type { DecimalString } from "../../../engine/domain/decimal.js";
import { DEFAULT_CHUNK_LIMITS, emptyIndex, type ChunkIndex, type ChunkLimits } from "../domain/leaderboard-ranking.js";
import { batchInserts, type BatchedInsert } from "../../../engine/store/insert-batcher.js";
import { KeyedLock } from "../../../engine/store/keyed-lock.js";
import type { ChunkDocument, EntryChange, RankingCollections, RankingDocument, RankingScope, RankingStoreOptions } from "./leaderboard-rankings.js";

/**
 * What every part of the ranking store (leaderboard-rankings.ts) shares: the collections, the
 * options resolved to their defaults, and the per-instance caches, write queues and locks. One
 * context per `createLeaderboardRankings`; the functions of ranking-*.ts take it explicitly.
 */
export interface RankingContext {
  rankings: RankingCollections["rankings"];
  rankChunks: RankingCollections["rankChunks"];
  userChunks: RankingCollections["userChunks"];
  limits: ChunkLimits;
  /** The most lines of a large and a small chunk patch (`patchOptions` in the domain). */
  patchLimits: { large: number; small: number };
  indexPatchMax: number;
  garbageBatch: number;
  maxAttempts: number;
  batchSize: number;
  attemptMs: number;
  retainMs: number;
  exclusive: boolean;
  // The commits of several scopes at once (one event's leaderboards) share their round trips.
  insertRankChunks: BatchedInsert<ChunkDocument>;
  insertUserChunks: BatchedInsert<ChunkDocument>;
  insertRoots: BatchedInsert<RankingDocument>;
  groupLocks: KeyedLock;
  /** Chunk lines by chunk ID. */
  chunkCache: LRUCache<string, string[]>;
  /** Chunk reads in progress, by chunk ID, so that parallel callers share one. */
  chunkReads: Map<string, Promise<readonly string[]>>;
  /**
   * Commits' patch documents lately read, and those being read, by `_id`: one document patches
   * chunks of both lists, so a rank read (a user chunk, then a rank chunk) would read it twice.
   * Documents never change, so a remembered one is what the database holds (or held).
   */
  patchDocuments: LRUCache<string, ChunkDocument>;
  patchReads: Map<string, Promise<ChunkDocument | null>>;
  /** Exclusive mode: the latest root document of each scope, and when recent roots were created. */
  rootCache: LRUCache<string, RankingDocument>;
  rootFacts: LRUCache<string, RootFacts>;
  /** The writes waiting for a commit, by scope key (ranking-write-queue.ts). */
  queues: Map<string, Job[]>;
}

/** The longest a commit attempt may take from its first read to its root insert. */
export const ATTEMPT_MS = 20_000;
/** How long a superseded root is kept after its successor was committed. */
export const RETAIN_MS = 120_000;
/**
 * A root's index patch, at most: a commit that edits one chunk of each list changes 2 entries (one
 * line each, `diffIndexLines`), and a commit of the full profile about 3, so a base serves five or
 * more commits. Measured with bench/ranking-bytes.ts at 20,000 participants: 12 and 16 write the
 * least, 24 and 32 more (the patch, rewritten by every commit, grows faster than the bases saved).
 */
const INDEX_PATCH_MAX = 16;

export function createRankingContext(collections: RankingCollections, options: RankingStoreOptions): RankingContext {
  const { rankings, rankChunks, userChunks } = collections;
  const limits = options.limits ?? DEFAULT_CHUNK_LIMITS;
  const attemptMs = options.attemptMs ?? ATTEMPT_MS;
  const retainMs = options.retainMs ?? RETAIN_MS;
  if (retainMs < attemptMs) throw new RangeError("retainMs must be at least attemptMs");
  return {
    rankings,
    rankChunks,
    userChunks,
    limits,
    patchLimits: {
      large: options.patchMax ?? Math.max(1, Math.floor(limits.max / 4)),
      small: options.smallPatchMax ?? Math.max(1, Math.floor(limits.max / 64)),
    },
    indexPatchMax: options.indexPatchMax ?? INDEX_PATCH_MAX,
    garbageBatch: Math.max(1, options.garbageBatch ?? 16),
    maxAttempts: options.maxAttempts ?? 50,
    batchSize: options.batchSize ?? 500,
    attemptMs,
    retainMs,
    exclusive: options.exclusive ?? false,
    insertRankChunks: batchInserts(rankChunks),
    insertUserChunks: batchInserts(userChunks),
    insertRoots: batchInserts(rankings),
    groupLocks: new KeyedLock(),
    chunkCache: new LRUCache<string, string[]>({ max: options.cachedChunks ?? 4096 }),
    chunkReads: new Map(),
    patchDocuments: new LRUCache({ max: 256 }),
    patchReads: new Map(),
    rootCache: new LRUCache<string, RankingDocument>({ max: 4096 }),
    rootFacts: new LRUCache<string, RootFacts>({ max: 16_384 }),
    queues: new Map<string, Job[]>(),
  };
}

/** Thrown when a write could not commit after `maxAttempts` (other instances kept winning). */
export class RankingConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RankingConflictError";
  }
}

/** A root read a moment ago named a chunk that is gone: a later commit replaced it; read again. */
export class StaleRead extends Error {}

export interface RootState {
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
export interface RootFacts {
  createdAt: Date;
  freed: string[];
}

export interface Operation {
  userId: string;
  /** Erase (see `eraseEntry`): committed alone. */
  erase?: boolean;
  /** null: remove. */
  value: DecimalString | null;
  valueCode: string | null;
  at: Date;
  maxParticipants?: number;
}

export interface Job {
  op: Operation;
  resolve(change: EntryChange): void;
  reject(error: unknown): void;
}

export const EMPTY_ROOT: RootState = {
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

/** The scope as a string (JSON, so no two scopes share one). */
export function scopeKey(scope: RankingScope): string {
  return JSON.stringify([scope.tenantId, scope.leaderboardId, scope.run, scope.group]);
}

export const headId = (scope: string) => `h:${scope}`;
export const groupsId = (tenantId: string, leaderboardId: string, run: string) => `g:${JSON.stringify([tenantId, leaderboardId, run])}`;
export const rootId = (scope: string, version: number) => `r${version}:${scope}`;
/**
 * The `leaderboard_rankings` documents of a leaderboard: heads, groups and roots written before
 * roots left the scope to their `_id` by `tenantId` and `leaderboardId`, later roots by their
 * `_id` (the scope key's leading tenant and leaderboard). A scan on FerretDB, as any filter but
 * `_id` equality is: the service deletes a leaderboard's rankings by key (ranking-delete.ts); tests
 * look for what is left with it.
 */
export function leaderboardRankingsFilter(tenantId: string, leaderboardId: string): Filter<RankingDocument> {
  return { $or: [{ tenantId, leaderboardId }, { _id: { $regex: rootsOf([tenantId, leaderboardId]) } }] };
}

/** The same for a tenant (the tenant deleted): every ranking document of every leaderboard. */
export function tenantRankingsFilter(tenantId: string): Filter<RankingDocument> {
  return { $or: [{ tenantId }, { _id: { $regex: rootsOf([tenantId]) } }] };
}

/** A pattern of the `_id`s of the roots whose scope key starts with `leading` (`scopeKey`). */
function rootsOf(leading: string[]): string {
  return `^r[0-9]+:${escapeRegExp(JSON.stringify(leading).slice(0, -1) + ",")}`;
}

/** A root's version, from its `_id` (`rootId`). */
export const versionOfRoot = (doc: Pick<RankingDocument, "_id">) => Number(doc._id.slice(1, doc._id.indexOf(":")));
/**
 * Chunk IDs say which collection holds them: "R…" rank chunks, "U…" user chunks. The rest is this
 * process's random token (48 bits, drawn once) and a counter, so IDs are unique across writers as
 * random ones are, yet the IDs a root lists share the token and close counters: the index patch,
 * rewritten by every commit, compresses to a few bytes per ID instead of the 9 random bytes an ID
 * held before. A collision (two processes drawing one token) fails an insert; it never overwrites.
 */
const processToken = randomBytes(6).toString("base64url");
let chunkCounter = 0;
const nextChunkKey = () => processToken + (chunkCounter++).toString(36);
export const newRankChunkId = () => "R" + nextChunkKey();
export const newUserChunkId = () => "U" + nextChunkKey();

/** A root that lists its indexes (whole or as base and patch), not a tombstone. */
export function hasIndexes(doc: RankingDocument): boolean {
  return doc.index !== undefined || (doc.rank !== undefined && doc.users !== undefined);
}

export function scopeFields(scope: RankingScope): Pick<RankingDocument, "tenantId" | "leaderboardId" | "run" | "group"> {
  return { tenantId: scope.tenantId, leaderboardId: scope.leaderboardId, run: scope.run, group: scope.group };
}
