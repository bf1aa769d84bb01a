import type { Collection } from "mongodb";
import type { DecimalString } from "../../../engine/domain/decimal.js";
import {
  applyIndexPatch,
  applyPatch,
  chunkAtPosition,
  chunkFor,
  chunkParts,
  countBefore,
  indexesOfLines,
  lowerBound,
  parseRankLine,
  rankLineOfUserLine,
  sectionOf,
  unpackIndex,
  userKeyOf,
  userProbe,
  type ChunkIndex,
  type RankedStanding,
} from "../domain/leaderboard-ranking.js";
import { linesOfContent, sectionLines, unpackLines } from "./chunk-content.js";
import {
  EMPTY_ROOT,
  groupsId,
  hasIndexes,
  headId,
  rootId,
  scopeKey,
  StaleRead,
  versionOfRoot,
  type RankingContext,
  type RootState,
} from "./ranking-context.js";
import type { ChunkDocument, RankingDocument, RankingPage, RankingScope } from "./leaderboard-rankings.js";

/**
 * Reading a ranking (leaderboard-rankings.ts describes the documents): the latest root of a scope,
 * the chunks it names (cached: a chunk never changes), and the queries on them. A read that finds a
 * chunk gone throws `StaleRead`; `readAgainOnStale` runs it again from the head.
 */

/** How far past a missing root a reader looks for a later one (the head can lag a few commits). */
const ROOT_PROBE_LIMIT = 16;

export async function loadRoot(ctx: RankingContext, scope: string): Promise<RootState> {
  const cached = ctx.exclusive ? ctx.rootCache.get(scope) : undefined;
  if (cached) return await toRootState(ctx, cached);
  const root = await readRoot(ctx, scope);
  return root;
}

async function readRoot(ctx: RankingContext, scope: string): Promise<RootState> {
  const { rankings } = ctx;
  const head = await rankings.findOne({ _id: headId(scope) }, { projection: { version: 1 } });
  const version = head?.version ?? 0;
  const [current, next] = await Promise.all([
    version > 0 ? rankings.findOne({ _id: rootId(scope, version) }) : null,
    rankings.findOne({ _id: rootId(scope, version + 1) }),
  ]);
  if (!next && current && hasIndexes(current)) return remember(ctx, scope, current);
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
    const later: RankingDocument | null = await rankings.findOne({ _id: rootId(scope, versionOfRoot(latest) + 1) });
    if (!later) return remember(ctx, scope, latest);
    latest = later;
  }
}

async function remember(ctx: RankingContext, scope: string, doc: RankingDocument): Promise<RootState> {
  const state = await toRootState(ctx, doc);
  if (ctx.exclusive) ctx.rootCache.set(scope, doc);
  return state;
}

async function toRootState(ctx: RankingContext, doc: RankingDocument): Promise<RootState> {
  // A tombstone without a successor: its successor was read as missing a moment before it was
  // committed (and this root stripped). Read again.
  if (!hasIndexes(doc)) throw new StaleRead();
  let indexes: { rank: ChunkIndex; users: ChunkIndex };
  if (doc.index !== undefined) {
    const base = await chunkLines(ctx, ctx.rankChunks, doc.index); // a base already replaced and deleted: StaleRead
    const patch = unpackLines(doc.indexPatch);
    indexes = indexesOfLines(patch.length > 0 ? applyIndexPatch(base, patch) : base);
  } else indexes = { rank: unpackIndex(doc.rank!), users: unpackIndex(doc.users!) };
  return {
    version: versionOfRoot(doc),
    createdAt: doc.createdAt ?? new Date(0),
    oldest: doc.oldest ?? 1,
    participants: doc.participants ?? indexes.rank.counts.reduce((sum, n) => sum + n, 0),
    ...indexes,
    indexBase: doc.index ?? null,
    freed: doc.freed ? doc.freed.split(" ") : [],
    legacyGarbage: doc.garbage ? doc.garbage.split(" ") : [],
  };
}

/** The chunks' lines (copies, free to change). */
export async function fetchChunks(ctx: RankingContext, collection: Collection<ChunkDocument>, ids: readonly string[]): Promise<string[][]> {
  // One lookup by _id each, in parallel: an `$in` is not pushed down by FerretDB (a scan).
  return Promise.all(ids.map(async (id) => [...(await chunkLines(ctx, collection, id))]));
}

/**
 * A chunk's lines (the cached array itself: not to be changed); a patched chunk reads the chunk
 * it patches (recursively: all its documents at once) and the patch.
 */
export async function chunkLines(ctx: RankingContext, collection: Collection<ChunkDocument>, id: string): Promise<readonly string[]> {
  const cached = ctx.chunkCache.get(id);
  if (cached) return cached;
  // Parallel callers of one commit (chunks patched on one base, writes patching one document) share a read.
  return sharedRead(ctx.chunkReads, id, () => readChunk(ctx, collection, id));
}

/** The read of `key` in flight, or a new one that callers asking meanwhile share. */
function sharedRead<T>(inFlight: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  const known = inFlight.get(key);
  if (known) return known;
  const reading = read().finally(() => inFlight.delete(key));
  inFlight.set(key, reading);
  return reading;
}

