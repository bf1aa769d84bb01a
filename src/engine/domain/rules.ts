import { IANAZone } from "luxon";

/** Metric keys are lower-case words of letters and digits joined by single hyphens, e.g. `words-written`. */
const METRIC_KEY = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const MAX_KEY_LENGTH = 100;

/** Keys of configuration (attributes, achievements, leaderboards, points systems, levels): the reference pattern. */
const CONFIG_KEY = /^[A-Za-z0-9_-]+$/;
export const MAX_NAME_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 1000;

/** What is wrong with a configuration key, or null. */
export function checkConfigKey(key: string): string | null {
  if (key === "") return "key is required";
  if (key.length > MAX_KEY_LENGTH || !CONFIG_KEY.test(key)) {
    return `key "${key}" is invalid: use letters, digits, hyphens and underscores, at most ${MAX_KEY_LENGTH} characters`;
  }
  return null;
}

/** C0 and C1 control characters (NUL, ESC, ...): never part of a name shown to people or logged. */
const CONTROL_CHARACTER = /\p{Cc}/u;

/** Whether text holds a control character (NUL, a line break, ESC, C1 controls). */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** What is wrong with a display name, or null. */
export function checkName(name: string): string | null {
  if (name.trim() === "") return "name is required";
  if (name.length > MAX_NAME_LENGTH) return `name must be at most ${MAX_NAME_LENGTH} characters`;
  if (hasControlCharacter(name)) return "name must not contain control characters (such as NUL, a line break or ESC)";
  return null;
}

/** What is wrong with an optional description, or null. */
export function checkDescription(description: string | undefined): string | null {
  if (description !== undefined && description.length > MAX_DESCRIPTION_LENGTH) return `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`;
  return null;
}

export function isValidMetricKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && METRIC_KEY.test(key);
}

/**
 * True for IANA zone names luxon can compute with (`Europe/London`, `UTC`). Offsets such as `+02:00`
 * are refused: a fixed offset has no daylight-saving rules, so local calendar days would drift.
 */
export function isValidTimeZone(tz: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz) && IANAZone.isValidZone(tz);
}

/** Zone names resolved so far; bounded, as letter case alone can spell a valid name many ways. */
const resolvedZones = new Map<string, string>();
const MAX_RESOLVED_ZONES = 10_000;

/**
 * The one name ICU gives a valid zone's every spelling: links and aliases (`Asia/Kolkata` and
 * `Asia/Calcutta`, `Europe/Kyiv` and `Europe/Kiev`, `US/Eastern` and `America/New_York`) and any
 * letter case. Browsers disagree on some of these, so one user's two devices may send two names for
 * the zone they are in.
 */
export function canonicalZone(tz: string): string {
  let canonical = resolvedZones.get(tz);
  if (canonical === undefined) {
    try {
      canonical = new Intl.DateTimeFormat("en-US", { timeZone: tz }).resolvedOptions().timeZone;
    } catch {
      canonical = tz;
    }
    if (resolvedZones.size < MAX_RESOLVED_ZONES) resolvedZones.set(tz, canonical);
  }
  return canonical;
}

/** Whether two zone names (or none) are the same zone (`canonicalZone`). */
export function sameZone(a: string | null, b: string | null): boolean {
  return a === b || (a !== null && b !== null && canonicalZone(a) === canonicalZone(b));
}

/**
 * A valid zone name as stored: in the database's letter case when it differs from a canonical name
 * by case only (`europe/london` is `Europe/London`); otherwise as sent (`Asia/Kolkata` stays, though
 * ICU calls it `Asia/Calcutta`).
 */
export function zoneSpelling(tz: string): string {
  const canonical = canonicalZone(tz);
  return canonical.toLowerCase() === tz.toLowerCase() ? canonical : tz;
}
