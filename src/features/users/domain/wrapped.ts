import Big from "big.js";
import { addDecimals, decimalToNumber, subtractDecimals, ZERO, type DecimalString } from "../../../engine/domain/decimal.js";
import { invalidArgument } from "../../../engine/domain/errors.js";
import { HISTORY_DAYS, localDate, type DailyChanges } from "../../../engine/domain/history.js";
import { entryOf, type LeaderboardHistoryItem, type RankedLeaderboard } from "../../leaderboards/domain/leaderboard-entries.js";
import type { MetricConfig } from "../../metrics/domain/metric.js";
import { addDays, mondayOf, ymd } from "../../../engine/domain/plain-dates.js";
import type { PointsSystemConfig } from "../../points/domain/points-config.js";
import { boundedPointsState } from "../../points/domain/points.js";
import { catchUpStreak, STREAK_HISTORY_LIMIT, streakHistory, type StreakPeriodRecord } from "../../streaks/domain/streak.js";
import { userStreak } from "../../streaks/domain/streak-frequency.js";
import { effectiveStreakSettings } from "./preferences.js";
import type { StreakFrequency, StreakSettings } from "../../streaks/domain/streak-config.js";
import { zoneInForce, type UserState } from "../../../engine/domain/user.js";

/**
 * A user's year in review ("wrapped"), computed from what the user document keeps: pure, no clock
 * (today, the user's local date, is an argument). Every date is a local date in the user's zone at
 * the moment of what happened (how the history records days), so a year, week or month boundary is
 * the user's own, across DST and zone moves.
 *
 * - **Activity** is events: the events counted per local day (`activity`). Days before those counts
 *   were kept count one event per metric changed that day (the least it can have been).
 *   `daysActive` counts days of the year with an event, `weeksActive` weeks (Monday to Sunday)
 *   with an event on a day of the year, `monthsActive` months. The most active day, week and month
 *   have the most events (a week counts only its days in the year); the earliest of equals wins,
 *   so a year without activity answers its first day, week and month, each empty.
 * - **Supported years**: the year before today's and today's (in the user's zone). Daily history
 *   is kept for HISTORY_DAYS (730) days, which always covers both completely; other years are refused.
 * - **Metrics and points** of a period: those with a change on a day of the period, with the total
 *   at the end of the period (the current total less every later change: exact), the change, and
 *   the change as a percentage of the total before the period (rounded to two decimals; from a
 *   total of 0 it is 100, or -100 for a fall, or 0).
 * - **Achievements**: completed on a day of the period (completions are kept for good).
 * - **Leaderboards**: the best (lowest) rank the user's kept history shows on a day of the period,
 *   the earliest of equals, with its run and value; history keeps the newest 100 days with rank
 *   changes per leaderboard, so older days of a busy year may be missing.
 * - **Longest streak**: the greatest length of the kept streak periods (the newest 100 and the
 *   current one) that overlap the year; `started` is, for the current run, its start as the streak
 *   read gives it (the day of its first event), for an earlier run the first period of that run
 *   when the kept periods reach back to it, else null.
 */

/** One metric or points system as the review needs it. */
export interface WrappedSeries {
  key: string;
  total: DecimalString;
  daily: DailyChanges;
}

/** A metric's or points system's figures in a period. */
export interface WrappedFigure {
  currentTotal: DecimalString;
  change: DecimalString;
  percentChange: number;
}

export interface WrappedLeaderboardInput<L> {
  key: string;
  leaderboard: L;
  history: readonly LeaderboardHistoryItem[];
}

export interface WrappedStanding<L> {
  leaderboard: L;
  /** The run of the best rank (its first day). */
  run: string;
  rank: number;
  value: DecimalString | null;
  /** The history items of that run within the period, oldest first. */
  history: LeaderboardHistoryItem[];
}

export interface WrappedInput<A, L> {
  year: number;
  /** Events per local day. */
  activity: DailyChanges;
  metrics: readonly WrappedSeries[];
  points: readonly WrappedSeries[];
  /** Completed achievements with the local date of completion, oldest first. */
  achievements: ReadonlyArray<{ item: A; date: string }>;
  leaderboards: ReadonlyArray<WrappedLeaderboardInput<L>>;
  /** The streak's kept periods, oldest first, the current one last; null without streaks. */
  streak: { frequency: StreakFrequency; periods: readonly StreakPeriodRecord[]; currentStarted: string | null } | null;
  /** The frequency to show when there is no streak (the tenant's setting), or null. */
  streakFrequency: StreakFrequency | null;
}

