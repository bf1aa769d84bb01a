import { IANAZone } from "luxon";

/** Metric keys are lower-case words of letters and digits joined by single hyphens, e.g. `words-written`. */
const METRIC_KEY = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const MAX_KEY_LENGTH = 100;

export function isValidMetricKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && METRIC_KEY.test(key);
}

/**
 * True for IANA zone names luxon can compute with (`Europe/London`, `UTC`). Offsets such as `+02:00`
 * are refused: a fixed offset has no daylight-saving rules, so local calendar days would drift.
 */
export function isValidTimeZone(tz: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/.test(tz) && IANAZone.isValidZone(tz);
}
