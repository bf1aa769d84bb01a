import { processNowMs } from "../../../engine/process-clock.js";
import { rootId, type RankingContext, type RootFacts, type RootState } from "./ranking-context.js";
import { deleteChunks } from "./ranking-writes.js";

/**
 * Expiry of superseded roots (leaderboard-rankings.ts explains why they are kept `RETAIN_MS`): a
 * commit deletes the oldest ones in batches, with the chunk documents their successors freed.
 */

/** What version `v` of the scope whose latest root is `root` freed, and when it was committed; null once deleted. */
export async function rootFactsOf(ctx: RankingContext, key: string, root: RootState, v: number): Promise<RootFacts | null> {
  if (v === root.version) return { createdAt: root.createdAt, freed: root.freed };
  const known = ctx.rootFacts.get(rootId(key, v));
  if (known) return known;
  const doc = await ctx.rankings.findOne({ _id: rootId(key, v) }, { projection: { createdAt: 1, freed: 1 } });
  if (!doc) return null;
  const facts = { createdAt: doc.createdAt ?? new Date(0), freed: doc.freed ? doc.freed.split(" ") : [] };
  ctx.rootFacts.set(rootId(key, v), facts); // a committed root's facts never change: read once
  return facts;
}

/**
 * The `garbageBatch` oldest superseded versions, once the successor of the last of them is older
 * than `RETAIN_MS` (versions are committed in order, so all of them are), with the chunks they
 * named that their successors freed: a commit deletes them, the chunks first. Nothing while fewer
 * have expired, so deleting costs a few commands per batch, not per commit.
 */
export async function expiredRoots(ctx: RankingContext, key: string, root: RootState): Promise<{ versions: number[]; chunks: string[] }> {
  const none = { versions: [], chunks: [] };
  const last = root.oldest + ctx.garbageBatch; // the successor of the last version to delete
  if (last > root.version) return none;
  // A missing successor was deleted already, with what it freed: it expired long ago.
  const newest = await rootFactsOf(ctx, key, root, last);
  if (newest && newest.createdAt.getTime() > processNowMs() - ctx.retainMs) return none;
  const versions = Array.from({ length: ctx.garbageBatch }, (_, i) => root.oldest + i);
  const successors = [...(await Promise.all(versions.slice(0, -1).map((v) => rootFactsOf(ctx, key, root, v + 1)))), newest];
  return { versions, chunks: successors.flatMap((facts) => facts?.freed ?? []) };
}

/** Deletes expired roots and what their successors freed: the chunks first, so a crash between leaks nothing. */
export async function deleteExpired(ctx: RankingContext, key: string, expired: { versions: number[]; chunks: string[] }): Promise<void> {
  if (expired.versions.length === 0) return;
  await deleteChunks(ctx, expired.chunks);
  await ctx.rankings.bulkWrite(
    expired.versions.map((v) => ({ deleteOne: { filter: { _id: rootId(key, v) } } })),
    { ordered: false },
  );
  for (const v of expired.versions) ctx.rootFacts.delete(rootId(key, v));
}
