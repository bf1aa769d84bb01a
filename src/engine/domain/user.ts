import type { DecimalString } from "./decimal.js";
import type { AchievementCompletion } from "../../features/achievements/domain/achievements.js";
import type { DailyChanges } from "./history.js";
import type { IdempotencyRecord } from "./idempotency.js";
import type { LeaderboardEntry } from "../../features/leaderboards/domain/leaderboard-entries.js";
import type { PointsState } from "../../features/points/domain/points.js";
import type { StreakState } from "../../features/streaks/domain/streak.js";
import type { OutboxMessage } from "../../features/webhooks/domain/webhooks.js";
import { emptyPreferences, type UserPreferences } from "../../features/users/domain/preferences.js";
import { checkDate } from "./plain-dates.js";
import type { LifecycleMarks } from "../../features/webhooks/domain/lifecycle.js";
import { zoneAt } from "../../features/streaks/domain/streak-calendar.js";
import { hasControlCharacter, isValidTimeZone, sameZone, zoneSpelling } from "./rules.js";

/** A time zone in force from an instant on; the history lets period rules use the zone of each moment. */
export interface TimeZoneChange {
  tz: string;
  from: Date;
}

/** A metric's running state for one user. */
export interface UserMetricState {
  total: DecimalString;
  /** Changes per local day, for summaries (kept for HISTORY_DAYS). */
  daily: DailyChanges;
}

/**
 * The game state of one user in one tenant: everything the engine needs to react to an event, kept
 * in one document so that one write applies an event atomically.
 */
export interface UserState {
  userId: string;
  email: string | null;
  name: string | null;
  tz: string | null;
  tzHistory: TimeZoneChange[];
  deviceTokens: string[];
  subscribeToEmails: boolean;
  /** The day the user signed up on the customer's platform (YYYY-MM-DD), as the caller sent it. */
  signUpDate: string | null;
  control: boolean;
  attributes: Record<string, string>;
  /**
   * Per key in `attributes`: the ID of the tenant's attribute the value was set for. A value whose
   * key's attribute now has another ID (deleted, then created again with the key) belongs to the
   * earlier one and is not the user's (`attributesInForce`). A key without one (a state stored
   * before): the value is the user's while an attribute has the key.
   */
  attributeIds: Record<string, string>;
  /** By metric ID. */
  metrics: Record<string, UserMetricState>;
  /**
   * Events per local day (the user's zone at each event's moment), as decimal strings, kept like
   * metric history (HISTORY_DAYS); what the year in review calls activity.
   */
  activity: DailyChanges;
  /** Completed achievements, by achievement ID. */
  achievements: Record<string, AchievementCompletion>;
  /** Points by points system ID. */
  points: Record<string, PointsState>;
  /** The streak, once the tenant has streak settings and the user has been seen since. */
  streak: StreakState | null;
  /** The user's value and rank history per leaderboard ID (see features/leaderboards/domain/leaderboard-entries.ts). */
  leaderboards: Record<string, LeaderboardEntry>;
  created: Date;
  updated: Date;
  /** The moment of the latest applied event; events of one user are applied in time order. */
  lastEventAt: Date | null;
  /**
   * Idempotency keys used recently, written in the same document write as the state change they
   * caused, so a crash can never separate the two. Moved to the idempotency collection in batches.
   */
  recentIdempotency: IdempotencyRecord[];
  /**
   * How many batches of records were moved to the idempotency collection, each listed by ID in a
   * page of its own (engine/store/idempotency-records.ts), so an export or erasure finds them by `_id`.
   * null: a state stored before moves were listed (its moved records are found by a query).
   */
  idempotencyMoves: number | null;
  /**
   * How many streak pauses were created for the user: pause number n has an ID derived from the
   * user and n (features/streaks/store/streak-pauses.ts), so an erasure finds the owner documents of
   * every pause the user ever had by `_id`. null: a state stored before (found by a query).
   */
  pausesCreated: number | null;
  /** When time-driven work (streak period ends, freeze earning, time triggers) is next due; null: none. */
  dueAt: Date | null;
  /**
   * Until when time-driven work waits after a backdated event (an import or backfill: see
   * `BACKFILL_QUIET_MS`); null: it does not wait.
   */
  backfillQuietUntil: Date | null;
  /**
   * Webhook messages this user's changes caused, not yet handed to delivery: written in the same
   * document write as the change (an outbox), moved out by the webhook worker.
   */
  outbox: OutboxMessage[];
  /** Notification channels and the user's own streak preferences (GET/PATCH /v1/users/{id}/preferences). */
  preferences: UserPreferences;
  /**
   * The values last written to the tenant's streak rankings (active and longest length), so a
   * change writes them only when they move; null: never written.
   */
  streakRanks: { active: number; longest: number } | null;
  /** Which lifecycle messages (`emails.*` webhooks) were sent, so each is sent once (features/webhooks/domain/lifecycle.ts). */
  lifecycle: LifecycleMarks;
  /**
   * Per metric achievement with event attribute filters, not yet held: the sum of the values of the
   * events that matched them (features/achievements/domain/achievements.ts). Absent in documents
   * written before it existed.
   */
  achievementProgress?: Record<string, DecimalString>;
}