export interface WrappedPeriod<A, L> {
  metrics: Record<string, WrappedFigure>;
  points: Record<string, WrappedFigure>;
  achievements: A[];
  leaderboards: Record<string, WrappedStanding<L>>;
}

export interface WrappedLongestStreak {
  length: number;
  frequency: StreakFrequency;
  periodStart: string | null;
  periodEnd: string | null;
  started: string | null;
}

export interface Wrapped<A, L> {
  daysActive: number;
  weeksActive: number;
  monthsActive: number;
  mostActiveDay: WrappedPeriod<A, L> & { date: string };
  mostActiveWeek: WrappedPeriod<A, L> & { start: string; end: string };
  /** 0 (January) to 11. */
  mostActiveMonth: WrappedPeriod<A, L> & { month: number };
  entireYear: WrappedPeriod<A, L> & { longestStreak: WrappedLongestStreak };
}

/** The years a review can be asked for on `today` (the user's local date): the previous and the current. */
export function supportedYears(today: string): { first: number; last: number } {
  const last = ymd(today)[0];
  return { first: last - 1, last };
}

/** The year asked for, or the current one; 400 outside the supported years. */
export function wrappedYear(requested: number | undefined, today: string): number {
  const { first, last } = supportedYears(today);
  if (requested === undefined) return last;
  if (requested < first || requested > last) {
    throw invalidArgument(
      `year must be ${first} or ${last}: the year in review covers the current year and the one before it in the user's time zone (the kept history of ${HISTORY_DAYS} days covers them completely), got ${requested}`,
    );
  }
  return requested;
}

/** Events on a day: the kept count, else one per metric changed that day. */
function eventsOn(input: WrappedInput<unknown, unknown>, day: string): number {
  const counted = input.activity[day];
  if (counted !== undefined) return decimalToNumber(counted);
  return input.metrics.filter((m) => m.daily[day] !== undefined).length;
}

/** Local days of the year with an event, and their counts. */
function activeDays(input: WrappedInput<unknown, unknown>): Map<string, number> {
  const prefix = `${input.year}-`;
  const days = new Set<string>();
  for (const day of Object.keys(input.activity)) if (day.startsWith(prefix)) days.add(day);
  for (const m of input.metrics) for (const day of Object.keys(m.daily)) if (day.startsWith(prefix)) days.add(day);
  const counts = new Map<string, number>();
  for (const day of [...days].sort()) {
    const n = eventsOn(input, day);
    if (n > 0) counts.set(day, n);
  }
  return counts;
}

/** The key with the greatest count, the smallest key of equals; `fallback` when there is none. */
function busiest(counts: Map<string, number>, fallback: string): string {
  let best: [string, number] | null = null;
  for (const [key, n] of counts) if (best === null || n > best[1] || (n === best[1] && key < best[0])) best = [key, n];
  return best?.[0] ?? fallback;
}

function sumBy(days: Map<string, number>, keyOf: (day: string) => string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const [day, n] of days) sums.set(keyOf(day), (sums.get(keyOf(day)) ?? 0) + n);
  return sums;
}

/** Percent change from `before` by `change`, two decimals; from 0: 100, -100 or 0 by the change's sign. */
export function percentChange(before: DecimalString, change: DecimalString): number {
  const b = new Big(before);
  const c = new Big(change);
  if (b.eq(0)) return c.cmp(0) * 100;
  // Exact decimals: 23 on 160 is 14.375 %, 14.38 (doubles would give 14.37).
  return Number(c.div(b.abs()).times(100).round(2, Big.roundHalfUp));
}

/** A series' figures between two local dates (both included), or null without a change in them. */
export function figureOf(series: WrappedSeries, first: string, last: string): WrappedFigure | null {
  let change = ZERO;
  let later = ZERO;
  let changed = false;
  for (const [day, value] of Object.entries(series.daily)) {
    if (day > last) later = addDecimals(later, value);
    else if (day >= first) {
      change = addDecimals(change, value);
      changed = true;
    }
  }
  if (!changed) return null;
  const currentTotal = subtractDecimals(series.total, later);
  return { currentTotal, change, percentChange: percentChange(subtractDecimals(currentTotal, change), change) };
}

