import type { Sha256 } from "../../../engine/domain/hashing.js";

/**
 * A tenant's account settings (the reference's `admin.settings`): branding, experimentation and
 * the aggregation period. Stored per tenant; settings never set read as DEFAULT_SETTINGS.
 *
 * **The control group.** `controlRatio` percent of NEW users are in the control group, which earns
 * nothing: no streak, achievements, points or leaderboard entries (their metric totals, history and
 * activity are still kept, so the two groups can be compared). A user's group is decided once, when
 * the service first sees the user, from a hash of the user ID: the first 32 bits of SHA-256 of the
 * ID, modulo 100, below the ratio. So the same ID always lands in the same bucket (in every tenant
 * and on every instance), and raising the ratio from 10 to 20 would put exactly the buckets 10 to 19
 * in control, but only for users created after the change: existing users keep their group, so an
 * experiment's cohorts never mix. The reference assigns new users the same way (by a ratio) and
 * shows the group as the user's `control` field.
 */

export const FONT_FAMILIES = [
  "MODERN_SANS",
  "BOOK_SANS",
  "ORGANIC_SANS",
  "GEOMETRIC_SANS",
  "HEAVY_SANS",
  "ROUNDED_SANS",
  "MODERN_SERIF",
  "BOOK_SERIF",
  "MONOSPACE",
] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];
export type AggregationPeriod = "weekly" | "monthly";

export interface BrandingSettings {
  appName: string;
  appUrl: string;
  brandColor: string;
  font: FontFamily;
  logo: { url: string } | null;
  appIcon: { url: string } | null;
}

export interface AccountSettings {
  branding: BrandingSettings;
  experimentation: { controlRatio: number; userActivationWindow: number };
  aggregationPeriod: AggregationPeriod;
}

/** What settings never set read as: nobody in control (nothing changes until configured). */
export const DEFAULT_SETTINGS: AccountSettings = {
  branding: { appName: "", appUrl: "", brandColor: "#000000", font: "MODERN_SANS", logo: null, appIcon: null },
  experimentation: { controlRatio: 0, userActivationWindow: 14 },
  aggregationPeriod: "weekly",
};

/** A change: fields absent stay; `logo`/`appIcon` null clear the image. */
export interface SettingsUpdate {
  branding?: Partial<BrandingSettings>;
  experimentation?: Partial<AccountSettings["experimentation"]>;
  aggregationPeriod?: AggregationPeriod;
}

const BYTE = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const ALPHA = "(0|1|0?\\.\\d+|1\\.0+)";
const COLOR = new RegExp(
  `^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|rgb\\(\\s*${BYTE}\\s*,\\s*${BYTE}\\s*,\\s*${BYTE}\\s*\\)|rgba\\(\\s*${BYTE}\\s*,\\s*${BYTE}\\s*,\\s*${BYTE}\\s*,\\s*${ALPHA}\\s*\\))$`,
);

/** Whether a colour is `#RGB`, `#RRGGBB`, `rgb(r,g,b)` or `rgba(r,g,b,a)` (channels 0 to 255, alpha 0 to 1). */
export function isBrandColor(value: string): boolean {
  return COLOR.test(value);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** What is wrong with a change, or null. */
export function checkSettingsUpdate(update: SettingsUpdate): string | null {
  const b = update.branding ?? {};
  if (b.appName !== undefined && b.appName.trim() !== b.appName) return "branding.appName must not start or end with whitespace";
  if (b.appUrl !== undefined && b.appUrl !== "" && !isHttpUrl(b.appUrl))
    return `branding.appUrl must be an http or https URL (or "" to clear it), got "${b.appUrl}"`;
  if (b.brandColor !== undefined && !isBrandColor(b.brandColor)) {
    return `branding.brandColor must be #RGB, #RRGGBB, rgb(r,g,b) or rgba(r,g,b,a) with channels 0 to 255 and alpha 0 to 1, got "${b.brandColor}"`;
  }
  if (b.font !== undefined && !FONT_FAMILIES.includes(b.font)) return `branding.font must be one of ${FONT_FAMILIES.join(", ")}, got "${b.font}"`;
  for (const field of ["logo", "appIcon"] as const) {
    const image = b[field];
    if (image && !isHttpUrl(image.url)) return `branding.${field}.url must be an http or https URL, got "${image.url}"`;
  }
  const e = update.experimentation ?? {};
  if (e.controlRatio !== undefined && !(Number.isInteger(e.controlRatio) && e.controlRatio >= 0 && e.controlRatio <= 100)) {
    return `experimentation.controlRatio must be a whole percentage from 0 to 100, got ${e.controlRatio}`;
  }
  if (e.userActivationWindow !== undefined && !(Number.isInteger(e.userActivationWindow) && e.userActivationWindow >= 1 && e.userActivationWindow <= 365)) {
    return `experimentation.userActivationWindow must be a whole number of days from 1 to 365, got ${e.userActivationWindow}`;
  }
  return null;
}

/** The settings after a valid change. */
export function applySettingsUpdate(current: AccountSettings, update: SettingsUpdate): AccountSettings {
  const defined = <T extends object>(o: T | undefined) => Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
  return {
    branding: { ...current.branding, ...defined(update.branding) },
    experimentation: { ...current.experimentation, ...defined(update.experimentation) },
    aggregationPeriod: update.aggregationPeriod ?? current.aggregationPeriod,
  };
}

/** A user ID's experiment bucket, 0 to 99 (the first 32 bits of its SHA-256, modulo 100). */
export function experimentBucket(userId: string, sha256: Sha256): number {
  const [a, b, c, d] = sha256(userId);
  return (a! * 2 ** 24 + b! * 2 ** 16 + c! * 2 ** 8 + d!) % 100;
}

/** Whether a new user with this ID joins the control group under a ratio (percent). */
export function isInControlGroup(userId: string, controlRatio: number, sha256: Sha256): boolean {
  return experimentBucket(userId, sha256) < controlRatio;
}
