import type { Collection } from "mongodb";
import {
  chunkDocuments,
  diffIndexLines,
  diffChunkLines,
  indexLines,
  parseRankLine,
  patchedChunkId,
  patchInDocument,
  patchOptions,
  rankLine,
  rankLineOfUserLine,
  rankListDraft,
  rankWithin,
  userLine,
  userListDraft,
  userProbe,
  valueCodeOf,
  type ChunkIndex,
  type ChunkListDraft,
  type WrittenChunk,
} from "../domain/leaderboard-ranking.js";
import { chunkContent, packLines, sectionsContent, type ChunkContent } from "./chunk-content.js";
import { isDuplicateKeyError } from "../../../engine/store/database.js";
import { processNow } from "../../../engine/process-clock.js";
import { newRankChunkId, newUserChunkId, rootId, StaleRead, type Operation, type RankingContext, type RootState } from "./ranking-context.js";
import { chunkLines, fetchChunks, lineAtPosition, loadRoot } from "./ranking-reads.js";
import { deleteChunks, moveHead, registerGroup } from "./ranking-writes.js";
import { deleteExpired, expiredRoots } from "./ranking-expiry.js";
import type { ChunkDocument, EntryChange, RankingDocument, RankingScope } from "./leaderboard-rankings.js";

/**
 * Committing a group of writes to one scope (leaderboard-rankings.ts explains the protocol): load the
 * latest root and the chunks the writes touch, apply them in memory, insert the changed chunks (or
 * patches) under new IDs, then INSERT the next version's root, whose unique `_id` is the commit.
 */

/** Exclusive mode: the head moves on every this many versions (below ROOT_PROBE_LIMIT, ranking-reads.ts). */
const EXCLUSIVE_HEAD_EVERY = 8;

