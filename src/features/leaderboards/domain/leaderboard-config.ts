import type { AttributeFilter } from "../../achievements/domain/achievement-config.js";
import { checkDate } from "../../../engine/domain/plain-dates.js";
import { checkConfigKey, checkDescription, checkName } from "../../../engine/domain/rules.js";

/**
 * Leaderboards as configured through the Admin API: the rules a configuration must follow. Pure:
 * today's date comes in as an argument, and what the tenant has (metrics, points systems, user
 * attributes) as a `LeaderboardReferences` snapshot.
 */

export type LeaderboardRankBy = "metric" | "points" | "streak";
export type LeaderboardStatus = "inactive" | "scheduled" | "active" | "finished";
export type LeaderboardRunUnit = "day" | "month" | "year";

/** A leaderboard's configuration; fields that do not apply are null (or empty lists). */
export interface LeaderboardSettings {
  key: string;
  name: string;
  description: string | null;
  status: LeaderboardStatus;
  rankBy: LeaderboardRankBy;
  metricId: string | null;
  pointsSystemId: string | null;
  maxParticipants: number;
  /** First day, YYYY-MM-DD. */
  start: string;
  /** Last day, YYYY-MM-DD, or null for no end. */
  end: string | null;
  /** Daily ranking window in the user's local time, HH:mm; both or neither. */
  startTime: string | null;
  endTime: string | null;
  /** User attribute keys that split the rankings into groups. */
  breakdownAttributes: string[];
  /** Repeating runs; both or neither (perpetual). */
  runUnit: LeaderboardRunUnit | null;
  runInterval: number | null;
  /** User attribute filters a user must all match to take part (empty: everyone); attributes by ID, as breakdowns. */
  userAttributes: LeaderboardAttributeFilter[];
}

/** A filter on a user attribute, as the Admin API names it (by ID). */
export interface LeaderboardAttributeFilter {
  attributeId: string;
  attributeValue: string;
}

export interface LeaderboardConfig extends LeaderboardSettings {
  id: string;
  created: Date;
  updated: Date;
  /**
   * How many times what it ranks was redefined (`redefinesRanking`); absent: never. Each definition
   * ranks into rankings of its own (`rankingIdOf`), and users' entries of an earlier one are not read.
   */
  rankingGeneration?: number;
}

/** A new leaderboard as requested; `undefined` means not given. */
export interface LeaderboardDraft {
  name: string;
  key: string;
  description?: string;
  status?: LeaderboardStatus;
  rankBy?: LeaderboardRankBy;
  metricId?: string;
  pointsSystemId?: string;
  maxParticipants?: number;
  start?: string;
  end?: string;
  startTime?: string;
  endTime?: string;
  breakdownAttributes?: string[];
  runUnit?: LeaderboardRunUnit;
  runInterval?: number;
  userAttributes?: LeaderboardAttributeFilter[];
}

/**
 * An update: fields left `undefined` keep their value, `null` removes an optional value (a null
 * `runUnit` makes the leaderboard perpetual, removing `runInterval` too), a list replaces the
 * current one.
 */
export type LeaderboardChanges = Partial<
  Omit<LeaderboardDraft, "description" | "end" | "startTime" | "endTime" | "breakdownAttributes" | "runUnit" | "userAttributes">
> & {
  description?: string | null;
  end?: string | null;
  startTime?: string | null;
  endTime?: string | null;
  breakdownAttributes?: string[] | null;
  runUnit?: LeaderboardRunUnit | null;
  userAttributes?: LeaderboardAttributeFilter[] | null;
};

export interface LeaderboardReferences {
  metricIds: ReadonlySet<string>;
  pointsSystemIds: ReadonlySet<string>;
  /** IDs of the tenant's user attributes (breakdowns name attributes by ID, as the reference does). */
  userAttributeIds: ReadonlySet<string>;
}

/** The reference's default participant limit. Ours has no upper bound (see the README). */
export const DEFAULT_MAX_PARTICIPANTS = 1000;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

