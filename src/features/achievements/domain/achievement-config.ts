import { isWithinAmountRange, MAX_AMOUNT } from "../../../engine/domain/decimal.js";
import { checkConfigKey, checkDescription, checkName } from "../../../engine/domain/rules.js";

/**
 * Achievements as configured through the Admin API: the rules a configuration must follow. Pure:
 * whatever needs the database (which metrics, attributes and achievements the tenant has) comes in
 * as an `AchievementReferences` snapshot.
 */

export type AchievementTrigger = "metric" | "streak" | "api" | "achievement";
export type AchievementStatus = "active" | "inactive" | "locked";

/** A custom attribute key and the value it must have. */
export interface AttributeFilter {
  key: string;
  value: string;
}

/** An achievement's configuration; fields that do not apply are null (or empty lists). */
export interface AchievementSettings {
  key: string;
  name: string;
  description: string | null;
  badgeUrl: string | null;
  trigger: AchievementTrigger;
  status: AchievementStatus;
  metricId: string | null;
  metricValue: number | null;
  streakLength: number | null;
  achievementIds: string[];
  userAttributes: AttributeFilter[];
  eventAttributes: AttributeFilter[];
}

export interface AchievementConfig extends AchievementSettings {
  id: string;
  created: Date;
  updated: Date;
  /**
   * How many times what its matching events are counted toward changed (`redefinesProgress`);
   * absent: never. Progress counted under an earlier definition is not read (`progressKeyOf`).
   */
  progressGeneration?: number;
}

/**
 * Whether an update changes what a metric achievement with event attribute filters counts (its
 * trigger, metric or filters): progress counted before was counted toward something else.
 */
export function redefinesProgress(current: AchievementSettings, next: AchievementSettings): boolean {
  const filters = (s: AchievementSettings) => JSON.stringify([...s.eventAttributes].sort((a, b) => a.key.localeCompare(b.key)));
  return current.trigger !== next.trigger || current.metricId !== next.metricId || filters(current) !== filters(next);
}

/** A new achievement as requested; `undefined` means not given. */
export interface AchievementDraft {
  name: string;
  key: string;
  description?: string;
  badgeUrl?: string;
  trigger?: AchievementTrigger;
  status?: AchievementStatus;
  metricId?: string;
  metricValue?: number;
  streakLength?: number;
  achievementIds?: string[];
  userAttributes?: AttributeFilter[];
  eventAttributes?: AttributeFilter[];
}

/**
 * An update: fields left `undefined` keep their value, `null` removes an optional value, and a
 * list replaces the current one.
 */
export type AchievementChanges = Partial<Omit<AchievementDraft, "description" | "badgeUrl" | "userAttributes" | "eventAttributes">> & {
  description?: string | null;
  badgeUrl?: string | null;
  userAttributes?: AttributeFilter[] | null;
  eventAttributes?: AttributeFilter[] | null;
};

/** What the tenant has, for the checks that look beyond the achievement itself. */
export interface AchievementReferences {
  metricIds: ReadonlySet<string>;
  userAttributeKeys: Pick<ReadonlySet<string>, "has">;
  eventAttributeKeys: Pick<ReadonlySet<string>, "has">;
  /** The tenant's achievements and their prerequisites (empty for non-composite ones). */
  prerequisites: ReadonlyMap<string, readonly string[]>;
}

const MAX_URL = 2048;
const MAX_FILTER_VALUE = 255;
/** Achievement keys are used in paths (`/achievements/{key}/complete`): URL-safe characters only. */
const TRIGGERS = '"metric", "streak", "api" or "achievement"';

/** The trigger each trigger-specific field belongs to. */
const TRIGGER_FIELDS = {
  metricId: "metric",
  metricValue: "metric",
  streakLength: "streak",
  achievementIds: "achievement",
  eventAttributes: "metric",
} as const satisfies Partial<Record<keyof AchievementDraft, AchievementTrigger>>;

/** What is wrong with an achievement (field and rule), or null. `id` is its own ID once it exists. */
export function checkAchievementDraft(draft: AchievementDraft, id: string | null = null): string | null {
  const basics = checkName(draft.name) ?? checkConfigKey(draft.key) ?? checkDescription(draft.description);
  if (basics) return basics;
  if (draft.badgeUrl !== undefined) {
    const problem = checkHttpUrl(draft.badgeUrl);
    if (problem) return `badgeUrl ${problem}`;
  }
  if (draft.trigger === undefined) return `trigger is required: ${TRIGGERS}`;
  return (
    checkTrigger(draft, draft.trigger, id) ?? checkFilters("userAttributes", draft.userAttributes) ?? checkFilters("eventAttributes", draft.eventAttributes)
  );
}

function checkTrigger(draft: AchievementDraft, trigger: AchievementTrigger, id: string | null): string | null {
  for (const [field, owner] of Object.entries(TRIGGER_FIELDS) as Array<[keyof typeof TRIGGER_FIELDS, AchievementTrigger]>) {
    const value = draft[field];
    const given = Array.isArray(value) ? value.length > 0 : value !== undefined;
    if (given && owner !== trigger) return `${field} is only allowed for ${owner} achievements, not ${trigger} achievements`;
  }
  switch (trigger) {
    case "metric":
      if (draft.metricId === undefined || draft.metricId === "") return "metricId is required for a metric achievement";
      if (draft.metricValue === undefined) return "metricValue is required for a metric achievement";
      if (!(draft.metricValue > 0 && isWithinAmountRange(draft.metricValue))) {
        return `metricValue must be a number greater than 0 and at most ${MAX_AMOUNT} (the largest total), got ${draft.metricValue}`;
      }
      return null;
    case "streak":
      if (draft.streakLength === undefined) return "streakLength is required for a streak achievement";
      if (!Number.isInteger(draft.streakLength) || draft.streakLength < 1)
        return `streakLength must be a whole number of at least 1, got ${draft.streakLength}`;
      return null;
    case "achievement": {
      const ids = draft.achievementIds ?? [];
      if (ids.length === 0) return "achievementIds must list at least one prerequisite achievement for an achievement trigger";
      const repeated = ids.find((x, i) => ids.indexOf(x) !== i);
      if (repeated !== undefined) return `achievementIds lists "${repeated}" more than once`;
      if (id !== null && ids.includes(id)) return "achievementIds must not include the achievement itself";
      return null;
    }
    case "api":
      return null;
  }
}

