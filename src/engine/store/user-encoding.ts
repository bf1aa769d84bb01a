import { createHash } from "node:crypto";
import type { PointsAward, PointsAwardBoost, PointsAwardTrigger, PointsState } from "../../features/points/domain/points.js";
import type { DailyChanges } from "../domain/history.js";
import type { LeaderboardEntry } from "../../features/leaderboards/domain/leaderboard-entries.js";
import type { StreakState } from "../../features/streaks/domain/streak.js";
import type { UserMetricState, UserState } from "../domain/user.js";

/**
 * How a user's state is laid out in its document, so that a write sends what changed and the
 * document stays small however long the user's history is.
 *
 * The state's capped lists (points awards, leaderboard rank history, streak periods, recent
 * idempotency records) are appended at one end and dropped at the other. Stored as arrays, every
 * append would rewrite the whole list; stored as LINKED MAPS, `{ <key>: { ...element, _p: <key of
 * the element before> } }`, an append writes one entry and a drop unsets one (the write is a diff
 * of entries, engine/store/user-documents.ts `userChanges`). Keys are short hashes of the element's identity; a
 * list whose keys collide stays an array.
 *
 * Daily changes (per metric and per points system, up to HISTORY_DAYS days) are packed per month,
 * `{ "2026-01": "5,,2.5,..." }` (the day's change at its day of the month, empty when none): a
 * write rewrites one month of about a hundred bytes, and two years take a few kilobytes.
 *
 * Points awards carry a snapshot of their trigger and boosts, nearly always the same few: the
 * snapshots are stored once per points system (`awardParts`, keyed by a hash of their content)
 * and each award names its parts.
 */
export type StoredUserState = Record<string, unknown>;

/** A key that can be one segment of an update path. */
export const PATH_SEGMENT = /^[^.$][^.]*$/;

const PREV = "_p";

/** A short, path-safe hash (48 bits: a collision in one list is unlikely and only costs the array layout). */
function shortHash(text: string, length = 8): string {
  return createHash("sha1").update(text).digest("base64url").slice(0, length).replace(/^[$]/, "_");
}

type Linked<T> = Record<string, T & { [PREV]: string | null }>;

/**
 * A state and its next share every object a change did not touch, so encodings are remembered per
 * source object: encoding the two costs little more than the change, and the diff skips shared
 * parts by identity.
 */
function remembered<K extends object, V>(encode: (source: K) => V): (source: K) => V {
  const cache = new WeakMap<K, V>();
  return (source) => {
    let value = cache.get(source);
    if (value === undefined) cache.set(source, (value = encode(source)));
    return value;
  };
}

/** An element's key and its stored entry (for the predecessor it had when last encoded). */
const elementKeys = new WeakMap<object, { key: string; prev: string | null; entry: object }>();

function linkList<T extends object>(list: readonly T[], keyOf: (item: T) => string): Linked<T> | T[] {
  const linked: Linked<T> = {};
  let prev: string | null = null;
  for (const item of list) {
    let known = elementKeys.get(item);
    const key = known?.key ?? shortHash(keyOf(item));
    if (!PATH_SEGMENT.test(key) || key in linked) return [...list];
    if (!known || known.prev !== prev) elementKeys.set(item, (known = { key, prev, entry: { ...item, [PREV]: prev } }));
    linked[key] = known.entry as T & { [PREV]: string | null };
    prev = key;
  }
  return linked;
}

/** The list back in order: from the one element whose predecessor is not in the map, along the links. */
function unlinkList<T>(stored: unknown): T[] {
  if (Array.isArray(stored)) return stored as T[];
  if (stored === null || typeof stored !== "object") return [];
  const entries = stored as Record<string, Record<string, unknown>>;
  const next = new Map<string | null, string>();
  for (const [key, value] of Object.entries(entries)) {
    const prev = value[PREV] as string | null;
    next.set(prev !== null && prev in entries ? prev : null, key);
  }
  const list: T[] = [];
  for (let key = next.get(null); key !== undefined; key = next.get(key)) {
    const { [PREV]: _prev, ...item } = entries[key]!;
    list.push(item as T);
  }
  return list;
}

type AwardPart = PointsAwardTrigger | PointsAwardBoost;

/** Snapshots are shared by the awards of one state and its next: hash each object once. */
const partKeys = new WeakMap<AwardPart, string>();

function partKey(part: AwardPart): string {
  let key = partKeys.get(part);
  if (key === undefined) partKeys.set(part, (key = shortHash(JSON.stringify(part), 12)));
  return key;
}