/** Today's date in UTC (YYYY-MM-DD): the day admin rules compare start and end dates with. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** UTC+14 (Pacific/Kiritimati): the first zone to begin a date. */
export const FIRST_ZONE_OFFSET_MS = 14 * 3_600_000;
/** UTC−12 (Etc/GMT+12, Baker Island): the last zone to end a date. */
export const LAST_ZONE_OFFSET_MS = 12 * 3_600_000;

/**
 * The dates somewhere on Earth at `now`: `latest` in the first zone (UTC+14) and `earliest` in the
 * last (UTC−12). A date has begun somewhere when it is no later than `latest`, and has ended
 * everywhere when it is before `earliest`: the bounds of a leaderboard's `active` status
 * (leaderboard-runs.ts `statusOf`).
 */
export function datesOnEarth(now: Date): { latest: string; earliest: string } {
  return { latest: utcDay(new Date(now.getTime() + FIRST_ZONE_OFFSET_MS)), earliest: utcDay(new Date(now.getTime() - LAST_ZONE_OFFSET_MS)) };
}

/**
 * What is wrong with a leaderboard (field and rule), or null. `today` (YYYY-MM-DD, UTC) is the
 * default start and the reference point of the status rules.
 */
export function checkLeaderboardDraft(draft: LeaderboardDraft, today: string): string | null {
  const basics = checkName(draft.name) ?? checkConfigKey(draft.key) ?? checkDescription(draft.description);
  if (basics) return basics;
  return (
    checkRanking(draft) ??
    checkMaxParticipants(draft.maxParticipants) ??
    checkDates(draft.start ?? today, draft.end) ??
    checkTimeWindow(draft) ??
    checkBreakdown(draft.breakdownAttributes ?? []) ??
    checkRuns(draft) ??
    checkUserFilters(draft.userAttributes ?? [])
  );
}

function checkRanking(draft: LeaderboardDraft): string | null {
  if (draft.rankBy === undefined) return 'rankBy is required: "metric", "points" or "streak"';
  if (draft.rankBy === "metric" && !draft.metricId) return "metricId is required when rankBy is metric";
  if (draft.rankBy === "points" && !draft.pointsSystemId) return "pointsSystemId is required when rankBy is points";
  if (draft.rankBy !== "metric" && draft.metricId !== undefined) return `metricId is only allowed when rankBy is metric, not ${draft.rankBy}`;
  if (draft.rankBy !== "points" && draft.pointsSystemId !== undefined) return `pointsSystemId is only allowed when rankBy is points, not ${draft.rankBy}`;
  return null;
}

function checkMaxParticipants(value: number | undefined): string | null {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) return `maxParticipants must be a whole number of at least 1, got ${value}`;
  return null;
}

function checkDates(start: string, end: string | undefined): string | null {
  const badStart = checkDate("start", start);
  if (badStart) return badStart;
  if (end === undefined) return null;
  const badEnd = checkDate("end", end);
  if (badEnd) return badEnd;
  if (end < start) return `end (${end}) must not be before start (${start})`;
  return null;
}

/** Seconds since midnight of a time of day written HH:mm or HH:mm:ss. */
export function secondsOfDay(time: string): number {
  const [h, m, s] = time.split(":").map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
}

/**
 * Either bound of the daily window may be alone (the reference: "setting only a start time ...").
 * The window counts activity by time of day; a streak leaderboard ranks current streaks, which
 * change at the user's midnight too (a lost streak leaves it then), so it takes no window.
 */
function checkTimeWindow({ startTime, endTime, rankBy }: Pick<LeaderboardDraft, "startTime" | "endTime" | "rankBy">): string | null {
  if (startTime !== undefined && !TIME.test(startTime)) return `startTime "${startTime}" is not a time of day (HH:mm or HH:mm:ss)`;
  if (endTime !== undefined && !TIME.test(endTime)) return `endTime "${endTime}" is not a time of day (HH:mm or HH:mm:ss)`;
  if (startTime !== undefined && endTime !== undefined && secondsOfDay(startTime) >= secondsOfDay(endTime))
    return `startTime (${startTime}) must be before endTime (${endTime})`;
  if (rankBy === "streak" && (startTime !== undefined || endTime !== undefined))
    return "startTime and endTime are not allowed when rankBy is streak: a streak leaderboard ranks current streaks at every hour (a lost streak leaves it at the user's midnight)";
  return null;
}