/** The best rank in each leaderboard between two local dates. */
function standingsIn<L>(leaderboards: ReadonlyArray<WrappedLeaderboardInput<L>>, first: string, last: string): Record<string, WrappedStanding<L>> {
  const standings: Record<string, WrappedStanding<L>> = {};
  for (const { key, leaderboard, history } of leaderboards) {
    const within = history.filter((h) => h.date >= first && h.date <= last);
    let best: LeaderboardHistoryItem | null = null;
    for (const h of within) {
      if (h.rank === null) continue;
      if (best === null || h.rank < best.rank! || (h.rank === best.rank && h.date < best.date)) best = h;
    }
    if (best === null) continue;
    const run = best.run;
    standings[key] = { leaderboard, run, rank: best.rank!, value: best.value, history: within.filter((h) => h.run === run) };
  }
  return standings;
}

/** Everything of a period between two local dates (both included). */
export function periodOf<A, L>(input: WrappedInput<A, L>, first: string, last: string): WrappedPeriod<A, L> {
  const figures = (series: readonly WrappedSeries[]) => {
    const out: Record<string, WrappedFigure> = {};
    for (const s of series) {
      const figure = figureOf(s, first, last);
      if (figure) out[s.key] = figure;
    }
    return out;
  };
  return {
    metrics: figures(input.metrics),
    points: figures(input.points),
    achievements: input.achievements.filter((a) => a.date >= first && a.date <= last).map((a) => a.item),
    leaderboards: standingsIn(input.leaderboards, first, last),
  };
}

/** The longest streak in periods overlapping the year. */
export function longestStreakIn(streak: WrappedInput<unknown, unknown>["streak"], fallback: StreakFrequency | null, year: number): WrappedLongestStreak {
  const first = `${year}-01-01`;
  const last = `${year}-12-31`;
  const none = { length: 0, frequency: streak?.frequency ?? fallback ?? "daily", periodStart: null, periodEnd: null, started: null };
  if (!streak) return none;
  // A period's peak: its length, or what it had reached before a reset cut it (then its run ended there).
  const reached = (p: StreakPeriodRecord) => Math.max(p.length, p.peakBeforeReset ?? 0);
  let best = -1;
  streak.periods.forEach((p, i) => {
    if (p.periodEnd < first || p.periodStart > last || reached(p) <= 0) return;
    if (best === -1 || reached(p) > reached(streak.periods[best]!)) best = i;
  });
  if (best === -1) return none;
  const cut = streak.periods[best]!;
  const endsInPeak = reached(cut) > cut.length;
  // A run cut in its peak period: the periods after it are another run's, and the peak is as if the period had ended then.
  const periods = endsInPeak ? [...streak.periods.slice(0, best), { ...cut, length: reached(cut), resetAt: undefined }] : streak.periods;
  const currentStarted = endsInPeak ? null : streak.currentStarted;
  const peak = periods[best]!;
  // The peak's run goes on to the last period (a run's length never falls within it): the current
  // run, whose start is kept (the streak read's `started`).
  let end = best;
  while (end < periods.length - 1 && periods[end + 1]!.length >= periods[end]!.length && !periods[end + 1]!.resetAt) end++;
  let started: string | null;
  if (end === periods.length - 1 && currentStarted !== null) {
    started = currentStarted;
  } else {
    let i = best;
    for (;;) {
      // Back to the run's first period: a period without a streak, an admin reset or a fall in
      // length (a reset) before it ends the walk.
      while (i > 0 && periods[i - 1]!.length > 0 && !periods[i]!.resetAt && periods[i - 1]!.length <= periods[i]!.length) i--;
      // A run that begins above 1 after periods without a streak was restored: it goes on from the
      // lost run before them (restoreStreak joins the two).
      if (i === 0 || periods[i]!.length <= 1 || periods[i]!.resetAt || periods[i - 1]!.length > 0) break;
      let lost = i - 1;
      while (lost > 0 && periods[lost]!.length === 0) lost--;
      if (periods[lost]!.length === 0 || periods[lost]!.length >= periods[i]!.length) break;
      i = lost;
    }
    // The run's first period is kept when it is preceded by a period without a streak, or is the
    // very first period with length 1; otherwise it began before the kept history.
    started = i > 0 || periods[i]!.length === 1 ? periods[i]!.periodStart : null;
  }
  return { length: peak.length, frequency: streak.frequency, periodStart: peak.periodStart, periodEnd: peak.periodEnd, started };
}

