import { DateTime } from "luxon";
import { addDecimals, subtractDecimals, ZERO, type DecimalString } from "./decimal.js";
import { invalidArgument } from "./errors.js";
import { addDays, checkDate, mondayOf } from "./plain-dates.js";

/** Changes per local calendar day (YYYY-MM-DD in the user's zone at the moment of each change). */
export type DailyChanges = Record<string, DecimalString>;

export type Aggregation = "daily" | "weekly" | "monthly";

/** Daily history kept per metric; summaries cannot start earlier. */
export const HISTORY_DAYS = 730;
/** The longest span one summary covers. */
export const MAX_SUMMARY_DAYS = 400;

/** The local calendar date of an instant in a zone (UTC when the user has none). */
export function localDate(at: Date, tz: string | null): string {
  return DateTime.fromJSDate(at, { zone: tz ?? "UTC" }).toISODate()!;
}

/**
 * The first day of the history kept on `day`: HISTORY_DAYS back, and from there back to the start of
 * that date's ISO week and month, so a weekly or monthly summary from the oldest start it allows
 * still has the whole of its first period (calendar days, so plain UTC arithmetic is exact).
 */
function oldestKeptDay(day: string): string {
  const oldest = addDays(day, -HISTORY_DAYS);
  const monday = mondayOf(oldest);
  const firstOfMonth = `${oldest.slice(0, 7)}-01`;
  return monday < firstOfMonth ? monday : firstOfMonth;
}

/** Adds a change to its day and drops days older than the kept history (see `oldestKeptDay`). */
export function recordDailyChange(daily: DailyChanges, day: string, change: DecimalString): DailyChanges {
  const oldest = oldestKeptDay(day);
  const next: DailyChanges = {};
  for (const [d, v] of Object.entries(daily)) if (d >= oldest) next[d] = v;
  next[day] = addDecimals(next[day] ?? ZERO, change);
  return next;
}

function parseDate(value: string, name: string): DateTime {
  const problem = checkDate(name, value);
  if (problem) throw invalidArgument(problem);
  return DateTime.fromISO(value, { zone: "UTC" });
}

/**
 * Chart-ready periods between two dates: each with the total at the end of the period and the change
 * within it. Weeks are ISO weeks (Monday first) and months calendar months, each dated by its first
 * day; the first and last periods are whole periods, so they may start before `start` or end after
 * `end`. The total at the end of a period is the current total less every change after it, which is
 * exact even for periods before the kept history.
 */
export function summarizeChanges(
  daily: DailyChanges,
  current: DecimalString,
  aggregation: Aggregation,
  start: string,
  end: string,
  today: string,
): Array<{ date: string; total: DecimalString; change: DecimalString }> {
  const from = parseDate(start, "startDate");
  const to = parseDate(end, "endDate");
  if (to < from) throw invalidArgument("endDate must not be before startDate");
  // Both ends count: 400 days are start + 399 at most.
  if (to.diff(from, "days").days + 1 > MAX_SUMMARY_DAYS) throw invalidArgument(`the summary may span at most ${MAX_SUMMARY_DAYS} days`);
  if (from < parseDate(today, "today").minus({ days: HISTORY_DAYS })) {
    throw invalidArgument(`startDate must be within the last ${HISTORY_DAYS} days (the kept history)`);
  }
  const unit = aggregation === "daily" ? "day" : aggregation === "weekly" ? "week" : "month";
  const days = Object.entries(daily).sort(([a], [b]) => (a < b ? -1 : 1));
  const periods: Array<{ date: string; total: DecimalString; change: DecimalString }> = [];
  for (let periodStart = from.startOf(unit); periodStart <= to; periodStart = periodStart.plus({ [unit + "s"]: 1 })) {
    const first = periodStart.toISODate()!;
    const last = periodStart.endOf(unit).toISODate()!;
    let change = ZERO;
    let later = ZERO;
    for (const [day, value] of days) {
      if (day > last) later = addDecimals(later, value);
      else if (day >= first) change = addDecimals(change, value);
    }
    periods.push({ date: first, total: subtractDecimals(current, later), change });
  }
  return periods;
}