function checkBreakdown(keys: string[]): string | null {
  for (const [i, key] of keys.entries()) {
    if (key === "") return `breakdownAttributes[${i}] must not be empty`;
    if (keys.indexOf(key) !== i) return `breakdownAttributes lists "${key}" more than once`;
  }
  return null;
}

const MAX_FILTER_VALUE = 255;

function checkUserFilters(filters: LeaderboardAttributeFilter[]): string | null {
  const seen = new Set<string>();
  for (const [i, filter] of filters.entries()) {
    if (filter.attributeId === "") return `userAttributes[${i}].attributeId is required`;
    if (filter.attributeValue === "") return `userAttributes[${i}].attributeValue is required`;
    if (filter.attributeValue.length > MAX_FILTER_VALUE) return `userAttributes[${i}].attributeValue must be at most ${MAX_FILTER_VALUE} characters`;
    if (seen.has(filter.attributeId)) return `userAttributes[${i}].attributeId "${filter.attributeId}" is repeated: filter each attribute once`;
    seen.add(filter.attributeId);
  }
  return null;
}

/** Whether a user with these attributes takes part in a leaderboard: they match every filter (by key). */
export function takesPart(filters: readonly AttributeFilter[], attributes: Readonly<Record<string, string>>): boolean {
  return filters.every((f) => attributes[f.key] === f.value);
}

/**
 * The longest run, per unit: a hundred years, the span of the dates callers may send (2000–2099),
 * so a longer interval would mean nothing more, and the calendar's dates stay within four-digit years.
 */
export const MAX_RUN_INTERVAL = { day: 36_525, month: 1_200, year: 100 } as const;

function checkRuns(draft: LeaderboardDraft): string | null {
  if ((draft.runUnit === undefined) !== (draft.runInterval === undefined))
    return "runUnit and runInterval must be set together (a repeating leaderboard) or not at all";
  if (draft.runUnit === undefined || draft.runInterval === undefined) return null;
  if (draft.rankBy === "streak") return "runUnit and runInterval are not allowed when rankBy is streak: streak leaderboards are perpetual";
  if (!Number.isInteger(draft.runInterval) || draft.runInterval < 1) return `runInterval must be a whole number of at least 1, got ${draft.runInterval}`;
  const max = MAX_RUN_INTERVAL[draft.runUnit];
  if (draft.runInterval > max) return `runInterval must be at most ${max} for runUnit ${draft.runUnit} (a run of at most 100 years), got ${draft.runInterval}`;
  return null;
}

/**
 * What is wrong with a status given the dates, or null, by the calendar the status in force follows
 * (leaderboard-runs.ts `statusOf`): `scheduled` is for a start after today (UTC), `active` for a start
 * that has begun somewhere (UTC+14) and an end that has not ended everywhere (UTC−12), so the status
 * a leaderboard reads can always be sent back; a leaderboard is created `finished` only with an end
 * that has ended everywhere, while finishing an existing one early is always allowed (`creating` false).
 */
export function checkStatusDates(settings: Pick<LeaderboardSettings, "status" | "start" | "end">, now: Date, creating: boolean): string | null {
  const { status, start, end } = settings;
  const today = utcDay(now);
  const { latest, earliest } = datesOnEarth(now);
  switch (status) {
    case "scheduled":
      return start > today ? null : `status scheduled needs a start date after today (${today}, UTC); the start is ${start}`;
    case "active":
      if (start > latest)
        return `status active needs a start date that has begun somewhere (no later than ${latest}, today in UTC+14); use scheduled for a start on ${start}`;
      if (end !== null && end < earliest)
        return `status active needs an end date that has not ended everywhere (no earlier than ${earliest}, today in UTC-12); the end was ${end}`;
      return null;
    case "finished":
      if (!creating) return null;
      return end !== null && end < earliest
        ? null
        : `status finished is only for a new leaderboard whose end date has ended everywhere (before ${earliest}, today in UTC-12)`;
    case "inactive":
      return null;
  }
}

