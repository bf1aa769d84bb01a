import { hash } from "node:crypto";
import type { MetricTriggerProgress, PointsAward, PointsAwardBoost, PointsAwardTrigger, PointsState } from "../../features/points/domain/points.js";
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
 * list whose keys collide stays an array. Each entry is stored PACKED, as one JSON string (dates as
 * `{"$d": <ms>}`), not as a subdocument: FerretDB decodes and re-encodes a whole document field by
 * field on every read and update, and a document whose 600 history entries were subdocuments cost
 * five times the CPU of the same entries as strings (measured: 38 against 8 ms to read, 46 against
 * 9 ms to update). Entries stored as subdocuments by earlier versions still read.
 *
 * Daily changes (per metric and per points system, up to HISTORY_DAYS days) are packed per month,
 * `{ "2026-01": "5,,2.5,..." }` (the day's change at its day of the month, empty when none): a
 * write rewrites one month of about a hundred bytes, and two years take a few kilobytes.
 *
 * Points awards carry a snapshot of their trigger and boosts, nearly always the same few: the
 * snapshots are stored once per points system (`awardParts`, keyed by a hash of their content)
 * and each award names its parts.
 *
 * Fields that hold their default are left out and read back as it (`withoutDefaults`): empty maps
 * and lists, nulls, a linked list's first `_p`, a trigger snapshot's "active" status, empty
 * attribute filters and `updated` equal to `created`, an award's empty boosts. So are two derived
 * fields: a metric trigger's high-water mark equal to its total, and a leaderboard entry's value
 * equal to its latest history item's. Documents written with any of them read the same (the next
 * write, which packs them, leaves them out).
 */
export type StoredUserState = Record<string, unknown>;

/** A key that can be one segment of an update path. */
const PATH_SEGMENT = /^[^.$][^.]*$/;

const PREV = "_p";

/** A short, path-safe hash (48 bits: a collision in one list is unlikely and only costs the array layout). */
function shortHash(text: string, length = 8): string {
  return hash("sha1", text, "base64url").slice(0, length).replace(/^[$]/, "_");
}

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
const elementKeys = new WeakMap<object, { key: string; prev: string | null; entry: string }>();

function linkList<T extends object>(list: readonly T[], keyOf: (item: T) => string): Record<string, string> | T[] {
  const linked: Record<string, string> = {};
  let prev: string | null = null;
  for (const item of list) {
    let known = elementKeys.get(item);
    const key = known?.key ?? shortHash(keyOf(item));
    if (!PATH_SEGMENT.test(key) || key in linked) return [...list];
    if (!known || known.prev !== prev) elementKeys.set(item, (known = { key, prev, entry: packEntry(prev === null ? item : { ...item, [PREV]: prev }) }));
    linked[key] = known.entry;
    prev = key;
  }
  return linked;
}

/** One list entry as stored: a JSON string, dates as `{"$d": <ms>}` (JSON would make them text). */
function packEntry(entry: object): string {
  return packJson(entry)!;
}

/**
 * `JSON.stringify` with dates as `{"$d": <ms>}` (undefined where JSON.stringify leaves a value out).
 * Written out because a replacer function, called for every key, costs three times the walk.
 */
