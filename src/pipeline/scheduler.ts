import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { advanceLease, claimLease, releaseLease } from "../store/leases.js";
import { clearDueBuckets, findDueUsers } from "../store/due-users.js";
import { minuteOf } from "../store/users.js";
import type { ServiceContext } from "./context.js";
import { createRetentionPurge } from "./retention.js";

/** Brings one user's time-driven state up to `now` and stores the next due time (via changeUserState). */
export type DueUserWork = (ctx: ServiceContext, tenantId: string, userId: string) => Promise<void>;

export interface SchedulerOptions {
  work: DueUserWork;
  /** How often the loop wakes (default 1 s). */
  tickMs?: number;
  /** How long the claim lasts unless renewed (default 30 s). */
  leaseMs?: number;
  /** Where a scheduler that never ran starts (default: one hour back; afterwards its cursor persists). */
  lookbackMinutes?: number;
}

export interface Scheduler {
  /** Processes every fully elapsed minute not yet processed; returns how many users it visited. */
  tick(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

const LEASE_NAME = "scheduler:users";

/**
 * The one scheduler of time-driven work (streak period ends, freeze earning, time-based points).
 * The minute a user's work is next due is listed in `due_users` (store/due-users.ts, written before
 * the user write that decided it); the scheduler walks the minutes in order, reading each minute's
 * few documents by `_id`, never scanning users. A lease with a cursor (in `leases`) makes
 * one instance at a time do it and makes the work survive restarts: a minute is marked done only
 * after all its users were processed, and the work itself is idempotent (it recomputes from the
 * stored state and `now`), so a minute processed twice after a crash changes nothing twice.
 * Reads never depend on the scheduler: they compute the same catch-up before answering.
 */
export function createScheduler(ctx: ServiceContext, logger: Logger, options: SchedulerOptions): Scheduler {
  const owner = randomUUID();
  const leaseMs = options.leaseMs ?? 30_000;
  const leases = ctx.database.collections.leases;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const purgeIfDue = createRetentionPurge(ctx, owner, leaseMs);

  async function processMinute(minute: number): Promise<number> {
    const { users, bucketIds } = await findDueUsers(ctx.database.collections.dueUsers, minute);
    const seen = new Set<string>();
    for (const { tenantId, userId } of users) {
      if (seen.has(`${tenantId}/${userId}`)) continue;
      seen.add(`${tenantId}/${userId}`);
      try {
        await options.work(ctx, tenantId, userId);
      } catch (error) {
        // One user's failure must not stop everyone else's work; the user is retried by its next read or event.
        logger.error({ err: error, tenantId, userId, minute }, "scheduled work failed");
      }
    }
    await clearDueBuckets(ctx.database.collections.dueUsers, bucketIds);
    return seen.size;
  }

  async function tick(): Promise<number> {
    await purgeIfDue().catch((error) => logger.error({ err: error }, "retention purge failed"));
    const now = ctx.now();
    const lease = await claimLease(leases, LEASE_NAME, owner, now, leaseMs);
    if (!lease) return 0;
    // Only fully elapsed minutes: everything due in them is due by now.
    const lastElapsed = minuteOf(now) - 1;
    let minute = lease.cursor ?? lastElapsed - (options.lookbackMinutes ?? 60);
    let visited = 0;
    while (minute < lastElapsed && !stopped) {
      minute += 1;
      visited += await processMinute(minute);
      if (!(await advanceLease(leases, lease, minute, ctx.now(), leaseMs))) return visited; // lost the lease
    }
    return visited;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error) => logger.error({ err: error }, "scheduler tick failed"))
        .finally(schedule);
    }, options.tickMs ?? 1000);
    timer.unref();
  }

  return {
    tick,
    start: schedule,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      const lease = await leases.findOne({ _id: LEASE_NAME, owner });
      if (lease) await releaseLease(leases, { name: LEASE_NAME, owner, version: lease.version, cursor: lease.cursor });
    },
  };
}

/**
 * How far the scheduler is behind, in ms: from the end of the first minute it has not processed
 * yet to `now` (0 when caught up: that minute has not ended); null before any scheduler ran.
 */
export async function schedulerLagMs(ctx: ServiceContext): Promise<number | null> {
  const lease = await ctx.database.collections.leases.findOne({ _id: LEASE_NAME });
  if (!lease || lease.cursor === null) return null;
  return Math.max(0, ctx.now().getTime() - (lease.cursor + 2) * 60_000);
}
