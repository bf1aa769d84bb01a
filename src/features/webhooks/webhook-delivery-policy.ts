/**
 * When a webhook delivery is retried: which HTTP answers count as delivered, how long to wait
 * before the next attempt, and how a Retry-After header is read. HTTP delivery policy (the
 * domain decides what a message says, not how it travels).
 */

/**
 * Delays before each attempt, in milliseconds: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and
 * 10 h (about 28 hours in all). Each retry delay is jittered by ±20%.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const RETRY_JITTER = 0.2;
/** Longest Retry-After honoured (a receiver cannot park a message for longer than a day). */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** How an attempt's HTTP answer counts: only 2xx delivers; 410 Gone disables the endpoint. */
export function classifyStatus(status: number): "delivered" | "gone" | "retry" {
  if (status >= 200 && status < 300) return "delivered";
  if (status === 410) return "gone";
  return "retry";
}

/** A Retry-After header (seconds, or an HTTP date) as a delay from `now`; null when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | null {
  if (header === null || header === undefined || header.trim() === "") return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - now.getTime()), MAX_RETRY_AFTER_MS);
}

/**
 * The delay before the next attempt after `attemptsMade` failed attempts of the current round, or
 * null when the schedule is exhausted (the message fails). The scheduled delay is jittered by
 * ±20% (`random` in [0, 1)); a receiver's Retry-After is honoured as a lower bound, so neither the
 * receiver's wish nor the backoff is cut short.
 */
export function nextRetryDelay(schedule: readonly number[], attemptsMade: number, random: number, retryAfterMs: number | null): number | null {
  if (attemptsMade >= schedule.length) return null;
  const base = schedule[attemptsMade]!;
  const jittered = Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** Parses a retry schedule written as comma-separated milliseconds ("0,5000,300000"). */
export function parseRetrySchedule(text: string): number[] {
  const values = text.split(",").map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((v) => !Number.isSafeInteger(v) || v < 0)) {
    throw new Error(`a retry schedule is comma-separated non-negative integers (milliseconds), got "${text}"`);
  }
  return values;
}
