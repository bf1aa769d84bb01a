import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { leaseStore } from "./store/leases.js";
import { addDueUsers, clearDueBuckets, findDueUsers } from "./store/due-users.js";
import type { ServiceContext } from "../engine/context.js";
import { createLeasedLoop, walkElapsedMinutes, type Pass } from "./leased-loop.js";
import { minuteOf } from "../engine/store/user-documents.js";
import { bucketsListedBefore } from "../engine/store/keyed-buckets.js";
import { createRetentionPurge } from "./retention-purge.js";

/**
 * Brings one user's time-driven state up to `now` and stores the next due time (via changeUserState).
 * Returns the stored due time when the user was met before it (nothing due yet): the scheduler
 * lists the user again there (workers/store/due-users.ts).
 */
export type DueUserWork = (ctx: ServiceContext, tenantId: string, userId: string) => Promise<Date | null>;

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
 * A user whose work is due is listed in `due_users` at or before its minute (workers/store/due-users.ts,
 * written before the user write that decided it); the scheduler walks the minutes in order, reading
 * each minute's few documents by `_id`, never scanning users (far behind, it reads the IDs of the
 * pending work instead and skips the empty minutes: walkElapsedMinutes), and lists the users it met early
 * again at their due minute before it clears the minute. A lease with a cursor (in `leases`) makes
 * one instance at a time do it and makes the work survive restarts: a minute is marked done only
 * after all its users were processed, and the work itself is idempotent (it recomputes from the
 * stored state and `now`), so a minute processed twice after a crash changes nothing twice.
 * Reads and user changes never depend on the scheduler: they run the same visit first when a
 * user's due time has passed (workers/due-work.ts `withDueWorkDone`, `dueWorkFirst`).
 */
export function createScheduler(ctx: ServiceContext, logger: Logger, options: SchedulerOptions): Scheduler {
  const buckets = dueUserBuckets(ctx);
  const owner = randomUUID();
  const leaseMs = options.leaseMs ?? 30_000;
  const retention = createRetentionPurge(ctx, owner, leaseMs, () => loop.stopping());
  let visited = 0;
  const loop = createLeasedLoop({
    name: "scheduler tick",
    logger,
    intervalMs: options.tickMs ?? 1000,
    firstPassAfterInterval: true,
    now: ctx.now,
    lease: { store: leaseStore(ctx.database.collections.leases), name: LEASE_NAME, owner, ms: leaseMs },
    pass: async (pass) => {
      await retention.runIfDue().catch((error: unknown) => logger.error({ err: error }, "retention purge failed"));
      visited = await walkDueMinutes(
        pass,
        ctx.now(),
        options.lookbackMinutes ?? 60,
        buckets,
        (tenantId, userId) => options.work(ctx, tenantId, userId),
        logger,
      );
      return false; // every elapsed minute was walked
    },
  });
  return {
    async tick() {
      visited = 0;
      await loop.runOnce();
      return visited;
    },
    start: loop.start,
    async stop() {
      await loop.stop();
      await retention.release();
    },
  };
}

/** Where the scheduler finds who is due in a minute (workers/store/due-users.ts); tests pass an in-memory one. */
export interface DueUserBuckets {
  find(minute: number): Promise<{ users: Array<{ tenantId: string; userId: string }>; bucketIds: string[] }>;
  /** The minutes before `minute` that list anyone, oldest first (a scan of pending work). */
  listedBefore(minute: number): Promise<number[]>;
  add(entries: ReadonlyArray<{ minute: number; tenantId: string; userId: string }>): Promise<void>;
  clear: (bucketIds: readonly string[]) => Promise<void>;
}

function dueUserBuckets(ctx: ServiceContext): DueUserBuckets {
  const buckets = ctx.database.collections.dueUsers;
  return {
    find: (minute) => findDueUsers(buckets, minute),
    listedBefore: (minute) => bucketsListedBefore(buckets, minute),
    add: (entries) => addDueUsers(buckets, ctx.userLocks, entries),
    clear: (bucketIds) => clearDueBuckets(buckets, bucketIds),
  };
}

/**
 * Walks the fully elapsed minutes after the lease's cursor (everything due in them is due by
 * `now`), doing each due user's work once per minute; a minute is cleared and the cursor moved
 * past it only after all its users were visited and those met early listed again at their due
 * minute (a user whose work failed: at the next minute, so that it is tried again). Returns how
 * many users it visited.
 */
export async function walkDueMinutes(
  pass: Pass,
  now: Date,
  lookbackMinutes: number,
  buckets: DueUserBuckets,
  work: (tenantId: string, userId: string) => Promise<Date | null | void>,
  logger: Logger,
): Promise<number> {
  let visited = 0;
  const visitMinute = async (minute: number) => {
    const { users, bucketIds } = await buckets.find(minute);
    const seen = new Set<string>();
    const again: Array<{ minute: number; tenantId: string; userId: string }> = [];
    for (const { tenantId, userId } of users) {
      if (seen.has(`${tenantId}/${userId}`)) continue;
      seen.add(`${tenantId}/${userId}`);
      try {
        const waiting = await work(tenantId, userId);
        if (waiting) again.push({ minute: minuteOf(waiting), tenantId, userId });
      } catch (error) {
        // One user's failure must not stop everyone else's work.
        logger.error({ err: error, tenantId, userId, minute }, "scheduled work failed");
        again.push({ minute: minuteOf(now) + 1, tenantId, userId });
      }
    }
    if (again.length > 0) await buckets.add(again);
    await buckets.clear(bucketIds);
    visited += seen.size;
  };
  // A first run also visits the users listed before its lookback (walkElapsedMinutes).
  await walkElapsedMinutes(pass, now, lookbackMinutes, visitMinute, (minute) => buckets.listedBefore(minute));
  return visited;
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
