/**
 * Arithmetic on plain calendar dates (YYYY-MM-DD). Done in UTC, where every day has 24 hours, so
 * it never depends on a zone; zones only turn an instant into a local date (see history.ts).
 */

export const DAY_MS = 86_400_000;

export function ymd(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

/** Milliseconds of UTC midnight of a plain date. */
export function utcMillis(date: string): number {
  const [y, m, d] = ymd(date);
  return Date.UTC(y, m - 1, d);
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The calendar dates a caller may send (boost and leaderboard dates, pause dates, summary ranges):
 * 2000-01-01 to 2099-12-31. The same era bounds event timestamps (the proto rule
 * `gamification.v1.supported_time`); anything outside is a mistake such as `0001-01-01`.
 */
export const FIRST_DATE = "2000-01-01";
export const LAST_DATE = "2099-12-31";

/** Whether a string is a real calendar date written YYYY-MM-DD (2028-02-29 yes, 2026-02-29 no). */
export function isCalendarDate(value: string): boolean {
  // Parsed as an ISO string: Date.UTC would read the years 0 to 99 as 1900 to 1999.
  const ms = Date.parse(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(ms) && isoDate(ms) === value;
}

/** What is wrong with a date a caller sent as `field`, or null: a real YYYY-MM-DD date from FIRST_DATE to LAST_DATE. */
export function checkDate(field: string, value: string): string | null {
  if (!isCalendarDate(value)) return `${field} must be a date (YYYY-MM-DD), got "${value}"`;
  if (value < FIRST_DATE || value > LAST_DATE) return `${field} must be from ${FIRST_DATE} to ${LAST_DATE}, got "${value}"`;
  return null;
}

export function addDays(date: string, days: number): string {
  return isoDate(utcMillis(date) + days * DAY_MS);
}

/** The Monday of the ISO week holding a date. */
export function mondayOf(date: string): string {
  const weekday = (new Date(utcMillis(date)).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  return addDays(date, -weekday);
}
