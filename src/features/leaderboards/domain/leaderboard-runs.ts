import { DateTime } from "luxon";
import {
  FIRST_ZONE_OFFSET_MS,
  LAST_ZONE_OFFSET_MS,
  MAX_RUN_INTERVAL,
  secondsOfDay,
  type LeaderboardSettings,
  type LeaderboardStatus,
} from "./leaderboard-config.js";
import { addDays, DAY_MS, isoDate, utcMillis, ymd } from "../../../engine/domain/plain-dates.js";

/**
 * The calendar of a leaderboard: which run an event counts toward, when a run is final, and the
 * leaderboard's status. Pure: instants and zones come in as arguments.
 *
 * Decisions:
 * - A leaderboard's `start` and `end` are calendar dates read in the USER'S zone at the moment of the
 *   event (UTC for a user without a zone), like every calendar rule of the service: a user in
 *   Pacific/Kiritimati (UTC+14) can take part 14 hours before UTC reaches the start date, one in
 *   Pacific/Pago_Pago (UTC−11) until 11 hours after UTC has left the end date.
 * - A repeating leaderboard's runs are consecutive blocks of `runInterval` days, months or years,
 *   the first beginning on `start`. Run k begins on `start` plus k × interval (counted from `start`
 *   each time, so a monthly leaderboard starting on the 31st runs from the 31st, or the last day of
 *   shorter months: Jan 31, Feb 28, Mar 31, Apr 30...) and ends the day before run k + 1 begins.
 *   The run that holds `end` is cut short at `end`. A perpetual leaderboard has one run, from
 *   `start` to `end` (null: no end). A run is addressed by its first day (`run=YYYY-MM-DD`).
 * - The daily window (`startTime`, `endTime`, HH:mm or HH:mm:ss) is read on the user's wall clock:
 *   an event counts when `startTime <= local time < endTime` (the reference: "at or after" the start,
 *   "before" the end). Either bound may be missing (start of day, end of day).
 * - Final: a run's last day has ended everywhere once it has ended in UTC−12 (the westernmost zone),
 *   that is at 12:00 UTC on the day after the run's last day: 12 hours after the day ended in UTC,
 *   the reference's "about 12 hours after they naturally finish in UTC". From then on no event can
 *   count toward the run, so its rankings are final and its winners can be announced.
 * - Status: `scheduled` until the start date begins in the easternmost zone (UTC+14, 14 hours
 *   before UTC midnight), `active` from then on, `finished` once the run holding `end` is final.
 *   So the status is `active` whenever some user somewhere can still take part. An `inactive` or
 *   explicitly `finished` leaderboard keeps that status.
 */

/** A run: its first and last day (both included); `runEnd` null means the run never ends. */
export interface LeaderboardRun {
  runStart: string;
  runEnd: string | null;
}

/** What the calendar rules read of a leaderboard's configuration. */
export type LeaderboardCalendar = Pick<LeaderboardSettings, "start" | "end" | "runUnit" | "runInterval" | "startTime" | "endTime">;

/** `date` plus whole months, on the same day of the month or the month's last day if shorter. */
function addMonthsClamped(date: string, months: number): string {
  const [y, m, d] = ymd(date);
  const first = Date.UTC(y, m - 1 + months, 1);
  const target = new Date(first);
  const daysInMonth = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return isoDate(first + (Math.min(d, daysInMonth) - 1) * DAY_MS);
}

/** The instant in the zone (UTC for none or an unknown name). */
function localTime(at: Date, tz: string | null): DateTime {
  const local = DateTime.fromJSDate(at, { zone: tz ?? "UTC" });
  return local.isValid ? local : DateTime.fromJSDate(at, { zone: "UTC" });
}

/**
 * The run interval, at most MAX_RUN_INTERVAL (a leaderboard stored before that bound with a longer
 * one runs a hundred years: its run dates would otherwise pass the year 9999).
 */
function intervalOf(config: LeaderboardCalendar): number {
  const interval = config.runInterval ?? 1;
  return config.runUnit === null ? interval : Math.min(interval, MAX_RUN_INTERVAL[config.runUnit]);
}

