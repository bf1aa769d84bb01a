import { checkDate } from "../../../engine/domain/plain-dates.js";
import { checkConfigKey, checkDescription, checkName } from "../../../engine/domain/rules.js";

/**
 * Points configuration as administered through the Admin API: points systems and their triggers,
 * levels and boosts. Pure rules: each `check*` returns what is wrong (naming the field and the
 * rule) or null; `build*` and `apply*` make the stored shape. Data rules (a metric exists in the
 * tenant, a key is free) are checked by the pipeline.
 */

export interface Badge {
  url: string;
}

/** A filter on a custom attribute, by the attribute's ID (as the reference Admin API names it). */
export interface AttributeFilterConfig {
  attributeId: string;
  attributeValue: string;
}

export type PointsSystemStatus = "active" | "archived";

export interface PointsSystemConfig {
  id: string;
  key: string;
  name: string;
  description: string;
  status: PointsSystemStatus;
  badge: Badge | null;
  maxPoints: number | null;
  created: Date;
  updated: Date;
}

export interface PointsSystemDraft {
  key: string;
  name: string;
  description?: string;
  badge?: Badge | null;
  maxPoints?: number | null;
}

/** `null` clears a nullable field; `undefined` leaves it as it is. */
export interface PointsSystemChanges {
  name?: string;
  description?: string;
  badge?: Badge | null;
  maxPoints?: number | null;
}

export type TriggerType = "metric" | "achievement" | "streak" | "time" | "user_creation";
export type TriggerStatus = "active" | "inactive";
export type TriggerTimeUnit = "hours" | "days";

/** The settings that belong to one trigger type each. */
export interface TriggerSettings {
  metricId?: string;
  metricThreshold?: number;
  achievementId?: string;
  streakLength?: number;
  timeUnit?: TriggerTimeUnit;
  timeInterval?: number;
}

export interface PointsTriggerConfig extends TriggerSettings {
  id: string;
  type: TriggerType;
  points: number;
  status: TriggerStatus;
  userAttributes: AttributeFilterConfig[];
  eventAttributes: AttributeFilterConfig[];
  blockIfOutOfPoints: boolean;
  created: Date;
  updated: Date;
  /**
   * From when a time trigger's intervals are owed: its creation, its last activation, or the last
   * change of its type or schedule; an edit of anything else (points, filters) keeps what is owed.
   * Absent on triggers stored before it existed: `updated` stands in.
   */
  owedFrom?: Date;
  /**
   * Until when an inactive time trigger's intervals are owed: its deactivation. Those that came due
   * before it and were not paid yet (the scheduler pays a minute later, or after an outage) are
   * still paid; cleared when it is active again.
   */
  owedUntil?: Date;
}

/** `status` may carry a value the Admin API does not accept (e.g. `archived`), refused by the check. */
export interface PointsTriggerDraft extends TriggerSettings {
  type?: TriggerType;
  points: number;
  status?: string;
  userAttributes?: AttributeFilterConfig[];
  eventAttributes?: AttributeFilterConfig[];
  blockIfOutOfPoints?: boolean;
}

/** `null` for a filter list removes the filters. */
export interface PointsTriggerChanges extends TriggerSettings {
  type?: TriggerType;
  points?: number;
  status?: string;
  userAttributes?: AttributeFilterConfig[] | null;
  eventAttributes?: AttributeFilterConfig[] | null;
  blockIfOutOfPoints?: boolean;
}

export interface PointsLevelConfig {
  id: string;
  key: string;
  name: string;
  points: number;
  description: string;
  badge: Badge | null;
  created: Date;
  updated: Date;
}

export interface PointsLevelDraft {
  key: string;
  name: string;
  points: number;
  description?: string;
  badge?: Badge | null;
}

export interface PointsLevelChanges {
  name?: string;
  points?: number;
  description?: string;
  badge?: Badge | null;
}

export type BoostRounding = "down" | "up" | "nearest";
export type BoostStatus = "scheduled" | "active" | "finished" | "archived";

export interface PointsBoostConfig {
  id: string;
  name: string;
  /** First day the boost applies, YYYY-MM-DD (a UTC day). */
  start: string;
  /** Last day the boost applies (inclusive), YYYY-MM-DD, or null for no end. */
  end: string | null;
  multiplier: number;
  rounding: BoostRounding;
  /** The one user the boost applies to, or null for a global (possibly cohort) boost. */
  userId: string | null;
  userAttributes: AttributeFilterConfig[];
  archived: boolean;
  created: Date;
  updated: Date;
}

export interface PointsBoostDraft {
  name: string;
  start: string;
  end?: string | null;
  multiplier: number;
  rounding?: BoostRounding;
  userId?: string | null;
  userAttributes?: AttributeFilterConfig[];
}

