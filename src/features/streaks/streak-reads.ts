import { notFound } from "../../engine/domain/errors.js";
import { growthsOf, type EngineConfig, type StreakGrowth } from "../../engine/domain/reactions.js";
import { noStreakView, readStreak, streakHistory, type StreakDomainEvent, type StreakReadView, type StreakState } from "./domain/streak.js";
import type { UserState } from "../../engine/domain/user.js";
import { userStreak } from "./domain/streak-frequency.js";
import { findUser } from "../../engine/store/user-documents.js";
import { pagedListKey } from "../../engine/store/user-pages.js";
import { withOlderItems } from "../../engine/user-access.js";
import { effectiveStreakSettings } from "../users/domain/preferences.js";
import type { ServiceContext } from "../../engine/context.js";
import { loadEngineConfig } from "../../engine/engine-config.js";
import { contributionOf } from "../leaderboards/domain/leaderboard-entries.js";
import { applyUserChange, changeUserState } from "../../engine/user-state.js";
import { dueWorkFirst, rewardGrowth } from "../../workers/due-work.js";

const DEFAULT_HISTORY_PERIODS = 7;

/**
 * A user's streak as of now. Reads never show a stale state: the streak is caught up first
 * (freezes consumed, a missed period judged, freezes earned), and when that changed anything the
 * caught-up state is stored (compute, then persist), exactly as the scheduler would have.
 */
export async function readUserStreak(ctx: ServiceContext, tenantId: string, userId: string, historyPeriods?: number): Promise<StreakReadView> {
  const engine = await loadEngineConfig(ctx, tenantId);
  const settings = engine.streak;
  if (!settings) {
    // Nothing can extend a streak: a zero-length one, the shape the published clients parse.
    if (!(await findUser(ctx.database.collections.users, tenantId, userId))) throw notFound(`User "${userId}" not found`);
    return { ...noStreakView(), extended: null, streakHistory: [], pauses: [] };
  }
  const periods = historyPeriods ?? DEFAULT_HISTORY_PERIODS;
  return changeUserState(
    ctx,
    tenantId,
    userId,
    async (stored, now) => {
      if (!stored) throw notFound(`User "${userId}" not found`);
      const user = stored.state;
      const mine = effectiveStreakSettings(settings, user.preferences)!;
      // The control group has no streak (nor freezes to show).
      if (user.control) return { write: null, result: { ...noStreakView(mine.frequency), extended: null, streakHistory: [], pauses: [] } };
      const followed = userStreak(user, mine, now);
      const read = readStreak(followed, mine, user.tzHistory, now, periods);
      // More periods than the document keeps: the older ones from their pages (shown, never written).
      const key = pagedListKey.streakHistory(read.state);
      const result =
        read.streak.streakHistory.length < periods
          ? {
              ...read.streak,
              streakHistory: streakHistory(
                (await withOlderItems(ctx, tenantId, { ...stored, state: { ...user, streak: read.state } }, [key])).streak!,
                periods,
              ),
            }
          : read.streak;
      // A streak computed again for a new frequency is stored, so it is computed once.
      if (read.events.length === 0 && (user.streak === null || followed === user.streak)) return { write: null, result };
      // What the scheduler would have announced (a freeze consumed, the streak lost) is announced now,
      // and a lost streak leaves streak leaderboards now.
      // A length that only the new frequency's computation moved is the tenant's doing: no rank webhooks.
      const quiet = read.state.length === followed.length;
      return { write: await applyStreakChange(ctx, tenantId, engine, user, read.state, read.events, now, quiet), result };
    },
    { catchUp: dueWorkFirst(ctx, tenantId, engine) },
  );
}

/** A user's state with a changed streak, carried out: its events announced, streak leaderboards moved. */
export async function applyStreakChange(
  ctx: ServiceContext,
  tenantId: string,
  engine: EngineConfig,
  user: UserState,
  streak: StreakState,
  events: StreakDomainEvent[] | undefined,
  now: Date,
  /** No `leaderboard.rank_changed` for streak leaderboards (see `applyUserChange`). */
  quietStreakLeaderboards = false,
  /** The lengths a restore reached (`restoreStreak`). */
  restored?: Omit<StreakGrowth, "at">,
): Promise<UserState> {
  // Periods a catch-up counted at their ends, and a restore, are rewarded as extensions by events are.
  const growths = [...growthsOf(events ?? []), ...(restored ? [{ ...restored, at: now }] : [])];
  const grown = rewardGrowth({ ...user, streak }, growths, engine, now);
  const change = {
    state: grown.state,
    events: { streakEvents: events, achievements: grown.achievements, pointsEvents: grown.pointsEvents },
    earlier: grown.earlier,
    contribution: contributionOf(undefined, [], streak.length),
    at: now,
    quietStreakLeaderboards,
  };
  return (await applyUserChange(ctx, tenantId, engine, change)).state;
}

/** The streak lengths of up to 100 users, longest first (unknown users and users without a streak: 0). */
export async function listStreakLengths(ctx: ServiceContext, tenantId: string, userIds: string[]) {
  const settings = await ctx.config.streakSettings(tenantId);
  const now = ctx.now();
  const rows = await Promise.all(
    [...new Set(userIds)].map(async (userId) => {
      const found = await findUser(ctx.database.collections.users, tenantId, userId);
      if (!settings || !found?.state.streak) return { userId, streakLength: 0, extended: null };
      const mine = effectiveStreakSettings(settings, found.state.preferences)!;
      const read = readStreak(userStreak(found.state, mine, now), mine, found.state.tzHistory, now, 1);
      return { userId, streakLength: read.streak.length, extended: read.streak.extended };
    }),
  );
  return rows.sort((a, b) => b.streakLength - a.streakLength || (a.userId < b.userId ? -1 : 1));
}