/** The first day of run `k` (0 is the first run). */
function runStartAt(config: LeaderboardCalendar, k: number): string {
  const interval = intervalOf(config);
  switch (config.runUnit) {
    case "day":
      return addDays(config.start, k * interval);
    case "month":
      return addMonthsClamped(config.start, k * interval);
    case "year":
      return addMonthsClamped(config.start, k * interval * 12);
    case null:
      return config.start;
  }
}

/** The index of the run holding `date` (a date on or after `start` of a repeating leaderboard). */
function runIndexOf(config: LeaderboardCalendar, date: string): number {
  const interval = intervalOf(config);
  let k: number;
  if (config.runUnit === "day") {
    k = Math.floor(Math.round((utcMillis(date) - utcMillis(config.start)) / DAY_MS) / interval);
  } else {
    const [sy, sm] = ymd(config.start);
    const [dy, dm] = ymd(date);
    const months = (dy - sy) * 12 + (dm - sm);
    k = Math.floor(months / (config.runUnit === "year" ? 12 * interval : interval));
    // The estimate ignores the day of the month (and clamping): step to the run that holds the date.
    while (k > 0 && runStartAt(config, k) > date) k -= 1;
    while (runStartAt(config, k + 1) <= date) k += 1;
  }
  return k;
}

/** The run whose first day is run `k`'s, cut at the leaderboard's end. */
function runAt(config: LeaderboardCalendar, k: number): LeaderboardRun {
  const runStart = runStartAt(config, k);
  if (config.runUnit === null) return { runStart, runEnd: config.end };
  const natural = addDays(runStartAt(config, k + 1), -1);
  return { runStart, runEnd: config.end !== null && config.end < natural ? config.end : natural };
}

/**
 * The run holding a calendar date, or null before `start` or after `end`. This is how `run=` is
 * read: a run's first day addresses it (any other day of it does too).
 */
export function runOnDate(config: LeaderboardCalendar, date: string): LeaderboardRun | null {
  if (date < config.start || (config.end !== null && date > config.end)) return null;
  return runAt(config, config.runUnit === null ? 0 : runIndexOf(config, date));
}

/** Whether an instant is within the daily window on the user's clock (always, without a window). */
export function isWithinDailyWindow(config: Pick<LeaderboardCalendar, "startTime" | "endTime">, at: Date, tz: string | null): boolean {
  if (config.startTime === null && config.endTime === null) return true;
  const local = localTime(at, tz);
  const seconds = local.hour * 3600 + local.minute * 60 + local.second;
  if (config.startTime !== null && seconds < secondsOfDay(config.startTime)) return false;
  if (config.endTime !== null && seconds >= secondsOfDay(config.endTime)) return false;
  return true;
}

/**
 * The next moment after `at` (epoch ms) at which the daily window opens or closes in zone `tz`, or
 * null without a window: between two such moments every instant is on the same side of it.
 */
export function nextWindowEdge(config: Pick<LeaderboardCalendar, "startTime" | "endTime">, at: Date, tz: string | null): number | null {
  const edges = [config.startTime, config.endTime].filter((edge) => edge !== null).map(secondsOfDay);
  if (edges.length === 0) return null;
  const today = localTime(at, tz).startOf("day");
  let next: number | null = null;
  // Today's edges after `at`, else tomorrow's first (wall-clock times, as the window is judged).
  for (const days of [0, 1]) {
    for (const seconds of edges) {
      const wallClock = { hour: Math.floor(seconds / 3600), minute: Math.floor((seconds % 3600) / 60), second: seconds % 60 };
      const edge = today.plus({ days }).set(wallClock).toMillis();
      if (edge > at.getTime() && (next === null || edge < next)) next = edge;
    }
  }
  return next;
}

/**
 * The run an event at `at` by a user in zone `tz` counts toward: the run holding the user's local
 * date. Null when it counts toward none: the local date is before `start` or after `end`, or the
 * local time is outside the daily window (rankings do not change then).
 */
