import { applyTimeTriggers, type PointsChange, type PointsEvent } from "../features/points/domain/points.js";
import { catchUpStreak } from "../features/streaks/domain/streak.js";
import { userStreak } from "../features/streaks/domain/streak-frequency.js";
import { effectiveStreakSettings } from "../features/users/domain/preferences.js";
import { contributionOf, entersStreakLeaderboards } from "../features/leaderboards/domain/leaderboard-entries.js";
import type { ServiceContext } from "../engine/context.js";
import { loadEngineConfig } from "../engine/engine-config.js";
import type { DueUserWork } from "./scheduler.js";
import { applyUserChange, changeUserState, type CatchUp, type EarlierContribution, type UserChange } from "../engine/user-state.js";
import { growthsOf, plannedDueAt, rewardStreakGrowth, type EngineConfig, type StreakGrowth } from "../engine/domain/reactions.js";
import { findUser, minuteOf, type VersionedUser } from "../engine/store/user-documents.js";
import { FINAL_SETTLING_MS, nextWindowEdge } from "../features/leaderboards/domain/leaderboard-runs.js";
import { zoneInForce, type UserState } from "../engine/domain/user.js";
import { BACKFILL_QUIET_MS } from "../engine/domain/event.js";
import { userIdsOfTenant } from "../engine/store/tenant-users.js";
import { addDueUsers } from "./store/due-users.js";

/**
 * The time-driven work of one user, run by the scheduler when it is due: the streak is brought up
 * to now (a missed period consumes a freeze or loses the streak; freezes are earned) and
 * time-triggered points are paid; then the next due time is stored, with the webhook messages of
 * what happened (in the same write). Idempotent: it recomputes from the stored state and now, so
 * running it twice changes nothing (and notifies nothing) the second time. A user met before their
 * due time (listed early: workers/store/due-users.ts) is left alone, and their due time returned
 * for the scheduler to list them there. A user whose stored due time the tenant's configuration has
 * since brought earlier (a time trigger made active after their last write: see
 * `rescheduleTenantUsers`) is brought up to now the same way, which stores the earlier due time;
 * so is a user with a live streak missing from an active streak leaderboard's current run (entered
 * with their streak's length, silently: see docs/features.md, Leaderboards).
 */
export const runDueWork: DueUserWork = async (ctx: ServiceContext, tenantId: string, userId: string) => {
  const engine = await loadEngineConfig(ctx, tenantId);
  return changeUserState(ctx, tenantId, userId, async (stored, now) =>
    stored ? decideDueWork(ctx, tenantId, engine, stored, now) : { write: null, result: null },
  );
};

/** The visit's decision (`runDueWork`): the state to write, or none and the stored due time when nothing is due. */
async function decideDueWork(ctx: ServiceContext, tenantId: string, engine: EngineConfig, stored: VersionedUser, now: Date): Promise<UserChange<Date | null>> {
  const storedDueAt = stored.state.dueAt;
  const planned = plannedDueAt(stored.state, engine, now);
  const broughtEarlier = planned !== null && (storedDueAt === null || planned < storedDueAt);
  let state = stored.state;
  const settings = effectiveStreakSettings(engine.streak, state.preferences);
  const followed = settings && state.streak ? userStreak(state, settings, now) : null;
  const caught = settings && followed ? catchUpStreak(followed, settings, state.tzHistory, now) : null;
  if (caught) state = { ...state, streak: caught.state };
  // A streak leaderboard that became active after the user's last change (see
  // `rescheduleTenantUsers`) still lacks their current streak: the visit enters them. Not while an
  // import's backdated events are arriving (`BACKFILL_QUIET_MS`): that would judge the periods
  // they are for; the due visit at its end enters them.
  const quiet = state.backfillQuietUntil !== null && state.backfillQuietUntil > now;
  const entering = caught !== null && !quiet && entersStreakLeaderboards(state, engine.leaderboards ?? [], caught.state.length, now);
  // Listed for a minute whose work a later write moved or settled: nothing is due yet.
  if (!broughtEarlier && !entering && !isDue(storedDueAt, now)) return { write: null, result: storedDueAt };
  // Not into a run that was final before the scheduler could have paid it: its rankings were
  // announced (`leaderboard.finished`, which waits as long). Intervals due before an import arrived
  // (the wait after its backdated events held them) count in the runs of their moments, final ones
  // included, as its events did.
  const finalBy = new Date(now.getTime() - FINAL_SETTLING_MS);
  const importedAt = state.backfillQuietUntil && new Date(state.backfillQuietUntil.getTime() - BACKFILL_QUIET_MS);
  // A period the catch-up counted at its end is rewarded as an event's extension would have been.
  const grown = rewardGrowth(state, growthsOf(caught?.events ?? []), engine, now);
  state = grown.state;
  const paid = payTimeTriggers(engine, state, now, (dueAt) => (importedAt && dueAt < importedAt ? undefined : finalBy));
  const earlier = [...grown.earlier, ...paid.earlier].sort((a, b) => a.at.getTime() - b.at.getTime());
  // Time-triggered points count on points leaderboards, each award in the run of the moment it
  // came due; a lost streak leaves streak leaderboards. A streak whose length the visit left as it
  // was only enters boards the user was missing from: that moves no rank of their doing, so it
  // sends no `leaderboard.rank_changed`.
  const applied = await applyUserChange(ctx, tenantId, engine, {
    state: { ...state, points: paid.points },
    events: { streakEvents: caught?.events, achievements: grown.achievements, pointsEvents: [...grown.pointsEvents, ...paid.events] },
    earlier,
    contribution: contributionOf(undefined, [], caught?.state.length),
    at: now,
    quietStreakLeaderboards: caught !== null && caught.state.length === followed?.length,
  });
  return { write: applied.state, result: null };
}