/** The user fields an event or identify call may carry; absent fields leave the stored value alone. */
export interface UserUpsert {
  id: string;
  /** A new address, or null to remove it. */
  email?: string | null;
  /** A new name, or null to remove it. */
  name?: string | null;
  /** A new zone, or null to remove the user's zone (UTC from then on). */
  tz?: string | null;
  /** Replaces the stored tokens; an empty list removes them all. */
  deviceTokens?: string[];
  subscribeToEmails?: boolean;
  signUpDate?: string;
  attributes?: Record<string, string>;
}

/** What is wrong with the user fields sent (`prefix` names them, e.g. "user."), or null. */
export function checkUserUpsert(upsert: UserUpsert, prefix = ""): string | null {
  if (typeof upsert.tz === "string" && !isValidTimeZone(upsert.tz)) {
    return `${prefix}tz "${upsert.tz}" is not an IANA time zone name (e.g. "Europe/London")`;
  }
  // The name goes into e-mails and leaderboard pages, as every other name does.
  if (typeof upsert.name === "string" && hasControlCharacter(upsert.name)) {
    return `${prefix}name must not contain control characters (such as NUL, a line break or ESC)`;
  }
  return upsert.signUpDate === undefined ? null : checkDate(`${prefix}signUpDate`, upsert.signUpDate);
}

/** A user first seen at `now`; `control`: in the control group (decided once, at creation). */
export function createUserState(userId: string, now: Date, control = false): UserState {
  return {
    userId,
    email: null,
    name: null,
    tz: null,
    tzHistory: [],
    backfillQuietUntil: null,
    deviceTokens: [],
    subscribeToEmails: true,
    signUpDate: null,
    control,
    attributes: {},
    attributeIds: {},
    metrics: {},
    activity: {},
    achievements: {},
    points: {},
    streak: null,
    leaderboards: {},
    created: now,
    updated: now,
    lastEventAt: null,
    recentIdempotency: [],
    idempotencyMoves: 0,
    pausesCreated: 0,
    dueAt: null,
    outbox: [],
    preferences: emptyPreferences(),
    streakRanks: null,
    lifecycle: {},
  };
}

/**
 * Applies the fields sent for a user at `now` (a backdated event's moment); `updated` becomes `now`
 * unless the user was updated later. A new time zone is added
 * to the history with the instant it took effect, so later period calculations can use the zone
 * that was in force at each moment (`zoneInForce`). A user not subscribed to e-mails has no e-mail
 * address stored (the reference: "If false, Trophy will not store the user's email address"): one
 * sent with or after `subscribeToEmails: false` is dropped, and unsubscribing removes the stored one.
 */
export function upsertUser(state: UserState, upsert: UserUpsert, now: Date): UserState {
  // A backdated event after a later change (a PATCH now, then an import) does not move it back.
  const next: UserState = { ...state, updated: now > state.updated ? now : state.updated };
  if (upsert.email !== undefined) next.email = upsert.email;
  if (upsert.name !== undefined) next.name = upsert.name;
  if (upsert.deviceTokens !== undefined) next.deviceTokens = upsert.deviceTokens;
  if (upsert.subscribeToEmails !== undefined) next.subscribeToEmails = upsert.subscribeToEmails;
  if (!next.subscribeToEmails) next.email = null;
  if (upsert.signUpDate !== undefined) next.signUpDate = upsert.signUpDate;
  if (upsert.attributes !== undefined) next.attributes = { ...state.attributes, ...upsert.attributes };
  if (upsert.tz === null) Object.assign(next, withoutZone(state, now));
  else if (upsert.tz !== undefined) Object.assign(next, withZoneFrom(state, upsert.tz, now));
  return next;
}

