import { RankingConflictError, scopeKey, StaleRead, type Job, type Operation, type RankingContext } from "./ranking-context.js";
import { tryCommit } from "./ranking-commit.js";
import { tryErase } from "./ranking-erase.js";
import type { EntryChange, RankingScope } from "./leaderboard-rankings.js";

/**
 * The writes of a scope, queued in this process and committed in groups: every write waiting while
 * a commit runs goes into the next one, so concurrent events cost one commit per group and never
 * conflict with each other. An attempt that loses to another writer is applied again.
 */

export function submit(ctx: RankingContext, scope: RankingScope, op: Operation): Promise<EntryChange> {
  return new Promise((resolve, reject) => {
    const key = scopeKey(scope);
    const queue = ctx.queues.get(key);
    if (queue) {
      queue.push({ op, resolve, reject });
      return;
    }
    const fresh: Job[] = [{ op, resolve, reject }];
    ctx.queues.set(key, fresh);
    void drain(ctx, scope, key, fresh);
  });
}

async function drain(ctx: RankingContext, scope: RankingScope, key: string, queue: Job[]): Promise<void> {
  await Promise.resolve(); // let writes submitted in the same tick join the first commit
  while (queue.length > 0) {
    // An erase is committed alone; other writes go in groups up to the next erase.
    const erasing = queue.findIndex((job) => job.op.erase);
    const jobs = queue.splice(0, erasing === 0 ? 1 : erasing > 0 ? Math.min(erasing, ctx.batchSize) : ctx.batchSize);
    try {
      const changes = await commit(
        ctx,
        scope,
        jobs.map((j) => j.op),
      );
      jobs.forEach((job, i) => job.resolve(changes[i]!));
    } catch (error) {
      for (const job of jobs) job.reject(error);
    }
  }
  ctx.queues.delete(key);
}

async function commit(ctx: RankingContext, scope: RankingScope, ops: readonly Operation[]): Promise<EntryChange[]> {
  const key = scopeKey(scope);
  for (let attempt = 1; attempt <= ctx.maxAttempts; attempt++) {
    try {
      const changes = ops[0]?.erase ? await tryErase(ctx, scope, key, ops[0].userId) : await tryCommit(ctx, scope, key, ops);
      if (changes) return changes;
    } catch (error) {
      if (!(error instanceof StaleRead)) throw error;
      ctx.rootCache.delete(key);
    }
    // Another instance committed first: wait a little (more after each loss), then apply again.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
  }
  throw new RankingConflictError(`the ranking ${key} kept changing; ${ops.length} write(s) not applied after ${ctx.maxAttempts} attempts`);
}