/**
 * The time-triggered points due by `at`, paid (`applyTimeTriggers`), with their changes as earlier
 * parts of the change for leaderboards (each in the run of its moment; with a `finalBy` for its
 * moment, not in a run final by then).
 */
export function payTimeTriggers(
  engine: EngineConfig,
  state: UserState,
  at: Date,
  finalByFor?: (dueAt: Date) => Date | undefined,
): { points: UserState["points"]; events: PointsEvent[]; earlier: EarlierContribution[] } {
  const paid = applyTimeTriggers(state.points, engine.points, state, at, engine.newId, windowEdgesOf(engine, state));
  return { points: paid.states, events: paid.events, earlier: earlierParts(paid.steps, finalByFor) };
}

/**
 * Streak lengths reached without an event of their own, rewarded (`rewardStreakGrowth`), with their
 * points as earlier parts of the change: in the runs of their moments, not in one final since
 * before the scheduler could have paid them.
 */
export function rewardGrowth(state: UserState, growths: readonly StreakGrowth[], engine: EngineConfig, now: Date) {
  const grown = rewardStreakGrowth(state, growths, engine);
  const finalBy = new Date(now.getTime() - FINAL_SETTLING_MS);
  return { state: grown.state, achievements: grown.achievements, pointsEvents: grown.pointsEvents, earlier: earlierParts(grown.steps, () => finalBy) };
}

/**
 * Points changes dated before the change that pays them, as its earlier parts for leaderboards
 * (each in the run of its moment; with a `finalBy` for its moment, not in a run final by then).
 */
function earlierParts(steps: ReadonlyArray<{ at: Date; changes: PointsChange[] }>, finalByFor?: (at: Date) => Date | undefined): EarlierContribution[] {
  return steps.map((step) => {
    const finalBy = finalByFor?.(step.at);
    return { contribution: contributionOf(undefined, step.changes, undefined), at: step.at, ...(finalBy && { finalBy }) };
  });
}

/**
 * Where time-triggered changes must split so that each is on one side of every points
 * leaderboard's daily window (its last interval decides whether the change counts in the window).
 */
function windowEdgesOf(engine: EngineConfig, user: UserState): ((at: Date) => number | null) | undefined {
  const windowed = (engine.leaderboards ?? []).filter((l) => l.config.rankBy === "points" && (l.config.startTime !== null || l.config.endTime !== null));
  if (windowed.length === 0) return undefined;
  return (at) => {
    const edges = windowed.map((l) => nextWindowEdge(l.config, at, zoneInForce(user, at))).filter((edge) => edge !== null);
    return edges.length === 0 ? null : Math.min(...edges);
  };
}

/**
 * For a call that changes a user (an event, a user write, an API achievement): when the user's due
 * time has passed (the scheduler has not visited yet), the visit is written first, so the call
 * decides on the state a visit on time would have left: an energy refill that came due covers the
 * event's deduction, time-triggered intervals are judged under the attributes they came due under,
 * a lapsed streak has ended. Costs nothing when nothing is due.
 */
export function dueWorkFirst(ctx: ServiceContext, tenantId: string, engine: EngineConfig): CatchUp {
  return async (stored, now) => {
    if (!hasWorkDue(stored.state, engine, now)) return null;
    return (await decideDueWork(ctx, tenantId, engine, stored, now)).write;
  };
}

/** Whether a stored due time has come. */
function isDue(dueAt: Date | null, now: Date): boolean {
  return dueAt !== null && dueAt <= now;
}

/**
 * Whether a user has time-driven work due: their stored due time has come, or the configuration
 * has since brought it before now (a time trigger made active after their last write, whose
 * scheduler visit `rescheduleTenantUsers` listed but which has not come yet: after an outage, or
 * behind a large tenant's other users).
 */
function hasWorkDue(state: UserState, engine: EngineConfig, now: Date): boolean {
  return isDue(state.dueAt, now) || isDue(plannedDueAt(state, engine, now), now);
}

/**
 * A user as a read must show them: when their due time has passed (the scheduler is behind, or
 * was down), its visit is run first, so reads never depend on it: a lapsed streak has left its
 * board, time-triggered points are paid. Then the scheduler finds nothing left to do.
 */
export async function withDueWorkDone(ctx: ServiceContext, tenantId: string, found: VersionedUser): Promise<VersionedUser> {
  if (!hasWorkDue(found.state, await loadEngineConfig(ctx, tenantId), ctx.now())) return found;
  await runDueWork(ctx, tenantId, found.state.userId);
  return (await findUser(ctx.database.collections.users, tenantId, found.state.userId)) ?? found;
}

/**
 * Lists every user of a tenant for the scheduler's next minute, after a configuration change that
 * can bring time-driven work earlier than the due times their last writes stored (a time trigger
 * made active, freeze earning changed): each visit recomputes the due time (`runDueWork`). Also
 * after a streak leaderboard became active: each visit enters the user with their live streak. Reads
 * the tenant's listing by `_id` and adds its users to the minute's pages (about one command per 64
 * users); the scheduler then visits them one after another, so with many users its later minutes
 * wait meanwhile.
 */
export async function rescheduleTenantUsers(ctx: ServiceContext, tenantId: string): Promise<void> {
  const { tenantUsers, users, dueUsers } = ctx.database.collections;
  const minute = minuteOf(ctx.now()) + 1;
  const userIds = await userIdsOfTenant(tenantUsers, users, ctx.userLocks, tenantId);
  await addDueUsers(
    dueUsers,
    ctx.userLocks,
    userIds.map((userId) => ({ minute, tenantId, userId })),
  );
}