export interface PointsBoostChanges {
  name?: string;
  start?: string;
  end?: string | null;
  multiplier?: number;
  rounding?: BoostRounding;
  userAttributes?: AttributeFilterConfig[] | null;
  archived?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Points systems

export function checkSystemDraft(draft: PointsSystemDraft): string | null {
  return (
    checkConfigKey(draft.key) ?? checkName(draft.name) ?? checkDescription(draft.description) ?? checkBadge(draft.badge) ?? checkMaxPoints(draft.maxPoints)
  );
}

export function buildSystem(draft: PointsSystemDraft, id: string, now: Date): PointsSystemConfig {
  return {
    id,
    key: draft.key,
    name: draft.name,
    description: draft.description ?? "",
    status: "active",
    badge: draft.badge ?? null,
    maxPoints: draft.maxPoints ?? null,
    created: now,
    updated: now,
  };
}

export function checkSystemChanges(changes: PointsSystemChanges): string | null {
  return (
    (changes.name !== undefined ? checkName(changes.name) : null) ??
    checkDescription(changes.description) ??
    checkBadge(changes.badge) ??
    checkMaxPoints(changes.maxPoints)
  );
}

export function applySystemChanges(current: PointsSystemConfig, changes: PointsSystemChanges, now: Date): PointsSystemConfig {
  return { ...current, ...definedOnly(changes), updated: now };
}

function checkMaxPoints(maxPoints: number | null | undefined): string | null {
  if (maxPoints === undefined || maxPoints === null) return null;
  if (!Number.isSafeInteger(maxPoints) || maxPoints < 1) return `maxPoints must be null or an integer >= 1, got ${maxPoints}`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Triggers

/** The settings each trigger type requires; every other setting is refused for that type. */
const TYPE_SETTINGS: Record<TriggerType, ReadonlyArray<keyof TriggerSettings>> = {
  metric: ["metricId", "metricThreshold"],
  achievement: ["achievementId"],
  streak: ["streakLength"],
  time: ["timeUnit", "timeInterval"],
  user_creation: [],
};
const ALL_SETTINGS = Object.values(TYPE_SETTINGS).flat();
/** Settings that are counts: integers of at least 1. */
const COUNT_SETTINGS: ReadonlyArray<keyof TriggerSettings> = ["metricThreshold", "streakLength", "timeInterval"];

export function checkTriggerDraft(draft: PointsTriggerDraft): string | null {
  if (draft.type === undefined) return 'type is required: "metric", "achievement", "streak", "time" or "user_creation"';
  return (
    checkTriggerStatus(draft.status) ??
    checkTrigger({ ...draft, type: draft.type, userAttributes: draft.userAttributes ?? [], eventAttributes: draft.eventAttributes ?? [] })
  );
}

export function buildTrigger(draft: PointsTriggerDraft, id: string, now: Date): PointsTriggerConfig {
  return {
    id,
    type: draft.type!,
    points: draft.points,
    status: (draft.status as TriggerStatus | undefined) ?? "inactive",
    ...settingsOf(draft),
    userAttributes: draft.userAttributes ?? [],
    eventAttributes: draft.eventAttributes ?? [],
    blockIfOutOfPoints: draft.blockIfOutOfPoints ?? false,
    created: now,
    updated: now,
    owedFrom: now,
  };
}

export function checkTriggerChanges(current: PointsTriggerConfig, changes: PointsTriggerChanges): string | null {
  if (changes.type !== undefined && changes.type !== current.type && current.status === "active") {
    return "type can only be changed while the trigger is inactive";
  }
  return checkTriggerStatus(changes.status) ?? checkTrigger(applyTriggerChanges(current, changes, current.updated));
}

/**
 * Applies an update. A new type drops the settings of the old one, so the update must give the
 * settings of the new type (the check then reports what is missing).
 */
export function applyTriggerChanges(current: PointsTriggerConfig, changes: PointsTriggerChanges, now: Date): PointsTriggerConfig {
  const typeChanged = changes.type !== undefined && changes.type !== current.type;
  const base: PointsTriggerConfig = typeChanged ? { ...current, ...Object.fromEntries(ALL_SETTINGS.map((s) => [s, undefined])) } : current;
  const next = { ...base, ...definedOnly(changes) } as PointsTriggerConfig;
  // A metric trigger's setting: dropped by a change to another type, and from one of another type
  // stored with it before it was refused there (unless the update sets it, which is refused).
  if (next.type !== "metric" && changes.blockIfOutOfPoints === undefined) next.blockIfOutOfPoints = false;
  if (changes.userAttributes === null) next.userAttributes = [];
  if (changes.eventAttributes === null) next.eventAttributes = [];
  const restartsOwing =
    (next.status === "active" && current.status !== "active") ||
    typeChanged ||
    next.timeUnit !== current.timeUnit ||
    next.timeInterval !== current.timeInterval;
  const deactivated = next.status === "inactive" && current.status === "active";
  const owedUntil = next.status === "active" || typeChanged ? undefined : deactivated ? now : current.owedUntil;
  return withoutUndefined({ ...next, updated: now, owedFrom: restartsOwing ? now : (current.owedFrom ?? current.updated), owedUntil });
}

function checkTriggerStatus(status: string | undefined): string | null {
  if (status === undefined || status === "active" || status === "inactive") return null;
  return `status must be "active" or "inactive", got "${status}"`;
}

/** The rules every trigger state must satisfy, whether new or updated. */
function checkTrigger(
  t: TriggerSettings & {
    type: TriggerType;
    points: number;
    userAttributes: AttributeFilterConfig[];
    eventAttributes: AttributeFilterConfig[];
    blockIfOutOfPoints?: boolean;
  },
): string | null {
  if (!Number.isSafeInteger(t.points) || t.points === 0) {
    return `points must be a non-zero integer (negative values deduct), got ${t.points}`;
  }
  const required = TYPE_SETTINGS[t.type];
  for (const setting of ALL_SETTINGS) {
    const value = t[setting];
    const missing = value === undefined || value === "";
    if (required.includes(setting) && missing) return `${setting} is required for ${t.type} triggers`;
    if (!required.includes(setting) && value !== undefined) {
      const owner = (Object.keys(TYPE_SETTINGS) as TriggerType[]).find((type) => TYPE_SETTINGS[type].includes(setting));
      return `${setting} is only allowed on ${owner} triggers, not on ${t.type} triggers`;
    }
  }
  for (const setting of COUNT_SETTINGS) {
    const value = t[setting] as number | undefined;
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) return `${setting} must be an integer >= 1, got ${value}`;
  }
  if (t.type !== "metric" && t.eventAttributes.length > 0) return "eventAttributes are only allowed on metric triggers";
  // It refuses a metric event (the reference: "block metric events"); a user's creation, an
  // achievement, a streak or an interval is not refused for want of points.
  if (t.type !== "metric" && t.blockIfOutOfPoints) return `blockIfOutOfPoints is only allowed on metric triggers, not on ${t.type} triggers`;
  return checkFilters("userAttributes", t.userAttributes) ?? checkFilters("eventAttributes", t.eventAttributes);
}

function settingsOf(value: TriggerSettings): TriggerSettings {
  return withoutUndefined(Object.fromEntries(ALL_SETTINGS.map((s) => [s, value[s]])) as TriggerSettings);
}

// ---------------------------------------------------------------------------------------------
// Levels

export function checkLevelDraft(draft: PointsLevelDraft): string | null {
  return checkConfigKey(draft.key) ?? checkName(draft.name) ?? checkDescription(draft.description) ?? checkThreshold(draft.points) ?? checkBadge(draft.badge);
}

export function buildLevel(draft: PointsLevelDraft, id: string, now: Date): PointsLevelConfig {
  return {
    id,
    key: draft.key,
    name: draft.name,
    points: draft.points,
    description: draft.description ?? "",
    badge: draft.badge ?? null,
    created: now,
    updated: now,
  };
}

export function checkLevelChanges(changes: PointsLevelChanges): string | null {
  return (
    (changes.name !== undefined ? checkName(changes.name) : null) ??
    checkDescription(changes.description) ??
    (changes.points !== undefined ? checkThreshold(changes.points) : null) ??
    checkBadge(changes.badge)
  );
}

export function applyLevelChanges(current: PointsLevelConfig, changes: PointsLevelChanges, now: Date): PointsLevelConfig {
  return { ...current, ...definedOnly(changes), updated: now };
}

/** Keys and thresholds are unique within a system: what repeats within one list of new levels, or null. */
export function findDuplicateLevel(levels: ReadonlyArray<Pick<PointsLevelDraft, "key" | "points">>): string | null {
  const keys = new Set<string>();
  const thresholds = new Set<number>();
  for (const [index, level] of levels.entries()) {
    if (keys.has(level.key)) return `levels[${index}]: ${levelKeyTaken(level.key)}`;
    if (thresholds.has(level.points)) return `levels[${index}]: ${levelThresholdTaken(level.points)}`;
    keys.add(level.key);
    thresholds.add(level.points);
  }
  return null;
}

export function levelKeyTaken(key: string): string {
  return `Key "${key}" is already in use by another level of this points system`;
}

export function levelThresholdTaken(points: number): string {
  return `points ${points} is already the threshold of another level of this points system; thresholds must be unique`;
}

function checkThreshold(points: number): string | null {
  if (!Number.isSafeInteger(points) || points < 0) return `points must be an integer >= 0, got ${points}`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Boosts

export function checkBoostDraft(draft: PointsBoostDraft): string | null {
  // The user ID's form is a proto rule (gamification.v1.user_id), checked before this.
  if (draft.userId !== undefined && draft.userId !== null) {
    if ((draft.userAttributes ?? []).length > 0) return "userAttributes cannot be set on a user-specific boost (userId is set)";
  }
  // Protobuf reads a missing multiplier as 0, which no boost has.
  if (draft.multiplier === 0) return "multiplier is required: a number greater than 0, less than 100 and not 1";
  return checkBoost({ ...draft, end: draft.end ?? null, userAttributes: draft.userAttributes ?? [] });
}

export function buildBoost(draft: PointsBoostDraft, id: string, now: Date): PointsBoostConfig {
  return {
    id,
    name: draft.name,
    start: draft.start,
    end: draft.end ?? null,
    multiplier: draft.multiplier,
    rounding: draft.rounding ?? "down",
    userId: draft.userId ?? null,
    userAttributes: draft.userAttributes ?? [],
    archived: false,
    created: now,
    updated: now,
  };
}

export function checkBoostChanges(current: PointsBoostConfig, changes: PointsBoostChanges): string | null {
  if (current.userId !== null && (changes.userAttributes ?? []).length > 0) {
    return "userAttributes cannot be set on a user-specific boost";
  }
  return checkBoost(applyBoostChanges(current, changes, current.updated));
}

export function applyBoostChanges(current: PointsBoostConfig, changes: PointsBoostChanges, now: Date): PointsBoostConfig {
  const next = { ...current, ...definedOnly(changes) } as PointsBoostConfig;
  if (changes.userAttributes === null) next.userAttributes = [];
  return { ...next, updated: now };
}

/**
 * A boost's status on the UTC day of `now`: dates are whole UTC days, the end day included.
 * Archiving overrides the dates.
 */
export function boostStatus(boost: Pick<PointsBoostConfig, "start" | "end" | "archived">, now: Date): BoostStatus {
  if (boost.archived) return "archived";
  const today = now.toISOString().slice(0, 10);
  if (today < boost.start) return "scheduled";
  if (boost.end !== null && today > boost.end) return "finished";
  return "active";
}

function checkBoost(b: Pick<PointsBoostConfig, "name" | "start" | "end" | "multiplier" | "userAttributes">): string | null {
  const nameProblem = checkName(b.name);
  if (nameProblem) return nameProblem;
  if (!Number.isFinite(b.multiplier) || b.multiplier <= 0 || b.multiplier >= 100 || b.multiplier === 1) {
    return `multiplier must be greater than 0, less than 100 and not 1, got ${b.multiplier}`;
  }
  if (b.start === "") return "start is required (YYYY-MM-DD)";
  const badStart = checkDate("start", b.start);
  if (badStart) return badStart;
  if (b.end !== null) {
    const badEnd = checkDate("end", b.end);
    if (badEnd) return badEnd;
    if (b.end < b.start) return `end (${b.end}) must not be before start (${b.start})`;
  }
  return checkFilters("userAttributes", b.userAttributes);
}

// ---------------------------------------------------------------------------------------------
// Shared

function checkBadge(badge: Badge | null | undefined): string | null {
  if (badge === undefined || badge === null) return null;
  let url: URL | null = null;
  try {
    url = new URL(badge.url);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return `badge.url must be an absolute http or https URL, got "${badge.url}"`;
  return null;
}

/** Filters name an attribute and a value; one attribute at most once (all filters must match). */
function checkFilters(field: string, filters: AttributeFilterConfig[]): string | null {
  const seen = new Set<string>();
  for (const [index, filter] of filters.entries()) {
    if (filter.attributeId === "") return `${field}[${index}].attributeId is required`;
    if (filter.attributeValue === "") return `${field}[${index}].attributeValue is required`;
    if (seen.has(filter.attributeId)) return `${field}[${index}]: attribute "${filter.attributeId}" is filtered twice`;
    seen.add(filter.attributeId);
  }
  return null;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Leaves out unset settings so stored documents carry only the fields of their trigger type. */
function withoutUndefined<T extends object>(value: T): T {
  return definedOnly(value) as T;
}

/** The start of every refusal that names an archived system (nothing it configures can act again). */
export function archivedSystemMessage(systemId: string): string {
  return `Points system "${systemId}" is archived`;
}