/**
 * A user's values of the tenant's user attributes (`attributeIds`: the ID of the attribute of each
 * key): a value of a key no attribute has (deleted), or set for an attribute with another ID (an
 * earlier one with the key, deleted since), is not the user's. The same object when every value is.
 */
export function attributesInForce(state: Pick<UserState, "attributes" | "attributeIds">, attributeIds: ReadonlyMap<string, string>): Record<string, string> {
  const inForce = (key: string) => {
    const id = attributeIds.get(key);
    return id !== undefined && (state.attributeIds[key] ?? id) === id;
  };
  const keys = Object.keys(state.attributes);
  if (keys.every(inForce)) return state.attributes;
  return Object.fromEntries(keys.filter(inForce).map((key) => [key, state.attributes[key]!]));
}

/** A loaded user's state without the attribute values that are not theirs (`attributesInForce`). */
export function withAttributesInForce(state: UserState, attributeIds: ReadonlyMap<string, string>): UserState {
  const attributes = attributesInForce(state, attributeIds);
  return attributes === state.attributes ? state : { ...state, attributes };
}

/**
 * The state a change writes, each value it holds marked with the ID of its key's attribute (the
 * tenant's `attributeIds`, as the change's load saw them): a value of a key no attribute has any
 * more (deleted meanwhile) is dropped. The same object when nothing moves.
 */
export function withAttributeIds(state: UserState, attributeIds: ReadonlyMap<string, string>): UserState {
  const attributes: Record<string, string> = {};
  const ids: Record<string, string> = {};
  for (const [key, value] of Object.entries(state.attributes)) {
    const id = attributeIds.get(key);
    if (id === undefined) continue;
    attributes[key] = value;
    ids[key] = id;
  }
  const keys = Object.keys(ids);
  const unchanged =
    keys.length === Object.keys(state.attributes).length &&
    keys.length === Object.keys(state.attributeIds).length &&
    keys.every((key) => state.attributeIds[key] === ids[key]);
  return unchanged ? state : { ...state, attributes, attributeIds: ids };
}

/**
 * A zone sent at `at`: the user's zone from then on; or, when the history already knows a later
 * change (a backdated event carrying the zone it was sent in), the zone until that change, while
 * the current zone stays the later one.
 */
function withZoneFrom(state: UserState, sent: string, at: Date): Partial<UserState> {
  // Another spelling of the zone in force is no move (two browsers naming one zone differently).
  const tz = zoneSpelling(sent);
  const backdated = state.tzHistory.some((change) => change.from > at);
  if (!backdated) return sameZone(tz, state.tz) ? {} : { tz, tzHistory: [...state.tzHistory, { tz, from: at }] };
  if (sameZone(zoneAt(state.tzHistory, at), tz)) return {};
  return { tzHistory: [...state.tzHistory, { tz, from: at }].sort((a, b) => a.from.getTime() - b.from.getTime()) };
}

/**
 * The zone removed at `at` (the reference's `"tz": null`): the user has none from then on, and
 * periods from `at` are counted in UTC, as for a user who never had one; the history keeps the
 * earlier zones for the periods before. Backdated (the history knows a later change): UTC until that
 * change, the current zone staying.
 */
function withoutZone(state: UserState, at: Date): Partial<UserState> {
  if (state.tzHistory.some((change) => change.from > at)) return withZoneFrom(state, "UTC", at);
  if (sameZone(zoneInForce(state, at) ?? "UTC", "UTC")) return { tz: null };
  return { tz: null, tzHistory: [...state.tzHistory, { tz: "UTC", from: at }] };
}

/**
 * The user's zone at an instant, as streaks date it: the latest change at or before it (UTC before
 * the first). Every date of a change (daily histories, leaderboard runs) is the local date in it,
 * so a backfill dated before a zone change lands on the day it happened where the user was.
 */
export function zoneInForce(state: Pick<UserState, "tz" | "tzHistory">, at: Date): string | null {
  return state.tzHistory.length === 0 ? state.tz : zoneAt(state.tzHistory, at);
}