/** The year in review. */
export function computeWrapped<A, L>(input: WrappedInput<A, L>): Wrapped<A, L> {
  const year = input.year;
  const jan1 = `${year}-01-01`;
  const dec31 = `${year}-12-31`;
  const clip = (first: string, last: string): [string, string] => [first < jan1 ? jan1 : first, last > dec31 ? dec31 : last];
  const days = activeDays(input);
  const weeks = sumBy(days, mondayOf);
  const months = sumBy(days, (d) => d.slice(0, 7));

  const day = busiest(days, jan1);
  const week = busiest(weeks, mondayOf(jan1));
  const month = busiest(months, jan1.slice(0, 7));
  const monthIndex = Number(month.slice(5, 7)) - 1;
  const monthLast = new Date(Date.UTC(year, monthIndex + 1, 0)).toISOString().slice(0, 10);
  const weekEnd = addDays(week, 6);

  return {
    daysActive: days.size,
    weeksActive: weeks.size,
    monthsActive: months.size,
    mostActiveDay: { date: day, ...periodOf(input, day, day) },
    mostActiveWeek: { start: week, end: weekEnd, ...periodOf(input, ...clip(week, weekEnd)) },
    mostActiveMonth: { month: monthIndex, ...periodOf(input, `${month}-01`, monthLast) },
    entireYear: { ...periodOf(input, jan1, dec31), longestStreak: longestStreakIn(input.streak, input.streakFrequency, year) },
  };
}

/** The local date of an instant in the zone in force then, as the daily histories date the events (`zoneInForce`). */
export function userLocalDateAt(user: Pick<UserState, "tz" | "tzHistory">, at: Date): string {
  return localDate(at, zoneInForce(user, at));
}

/** What a user's review reads of the tenant's configuration. */
export interface WrappedConfig<A> {
  metrics: readonly MetricConfig[];
  pointsSystems: readonly PointsSystemConfig[];
  /** The user's completed achievements that may be shown, with their completion time. */
  achievements: ReadonlyArray<{ item: A; achievedAt: Date }>;
  leaderboards: readonly RankedLeaderboard[];
  streak: StreakSettings | null;
}

/**
 * A user's year in review as of `now`: the year asked for (or the current one in the user's zone,
 * 400 outside the supported years) from the user's state and the tenant's configuration.
 */
export function wrappedOfUser<A>(
  user: UserState,
  config: WrappedConfig<A>,
  requestedYear: number | undefined,
  now: Date,
): { year: number; wrapped: Wrapped<A, RankedLeaderboard> } {
  const year = wrappedYear(requestedYear, localDate(now, user.tz));
  let streak: WrappedInput<A, RankedLeaderboard>["streak"] = null;
  // The user's own rules, as every other read of their streak (preferences.ts).
  const settings = effectiveStreakSettings(config.streak, user.preferences);
  if (settings && user.streak) {
    const caught = catchUpStreak(userStreak(user, settings, now), settings, user.tzHistory, now).state;
    streak = { frequency: caught.frequency, periods: streakHistory(caught, STREAK_HISTORY_LIMIT + 1), currentStarted: caught.started };
  }
  const wrapped = computeWrapped<A, RankedLeaderboard>({
    year,
    activity: user.activity ?? {},
    metrics: config.metrics.filter((m) => user.metrics[m.id]).map((m) => ({ key: m.key, total: user.metrics[m.id]!.total, daily: user.metrics[m.id]!.daily })),
    points: config.pointsSystems
      .filter((s) => user.points[s.id])
      // As every read: a total above a since-lowered maxPoints reads as the cap.
      .map((s) => ({ key: s.key, state: boundedPointsState(user.points[s.id]!, s, user, now) }))
      .map(({ key, state }) => ({ key, total: String(state.total), daily: state.daily })),
    achievements: config.achievements.map((a) => ({ item: a.item, date: userLocalDateAt(user, a.achievedAt) })),
    leaderboards: config.leaderboards.flatMap((l) => {
      const entry = entryOf(user, l.config); // none from before a redefinition
      return l.config.status !== "inactive" && entry ? [{ key: l.config.key, leaderboard: l, history: entry.history }] : [];
    }),
    streak,
    streakFrequency: config.streak?.frequency ?? null,
  });
  return { year, wrapped };
}
