import type { Collection } from "mongodb";
import { packIndex, rankLine, userKeyOf, userLine, type Standing } from "../domain/leaderboard-ranking.js";
import { chunkContent } from "./chunk-content.js";
import { processNow } from "../../../engine/process-clock.js";
import { newRankChunkId, newUserChunkId, rootId, scopeKey, type RankingContext } from "./ranking-context.js";
import { loadRoot } from "./ranking-reads.js";
import { moveHead, registerGroup, wholeList } from "./ranking-writes.js";
import type { ChunkDocument, RankingScope } from "./leaderboard-rankings.js";

/** Writes a whole ranking into an EMPTY scope (`bulkLoad`): the same documents as one write per participant would leave. */
export async function bulkLoad(ctx: RankingContext, scope: RankingScope, standings: readonly Standing[]): Promise<void> {
  const key = scopeKey(scope);
  if ((await loadRoot(ctx, key)).version !== 0) throw new Error(`bulkLoad needs an empty ranking; ${key} has one`);
  const lines = standings.map(rankLine).sort();
  for (let i = 1; i < lines.length; i++) if (lines[i] === lines[i - 1]) throw new Error(`bulkLoad: a participant is listed twice`);
  const byUser = lines.map(userLine).sort();
  const rank = wholeList(ctx, lines, undefined, newRankChunkId);
  const user = wholeList(ctx, byUser, userKeyOf, newUserChunkId);
  const write = async (collection: Collection<ChunkDocument>, chunks: Array<{ id: string; lines: string[] }>) => {
    for (let i = 0; i < chunks.length; i += 50) {
      await collection.insertMany(
        chunks.slice(i, i + 50).map((c) => ({ _id: c.id, tenantId: scope.tenantId, leaderboardId: scope.leaderboardId, ...chunkContent(c.lines) })),
      );
    }
  };
  await Promise.all([write(ctx.rankChunks, rank.chunks), write(ctx.userChunks, user.chunks), registerGroup(ctx, scope)]);
  await ctx.rankings.insertOne({
    _id: rootId(key, 1),
    rank: packIndex(rank.index),
    users: packIndex(user.index),
    createdAt: processNow(),
    oldest: 1,
  });
  await moveHead(ctx, scope, key, 1);
  ctx.rootCache.delete(key);
}