function checkFilters(field: "userAttributes" | "eventAttributes", filters: AttributeFilter[] | undefined): string | null {
  const seen = new Set<string>();
  for (const [i, filter] of (filters ?? []).entries()) {
    if (filter.key === "") return `${field}[${i}].key is required`;
    if (filter.value === "") return `${field}[${i}].value is required`;
    if (filter.value.length > MAX_FILTER_VALUE) return `${field}[${i}].value must be at most ${MAX_FILTER_VALUE} characters`;
    if (seen.has(filter.key)) return `${field}[${i}].key "${filter.key}" is repeated: filter each attribute once`;
    seen.add(filter.key);
  }
  return null;
}

/** Badge URLs are shown in `<img>` tags: absolute http(s) URLs only. */
function checkHttpUrl(url: string): string | null {
  if (url.length > MAX_URL) return `must be at most ${MAX_URL} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not an absolute URL`;
  }
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? null : `"${url}" must be an http or https URL`;
}

/** The configuration of a checked draft: defaults applied, fields that do not apply dropped. */
export function achievementSettings(draft: AchievementDraft): AchievementSettings {
  const trigger = draft.trigger!;
  return {
    key: draft.key,
    name: draft.name,
    description: draft.description ?? null,
    badgeUrl: draft.badgeUrl ?? null,
    trigger,
    // New achievements are inactive until made live, as in the reference.
    status: draft.status ?? "inactive",
    metricId: trigger === "metric" ? draft.metricId! : null,
    metricValue: trigger === "metric" ? draft.metricValue! : null,
    streakLength: trigger === "streak" ? draft.streakLength! : null,
    achievementIds: trigger === "achievement" ? [...draft.achievementIds!] : [],
    userAttributes: [...(draft.userAttributes ?? [])],
    eventAttributes: trigger === "metric" ? [...(draft.eventAttributes ?? [])] : [],
  };
}

/**
 * The draft an update results in, to be checked like a new achievement. Changing the trigger drops
 * the previous trigger's fields unless the update sets them.
 */
export function mergeAchievementChanges(current: AchievementSettings, changes: AchievementChanges): AchievementDraft {
  const keep = changes.trigger === undefined || changes.trigger === current.trigger;
  /** The change if given (null: removed), else the current value. */
  const pick = <T>(change: T | null | undefined, value: T | null): T | undefined => (change === undefined ? (value ?? undefined) : (change ?? undefined));
  return {
    name: changes.name ?? current.name,
    key: changes.key ?? current.key,
    description: pick(changes.description, current.description),
    badgeUrl: pick(changes.badgeUrl, current.badgeUrl),
    trigger: changes.trigger ?? current.trigger,
    status: changes.status ?? current.status,
    metricId: pick(changes.metricId, keep ? current.metricId : null),
    metricValue: pick(changes.metricValue, keep ? current.metricValue : null),
    streakLength: pick(changes.streakLength, keep ? current.streakLength : null),
    achievementIds: changes.achievementIds ?? (keep ? current.achievementIds : []),
    userAttributes: pick(changes.userAttributes, current.userAttributes) ?? [],
    eventAttributes: pick(changes.eventAttributes, keep ? current.eventAttributes : []) ?? [],
  };
}

/**
 * What is wrong with what a checked configuration refers to, or null: its metric, attribute keys
 * and prerequisites must be the tenant's own, and prerequisites must not lead back to it.
 */
export function checkAchievementReferences(settings: AchievementSettings, id: string | null, refs: AchievementReferences): string | null {
  if (settings.metricId !== null && !refs.metricIds.has(settings.metricId)) {
    return `metricId "${settings.metricId}" is not a metric of this tenant`;
  }
  for (const [field, known, type] of [
    ["userAttributes", refs.userAttributeKeys, "user"],
    ["eventAttributes", refs.eventAttributeKeys, "event"],
  ] as const) {
    const index = settings[field].findIndex((f) => !known.has(f.key));
    if (index >= 0) return `${field}[${index}].key "${settings[field][index]!.key}" is not one of this tenant's ${type} attributes`;
  }
  const unknown = settings.achievementIds.find((x) => !refs.prerequisites.has(x));
  if (unknown !== undefined) return `achievementIds: "${unknown}" is not an achievement of this tenant`;
  if (id !== null) {
    const cycle = findPrerequisiteCycle(id, settings.achievementIds, refs.prerequisites);
    if (cycle) return `achievementIds would make a cycle of prerequisites: ${cycle.join(" -> ")}`;
  }
  return null;
}

/**
 * The prerequisite path that leads from `id` back to itself if `id` had these prerequisites, or
 * null. (A new achievement cannot close a cycle: nothing refers to it yet.)
 */
export function findPrerequisiteCycle(id: string, prerequisites: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const visited = new Set<string>();
  const walk = (node: string, path: string[]): string[] | null => {
    if (node === id) return path;
    if (visited.has(node)) return null;
    visited.add(node);
    for (const next of graph.get(node) ?? []) {
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return null;
  };
  for (const first of prerequisites) {
    const found = walk(first, [id, first]);
    if (found) return found;
  }
  return null;
}
