import { DomainError, invalidArgument, notFound } from "../../engine/domain/errors.js";
import { contributionOf, type LeaderboardResult } from "../leaderboards/domain/leaderboard-entries.js";
import {
  applyPreferencesPatch,
  checkPreferencesPatch,
  customizesStreak,
  effectiveStreakSettings,
  isOptedOutOfLeaderboards,
  type PreferencesPatch,
  type UserPreferences,
  type UserStreakPreferences,
} from "./domain/preferences.js";
import { catchUpStreak, resetStreak, type StreakDomainEvent } from "../streaks/domain/streak.js";
import { userStreak } from "../streaks/domain/streak-frequency.js";
import type { StreakEvaluationMode, StreakSettings } from "../streaks/domain/streak-config.js";
import { findUser } from "../../engine/store/user-documents.js";
import type { ServiceContext } from "../../engine/context.js";
import { loadEngineConfig } from "../../engine/engine-config.js";
import { leaveLeaderboards, rejoinLeaderboards } from "../leaderboards/leaderboard-opt-out.js";
import { applyUserChange, changeUserState } from "../../engine/user-state.js";
import { dueWorkFirst, rewardGrowth } from "../../workers/due-work.js";
import { growthsOf } from "../../engine/domain/reactions.js";

/** Preferences as the API shows them: metric overrides by key. */
export interface PreferencesView {
  preferences: UserPreferences;
  keys: ReadonlyMap<string, string>;
}

/**
 * The view of stored preferences: metric overrides only for metrics the tenant's streak still counts
 * (`effectiveStreakSettings` ignores the others, so they are not in force, and a view that names
 * them could not be sent back), by key.
 */
function preferencesView(
  preferences: UserPreferences,
  tenantStreak: StreakSettings | null,
  metrics: ReadonlyArray<{ id: string; key: string }>,
): PreferencesView {
  const counted = new Set(tenantStreak?.metrics.map((m) => m.metricId) ?? []);
  const overrides = preferences.streak?.metrics?.filter((m) => counted.has(m.metricId));
  const streak = preferences.streak && { ...preferences.streak, metrics: overrides && overrides.length > 0 ? overrides : undefined };
  return { preferences: { ...preferences, streak }, keys: new Map(metrics.map((m) => [m.id, m.key])) };
}

/** A user's preferences; unknown user: not found, as the other user reads. */
export async function readUserPreferences(ctx: ServiceContext, tenantId: string, userId: string): Promise<PreferencesView> {
  const [found, engine, metrics] = await Promise.all([
    findUser(ctx.database.collections.users, tenantId, userId),
    loadEngineConfig(ctx, tenantId),
    ctx.config.metrics(tenantId),
  ]);
  if (!found) throw notFound(`User "${userId}" not found`);
  return preferencesView(found.state.preferences, engine.streak, metrics);
}

/** An update as the API receives it: streak metric overrides by key. */
export interface PreferencesUpdate {
  notifications?: Partial<Record<string, unknown[]>>;
  streak?: Omit<UserStreakPreferences, "metrics"> & { metrics?: Array<{ key: string; threshold: number }>; evaluationMode?: StreakEvaluationMode };
  leaderboards?: { optOut?: boolean };
}

/**
 * Updates a user's preferences. Streak conditions need the tenant's customization (permission
 * denied otherwise, the reference's 403); metric overrides must name the tenant's streak metrics.
 * The streak is first brought up to now under the rules that applied until now, so a change of
 * rules never judges past periods again; the next due time follows the new rules. Turning streaks
 * off (`enabled: false`) sets the streak to 0 at once (it leaves streak leaderboards and rankings).
 * `leaderboards.optOut` takes the user off every ranking at once, or puts them back.
 */
export async function updateUserPreferences(ctx: ServiceContext, tenantId: string, userId: string, update: PreferencesUpdate): Promise<PreferencesView> {
  const [engine, metrics] = await Promise.all([loadEngineConfig(ctx, tenantId), ctx.config.metrics(tenantId)]);
  const byKey = new Map(metrics.map((m) => [m.key, m.id]));
  let patch: PreferencesPatch = { notifications: update.notifications, leaderboards: update.leaderboards };
  if (update.streak) {
    const { metrics: wanted, ...rest } = update.streak;
    const streak: UserStreakPreferences = { ...rest };
    if (wanted) {
      streak.metrics = wanted.map((m, i) => {
        const metricId = byKey.get(m.key);
        if (metricId === undefined) throw invalidArgument(`streak.metrics[${i}].key "${m.key}" is not a metric of this tenant`);
        return { metricId, threshold: m.threshold };
      });
    }
    if (customizesStreak(streak) && !engine.streak?.customizationEnabled) {
      throw new DomainError(
        "permission_denied",
        "Streak customization is not enabled for this tenant: evaluationMode, metrics and daysOff need customizationEnabled in the streak settings",
      );
    }
    patch = { ...patch, streak };
  }
  const problem = checkPreferencesPatch(
    patch,
    engine.streak,
    update.streak?.metrics?.map((m) => m.key),
  );
  if (problem) throw invalidArgument(problem);

  const preferences = await changeUserState(
    ctx,
    tenantId,
    userId,
    async (stored, now) => {
      if (!stored) throw notFound(`User "${userId}" not found`);
      let user = stored.state;
      let streakEvents: StreakDomainEvent[] = [];
      let grown: ReturnType<typeof rewardGrowth> | null = null;
      const before = effectiveStreakSettings(engine.streak, user.preferences);
      if (before && user.streak) {
        const caught = catchUpStreak(userStreak(user, before, now), before, user.tzHistory, now);
        // Periods the catch-up counted at their ends are rewarded, as a visit's would be.
        grown = rewardGrowth({ ...user, streak: caught.state }, growthsOf(caught.events), engine, now);
        user = grown.state;
        streakEvents = caught.events;
      }
      const preferences = applyPreferencesPatch(user.preferences, patch);
      // Turning streaks off: the streak reads 0 from now on (the reference: "always 0").
      if (before && user.streak && preferences.streak?.enabled === false && user.preferences.streak?.enabled !== false) {
        user = { ...user, streak: resetStreak(user.streak, before, user.tzHistory, now, false).state };
      }
      // Opting out or back in (see leaderboard-opt-out.ts).
      const wasOut = isOptedOutOfLeaderboards(user.preferences);
      const isOut = isOptedOutOfLeaderboards(preferences);
      // Their rank moves on the current runs as an event's would: `leaderboard.rank_changed` says so.
      let rankMoves: LeaderboardResult[] = [];
      if (isOut && !wasOut) ({ state: user, moves: rankMoves } = await leaveLeaderboards(ctx, tenantId, engine, user));
      if (wasOut && !isOut) rankMoves = await rejoinLeaderboards(ctx, tenantId, engine, user, now);
      const next = { ...user, preferences, updated: now };
      const applied = await applyUserChange(ctx, tenantId, engine, {
        state: next,
        events: { streakEvents, achievements: grown?.achievements, pointsEvents: grown?.pointsEvents, leaderboardResults: rankMoves },
        earlier: grown?.earlier,
        contribution: contributionOf(undefined, [], next.streak?.length),
        at: now,
      });
      return { write: applied.state, result: applied.state.preferences };
    },
    { catchUp: dueWorkFirst(ctx, tenantId, engine) },
  );
  return preferencesView(preferences, engine.streak, metrics);
}