/** The configuration of a checked draft: defaults applied. */
export function leaderboardSettings(draft: LeaderboardDraft, today: string): LeaderboardSettings {
  return {
    key: draft.key,
    name: draft.name,
    description: draft.description ?? null,
    // New leaderboards are inactive until made live, as in the reference.
    status: draft.status ?? "inactive",
    rankBy: draft.rankBy!,
    metricId: draft.metricId ?? null,
    pointsSystemId: draft.pointsSystemId ?? null,
    maxParticipants: draft.maxParticipants ?? DEFAULT_MAX_PARTICIPANTS,
    start: draft.start ?? today,
    end: draft.end ?? null,
    startTime: draft.startTime ?? null,
    endTime: draft.endTime ?? null,
    breakdownAttributes: [...(draft.breakdownAttributes ?? [])],
    runUnit: draft.runUnit ?? null,
    runInterval: draft.runInterval ?? null,
    userAttributes: (draft.userAttributes ?? []).map(({ attributeId, attributeValue }) => ({ attributeId, attributeValue })),
  };
}

/**
 * The draft an update results in (to be checked like a new leaderboard, and against
 * `checkLockedChanges`). Changing `rankBy` drops the previous metric or points system unless the
 * update sets one.
 */
export function mergeLeaderboardChanges(current: LeaderboardSettings, changes: LeaderboardChanges): LeaderboardDraft {
  const keep = changes.rankBy === undefined || changes.rankBy === current.rankBy;
  const perpetual = changes.runUnit === null;
  /** The change if given (null: removed), else the current value. */
  const pick = <T>(change: T | null | undefined, value: T | null): T | undefined => (change === undefined ? (value ?? undefined) : (change ?? undefined));
  return {
    name: changes.name ?? current.name,
    key: changes.key ?? current.key,
    description: pick(changes.description, current.description),
    status: changes.status ?? current.status,
    rankBy: changes.rankBy ?? current.rankBy,
    metricId: pick(changes.metricId, keep ? current.metricId : null),
    pointsSystemId: pick(changes.pointsSystemId, keep ? current.pointsSystemId : null),
    maxParticipants: changes.maxParticipants ?? current.maxParticipants,
    start: changes.start ?? current.start,
    end: pick(changes.end, current.end),
    startTime: pick(changes.startTime, current.startTime),
    endTime: pick(changes.endTime, current.endTime),
    breakdownAttributes: pick(changes.breakdownAttributes, current.breakdownAttributes) ?? [],
    runUnit: pick(changes.runUnit, current.runUnit),
    runInterval: pick(changes.runInterval, perpetual ? null : current.runInterval),
    userAttributes: pick(changes.userAttributes, current.userAttributes ?? []) ?? [],
  };
}

/** Where a leaderboard stands when an update comes. */
export interface LeaderboardInForce {
  /** Its status in force (`statusOf`: a scheduled one whose start has begun somewhere is active). */
  status: LeaderboardStatus;
  /** The latest date begun in any zone (UTC+14), YYYY-MM-DD: no user can have acted on a later one. */
  latestDay: string;
}

/** What decides what a leaderboard ranks: changes only while inactive. */
const RANKING_FIELDS = ["key", "rankBy", "metricId", "pointsSystemId"] as const;
/**
 * What decides where its rankings are stored (the run starts, the breakdown group): changed once
 * users may have taken part, every read would look at new, empty rankings and leave the ranked
 * values behind. Changes only while inactive or scheduled (no one takes part before the start).
 */
const STORAGE_FIELDS = ["start", "runUnit", "runInterval", "breakdownAttributes"] as const;