function packJson(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (value instanceof Date) return `{"$d":${value.getTime()}}`;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return packJson((value as { toJSON: () => unknown }).toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => packJson(item) ?? "null").join(",")}]`;
  let json = "";
  for (const key of Object.keys(value)) {
    const inner = packJson((value as Record<string, unknown>)[key]);
    if (inner !== undefined) json += `${json === "" ? "" : ","}${JSON.stringify(key)}:${inner}`;
  }
  return `{${json}}`;
}

function unpackEntry(stored: unknown): Record<string, unknown> {
  if (typeof stored !== "string") return stored as Record<string, unknown>; // a subdocument (earlier versions)
  const parsed = JSON.parse(stored) as Record<string, unknown>;
  return stored.includes('{"$d":') ? (withDates(parsed) as Record<string, unknown>) : parsed;
}

/**
 * A parsed value with its `{"$d": <ms>}` objects made dates again, in place (a walk after
 * `JSON.parse`: a reviver function costs three times the parse).
 */
function withDates(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const node = value as Record<string, unknown>;
  if (typeof node.$d === "number" && Object.keys(node).length === 1) return new Date(node.$d);
  for (const key in node) {
    const inner = node[key];
    if (typeof inner !== "object" || inner === null) continue;
    // (A "__proto__" key parsed from JSON is an own data property: assigning to it sets it, not the prototype.)
    const revived = withDates(inner);
    if (revived !== inner) node[key] = revived;
  }
  return node;
}

/** A list's items as one string, as its entries are stored (for pages: engine/store/list-pages.ts). */
export const packList = (items: unknown[]): string => packEntry(items);

export const unpackList = (stored: string): unknown[] => unpackEntry(stored) as unknown as unknown[];

/** The list back in order: from the one element whose predecessor is not in the map, along the links. */
function unlinkList<T>(stored: unknown): T[] {
  if (Array.isArray(stored)) return stored as T[];
  if (stored === null || typeof stored !== "object") return [];
  const entries = Object.fromEntries(Object.entries(stored as Record<string, unknown>).map(([key, value]) => [key, unpackEntry(value)]));
  const next = new Map<string | null, string>();
  for (const [key, value] of Object.entries(entries)) {
    const prev = (value[PREV] ?? null) as string | null;
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

/**
 * A field's value left out of the document when it equals `defaults`' (an empty map or list, or
 * null), and put back on reading. Only for fields every reader reads through `decodeUserState`.
 */
function withoutDefaults<T extends object>(value: T, defaults: Partial<Record<keyof T, unknown>>): Partial<T> {
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [field, empty] of Object.entries(defaults)) if (isEmptyAs(out[field], empty)) delete out[field];
  return out as Partial<T>;
}

function isEmptyAs(value: unknown, empty: unknown): boolean {
  if (empty === null) return value === null;
  if (Array.isArray(empty)) return Array.isArray(value) && value.length === 0;
  return typeof value === "object" && value !== null && !(value instanceof Date) && Object.keys(value).length === 0;
}

/** Fresh copies of the defaults for the fields a stored object lacks. */
function withDefaults<T>(stored: Record<string, unknown>, defaults: Record<string, unknown>): T {
  const out = { ...stored };
  for (const [field, empty] of Object.entries(defaults)) if (!(field in out)) out[field] = structuredClone(empty);
  return out as T;
}

const POINTS_DEFAULTS = { levelId: null, metricProgress: {}, timeSettledAt: {}, userCreationAwardedAt: {} };
const STREAK_DEFAULTS = { pauses: [], lastLost: null, history: {} };

interface StoredAward extends Omit<PointsAward, "trigger" | "boosts"> {
  trigger: string;
  /** Absent: none. */
  boosts?: string[];
}

const storedAward = remembered((a: PointsAward): StoredAward => {
  const { boosts, ...rest } = a;
  return { ...rest, trigger: partKey(a.trigger), ...(boosts.length > 0 && { boosts: boosts.map(partKey) }) };
});

/**
 * A trigger snapshot (one taken since status, filters and timestamps are kept) without an "active"
 * status, empty filters, and `updated` when it is `created` (a trigger never edited); boosts as
 * they are. Keys stay those of the whole snapshot.
 */
const storedPart = remembered((part: AwardPart): Record<string, unknown> => {
  if (!("type" in part) || part.created === undefined) return part as unknown as Record<string, unknown>;
  const { status, userAttributes, updated, ...rest } = part;
  return {
    ...rest,
    ...(status !== "active" && { status }),
    ...(userAttributes?.length !== 0 && { userAttributes }),
    ...(updated?.getTime() !== part.created.getTime() && { updated }),
  };
});

/** A stored snapshot as it was taken: trigger fields in the order the points rules write them (its key hashes them). */
function decodePart(stored: Record<string, unknown>): AwardPart {
  if (!("type" in stored) || stored.created === undefined) return stored as unknown as AwardPart;
  const { id, type, points, status = "active", userAttributes = [], created, updated = created, ...rest } = stored;
  return { id, type, points, status, userAttributes, created, updated, ...rest } as unknown as AwardPart;
}

/** A metric trigger's progress: the high-water mark left out while it equals the total. */
const storedProgress = remembered((p: MetricTriggerProgress): Partial<MetricTriggerProgress> => {
  if (p.highWater !== p.total) return p;
  const { highWater: _equal, ...rest } = p;
  return rest;
});

const encodePoints = remembered((state: PointsState): Record<string, unknown> => {
  const parts: Record<string, unknown> = {};
  for (const a of state.awards) for (const part of [a.trigger, ...a.boosts]) parts[partKey(part)] = storedPart(part);
  return withoutDefaults(
    {
      ...state,
      metricProgress: mapValues(state.metricProgress, storedProgress),
      daily: packDaily(state.daily),
      awards: linkList(state.awards.map(storedAward), (a) => a.id),
      awardParts: parts,
    },
    POINTS_DEFAULTS,
  );
});

function decodePoints(stored: Record<string, unknown>): PointsState {
  const { awardParts, awards, daily, metricProgress, ...stateFields } = withDefaults<Record<string, unknown>>(stored, POINTS_DEFAULTS) as Record<
    string,
    unknown
  > & { awardParts?: Record<string, Record<string, unknown>>; metricProgress: Record<string, Partial<MetricTriggerProgress>> };
  const rest = {
    ...stateFields,
    metricProgress: mapValues(metricProgress, (p) => ({ ...p, highWater: p.highWater ?? p.total })),
    daily: unpackDaily(daily as Record<string, string>),
  };
  const list = unlinkList<PointsAward | StoredAward>(awards);
  if (!awardParts) return { ...(rest as unknown as PointsState), awards: list as PointsAward[] };
  const parts = mapValues(awardParts, decodePart);
  const decoded = (list as StoredAward[]).map((a): PointsAward => ({
    ...a,
    trigger: parts[a.trigger] as PointsAwardTrigger,
    boosts: (a.boosts ?? []).map((key) => parts[key] as PointsAwardBoost),
  }));
  return { ...(rest as unknown as PointsState), awards: decoded };
}

function mapValues<T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

const encodeMetric = remembered((metric: UserMetricState) => ({ ...metric, daily: packDaily(metric.daily) }));

/** A leaderboard entry; its value left out while it equals its latest history item's (both change together). */
const encodeLeaderboardEntry = remembered((entry: LeaderboardEntry) => {
  const { value, ...rest } = entry;
  const stored = { ...rest, history: linkList(entry.history, (h) => `${h.run}_${h.date}`) };
  return entry.history.length > 0 && entry.history.at(-1)!.value === value ? stored : { ...rest, value, history: stored.history };
});

function decodeLeaderboardEntry(stored: Record<string, unknown>): LeaderboardEntry {
  const history = unlinkList<LeaderboardEntry["history"][number]>(stored.history);
  return {
    ...(stored as unknown as LeaderboardEntry),
    value: "value" in stored ? (stored.value as LeaderboardEntry["value"]) : (history.at(-1)?.value ?? null),
    history,
  };
}

const encodeStreak = remembered((streak: StreakState) =>
  withoutDefaults({ ...streak, history: linkList(streak.history, (p) => p.periodStart) }, STREAK_DEFAULTS),
);

// The maps of a state are remembered too: an event leaves most of them unchanged, and an unchanged
// map's encoding (the same object) is packed once (`packPart`).
const encodeMetrics = remembered((metrics: UserState["metrics"]) => mapValues(metrics, encodeMetric));
const encodeAllPoints = remembered((points: UserState["points"]) => mapValues(points, encodePoints));
const encodeLeaderboards = remembered((boards: UserState["leaderboards"]) => mapValues(boards, encodeLeaderboardEntry));
const linkIdempotency = remembered((records: UserState["recentIdempotency"]) => linkList(records, (r) => r.eventId));
const NO_ACTIVITY: DailyChanges = Object.freeze({});

/** The document fields of a state (without `_id`, `tenantId` and `version`). */
export function encodeUserState(state: UserState): StoredUserState {
  return {
    ...state,
    recentIdempotency: linkIdempotency(state.recentIdempotency),
    metrics: encodeMetrics(state.metrics),
    activity: packDaily(state.activity ?? NO_ACTIVITY),
    points: encodeAllPoints(state.points),
    leaderboards: encodeLeaderboards(state.leaderboards),
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
    state.leaderboards = mapValues(stored.leaderboards as Record<string, Record<string, unknown>>, decodeLeaderboardEntry);
  }
  const streak = stored.streak as Record<string, unknown> | null | undefined;
  if (streak) {
    const full = withDefaults<Record<string, unknown>>(streak, STREAK_DEFAULTS);
    state.streak = { ...full, history: unlinkList(full.history) };
  }
  return state;
}

/**
 * The document's fields of a stored state (layout 3): the state packed as one JSON string, `s`,
 * except the entries that accumulate over a user's history (`ENTRY_MAPS`), which are fields of
 * their own in one flat map, `e`, named by their map's code, a short alias of each ID on the way
 * and their own key: `md/<metric alias>/2026-11` is a metric's November, `pa/<system alias>/<key>`
 * a points award.
 *
 * Why: FerretDB decodes and re-encodes a document field by field on every read and update, at
 * about 20 µs of its CPU per field on these machines, so a new full-profile user's 119 fields cost
 * 2.5 ms to read and 3.3 ms to update, against 0.6 and 1.0 ms for the same content in a few fields
 * (measured with driver loops at concurrency 8). The entries stay apart so that a write still sends
 * only the entries an event changed, whatever the user's history: the packed rest is small and
 * bounded by the configuration (totals, levels, a leaderboard's value, the streak's counters). Short
 * names keep the document about as small as nested maps would.
 */
export interface PackedUserFields {
  s: string;
  /** The profile (`PROFILE_FIELDS`), packed apart from `s`: it seldom changes, and `s` changes with nearly every event. */
  p: string;
  e: Record<string, string>;
}

/** The state's fields that an event seldom changes: who the user is, their settings, and what they completed. */
const PROFILE_FIELDS = new Set([
  "userId",
  "email",
  "name",
  "tz",
  "tzHistory",
  "deviceTokens",
  "subscribeToEmails",
  "signUpDate",
  "control",
  "attributes",
  "attributeIds",
  "achievements",
  "created",
  "preferences",
  "lifecycle",
]);

interface EntryMap {
  /** The entry's name starts with it. */
  code: string;
  /**
   * Where the map is in the stored state ("*": any key, one per metric, points system or
   * leaderboard). At any depth, the maps' segments are all "*" or all names.
   */
  path: readonly string[];
  /** Entries that are objects, packed (else strings, kept as they are). */
  objects?: true;
}

/**
 * The maps whose entries are fields of `e`: strings as they are, and a points system's award
 * snapshots (objects) packed, since they would be most of the packed rest (each a trigger's whole
 * configuration). A code names its map for good: changing one makes stored entries unreadable.
 */
const ENTRY_MAPS: readonly EntryMap[] = [
  { code: "i", path: ["recentIdempotency"] },
  { code: "a", path: ["activity"] },
  { code: "md", path: ["metrics", "*", "daily"] },
  { code: "pd", path: ["points", "*", "daily"] },
  { code: "pa", path: ["points", "*", "awards"] },
  { code: "pp", path: ["points", "*", "awardParts"], objects: true },
  { code: "lh", path: ["leaderboards", "*", "history"] },
  { code: "sh", path: ["streak", "history"] },
];
const ENTRY_MAP_OF_CODE = new Map(ENTRY_MAPS.map((map) => [map.code, map]));

/** Keys that make a valid, unambiguous entry name (IDs, short hashes, months). */
const ENTRY_SEGMENT = /^[A-Za-z0-9_-]+$/;

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** An ID's alias in entry names (36 bits; IDs of one map whose aliases collide keep their entries in `s`). */
const aliases = new Map<string, string>();
function aliasOf(id: string): string {
  let alias = aliases.get(id);
  if (alias === undefined) aliases.set(id, (alias = shortHash(id, 6)));
  return alias;
}

/** An entry taken out of a part: its map's code, its name below the code, its value. */
type TakenEntry = readonly [string, string, string];

/** A part of the stored state packed: its JSON (null: an entry map, wholly in `e`) and the entries taken out. */
interface PackedPart {
  json: string | null;
  entries: readonly TakenEntry[];
}

type EntryPatterns = readonly EntryMap[];

/** A state and its next share the objects an event left unchanged: each is packed once (per place in the layout). */
const packedParts = new WeakMap<object, Map<EntryPatterns, PackedPart>>();
const packedObjects = new WeakMap<object, string>();

function packValue(value: unknown): string {
  if (value instanceof Date) return `{"$d":${value.getTime()}}`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  let json = packedObjects.get(value);
  if (json === undefined) packedObjects.set(value, (json = packEntry(value)));
  return json;
}

const NO_PATTERNS: EntryPatterns = [];
const patternsBelow = new WeakMap<EntryPatterns, Map<string, EntryPatterns>>();

/** The patterns that go on below `key`, their first segment matched (the same array for the same patterns and key, so parts packed below are remembered). */
function below(patterns: EntryPatterns, key: string): EntryPatterns {
  let byKey = patternsBelow.get(patterns);
  if (!byKey) patternsBelow.set(patterns, (byKey = new Map<string, EntryPatterns>()));
  const known = byKey.get(key);
  if (known) return known;
  const found = patterns.filter((p) => p.path[0] === "*" || p.path[0] === key).map((p) => ({ ...p, path: p.path.slice(1) }));
  if (found.length === 0) return NO_PATTERNS; // not remembered: keys that match nothing are any keys (hashes, days)
  byKey.set(key, found);
  return found;
}

function packPart(node: unknown, patterns: EntryPatterns): PackedPart {
  if (!isMap(node)) return { json: packValue(node), entries: [] };
  let byPatterns = packedParts.get(node);
  const known = byPatterns?.get(patterns);
  if (known) return known;
  const part = packMap(node, patterns);
  if (!byPatterns) packedParts.set(node, (byPatterns = new Map<EntryPatterns, PackedPart>()));
  byPatterns.set(patterns, part);
  return part;
}

/** `packPart` of a map, not remembered: for the maps built anew for every state (`packUserFields`). */
function packMap(node: Record<string, unknown>, patterns: EntryPatterns): PackedPart {
  let part: PackedPart | undefined;
  const entryMap = patterns.find((p) => p.path.length === 0);
  if (entryMap) {
    const values = Object.entries(node);
    if (values.every(([k, v]) => ENTRY_SEGMENT.test(k) && (entryMap.objects ? isMap(v) : typeof v === "string"))) {
      part = { json: null, entries: values.map(([k, v]) => [entryMap.code, k, entryMap.objects ? packValue(v) : (v as string)] as const) };
    }
  }
  if (!part) {
    const fields: string[] = [];
    const entries: TakenEntry[] = [];
    // Keys matched by a "*" are named by their alias; keys whose aliases collide stay whole in the JSON.
    const anyKey = patterns.some((p) => p.path[0] === "*");
    const uses = new Map<string, number>();
    if (anyKey) for (const key of Object.keys(node)) uses.set(aliasOf(key), (uses.get(aliasOf(key)) ?? 0) + 1);
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined) continue;
      const inner = ENTRY_SEGMENT.test(key) && (!anyKey || uses.get(aliasOf(key)) === 1) ? below(patterns, key) : NO_PATTERNS;
      const packed = inner.length > 0 ? packPart(value, inner) : { json: packValue(value), entries: [] };
      for (const [code, name, entry] of packed.entries) entries.push([code, anyKey ? `${aliasOf(key)}/${name}` : name, entry]);
      if (packed.json !== null) fields.push(`${JSON.stringify(key)}:${packed.json}`);
    }
    part = { json: `{${fields.join(",")}}`, entries };
  }
  return part;
}

/**
 * Packs a stored state (`encodeUserState`): `s` is the state's JSON as `packEntry` writes it, less
 * the entry maps. Objects are never changed (encodings are shared between states).
 */
export function packUserFields(stored: StoredUserState): PackedUserFields {
  const profile: StoredUserState = {};
  const rest: StoredUserState = {};
  for (const [field, value] of Object.entries(stored)) (PROFILE_FIELDS.has(field) ? profile : rest)[field] = value;
  const { json, entries } = packMap(rest, ENTRY_MAPS);
  return { s: json!, p: packMap(profile, NO_PATTERNS).json!, e: Object.fromEntries(entries.map(([code, name, entry]) => [`${code}/${name}`, entry])) };
}

/** The stored state of packed fields (`packUserFields`), for `decodeUserState`. */
export function unpackUserFields(fields: { s: string; p?: string; e?: Record<string, unknown> }): StoredUserState {
  const stored = { ...(fields.p === undefined ? {} : unpackEntry(fields.p)), ...unpackEntry(fields.s) };
  for (const [name, value] of Object.entries(fields.e ?? {})) {
    const [code, ...segments] = name.split("/");
    const map = ENTRY_MAP_OF_CODE.get(code!);
    if (!map || typeof value !== "string") throw new Error(`user document entry "${name}" is of no known map`);
    let node = stored;
    for (const step of map.path) {
      const key = step === "*" ? Object.keys(node).find((id) => aliasOf(id) === segments[0]) : step;
      if (step === "*") segments.shift();
      if (key === undefined) throw new Error(`user document entry "${name}" names an ID the document does not hold`);
      node = isMap(node[key]) ? node[key] : (node[key] = {});
    }
    node[segments.join("/")] = map.objects ? unpackEntry(value) : value;
  }
  return stored;
}
