/**
 * A switch of the tenant's streak frequency keeps every user's streak (the reference: "Trophy
 * automatically computes streak data for every streak frequency, meaning you can switch at any
 * time"). A user's stored streak was computed with the frequency in force at their last change; the
 * first time it is used under another frequency, it is computed again for that frequency from the
 * user's own record of activity: each streak metric's change per local day (engine/domain/history.ts),
 * kept for HISTORY_DAYS.
 *
 * The recomputation replays each recorded day, in date order, as one event per streak metric at the
 * start of that day, through the streak engine itself (streak.ts): the same periods, condition, days
 * off and pauses as any event. So the new streak is the one the user would have now had the tenant
 * always used the new frequency, within what the record shows:
 * - days older than the kept history are not known, so a longer run starts at its first kept day;
 * - a day's events count as one (their order within the day is not kept: a day whose sum is below the
 *   threshold counts as not met even if the sum was above it for a moment);
 * - freezes are not consumed retroactively (a missed period in the past ends the run); the user keeps
 *   the freezes they hold, their pauses and their earning schedule;
 * - days are the user's local days as recorded, replayed in the zone in force at the state's `asOf`.
 * The history restarts in a new series (`historySeries`), so the previous frequency's older periods,
 * kept in pages of their own, are dropped with it; nothing is notified (the switch is the tenant's,
 * not the user's doing).
 */
import type { DailyChanges } from "../../../engine/domain/history.js";
import type { TimeZoneChange, UserState } from "../../../engine/domain/user.js";
import type { StreakSettings } from "./streak-config.js";
import { localDateIn, startOfDateIn, zoneAt } from "./streak-calendar.js";
import { applyStreakEvent, catchUpStreak, createStreakState, longestStreak, type StreakState } from "./streak.js";

/** A user's daily changes of each metric, by metric ID (`UserState["metrics"]`). */
export type MetricDays = Readonly<Record<string, { readonly daily: DailyChanges } | undefined>>;

/**
 * The streak for `settings.frequency`: `state` itself when it was computed with that frequency,
 * otherwise computed again from `metrics` as of `state.asOf` (or as of the latest recorded day, if
 * that is later). Deterministic: the same inputs give the same streak.
 */
export function followStreakFrequency(state: StreakState, settings: StreakSettings, tzHistory: readonly TimeZoneChange[], metrics: MetricDays): StreakState {
  if (state.frequency === settings.frequency) return state;
  const zone = zoneAt(tzHistory, state.asOf);
  const replayZone: TimeZoneChange[] = [{ tz: zone, from: new Date(0) }];
  // No freezes in the replay (none are consumed retroactively); the pauses the user holds do hold periods.
  const replaySettings: StreakSettings = { ...settings, freezes: null };
  let replayed: StreakState = { ...createStreakState(replaySettings, state.freezeEarningSince, state.asOf), pauses: state.pauses };
  const days = recordedDays(settings, metrics);
  if (days.length > 0) {
    const first = startOfDateIn(days[0]!, zone);
    replayed = { ...replayed, asOf: first, freezesEarnedUntil: first };
  }
  for (const day of days) {
    const at = startOfDateIn(day, zone);
    for (const condition of settings.metrics) {
      const value = metrics[condition.metricId]?.daily[day];
      if (value === undefined || Number(value) === 0) continue;
      replayed = applyStreakEvent(replayed, replaySettings, { metricId: condition.metricId, value: Number(value), at }, replayZone).state;
    }
  }
  const until = replayed.asOf > state.asOf ? replayed.asOf : state.asOf;
  replayed = catchUpStreak(replayed, replaySettings, replayZone, until).state;
  // The last extension is known to the day; the stored instant is kept when it was on that day.
  const kept = state.lastExtendedAt;
  const lastExtendedAt =
    replayed.lastExtendedAt && kept && kept >= replayed.lastExtendedAt && localDateIn(kept, zone) === localDateIn(replayed.lastExtendedAt, zone)
      ? kept
      : replayed.lastExtendedAt;
  return {
    ...replayed,
    lastExtendedAt,
    freezes: state.freezes,
    freezeEarningSince: state.freezeEarningSince,
    freezesEarnedUntil: state.freezesEarnedUntil,
    longest: Math.max(longestStreak(state), longestStreak(replayed)),
    historySeries: (state.historySeries ?? 0) + 1,
  };
}

/** The local dates on which any streak metric changed, in order. */
function recordedDays(settings: StreakSettings, metrics: MetricDays): string[] {
  const days = new Set<string>();
  for (const condition of settings.metrics) for (const day of Object.keys(metrics[condition.metricId]?.daily ?? {})) days.add(day);
  return [...days].sort();
}

/**
 * The user's streak for the tenant's settings, not yet caught up: the stored one followed to the
 * settings' frequency, or a new one (`at`: from when freezes are earned) when the user has none.
 */
export function userStreak(
  user: Pick<UserState, "streak" | "created"> & { tzHistory: readonly TimeZoneChange[]; metrics: MetricDays },
  settings: StreakSettings,
  at: Date,
): StreakState {
  if (!user.streak) return createStreakState(settings, user.created, at);
  return followStreakFrequency(user.streak, settings, user.tzHistory, user.metrics);
}