/** One attempt to apply a group of writes; null when another writer committed first. */
export async function tryCommit(ctx: RankingContext, scope: RankingScope, key: string, ops: readonly Operation[]): Promise<EntryChange[] | null> {
  const { rankings, rankChunks, userChunks, limits, exclusive } = ctx;
  const started = performance.now();
  const root = await loadRoot(ctx, key);
  const ranks = rankListDraft(root.rank, limits);
  const users = userListDraft(root.users, limits);

  // 1. Where everyone stands now (the list by user ID), then what each write makes of it.
  await loadInto(ctx, users, userChunks, users.missingFor(ops.map((op) => userProbe(op.userId))));
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
  await loadInto(ctx, ranks, rankChunks, ranks.missingFor(touched));

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
  if (!ranks.isChanged) return withThresholds(ctx, changes, ops, ranks, root.rank);

  // 3. Split and merge, loading the neighbours that asks for.
  for (;;) {
    const [rankNeeds, userNeeds] = [ranks.rebalance(), users.rebalance()];
    if (rankNeeds.length === 0 && userNeeds.length === 0) break;
    await Promise.all([loadInto(ctx, ranks, rankChunks, rankNeeds), loadInto(ctx, users, userChunks, userNeeds)]);
  }

  // 4. Write the new chunks, then claim the next version by inserting its root.
  const rank = ranks.finish(newRankChunkId);
  const user = users.finish(newUserChunkId);
  const [rankWrites, userWrites] = await Promise.all([chunkWrites(ctx, rankChunks, rank.written), chunkWrites(ctx, userChunks, user.written)]);
  // The patches of both lists go into one document, a section each; the indexes name them.
  const patchDocId = newRankChunkId();
  const sections: string[][] = [];
  const stored = (writes: ChunkWrite[], index: ChunkIndex) =>
    writes.map(({ chunk, patch }) => {
      if (patch === null) return { id: chunk.id, lines: chunk.lines, whole: true };
      // No difference left (lines added and taken out again): the chunk is the one it would patch.
      const id = patch.lines.length === 0 ? patch.on : patchedChunkId(patch.on, patchInDocument(patchDocId, sections.push(patch.lines) - 1));
      index.ids[index.ids.indexOf(chunk.id)] = id;
      return { id, lines: chunk.lines, whole: false };
    });
  const [rankStored, userStored] = [stored(rankWrites, rank.index), stored(userWrites, user.index)];
  // After the patches are named: the index names the patched chunks.
  const indexed = await indexFields(ctx, root, rank.index, user.index);
  const doc = (_id: string, content: ChunkContent): ChunkDocument => ({ _id, tenantId: scope.tenantId, leaderboardId: scope.leaderboardId, ...content });
  const wholeDocs = (chunks: Array<{ id: string; lines: string[]; whole: boolean }>) =>
    chunks.filter((c) => c.whole).map((c) => doc(c.id, chunkContent(c.lines)));
  const rankDocs = [
    ...wholeDocs(rankStored),
    ...(sections.length > 0 ? [doc(patchDocId, sectionsContent(sections))] : []),
    ...(indexed.written ? [doc(indexed.written.docId, chunkContent(indexed.written.lines))] : []),
  ];
  const userDocs = wholeDocs(userStored);
  await Promise.all([ctx.insertRankChunks(rankDocs), ctx.insertUserChunks(userDocs)]);
  // A replaced index base is garbage like a replaced chunk (readers of older roots may still read it a while).
  const replacedBase = indexed.written && root.indexBase !== null ? [root.indexBase] : [];
  const freed = [...root.legacyGarbage, ...replacedBase, ...documentsFreed([...ranks.replaced, ...users.replaced], rank.index, user.index)];
  const expired = await expiredRoots(ctx, key, root);
  const version = root.version + 1;
  if (version === 1) await registerGroup(ctx, scope);
  const written = [...rankDocs, ...userDocs].map((d) => d._id);
  if (performance.now() - started > ctx.attemptMs) {
    // Too slow: the version after the one read may be committed and deleted by now (see leaderboard-rankings.ts).
    await deleteChunks(ctx, written);
    throw new StaleRead();
  }
  // Before the root that says they are gone (its `oldest`): a crash after that insert would leave
  // them stored for good. Deleted whether or not this attempt wins: they expired all the same, and
  // the next attempt (finding them missing) lists them again as expired.
  await deleteExpired(ctx, key, expired);
  const committed = {
    _id: rootId(key, version),
    // The scope is in the _id only (and on its head): `leaderboardRankingsFilter`, `tenantRankingsFilter`.
    // Its version is in the _id, and its participants are the sum of the rank index's counts.
    ...indexed.fields,
    ...(freed.length > 0 ? { freed: freed.join(" ") } : {}),
    createdAt: processNow(),
    oldest: root.oldest + expired.versions.length,
  } satisfies RankingDocument;
  try {
    await ctx.insertRoots([{ ...committed }]);
  } catch (error) {
    ctx.rootCache.delete(key); // whatever happened, the next attempt reads the database
    if (!isDuplicateKeyError(error)) throw error;
    await deleteChunks(ctx, written);
    return null;
  }
  for (const c of [...rankStored, ...userStored]) ctx.chunkCache.set(c.id, c.lines);
  if (indexed.written) ctx.chunkCache.set(indexed.written.docId, indexed.written.lines);
  ctx.rootFacts.set(committed._id, { createdAt: committed.createdAt, freed });
  if (exclusive) ctx.rootCache.set(key, committed);

  // 5. Committed: move the head and strip the previous root to a tombstone (keeping `freed`). (Now
  //    and then a batch of expired roots went before the commit, with the chunks their successors freed.)
  // The head is a hint readers probe forward from; this process alone reads its cached root, so
  // in exclusive mode it moves the head now and then only (a restarted reader probes a few roots).
  if (!exclusive || version === 1 || version % EXCLUSIVE_HEAD_EVERY === 0) await moveHead(ctx, scope, key, version);
  if (root.version > 0 && !exclusive)
    await rankings.updateOne(
      { _id: rootId(key, root.version) },
      { $unset: { rank: "", users: "", index: "", indexPatch: "", garbage: "" }, $set: { supersededAt: processNow() } },
    );
  return withThresholds(ctx, changes, ops, ranks, rank.index);
}