/** Daily changes packed per month (see above); a map with any key that is not a date stays as it is. */
const packDaily = remembered((daily: DailyChanges): Record<string, string> | DailyChanges => {
  const months: Record<string, string[]> = {};
  for (const [day, change] of Object.entries(daily)) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || change.includes(",")) return daily;
    (months[day.slice(0, 7)] ??= [])[Number(day.slice(8)) - 1] = change;
  }
  return Object.fromEntries(Object.entries(months).map(([month, days]) => [month, Array.from(days, (d) => d ?? "").join(",")]));
});

function unpackDaily(stored: Record<string, string>): DailyChanges {
  const daily: DailyChanges = {};
  for (const [key, value] of Object.entries(stored ?? {})) {
    if (key.length !== 7) {
      daily[key] = value; // a day as an earlier version stored it
      continue;
    }
    value.split(",").forEach((change, i) => {
      if (change !== "") daily[`${key}-${String(i + 1).padStart(2, "0")}`] = change;
    });
  }
  return daily;
}

interface StoredAward extends Omit<PointsAward, "trigger" | "boosts"> {
  trigger: string;
  boosts: string[];
}

const storedAward = remembered((a: PointsAward): StoredAward => ({ ...a, trigger: partKey(a.trigger), boosts: a.boosts.map(partKey) }));

const encodePoints = remembered((state: PointsState): Record<string, unknown> => {
  const parts: Record<string, AwardPart> = {};
  for (const a of state.awards) for (const part of [a.trigger, ...a.boosts]) parts[partKey(part)] = part;
  return { ...state, daily: packDaily(state.daily), awards: linkList(state.awards.map(storedAward), (a) => a.id), awardParts: parts };
});

function decodePoints(stored: Record<string, unknown>): PointsState {
  const { awardParts, awards, daily, ...stateFields } = stored as Record<string, unknown> & { awardParts?: Record<string, AwardPart> };
  const rest = { ...stateFields, daily: unpackDaily(daily as Record<string, string>) };
  const list = unlinkList<PointsAward | StoredAward>(awards);
  if (!awardParts) return { ...(rest as unknown as PointsState), awards: list as PointsAward[] };
  const decoded = (list as StoredAward[]).map((a): PointsAward => ({
    ...a,
    trigger: awardParts[a.trigger] as PointsAwardTrigger,
    boosts: a.boosts.map((key) => awardParts[key] as PointsAwardBoost),
  }));
  return { ...(rest as unknown as PointsState), awards: decoded };
}

function mapValues<T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

const encodeMetric = remembered((metric: UserMetricState) => ({ ...metric, daily: packDaily(metric.daily) }));
const encodeLeaderboardEntry = remembered((entry: LeaderboardEntry) => ({ ...entry, history: linkList(entry.history, (h) => `${h.run}_${h.date}`) }));
const encodeStreak = remembered((streak: StreakState) => ({ ...streak, history: linkList(streak.history, (p) => p.periodStart) }));

/** The document fields of a state (without `_id`, `tenantId` and `version`). */
export function encodeUserState(state: UserState): StoredUserState {
  return {
    ...state,
    recentIdempotency: linkList(state.recentIdempotency, (r) => r.eventId),
    metrics: mapValues(state.metrics, encodeMetric),
    activity: packDaily(state.activity ?? {}),
    points: mapValues(state.points, encodePoints),
    leaderboards: mapValues(state.leaderboards, encodeLeaderboardEntry),
    streak: state.streak && encodeStreak(state.streak),
  };
}

/** The state fields of a stored document (arrays as earlier versions stored them are read as they are). */
export function decodeUserState(stored: StoredUserState): Partial<UserState> {
  const state = { ...stored } as Record<string, unknown>;
  if ("recentIdempotency" in stored) state.recentIdempotency = unlinkList(stored.recentIdempotency);
  if (stored.metrics) {
    state.metrics = mapValues(stored.metrics as Record<string, Record<string, unknown>>, (metric) => ({
      ...metric,
      daily: unpackDaily(metric.daily as Record<string, string>),
    }));
  }
  if (stored.activity) state.activity = unpackDaily(stored.activity as Record<string, string>);
  if (stored.points) state.points = mapValues(stored.points as Record<string, Record<string, unknown>>, decodePoints);
  if (stored.leaderboards) {
    state.leaderboards = mapValues(stored.leaderboards as Record<string, Record<string, unknown>>, (entry) => ({
      ...entry,
      history: unlinkList(entry.history),
    }));
  }
  const streak = stored.streak as Record<string, unknown> | null | undefined;
  if (streak) state.streak = { ...streak, history: unlinkList(streak.history) };
  return state;
}
