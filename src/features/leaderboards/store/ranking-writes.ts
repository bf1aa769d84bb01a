import { chunkSortedLines } from "../domain/leaderboard-ranking.js";
import { retryOnDuplicate } from "../../../engine/store/database.js";
import { groupsId, headId, scopeFields, tenantRankingsFilter, type RankingContext } from "./ranking-context.js";
import type { RankingScope } from "./leaderboard-rankings.js";

/** Writes shared by commits, erasures and bulk loads: the groups list, the head, deleting chunks, whole lists. */

/**
 * Lists a scope's group in its run's GROUPS document (`g:<tenant, leaderboard, run>`), read by
 * `groupsOfRun` by `_id`. Done before the scope's first root is inserted, so a crash leaves at most
 * a listed group without a ranking (read as empty), never a ranking its run does not list.
 */
export async function registerGroup(ctx: RankingContext, scope: RankingScope): Promise<void> {
  const _id = groupsId(scope.tenantId, scope.leaderboardId, scope.run);
  // FerretDB applies an update as a read then a write: one addition at a time in this process.
  await ctx.groupLocks.run(_id, () =>
    retryOnDuplicate(() =>
      ctx.rankings.updateOne(
        { _id },
        { $addToSet: { groups: scope.group }, $setOnInsert: { tenantId: scope.tenantId, leaderboardId: scope.leaderboardId, run: scope.run } },
        { upsert: true },
      ),
    ),
  );
}

/**
 * Points the head at a committed version (never back, on MongoDB; on FerretDB two concurrent
 * moves can leave it one behind, which readers look past).
 */
export async function moveHead(ctx: RankingContext, scope: RankingScope, key: string, version: number): Promise<void> {
  await retryOnDuplicate(() => ctx.rankings.updateOne({ _id: headId(key) }, { $max: { version }, $setOnInsert: scopeFields(scope) }, { upsert: true }));
}

export async function deleteChunks(ctx: RankingContext, ids: readonly string[]): Promise<void> {
  for (const id of ids) ctx.chunkCache.delete(id);
  const rank = ids.filter((id) => id.startsWith("R"));
  const user = ids.filter((id) => id.startsWith("U"));
  // One delete by _id each (an `$in` is a scan on FerretDB), in one command per collection.
  const byId = (id: string) => ({ deleteOne: { filter: { _id: id } } });
  await Promise.all([
    rank.length > 0 ? ctx.rankChunks.bulkWrite(rank.map(byId), { ordered: false }) : null,
    user.length > 0 ? ctx.userChunks.bulkWrite(user.map(byId), { ordered: false }) : null,
  ]);
}

/** A sorted list written whole (bulk loads, erasures): chunks filled to three quarters, and their index. */
export function wholeList(ctx: RankingContext, sorted: readonly string[], keyOf: ((line: string) => string) | undefined, newId: () => string) {
  const chunks = chunkSortedLines(sorted, Math.floor((ctx.limits.max * 3) / 4), keyOf).map((c) => ({ ...c, id: newId() }));
  return { chunks, index: { ids: chunks.map((c) => c.id), fences: chunks.map((c) => c.fence), counts: chunks.map((c) => c.lines.length) } };
}

/** Deletes every ranking of a tenant. */
export async function deleteTenantRankings(ctx: RankingContext, tenantId: string): Promise<void> {
  ctx.rootCache.clear();
  await Promise.all([
    ctx.rankings.deleteMany(tenantRankingsFilter(tenantId)),
    ctx.rankChunks.deleteMany({ tenantId }),
    ctx.userChunks.deleteMany({ tenantId }),
  ]);
}
