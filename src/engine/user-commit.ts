import { oldestKeptDate, trimRankHistory } from "./domain/retention.js";
import type { UserState } from "./domain/user.js";
import { addDueUser } from "../workers/store/due-users.js";
import { applyStatsChanges, statsChanges } from "../features/achievements/store/achievement-stats.js";
import { markMetricsUsed } from "../features/metrics/store/metric-usage.js";
import { clearOutboxPending, markOutboxPending } from "../features/webhooks/store/pending-outboxes.js";
import { minuteOf, saveUser, type VersionedUser } from "./store/user-documents.js";
import { listTenantUsers } from "./store/tenant-users.js";
import { DEFAULT_RETENTION, type ServiceContext } from "./context.js";
import { handOverMessages, OUTBOX_LIMIT } from "../features/webhooks/webhook-outbox.js";

/**
 * Work already overdue (e.g. after a backfilled event) is due now: the scheduler only walks forward
 * from its cursor, so a due time in the past would never be visited.
 */
function dueTimeToStore(dueAt: Date | null, now: Date): Date | null {
  return dueAt && dueAt < now ? now : dueAt;
}

/**
 * Whether a write that stores `dueAt` (as `dueTimeToStore` gives it) must first list the user in the
 * scheduler's bucket of its minute. A user with a stored due time still to come is listed at or
 * before it, in a minute the scheduler has not finished (workers/store/due-users.ts): a due time
 * that moves later keeps that entry, and the scheduler lists the user again when it meets them
 * early. So only a first due time, an earlier one, or one after a stored time already past (whose
 * entry the scheduler may have cleared) is listed: an active user's daily streak, whose due time
 * moves a day later with the day's first event, costs the event no bucket write.
 */
export function needsDueEntry(storedDueAt: Date | null, dueAt: Date | null, now: Date): boolean {
  if (dueAt === null) return false;
  if (storedDueAt === null || storedDueAt <= now) return true;
  return minuteOf(dueAt) < minuteOf(storedDueAt);
}

/**
 * Starts listing the user in the scheduler's bucket of `dueAt`'s minute when the write will need it
 * (`needsDueEntry`), ahead of the write: a change calls this as soon as its due time is known, so the
 * bucket write runs beside its ranking writes, and the commit's own request for the same entry
 * reuses it (workers/store/due-users.ts). A failure here is left to the commit, which asks again.
 */
export function startDueEntry(ctx: ServiceContext, tenantId: string, userId: string, storedDueAt: Date | null, dueAt: Date | null): void {
  const now = ctx.now();
  const due = dueTimeToStore(dueAt, now);
  if (!needsDueEntry(storedDueAt, due, now)) return;
  addDueUser(ctx.database.collections.dueUsers, ctx.userLocks, minuteOf(due!), tenantId, userId, now).catch(() => {});
}

/**
 * Writes a user's next state after `stored` (null: a new user), with everything that must be
 * stored with it. Returns false on a version conflict (another instance wrote the user meanwhile):
 * the caller reloads and decides again. Called under the user's lock.
 *
 * What the background loops need is written BEFORE the user write, keyed by `_id`, so a crash in
 * between leaves at most a harmless extra entry, never forgotten work: the user's due minute (for the
 * scheduler, workers/store/due-users.ts) when `needsDueEntry`, the pending-outbox marker (for the webhook
 * worker, features/webhooks/store/pending-outboxes.ts) when the outbox stops being empty, the first event of a
 * metric anywhere (features/metrics/store/metric-usage.ts), and a new user in their tenant's listing
 * (engine/store/tenant-users.ts). The counters behind achievement rarity follow the write
 * (features/achievements/store/achievement-stats.ts). An outbox emptied by this
 * write clears its marker after it.
 *
 * Should the stored outbox have grown to OUTBOX_LIMIT (the worker is behind), this write hands the
 * stored, committed messages over itself before dropping them, which keeps the document small.
 */
export async function commitUserChange(
  ctx: ServiceContext,
  tenantId: string,
  stored: VersionedUser | null,
  next: UserState,
  attempt: number,
): Promise<boolean> {
  const { database } = ctx;
  const { users, pendingOutboxes, dueUsers, metricUsage, tenantUsers } = database.collections;
  const now = ctx.now();
  const oldestRankDate = oldestKeptRankDate(ctx, now);
  let write = {
    ...next,
    dueAt: dueTimeToStore(next.dueAt, now),
    leaderboards: oldestRankDate ? trimRankHistory(next.leaderboards, oldestRankDate) : next.leaderboards,
  };
  const storedOutbox = stored?.state.outbox ?? [];
  if (storedOutbox.length >= OUTBOX_LIMIT) {
    // Only messages already committed may be handed over before the write; this call's own are not yet.
    const committed = new Set(storedOutbox.map((m) => m.id));
    await handOverMessages(
      ctx,
      tenantId,
      write.outbox.filter((m) => committed.has(m.id)),
    );
    write = { ...write, outbox: write.outbox.filter((m) => !committed.has(m.id)) };
  }
  const version = (stored?.version ?? 0) + 1;
  const firstEventsOf = Object.keys(write.metrics).filter((id) => !stored?.state.metrics[id]);
  await Promise.all([
    firstEventsOf.length > 0 ? markMetricsUsed(metricUsage, firstEventsOf, now) : null,
    needsDueEntry(stored?.state.dueAt ?? null, write.dueAt, now)
      ? addDueUser(dueUsers, ctx.userLocks, minuteOf(write.dueAt!), tenantId, write.userId, now)
      : null,
    write.outbox.length > 0 && storedOutbox.length === 0 ? markOutboxPending(pendingOutboxes, tenantId, write.userId, version) : null,
    stored === null ? listTenantUsers(tenantUsers, ctx.userLocks, tenantId, [write.userId]) : null,
  ]);
  await ctx.atPipelinePoint?.("before-user-write", attempt);
  if (!(await saveUser(users, database.collections.userPages, tenantId, stored, write, database.writeMode, oldestRankDate))) return false;
  await ctx.atPipelinePoint?.("after-user-write", attempt);
  const counted = statsChanges(stored?.state ?? null, write);
  if (counted.size > 0) await applyStatsChanges(database.collections.achievementStats, ctx.userLocks, tenantId, counted);
  if (write.outbox.length === 0 && storedOutbox.length > 0) await clearOutboxPending(pendingOutboxes, tenantId, write.userId, version, database.writeMode);
  if (write.outbox.length > 0) ctx.wakeWebhooks?.();
  return true;
}

/** The oldest date of rank history kept (`retention.rankHistoryDays`; see engine/domain/retention.ts); null: kept by count only. */
export function oldestKeptRankDate(ctx: ServiceContext, now: Date): string | null {
  const days = ctx.retention?.rankHistoryDays ?? DEFAULT_RETENTION.rankHistoryDays;
  return days === null ? null : oldestKeptDate(now, days);
}
