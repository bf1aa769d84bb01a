import { chunkDocuments, packIndex, parseRankLine, rankLineOfUserLine, userKeyOf, userProbe } from "../domain/leaderboard-ranking.js";
import { chunkContent } from "./chunk-content.js";
import { isDuplicateKeyError } from "../../../engine/store/database.js";
import { processNow } from "../../../engine/process-clock.js";
import { newRankChunkId, newUserChunkId, rootId, StaleRead, type RankingContext } from "./ranking-context.js";
import { fetchChunks, loadRoot } from "./ranking-reads.js";
import { deleteChunks, moveHead, wholeList } from "./ranking-writes.js";
import { rootFactsOf } from "./ranking-expiry.js";
import type { ChunkDocument, EntryChange, RankingDocument, RankingScope } from "./leaderboard-rankings.js";

/**
 * One attempt to erase a participant (see `eraseEntry`); null when another writer committed first.
 * Reads every chunk of the latest version, writes the ranking without the participant as whole
 * chunks (as `bulkLoad` does) under the next version, then strips every earlier version to a
 * tombstone (a slow writer still holding one cannot insert over it) and deletes every chunk document
 * they named: the ones the read version names (bases, patches, its index base) and the ones each
 * version not yet deleted freed (`freed`, and a root of the earlier format's `garbage`), which
 * wait for their root's expiry and may still hold the participant's lines.
 */
export async function tryErase(ctx: RankingContext, scope: RankingScope, key: string, userId: string): Promise<EntryChange[] | null> {
  const { rankings, rankChunks, userChunks } = ctx;
  const started = performance.now();
  const root = await loadRoot(ctx, key);
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
  const [rankLines, userLines] = await Promise.all([fetchChunks(ctx, rankChunks, root.rank.ids), fetchChunks(ctx, userChunks, root.users.ids)]);
  const probe = userProbe(userId);
  const userLine = userLines.flat().find((line) => line.startsWith(probe)) ?? null;
  const line = userLine === null ? null : rankLineOfUserLine(userLine);
  const ranked = rankLines.flat();
  const keptRank = line === null ? ranked : ranked.filter((l) => l !== line);
  const keptUsers = userLines.flat().filter((l) => l !== userLine);
  const rank = wholeList(ctx, keptRank, undefined, newRankChunkId);
  const users = wholeList(ctx, keptUsers, userKeyOf, newUserChunkId);
  const chunkDoc = (c: { id: string; lines: string[] }): ChunkDocument => ({
    _id: c.id,
    tenantId: scope.tenantId,
    leaderboardId: scope.leaderboardId,
    ...chunkContent(c.lines),
  });
  const earlier = Array.from({ length: root.version - root.oldest + 1 }, (_, i) => root.oldest + i);
  const [earlierFacts] = await Promise.all([
    Promise.all(earlier.map((v) => rootFactsOf(ctx, key, root, v))),
    ctx.insertRankChunks(rank.chunks.map(chunkDoc)),
    ctx.insertUserChunks(users.chunks.map(chunkDoc)),
  ]);
  const written = [...rank.chunks, ...users.chunks].map((c) => c.id);
  if (performance.now() - started > ctx.attemptMs) {
    await deleteChunks(ctx, written);
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
    rank: packIndex(rank.index),
    users: packIndex(users.index),
    ...(freed.length > 0 ? { freed: freed.join(" ") } : {}),
    createdAt: processNow(),
    oldest: root.oldest,
  } satisfies RankingDocument;
  try {
    await ctx.insertRoots([{ ...committed }]);
  } catch (error) {
    ctx.rootCache.delete(key);
    if (!isDuplicateKeyError(error)) throw error;
    await deleteChunks(ctx, written);
    return null;
  }
  for (const c of [...rank.chunks, ...users.chunks]) ctx.chunkCache.set(c.id, c.lines);
  ctx.rootFacts.set(committed._id, { createdAt: committed.createdAt, freed });
  if (ctx.exclusive) ctx.rootCache.set(key, committed);
  await moveHead(ctx, scope, key, version);
  const tombstone = { $unset: { rank: "", users: "", index: "", indexPatch: "", garbage: "" }, $set: { supersededAt: processNow() } } as const;
  await Promise.all(earlier.map((v) => rankings.updateOne({ _id: rootId(key, v) }, tombstone)));
  await deleteChunks(ctx, freed);
  const position = line === null ? null : ranked.indexOf(line) + 1;
  const was = line === null ? null : parseRankLine(line);
  return [
    { ...none, changed: line !== null, previousPosition: position, previousRank: position, previousValue: was?.value ?? null, participants: keptRank.length },
  ];
}
