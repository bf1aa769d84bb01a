import { forEachLimited } from "../../../engine/for-each-limited.js";
import { chunkDocuments } from "../domain/leaderboard-ranking.js";
import { groupsId, headId, rootId, scopeKey, type RankingContext } from "./ranking-context.js";
import { rootFactsOf } from "./ranking-expiry.js";
import { loadRoot, readAgainOnStale } from "./ranking-reads.js";
import { deleteChunks } from "./ranking-writes.js";

/** Runs, and a scope's kept roots, read at once while a leaderboard's rankings are deleted. */
const AT_ONCE = 8;

/**
 * Deletes every ranking of a leaderboard by key (leaderboard-rankings.ts describes the documents):
 * for each of `runs` (the runs of its calendar), the run's groups document; for each group's scope,
 * the documents its latest root names, those the roots still kept freed (what superseded chunks
 * wait on), those roots, their tombstones and the head. Nothing is queried: a document a crashed
 * commit left unnamed is not found, as no read finds it either.
 */
export async function deleteLeaderboardRankings(ctx: RankingContext, tenantId: string, leaderboardId: string, runs: readonly string[]): Promise<void> {
  ctx.rootCache.clear(); // rare: forget every cached root rather than find this leaderboard's
  await forEachLimited(runs, AT_ONCE, async (run) => {
    const _id = groupsId(tenantId, leaderboardId, run);
    const listed = await ctx.rankings.findOne({ _id }, { projection: { groups: 1 } });
    if (!listed) return;
    for (const group of listed.groups ?? []) await deleteScope(ctx, scopeKey({ tenantId, leaderboardId, run, group }));
    await ctx.rankings.deleteOne({ _id });
  });
}

async function deleteScope(ctx: RankingContext, key: string): Promise<void> {
  const root = await readAgainOnStale(ctx, () => loadRoot(ctx, key));
  const versions = Array.from({ length: Math.max(0, root.version - root.oldest + 1) }, (_, i) => root.oldest + i);
  const documents = new Set<string>([...root.freed, ...root.legacyGarbage, ...(root.indexBase === null ? [] : [root.indexBase])]);
  for (const id of [...root.rank.ids, ...root.users.ids]) for (const doc of chunkDocuments(id)) documents.add(doc);
  // The oldest kept root's own `freed` went with the root before it; the latest's is read above.
  await forEachLimited(versions.slice(1, -1), AT_ONCE, async (v) => {
    for (const doc of (await rootFactsOf(ctx, key, root, v))?.freed ?? []) documents.add(doc);
  });
  await deleteChunks(ctx, [...documents]);
  await ctx.rankings.bulkWrite(
    [...versions.map((v) => rootId(key, v)), headId(key)].map((_id) => ({ deleteOne: { filter: { _id } } })),
    { ordered: false },
  );
}