export function runOf(config: LeaderboardCalendar, at: Date, tz: string | null): LeaderboardRun | null {
  const run = runOnDate(config, localTime(at, tz).toISODate()!);
  if (run === null || !isWithinDailyWindow(config, at, tz)) return null;
  return run;
}

/**
 * The run to show when none is named: the one holding the date in `tz` (UTC by default) at `now`;
 * before the start, the first run; after the end, the last one.
 */
export function currentRun(config: LeaderboardCalendar, now: Date, tz: string | null = null): LeaderboardRun {
  let date = localTime(now, tz).toISODate()!;
  if (date < config.start) date = config.start;
  if (config.end !== null && date > config.end) date = config.end;
  return runOnDate(config, date)!;
}

/** The first day of the run after the one starting on `runStart`, or null when it is the last run. */
export function nextRunStart(config: LeaderboardCalendar, runStart: string): string | null {
  const run = runOnDate(config, runStart);
  if (run === null || run.runEnd === null) return null;
  const next = addDays(run.runEnd, 1);
  return config.end !== null && next > config.end ? null : next;
}

/**
 * When the run starting on `runStart` ends in UTC: midnight UTC after its last day. Null for a run
 * without an end, or when `runStart` is outside the leaderboard's dates.
 */
export function runEndsAt(config: LeaderboardCalendar, runStart: string): Date | null {
  const run = runOnDate(config, runStart);
  if (run === null || run.runEnd === null) return null;
  return new Date(utcMillis(run.runEnd) + DAY_MS);
}

/**
 * How long after a run becomes final the scheduler may still pay time-triggered points due before
 * that into it: it visits a minute once the minute has passed, so an interval due in the run's last
 * minute (UTC−12's 23:59) is paid just after. Late payments (`planLeaderboardEntries`'s `finalBy`)
 * and the `leaderboard.finished` announcement both judge finality this far back, so the rankings
 * the announcement shows stay final.
 */
export const FINAL_SETTLING_MS = 2 * 60_000;

/**
 * When the run becomes final: its last day has ended in every zone (UTC−12), 12 hours after
 * `runEndsAt`. Null for a run that never ends.
 */
export function runFinalAt(config: LeaderboardCalendar, runStart: string): Date | null {
  const end = runEndsAt(config, runStart);
  return end === null ? null : new Date(end.getTime() + LAST_ZONE_OFFSET_MS);
}

/** Whether no event can change the run any more (see `runFinalAt`). */
export function isRunFinal(config: LeaderboardCalendar, runStart: string, now: Date): boolean {
  const final = runFinalAt(config, runStart);
  return final !== null && now.getTime() >= final.getTime();
}

/** When the first zone (UTC+14) begins a date: the earliest moment an event can fall on it. */
export function dateBeginsAnywhereAt(date: string): Date {
  return new Date(utcMillis(date) - FIRST_ZONE_OFFSET_MS);
}

/**
 * The leaderboard's status at `now`: `inactive` and an explicit `finished` stay; otherwise
 * `scheduled` until the start date begins in UTC+14, `finished` once the last run is final (at
 * 12:00 UTC on the day after `end`), `active` in between.
 */
export function statusOf(config: LeaderboardCalendar & Pick<LeaderboardSettings, "status">, now: Date): LeaderboardStatus {
  if (config.status === "inactive" || config.status === "finished") return config.status;
  if (now.getTime() < dateBeginsAnywhereAt(config.start).getTime()) return "scheduled";
  if (config.end !== null && now.getTime() >= utcMillis(config.end) + DAY_MS + LAST_ZONE_OFFSET_MS) return "finished";
  return "active";
}

/**
 * The first days of the runs holding any date from `from` to `to` (YYYY-MM-DD), oldest first, at
 * most `limit` of them: the runs a user may have taken part in over a span of time.
 */
export function runStartsBetween(config: LeaderboardCalendar, from: string, to: string, limit: number): string[] {
  const first = runOnDate(config, from < config.start ? config.start : from);
  const starts: string[] = [];
  for (let start = first?.runStart ?? null; start !== null && start <= to && starts.length < limit; start = nextRunStart(config, start)) starts.push(start);
  return starts;
}