async function readChunk(ctx: RankingContext, collection: Collection<ChunkDocument>, id: string): Promise<readonly string[]> {
  const { base, patch } = chunkParts(id);
  const storedLines = async (part: string) => {
    // A patch may be a section of a commit's patch document, stored with the rank chunks.
    const { doc: docId, section } = sectionOf(part);
    const doc = section === null ? await collection.findOne({ _id: docId }) : await readPatchDocument(ctx, docId);
    if (!doc) throw new StaleRead();
    return section === null ? linesOfContent(doc) : sectionLines(doc, section);
  };
  const lines =
    patch === null ? await storedLines(id) : await Promise.all([chunkLines(ctx, collection, base), storedLines(patch)]).then(([b, p]) => applyPatch(b, p));
  ctx.chunkCache.set(id, lines);
  return lines;
}

/** A commit's patch document (with the rank chunks), read once for the chunks of both lists it patches. */
function readPatchDocument(ctx: RankingContext, _id: string): Promise<ChunkDocument | null> {
  const known = ctx.patchDocuments.get(_id);
  if (known) return Promise.resolve(known);
  return sharedRead(ctx.patchReads, _id, async () => {
    const doc = await ctx.rankChunks.findOne({ _id });
    if (doc) ctx.patchDocuments.set(_id, doc);
    return doc;
  });
}

export async function lineAtPosition(ctx: RankingContext, collection: Collection<ChunkDocument>, index: ChunkIndex, position: number): Promise<string | null> {
  const found = chunkAtPosition(index.counts, position);
  if (!found) return null;
  const lines = await chunkLines(ctx, collection, index.ids[found.chunk]!);
  return lines[position - found.before - 1] ?? null;
}

/** Runs a read again when a commit replaced what it was reading. */
export async function readAgainOnStale<T>(ctx: RankingContext, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof StaleRead) || attempt >= ctx.maxAttempts) throw error;
      ctx.rootCache.clear(); // rare: what was cached no longer matches the database
    }
  }
}

/** A participant's position and standing (`rankOf`): head, roots, one user chunk, one rank chunk. */
export async function readRankOf(ctx: RankingContext, scope: RankingScope, userId: string): Promise<(RankedStanding & { participants: number }) | null> {
  const root = await loadRoot(ctx, scopeKey(scope));
  const probe = userProbe(userId);
  const u = chunkFor(root.users.fences, probe);
  if (u < 0) return null;
  const [userLines] = await fetchChunks(ctx, ctx.userChunks, [root.users.ids[u]!]);
  const found = userLines![lowerBound(userLines!, probe)];
  if (found === undefined || userKeyOf(found) !== probe) return null;
  const line = rankLineOfUserLine(found);
  const r = chunkFor(root.rank.fences, line);
  const [rankLines] = await fetchChunks(ctx, ctx.rankChunks, [root.rank.ids[r]!]);
  const at = lowerBound(rankLines!, line);
  if (rankLines![at] !== line) throw new StaleRead(); // cannot happen with one consistent root
  return { ...parseRankLine(line), position: countBefore(root.rank.counts, r) + at + 1, participants: root.participants };
}

/** A page (`page`): head, roots and the one or two rank chunks holding it. */
export async function readPage(ctx: RankingContext, scope: RankingScope, offset: number, limit: number): Promise<RankingPage> {
  const root = await loadRoot(ctx, scopeKey(scope));
  const first = offset + 1;
  const last = Math.min(offset + limit, root.participants);
  if (limit <= 0 || first > last) return { participants: root.participants, entries: [] };
  const from = chunkAtPosition(root.rank.counts, first)!;
  const to = chunkAtPosition(root.rank.counts, last)!;
  const chunks = await fetchChunks(ctx, ctx.rankChunks, root.rank.ids.slice(from.chunk, to.chunk + 1));
  const lines = chunks.flat().slice(first - from.before - 1, last - from.before);
  return { participants: root.participants, entries: lines.map((line, i) => ({ ...parseRankLine(line), position: first + i })) };
}

export async function readThreshold(ctx: RankingContext, scope: RankingScope, maxParticipants: number): Promise<DecimalString | null> {
  const root = await loadRoot(ctx, scopeKey(scope));
  const line = await lineAtPosition(ctx, ctx.rankChunks, root.rank, maxParticipants);
  return line === null ? null : parseRankLine(line).value;
}

export async function readGroupsOfRun(
  ctx: RankingContext,
  tenantId: string,
  leaderboardId: string,
  run: string,
): Promise<Array<{ group: string; version: number }>> {
  const listed = await ctx.rankings.findOne({ _id: groupsId(tenantId, leaderboardId, run) }, { projection: { groups: 1 } });
  const groups = [...(listed?.groups ?? [])].sort();
  const heads = await Promise.all(
    groups.map((group) => ctx.rankings.findOne({ _id: headId(scopeKey({ tenantId, leaderboardId, run, group })) }, { projection: { version: 1 } })),
  );
  return groups.map((group, i) => ({ group, version: heads[i]?.version ?? 0 }));
}

export async function readVersion(ctx: RankingContext, scope: RankingScope, known?: number): Promise<number> {
  const key = scopeKey(scope);
  let version = known ?? (await ctx.rankings.findOne({ _id: headId(key) }, { projection: { version: 1 } }))?.version ?? 0;
  while (await ctx.rankings.findOne({ _id: rootId(key, version + 1) }, { projection: { _id: 1 } })) version += 1;
  return version;
}
