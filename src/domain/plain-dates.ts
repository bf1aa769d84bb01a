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

export function addDays(date: string, days: number): string {
  return isoDate(utcMillis(date) + days * DAY_MS);
}