/**
 * What an update may not change now, or null. `next` is the merged draft; sending a field's current
 * value is not a change. The key and what it ranks by change only while the leaderboard is inactive;
 * where its rankings are stored only while inactive or scheduled. `end` of an active or finished
 * leaderboard moves only across days no zone has begun: a day added or removed after users reached
 * it would leave values counted past the end, or miss values that were not counted.
 * `maxParticipants` (applied on reads), the daily window and the user attribute filters (both read
 * at the moment of each change) stay free.
 */
export function checkLockedChanges(current: LeaderboardSettings, next: LeaderboardDraft, inForce: LeaderboardInForce): string | null {
  const { status, latestDay } = inForce;
  if (status === "inactive") return null;
  const differs = (f: (typeof RANKING_FIELDS)[number] | (typeof STORAGE_FIELDS)[number]) =>
    JSON.stringify(next[f] ?? null) !== JSON.stringify(current[f] ?? null);
  const locked = RANKING_FIELDS.find(differs);
  if (locked) return `${locked} can only be changed while the leaderboard is inactive (it is ${status})`;
  if (status === "scheduled") return null;
  const stored = STORAGE_FIELDS.find(differs);
  if (stored) return `${stored} can only be changed while the leaderboard is inactive or scheduled (it is ${status})`;
  const end = next.end ?? null;
  if (end !== current.end) {
    const earlier = end === null || (current.end !== null && current.end < end) ? current.end! : end;
    if (earlier < latestDay)
      return `end can only be changed while the leaderboard is inactive or scheduled (it is ${status}), or between dates on or after ${latestDay}, the latest date begun anywhere`;
  }
  return null;
}

/** What the values ranked mean: what is counted, into which runs and groups (the key is only a name). */
const DEFINING_FIELDS = [...RANKING_FIELDS.filter((f) => f !== "key"), ...STORAGE_FIELDS];

/**
 * Whether an update redefines what a leaderboard ranks (possible only while it is inactive, or
 * scheduled): the values counted so far mean something else, so it starts over with empty rankings
 * and no user's earlier value, as a new leaderboard would.
 */
export function redefinesRanking(current: LeaderboardSettings, next: LeaderboardSettings): boolean {
  return DEFINING_FIELDS.some((f) => JSON.stringify(next[f] ?? null) !== JSON.stringify(current[f] ?? null));
}

/** The ID of a leaderboard's rankings in the ranking store: its own ID, then one per redefinition. */
export function rankingIdOf(leaderboardId: string, generation: number | undefined): string {
  return generation ? `${leaderboardId}.${generation}` : leaderboardId;
}

/** Whether an update must re-check the status against the dates: the status or a date changed. */
export function statusRulesApply(changes: LeaderboardChanges): boolean {
  return changes.status !== undefined || changes.start !== undefined || changes.end !== undefined;
}

/** What is wrong with what a checked configuration refers to, or null. */
export function checkLeaderboardReferences(settings: LeaderboardSettings, refs: LeaderboardReferences): string | null {
  if (settings.metricId !== null && !refs.metricIds.has(settings.metricId)) {
    return `metricId "${settings.metricId}" is not a metric of this tenant`;
  }
  if (settings.pointsSystemId !== null && !refs.pointsSystemIds.has(settings.pointsSystemId)) {
    return `pointsSystemId "${settings.pointsSystemId}" is not a points system of this tenant`;
  }
  const index = settings.breakdownAttributes.findIndex((id) => !refs.userAttributeIds.has(id));
  if (index >= 0) return `breakdownAttributes[${index}] "${settings.breakdownAttributes[index]}" is not the ID of a user attribute of this tenant`;
  const filter = settings.userAttributes.findIndex((f) => !refs.userAttributeIds.has(f.attributeId));
  if (filter >= 0)
    return `userAttributes[${filter}].attributeId "${settings.userAttributes[filter]!.attributeId}" is not the ID of a user attribute of this tenant`;
  return null;
}
