import { DateTime, IANAZone } from "luxon";
import type { StreakFrequency } from "./streak-config.js";
import type { TimeZoneChange } from "../../../engine/domain/user.js";
import { addDays, isoDate, mondayOf, ymd } from "../../../engine/domain/plain-dates.js";

export { isCalendarDate } from "../../../engine/domain/plain-dates.js";

/**
 * Calendar arithmetic for streaks. Periods are identified by the local date (YYYY-MM-DD) of their
 * first day: the day itself, the Monday of an ISO week, or the first of a month. Date arithmetic is
 * done on plain dates (in UTC, where every day has 24 hours), so it never depends on a zone; zones
 * only turn an instant into a local date and a local date into the instant it begins.
 */

/** The first of the month `months` after the month of `date`. */
function addMonthsToFirst(date: string, months: number): string {
  const [y, m] = ymd(date);
  return isoDate(Date.UTC(y, m - 1 + months, 1));
}

/**
 * The first day of the period containing a date: the date (daily), the Monday of its ISO week
 * (weekly; the reference's examples disagree on the week start, we use ISO), the first of its
 * month (monthly).
 */
export function periodStartOf(date: string, frequency: StreakFrequency): string {
  switch (frequency) {
    case "daily":
      return date;
    case "weekly":
      // getUTCDay: 0 = Sunday; ISO weeks start on Monday.
      return mondayOf(date);
    case "monthly":
      return `${date.slice(0, 7)}-01`;
  }
}

/** The first day of the period after the one starting on `start`. */
export function nextPeriodStart(start: string, frequency: StreakFrequency): string {
  return frequency === "daily" ? addDays(start, 1) : frequency === "weekly" ? addDays(start, 7) : addMonthsToFirst(start, 1);
}

/** The first day of the period before the one starting on `start`. */
export function previousPeriodStart(start: string, frequency: StreakFrequency): string {
  return frequency === "daily" ? addDays(start, -1) : frequency === "weekly" ? addDays(start, -7) : addMonthsToFirst(start, -1);
}

/** The last day of the period starting on `start` (e.g. 2028-02-29 for the month of February 2028). */
export function periodEndDate(start: string, frequency: StreakFrequency): string {
  return addDays(nextPeriodStart(start, frequency), -1);
}

const zoneValidity = new Map<string, boolean>();

/** The zone, or UTC for an unknown name (memoized: Luxon's check builds an Intl formatter each time). */
function validZone(zone: string): string {
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    valid = IANAZone.isValidZone(zone);
    if (zoneValidity.size < 1000) zoneValidity.set(zone, valid);
  }
  return valid ? zone : "UTC";
}

/**
 * The zone in force at an instant: the latest change whose `from` is at or before it (a change
 * takes effect at its instant). Before the first change, or with none, the user has no zone and
 * days are UTC days, as in the daily metric history. An unknown zone name also counts as UTC.
 */
export function zoneAt(history: readonly TimeZoneChange[], at: Date): string {
  let best: TimeZoneChange | null = null;
  for (const change of history) {
    if (change.from.getTime() <= at.getTime() && (best === null || change.from.getTime() >= best.from.getTime())) best = change;
  }
  return best ? validZone(best.tz) : "UTC";
}

/** The earliest zone change strictly after an instant, or null. */
export function nextZoneChangeAfter(history: readonly TimeZoneChange[], at: Date): Date | null {
  let next: Date | null = null;
  for (const change of history) {
    if (change.from.getTime() > at.getTime() && (next === null || change.from.getTime() < next.getTime())) next = change.from;
  }
  return next;
}

/** The local calendar date of an instant in a zone. */
export function localDateIn(at: Date, zone: string): string {
  const ms = at.getTime();
  return isoDate(ms + IANAZone.create(validZone(zone)).offset(ms) * 60_000);
}

/**
 * The first instant whose local date in the zone is `date` or later. Usually local midnight; when
 * midnight does not exist (a spring-forward at 00:00, e.g. America/Havana) it is the first instant
 * after the gap; when midnight happens twice (a fall-back to 00:00) it is the first of the two
 * (Luxon resolves the repeated time to the later one, so the earlier offset is tried as well); for
 * a date the zone skipped entirely (Pacific/Apia, 2011-12-30) it is the start of the next date.
 */
export function startOfDateIn(date: string, zone: string): Date {
  const key = `${zone} ${date}`;
  let start = dateStarts.get(key);
  if (start === undefined) {
    start = computeStartOfDateIn(date, zone);
    if (dateStarts.size >= DATE_STARTS_KEPT) dateStarts.clear();
    dateStarts.set(key, start);
  }
  return new Date(start);
}

/**
 * Start instants already computed, by zone and date: a pure function of the two, asked for the same
 * few dates by every event of a day (Luxon's zone arithmetic was 1 to 2 % of a full-profile event).
 */
const dateStarts = new Map<string, number>();
const DATE_STARTS_KEPT = 10_000;

function computeStartOfDateIn(date: string, zone: string): number {
  const z = validZone(zone);
  const [year, month, day] = ymd(date);
  const resolved = DateTime.fromObject({ year, month, day }, { zone: z }).toMillis();
  const earlierOffset = IANAZone.create(z).offset(resolved - 6 * 3_600_000);
  const alternative = Date.UTC(year, month - 1, day) - earlierOffset * 60_000;
  return alternative < resolved && localDateIn(new Date(alternative), z) >= date ? alternative : resolved;
}