/**
 * The index fields of a root listing `rank` and `users`: the base of `root` with a patch while the
 * patch is at most `indexPatchMax` lines, else a new base (`written`, to insert with the chunks).
 */
async function indexFields(
  ctx: RankingContext,
  root: RootState,
  rank: ChunkIndex,
  users: ChunkIndex,
): Promise<{ fields: Pick<RankingDocument, "index" | "indexPatch">; written: { docId: string; lines: string[] } | null }> {
  const lines = indexLines(rank, users);
  if (root.indexBase !== null) {
    const patch = diffIndexLines(await chunkLines(ctx, ctx.rankChunks, root.indexBase), lines);
    if (patch.length <= ctx.indexPatchMax) return { fields: { index: root.indexBase, indexPatch: packLines(patch) }, written: null };
  }
  const docId = newRankChunkId();
  return { fields: { index: docId, indexPatch: "" }, written: { docId, lines } };
}

/** A chunk a list's draft wrote, and the patch it is stored as (null: written whole). */
interface ChunkWrite {
  chunk: WrittenChunk;
  patch: { on: string; lines: string[] } | null;
}

/**
 * How a commit stores the chunks a list's draft wrote: a chunk that edits a stored one becomes a
 * patch when one of its `patchOptions` holds the difference, any other is written whole.
 */
async function chunkWrites(ctx: RankingContext, collection: Collection<ChunkDocument>, written: readonly WrittenChunk[]): Promise<ChunkWrite[]> {
  return Promise.all(
    written.map(async (chunk) => {
      for (const { on, max } of chunk.origin ? patchOptions(chunk.origin.id, ctx.patchLimits) : []) {
        const onLines = on === chunk.origin!.id ? chunk.origin!.lines : await chunkLines(ctx, collection, on);
        const diff = diffChunkLines(onLines, chunk.lines);
        if (diff.length <= max) return { chunk, patch: { on, lines: diff } };
      }
      return { chunk, patch: null };
    }),
  );
}

/** The stored documents no longer needed once `index` replaced the chunks `replaced` (see chunkDocuments). */
function documentsFreed(replaced: readonly string[], ...indexes: ChunkIndex[]): string[] {
  const freed = new Set(replaced.flatMap(chunkDocuments));
  if (freed.size === 0) return [];
  const candidates = [...freed];
  for (const index of indexes)
    for (const id of index.ids)
      // An ID that contains none of the few candidates names none of them: only the others are split
      // (every commit walks the whole index; splitting every ID cost 4 % of a full-profile event).
      if (candidates.some((doc) => id.includes(doc))) for (const doc of chunkDocuments(id)) freed.delete(doc);
  return [...freed];
}

async function loadInto(ctx: RankingContext, draft: ChunkListDraft, collection: Collection<ChunkDocument>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const chunks = await fetchChunks(ctx, collection, ids);
  ids.forEach((id, i) => draft.load(id, chunks[i]!));
}

/** Adds `threshold` to the changes of writes that gave `maxParticipants`. */
async function withThresholds(
  ctx: RankingContext,
  changes: EntryChange[],
  ops: readonly Operation[],
  ranks: ChunkListDraft,
  index: ChunkIndex,
): Promise<EntryChange[]> {
  const lines = new Map<number, string | null>();
  for (const [i, op] of ops.entries()) {
    if (op.maxParticipants === undefined) continue;
    const max = op.maxParticipants;
    if (!lines.has(max)) {
      let line = ranks.lineAt(max);
      if (line === undefined) line = await lineAtPosition(ctx, ctx.rankChunks, index, max);
      lines.set(max, line);
    }
    const line = lines.get(max)!;
    changes[i]!.threshold = line === null ? null : parseRankLine(line).value;
  }
  return changes;
}
