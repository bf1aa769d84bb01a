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
 * off and pauses as any event, up to the moment the new streak is first needed. So the new streak is
 * the one the user would have now had the tenant always used the new frequency, within what the
 * record shows:
 * - days older than the kept history are not known, so a longer run starts at its first kept day;
 * - a day's events count as one (their order within the day is not kept: a day whose sum is below the
 *   threshold counts as not met even if the sum was above it for a moment; of several streak
 *   metrics, a day's decreases count before its increases, whatever the metrics' order);
 * - the user's pauses hold what they overlap, also those that ended (their days are kept:
 *   `rememberEndedPauses`); periods the old streak held by a freeze it used (or by a pause whose
 *   days are not known) stay held (a period of the new frequency overlapping one is held by it,
 *   shown as held the same way), also when the period is judged live after the switch
 *   (`carriedHoldOver`); what an earlier switch carried is carried again, so switching back and
 *   forth never holds more than was held;
 *   no freeze is used for a period that ended before the switch (a missed one ends the run); the
 *   user keeps the freezes they hold, their pauses and their earning schedule;
 * - days are the user's local days as recorded, replayed in the zone in force now (a day recorded
 *   in a zone whose date was ahead, not yet begun here, counts as of now).
 * The longest length is the new frequency's as well (rankings compare it between users). The history
 * restarts in a new series (`historySeries`), so the previous frequency's older periods, kept in
 * pages of their own, are dropped with it; nothing is notified (the switch is the tenant's, not the
 * user's doing).
 */
import type { DailyChanges } from "../../../engine/domain/history.js";
import type { TimeZoneChange, UserState } from "../../../engine/domain/user.js";
import type { StreakSettings } from "./streak-config.js";
import { localDateIn, startOfDateIn, zoneAt } from "./streak-calendar.js";
import {
  applyStreakEvent,
  catchUpStreak,
  carriedHoldOver,
  createStreakState,
  endedPauseHold,
  latestHolds,
  longestStreak,
  type StreakHold,
  type StreakPause,
  type StreakPeriodRecord,
  type StreakState,
} from "./streak.js";

/** A user's daily changes of each metric, by metric ID (`UserState["metrics"]`). */
export type MetricDays = Readonly<Record<string, { readonly daily: DailyChanges } | undefined>>;

/**
 * The streak for `settings.frequency`: `state` itself when it was computed with that frequency,
 * otherwise computed again from `metrics` as of `at` (the moment it is first needed; never before
 * `state.asOf`), so that every period that ended before then is judged by the replay, without
 * freezes. Deterministic: the same inputs give the same streak.
 */
export function followStreakFrequency(
  state: StreakState,
  settings: StreakSettings,
  tzHistory: readonly TimeZoneChange[],
  metrics: MetricDays,
  at: Date,
): StreakState {
  if (state.frequency === settings.frequency) return state;
  const until = at > state.asOf ? at : state.asOf;
  const zone = zoneAt(tzHistory, until);
  const replayZone: TimeZoneChange[] = [{ tz: zone, from: new Date(0) }];
  // No freezes in the replay (none are consumed for the past). What held the old streak holds the
  // new one: the user's pauses (those that ended too), and what the old history shows held
  // otherwise (`holdsToCarry`).
  const replaySettings: StreakSettings = { ...settings, freezes: null };
  const days = recordedDays(settings, metrics);
  // The user's own pauses, also those that ended (their days exact), and the other holds carried.
  const own = ownPauses(state);
  const holds = holdsToCarry(state, own).filter((h) => days.length > 0 && h.end >= days[0]!);
  const held = holds.map((h, i) => ({ id: `held:${i}:${h.start}`, start: h.start, end: h.end }));
  let replayed: StreakState = { ...createStreakState(replaySettings, state.freezeEarningSince, until), pauses: [...held, ...own] };
  for (const day of days) {
    // A day recorded in a zone east of today's may not have begun here yet: it counts as of now.
    const start = startOfDateIn(day, zone);
    const when = start > until ? until : start;
    if (day === days[0]) replayed = { ...replayed, asOf: when, freezesEarnedUntil: when };
    const changes = settings.metrics
      .map(({ metricId }) => ({ metricId, value: Number(metrics[metricId]?.daily[day] ?? 0) }))
      .filter(({ value }) => value !== 0)
      .sort((a, b) => a.value - b.value);
    for (const { metricId, value } of changes) {
      replayed = applyStreakEvent(replayed, replaySettings, { metricId, value, at: when }, replayZone).state;
    }
  }
  replayed = catchUpStreak(replayed, replaySettings, replayZone, until).state;
  // The last extension is known to the day; the stored instant is kept when it was on that day.
  const kept = state.lastExtendedAt;
  const lastExtendedAt =
    replayed.lastExtendedAt && kept && kept >= replayed.lastExtendedAt && localDateIn(kept, zone) === localDateIn(replayed.lastExtendedAt, zone)
      ? kept
      : replayed.lastExtendedAt;
  const current = replayed.period?.start;
  return {
    ...replayed,
    history: replayed.history.map((p) => heldAsCarried(p, holds, own)),
    lastExtendedAt,
    freezes: state.freezes,
    freezeEarningSince: state.freezeEarningSince,
    freezesEarnedUntil: state.freezesEarnedUntil,
    // An ended pause reaching into the new current period holds it again, as it would have live.
    pauses: own.filter((p) => current === undefined || p.end >= current),
    // The longest length in the new frequency's units (the longest ranking compares users by it).
    longest: longestStreak(replayed),
    historySeries: (state.historySeries ?? 0) + 1,
    carried: {
      holds: latestHolds([...holds, ...own.filter((p) => current !== undefined && p.end < current).map(endedPauseHold)]),
      judgedFrom: current ?? localDateIn(until, zone),
    },
  };
}

/**
 * What held the streak about to be recomputed: what the last switch carried, and what held since.
 * A carried hold reaching into a period judged live after its switch held that period there too
 * (`carriedHoldOver` in streak.ts), so a round trip judges it as live did.
 */
function holdsToCarry(state: StreakState, own: readonly StreakPause[]): StreakHold[] {
  const judgedFrom = state.carried?.judgedFrom ?? "";
  // A period one of the user's pauses held is carried as the pause's own days, not as the whole
  // period; one a carried hold held is carried as that hold (already carried), not as the period.
  const byOwnPause = (p: StreakPeriodRecord) => own.some((h) => h.start <= p.periodEnd && h.end >= p.periodStart);
  const heldSince = state.history
    .filter((p) => p.periodStart >= judgedFrom && !carriedHoldOver(state.carried?.holds ?? [], p.periodStart, p.periodEnd))
    .filter((p) => p.usedFreeze || (p.usedPause && !byOwnPause(p)))
    .map((p): StreakHold => ({ start: p.periodStart, end: p.periodEnd, by: p.usedFreeze ? "freeze" : "pause" }));
  return [...(state.carried?.holds ?? []).filter((h) => h.pauseId === undefined), ...heldSince];
}

/** The user's pauses: those in force, and those that ended (kept with their days: `rememberEndedPauses`). */
function ownPauses(state: StreakState): StreakPause[] {
  const ended = (state.carried?.holds ?? []).flatMap((h) => (h.pauseId === undefined ? [] : [{ id: h.pauseId, start: h.start, end: h.end }]));
  return [...ended.filter((p) => !state.pauses.some((q) => q.id === p.id)), ...state.pauses];
}

/** A period the replay held with carried freezes only (no pause of the user's) shows a freeze used, as it was. */
function heldAsCarried(period: StreakPeriodRecord, holds: readonly StreakHold[], pauses: readonly StreakPause[]): StreakPeriodRecord {
  if (!period.usedPause || pauses.some((p) => p.start <= period.periodEnd && p.end >= period.periodStart)) return period;
  return carriedHoldOver(holds, period.periodStart, period.periodEnd) === "freeze" ? { ...period, usedPause: false, usedFreeze: true } : period;
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
  return followStreakFrequency(user.streak, settings, user.tzHistory, user.metrics, at);
}
