/**
 * Points awards: the rules that turn events, achievement completions, streak extensions, user
 * creation and the passing of time into points in each points system. Pure: no I/O, no clock (the
 * moment is an argument), IDs come from an injected `newId`. State is plain data (numbers,
 * strings, Dates, records keyed by UUIDs and YYYY-MM-DD days), so it stores as BSON as it is.
 *
 * Rules decided here (the reference leaves them open):
 * - Totals stay within 0 and `maxPoints` (or 2^53 - 1, the largest exact JS integer): a grant is cut
 *   to fit under the cap, a deduction to stop at 0; every award records the actual change, and an
 *   award cut to 0 is not recorded at all. A total stored above a since lowered cap reads as the cap
 *   and is stored so at the user's next settling (`boundedPointsState`).
 * - The level is always the one the current levels give the total (`levelForTotal`); a call changes
 *   it only when the level of the total before the call, under the current levels, differs from
 *   the level after it. So editing levels never shows up as a level change of the next event.
 * - `blockIfOutOfPoints` (metric triggers only; refused on others, and ignored on one stored with
 *   it before): when a deduction of such a trigger would take the total below 0, the whole call is
 *   refused (`kind: "blocked"`) and nothing changes.
 * - Boosts multiply points earned, never deductions (an energy cost is not doubled by a double-XP
 *   weekend). See `combineBoosts` for stacking and rounding.
 * - Within one call a system applies its triggers in causal order: user creation, metric,
 *   achievement, streak; triggers of a type in the order given (the store's creation order). Caps,
 *   floors and blocking are judged award by award in that order.
 * - Inactive triggers and archived systems neither award nor keep progress.
 * - User attribute filters are judged at the moment of the award; while a user does not match, the
 *   trigger ignores them (a metric trigger counts none of their events; time intervals pass unpaid).
 * - Metric triggers, anti-farming: see `advanceMetricTrigger`.
 * - Time triggers: see `applyTimeTriggers`.
 */
import Big from "big.js";
import { DateTime } from "luxon";
import { decimalFromNumber, ZERO, type DecimalString } from "../../../engine/domain/decimal.js";
import { localDate, recordDailyChange, type DailyChanges } from "../../../engine/domain/history.js";
import { applicableBoosts, boostedPoints, filtersByKey, levelForTotal, matchesFilters, type AttributeKeys } from "./points-boosts.js";
import type {
  BoostRounding,
  PointsBoostConfig,
  PointsLevelConfig,
  PointsSystemConfig,
  PointsTriggerConfig,
  TriggerStatus,
  TriggerType,
} from "./points-config.js";
import { zoneInForce, type UserState } from "../../../engine/domain/user.js";

export { applicableBoosts, boostedPoints, combineBoosts, levelForTotal, matchesFilters, type AttributeKeys } from "./points-boosts.js";

/** Recent awards kept per user and system: the most the points read call returns. */
export const MAX_RECENT_AWARDS = 100;
/** The largest total a user can hold when the system sets no `maxPoints` (exact in a JS number). */
export const MAX_TOTAL = Number.MAX_SAFE_INTEGER;

// ---------------------------------------------------------------------------------------------
// Types

/** The trigger as it was when it fired, with the reference's field names for awards. */
export interface PointsAwardTrigger {
  id: string;
  type: TriggerType;
  /** The trigger's points per firing (per threshold, per streak milestone, per interval). */
  points: number;
  metricId?: string;
  metricName?: string;
  metricThreshold?: number;
  achievementId?: string;
  achievementName?: string;
  streakLengthThreshold?: number;
  /** The Application API's unit names (the Admin API says `hours`/`days`). */
  timeUnit?: "hour" | "day";
  timeInterval?: number;
  /**
   * The trigger's status, user attribute filters (by key, as the Application API shows them) and
   * timestamps when it fired. Optional only for awards recorded before they were kept.
   */
  status?: TriggerStatus;
  userAttributes?: { key: string; value: string }[];
  /** A metric trigger's event attribute filters, by key; absent when it has none (or the award predates them). */
  eventAttributes?: { key: string; value: string }[];
  created?: Date;
  updated?: Date;
}

/** A boost as it was when it multiplied an award; it applied, so the award shows it active (`awardBoostView`). */
export interface PointsAwardBoost {
  id: string;
  name: string;
  start: string;
  end: string | null;
  multiplier: number;
  rounding: BoostRounding;
}

export interface PointsAward {
  id: string;
  /** The actual change: positive for a grant, negative for a deduction, never 0. */
  awarded: number;
  date: Date;
  /** The system total after this award. */
  total: number;
  trigger: PointsAwardTrigger;
  /** Boosts that multiplied this award (always empty for deductions). */
  boosts: PointsAwardBoost[];
}

/** A metric trigger's own running total of the events it counted, and the highest it has been. */
export interface MetricTriggerProgress {
  /** The metric counted; progress restarts if the trigger is changed to another metric. */
  metricId: string;
  total: DecimalString;
  highWater: DecimalString;
  /**
   * The user's metric total after the last event counted: what the metric did since, while the
   * trigger counted nothing (inactive, or filtered), an unfiltered trigger follows without paying.
   * Absent while it equals `total` (an unfiltered trigger's usual case, and states stored before it
   * was kept, which so follow the metric from their next event).
   */
  metricTotal?: DecimalString;
}

/** One user's state in one points system. */
export interface PointsState {
  total: number;
  /**
   * The level the latest change left the user at, or null. A record only: the levels may have
   * changed since, so the current level and level changes are judged by `levelForTotal`.
   */
  levelId: string | null;
  /** The latest awards, oldest first, at most MAX_RECENT_AWARDS. */
  awards: PointsAward[];
  /** By trigger ID. */
  metricProgress: Record<string, MetricTriggerProgress>;
  /** By trigger ID: intervals due at or before this instant are settled (paid or passed). */
  timeSettledAt: Record<string, Date>;
  /** By trigger ID: when the user-creation trigger fired for this user. */
  userCreationAwardedAt: Record<string, Date>;
  /** Net change per local day (the user's zone), for summaries with `summarizeChanges`. */
  daily: DailyChanges;
}

/** A points system with everything that decides its awards, as the Admin API stores them. */
export interface PointsSystemSnapshot {
  system: PointsSystemConfig;
  triggers: readonly PointsTriggerConfig[];
  levels: readonly PointsLevelConfig[];
  boosts: readonly PointsBoostConfig[];
}

export interface PointsConfig {
  systems: readonly PointsSystemSnapshot[];
  /**
   * Custom attribute keys by attribute ID, to resolve the ID-based filters of triggers and boosts
   * against users' and events' key-based attributes. A filter whose ID is missing never matches.
   */
  attributeKeys: AttributeKeys;
  /** Names copied into award records, by metric ID and achievement ID (omitted when unknown). */
  metricNames?: Readonly<Record<string, string>>;
  achievementNames?: Readonly<Record<string, string>>;
}

/** The user fields points rules read (a `UserState` fits). */
export type PointsUser = Pick<UserState, "userId" | "attributes" | "created" | "tz" | "tzHistory">;

/** What happened in the call that may fire triggers. */
export interface PointsTriggerContext {
  /** The metric event just applied, with the metric's total after it. */
  event?: { metricId: string; value: number; attributes: Readonly<Record<string, string>>; totalAfter: DecimalString };
  /** Achievements completed in this call. */
  completedAchievementIds?: readonly string[];
  /**
   * The streak length before and after this call, when the streak changed; `paidRun`: a run whose
   * lengths were paid as its own and are now counted after `before` (a restore joining the lost
   * streak with the run since), so only the milestones it newly reaches pay.
   */
  streakLength?: { before: number; after: number; paidRun?: number };
  /** True when this call created (first identified) the user. */
  userCreated?: boolean;
}

/** One system's part of a call's outcome: present only when at least one award was recorded. */
export interface PointsChange {
  systemId: string;
  systemKey: string;
  total: number;
  /** Sum of this call's awards (negative when deducted). */
  added: number;
  awards: PointsAward[];
  /** Present only when the level changed. */
  levelChanged?: { previous: PointsLevelConfig | null; next: PointsLevelConfig | null };
}

/** Domain events for webhooks; the webhook layer adds the user and system fields and throttles. */
export type PointsEvent =
  | { type: "points.changed"; userId: string; systemId: string; systemKey: string; total: number; added: number; awards: PointsAward[] }
  | {
      type: "points.level_changed";
      userId: string;
      systemId: string;
      systemKey: string;
      total: number;
      previousLevel: PointsLevelConfig | null;
      newLevel: PointsLevelConfig | null;
    };

export interface PointsApplied {
  kind: "applied";
  /** Every system's state; systems the call did not touch are carried over as they were. */
  states: Record<string, PointsState>;
  changes: PointsChange[];
  events: PointsEvent[];
}

export interface PointsBlocked {
  kind: "blocked";
  systemId: string;
  systemKey: string;
  triggerId: string;
  message: string;
}

// ---------------------------------------------------------------------------------------------
// State

export function emptyPointsState(): PointsState {
  return { total: 0, levelId: null, awards: [], metricProgress: {}, timeSettledAt: {}, userCreationAwardedAt: {}, daily: {} };
}

/** The highest total the system allows: its `maxPoints`, or MAX_TOTAL. */
export function totalCap(system: Pick<PointsSystemConfig, "maxPoints">): number {
  return Math.min(system.maxPoints ?? MAX_TOTAL, MAX_TOTAL);
}

/**
 * A user's state in a system as the system's current `maxPoints` bounds it. A total stored above
 * the cap (the cap was lowered after the user reached it: a configuration change visits no user)
 * reads as the cap, and the cut counts as a change on the day `at` falls on in the user's zone, so
 * the daily history still adds up to the total. Every read shows this state, and the next settling
 * starts from it and stores it. A state within the cap is returned as it is (the same object).
 */
export function boundedPointsState(
  state: PointsState,
  system: Pick<PointsSystemConfig, "maxPoints">,
  user: Pick<PointsUser, "tz" | "tzHistory">,
  at: Date,
): PointsState {
  const cap = totalCap(system);
  if (state.total <= cap) return state;
  return { ...state, total: cap, daily: recordDailyChange(state.daily, localDate(at, zoneInForce(user, at)), String(cap - state.total)) };
}

/** The `limit` most recent awards, newest first (for the points read call, 1 to 100). */
export function recentAwards(state: PointsState, limit: number = MAX_RECENT_AWARDS): PointsAward[] {
  return state.awards.slice(-Math.max(0, limit)).reverse();
}

// ---------------------------------------------------------------------------------------------
// Metric triggers

/** floor(a / divisor), exactly, also for negative totals (big.js `mod` is exact and truncates). */
function floorDiv(a: Big, divisor: number): Big {
  let rest = a.mod(divisor);
  if (rest.lt(0)) rest = rest.plus(divisor);
  return a.minus(rest).div(divisor);
}

/**
 * Counts one event into a metric trigger's progress and says how many thresholds it newly crossed.
 *
 * The trigger keeps its own running total of the events it counts (only events matching all its
 * event attribute filters) and the high-water mark of that total. Points are due only for multiples
 * of `metricThreshold` above the high-water mark, so:
 * - a decrease awards nothing and lowers nothing: going down and up again earns nothing new (for a
 *   deducting trigger, going back up to the mark costs nothing either);
 * - one event crossing k multiples fires once with k × points;
 * - decimals are exact (0.5 + 0.5 crosses a threshold of 1).
 * A trigger without event filters starts, the first time it counts an event for a user, from the
 * metric total before that event, so its multiples line up with the user's metric total (1000
 * words, 2000 words...) without paying for anything done before the trigger applied; a filtered
 * trigger starts from 0, since past events' attributes are not kept. What the metric did while an
 * unfiltered trigger counted nothing (made inactive, or filtered, then not) moves its total without
 * paying (an increase raises the mark): a user who went from 100 down to 50 while the trigger was
 * inactive and back to 100 after is not paid for 50 again, nor for a climb made while it was off.
 */
export function advanceMetricTrigger(
  progress: MetricTriggerProgress | undefined,
  trigger: Pick<PointsTriggerConfig, "metricId" | "metricThreshold" | "eventAttributes">,
  event: NonNullable<PointsTriggerContext["event"]>,
): { progress: MetricTriggerProgress; crossed: Big } {
  const value = new Big(decimalFromNumber(event.value));
  const unfiltered = trigger.eventAttributes.length === 0;
  const before = new Big(event.totalAfter).minus(value);
  let start = progress;
  if (start === undefined || start.metricId !== event.metricId) {
    const base = unfiltered ? before.toFixed() : ZERO;
    start = { metricId: event.metricId, total: base, highWater: base };
  } else if (unfiltered && !before.eq(start.metricTotal ?? start.total)) {
    // What the metric did since the trigger last counted, taken as it is.
    const followed = before.minus(start.metricTotal ?? start.total).plus(start.total);
    start = { ...start, total: followed.toFixed(), highWater: (followed.gt(start.highWater) ? followed : new Big(start.highWater)).toFixed() };
  }
  const total = new Big(start.total).plus(value);
  const metricTotal = new Big(event.totalAfter);
  const seen = metricTotal.eq(total) ? {} : { metricTotal: metricTotal.toFixed() };
  const { metricTotal: _previous, ...kept } = start;
  const highWater = new Big(start.highWater);
  const threshold = trigger.metricThreshold ?? 1;
  if (total.lte(highWater)) return { progress: { ...kept, total: total.toFixed(), ...seen }, crossed: new Big(0) };
  const crossed = floorDiv(total, threshold).minus(floorDiv(highWater, threshold));
  return { progress: { metricId: event.metricId, total: total.toFixed(), highWater: total.toFixed(), ...seen }, crossed };
}

// ---------------------------------------------------------------------------------------------
// Time triggers

const HOUR_MS = 3_600_000;

/** A time trigger's interval in milliseconds: hours are 3600 s, days are 24 hours (UTC, no DST). */
export function timeIntervalMs(trigger: Pick<PointsTriggerConfig, "timeUnit" | "timeInterval">): number {
  return (trigger.timeInterval ?? 1) * (trigger.timeUnit === "days" ? 24 * HOUR_MS : HOUR_MS);
}

/**
 * How many of a time trigger's intervals are settled at an instant: intervals run back to back from
 * the user's creation, the k-th due at created + k × interval.
 */
function intervalsDueBy(user: PointsUser, intervalMs: number, at: Date): number {
  const elapsed = at.getTime() - user.created.getTime();
  return elapsed < 0 ? 0 : Math.floor(elapsed / intervalMs);
}

/**
 * The instant up to which a time trigger's intervals count as settled for the user: the stored
 * instant, but never before the user's creation or the trigger's `owedFrom`. The latter is how an
 * activation avoids paying out the past (intervals due before the trigger became active are not
 * owed), while an edit of its points leaves owed what came due before it.
 */
function settledAt(state: PointsState, trigger: PointsTriggerConfig, user: PointsUser): Date {
  const stored = state.timeSettledAt[trigger.id]?.getTime() ?? -Infinity;
  return new Date(Math.max(stored, user.created.getTime(), (trigger.owedFrom ?? trigger.updated).getTime()));
}

// ---------------------------------------------------------------------------------------------
// Settling awards in one system

interface PendingAward {
  trigger: PointsTriggerConfig;
  /** The trigger's points times the number of firings: a whole number, negative for deductions. */
  base: Big;
  /** When it came due, if before the moment of the settling (a time trigger's interval). */
  due?: Date;
}

type SettleResult =
  | { kind: "applied"; state: PointsState; change: PointsChange | null; events: PointsEvent[] }
  | { kind: "blocked"; trigger: PointsTriggerConfig; needed: string; total: number };

function awardTrigger(trigger: PointsTriggerConfig, config: PointsConfig): PointsAwardTrigger {
  const record: PointsAwardTrigger = {
    id: trigger.id,
    type: trigger.type,
    points: trigger.points,
    status: trigger.status,
    userAttributes: filtersByKey(trigger.userAttributes, config.attributeKeys),
    created: trigger.created,
    updated: trigger.updated,
  };
  // Only defined fields: the driver would store `undefined` as null.
  if (trigger.type === "metric" && trigger.metricId !== undefined) {
    record.metricId = trigger.metricId;
    const name = config.metricNames?.[trigger.metricId];
    if (name !== undefined) record.metricName = name;
    if (trigger.metricThreshold !== undefined) record.metricThreshold = trigger.metricThreshold;
    const eventAttributes = filtersByKey(trigger.eventAttributes, config.attributeKeys);
    if (eventAttributes.length > 0) record.eventAttributes = eventAttributes;
  }
  if (trigger.type === "achievement" && trigger.achievementId !== undefined) {
    record.achievementId = trigger.achievementId;
    const name = config.achievementNames?.[trigger.achievementId];
    if (name !== undefined) record.achievementName = name;
  }
  if (trigger.type === "streak" && trigger.streakLength !== undefined) record.streakLengthThreshold = trigger.streakLength;
  if (trigger.type === "time") {
    if (trigger.timeUnit !== undefined) record.timeUnit = trigger.timeUnit === "days" ? "day" : "hour";
    if (trigger.timeInterval !== undefined) record.timeInterval = trigger.timeInterval;
  }
  return record;
}

function awardBoost(b: PointsBoostConfig): PointsAwardBoost {
  return { id: b.id, name: b.name, start: b.start, end: b.end, multiplier: b.multiplier, rounding: b.rounding };
}

/**
 * Applies pending awards to one system's state in order: boosts on grants, the cap, the floor at 0
 * and blocking; then the level, the recent awards, the daily history and the domain events. It
 * starts from the state bounded by the current cap (`boundedPointsState`), which it returns even
 * when no award is recorded, so a lowered cap is stored at the user's next settling.
 */
function settle(
  state: PointsState,
  snapshot: PointsSystemSnapshot,
  pending: readonly PendingAward[],
  user: PointsUser,
  at: Date,
  config: PointsConfig,
  newId: () => string,
): SettleResult {
  const before = boundedPointsState(state, snapshot.system, user, at);
  const cap = new Big(totalCap(snapshot.system));
  let total = new Big(before.total);
  const awards: PointsAward[] = [];
  for (const pendingAward of pending) {
    const { trigger, base } = pendingAward;
    let amount: Big;
    let boosts: PointsBoostConfig[] = [];
    if (base.gt(0)) {
      boosts = applicableBoosts(snapshot.boosts, user, at, config.attributeKeys);
      amount = boostedPoints(base, boosts);
      const room = cap.minus(total);
      if (amount.gt(room)) amount = room.gt(0) ? room : new Big(0);
    } else {
      // Metric events only are refused (a trigger of another type stored with the setting before
      // it was refused there deducts down to 0, as without it).
      if (trigger.blockIfOutOfPoints && trigger.type === "metric" && total.plus(base).lt(0)) {
        return { kind: "blocked", trigger, needed: base.abs().toFixed(), total: total.toNumber() };
      }
      amount = total.plus(base).lt(0) ? total.times(-1) : base;
    }
    if (amount.eq(0)) continue;
    total = total.plus(amount);
    awards.push({
      id: newId(),
      awarded: amount.toNumber(),
      date: pendingAward.due ?? at,
      total: total.toNumber(),
      trigger: awardTrigger(trigger, config),
      boosts: boosts.map(awardBoost),
    });
  }
  if (awards.length === 0) return { kind: "applied", state: before, change: null, events: [] };

  const added = awards.reduce((sum, a) => sum + a.awarded, 0);
  const newTotal = total.toNumber();
  const level = levelForTotal(newTotal, snapshot.levels);
  const levelId = level?.id ?? null;
  const { id: systemId, key: systemKey } = snapshot.system;
  const change: PointsChange = { systemId, systemKey, total: newTotal, added, awards };
  const events: PointsEvent[] = [{ type: "points.changed", userId: user.userId, systemId, systemKey, total: newTotal, added, awards }];
  // The level the total before had under the current levels (what reads showed), not the stored
  // `levelId`, which levels edited or deleted since may have made stale.
  const previous = levelForTotal(before.total, snapshot.levels);
  if (levelId !== (previous?.id ?? null)) {
    change.levelChanged = { previous, next: level };
    // Right after its change: webhooks pair them so (`messagesForUserEvents`).
    events.push({ type: "points.level_changed", userId: user.userId, systemId, systemKey, total: newTotal, previousLevel: previous, newLevel: level });
  }
  const next: PointsState = {
    ...before,
    total: newTotal,
    levelId,
    awards: [...before.awards, ...awards].slice(-MAX_RECENT_AWARDS),
    daily: recordDailyChange(before.daily, localDate(at, zoneInForce(user, at)), String(added)),
  };
  return { kind: "applied", state: next, change, events };
}

/** Active triggers of one type that apply to the user now (user attribute filters). */
function firing(snapshot: PointsSystemSnapshot, type: TriggerType, user: PointsUser, config: PointsConfig): PointsTriggerConfig[] {
  return snapshot.triggers.filter((t) => t.type === type && t.status === "active" && matchesFilters(t.userAttributes, user.attributes, config.attributeKeys));
}

// ---------------------------------------------------------------------------------------------
// Entry points

/**
 * Applies the points triggers that a call fires — a metric event, achievement completions, a
 * streak change, the user's creation — in every active points system, all or nothing:
 * - `user_creation`: once per trigger and user, when the call created the user;
 * - `metric`: for each new multiple of the threshold (`advanceMetricTrigger`); events must match all
 *   event attribute filters to count;
 * - `achievement`: when the call completed the trigger's achievement (achievements complete at most
 *   once per user, so this fires at most once);
 * - `streak`: at each multiple L, 2L, 3L... of the trigger's length that the streak reached in
 *   this call (a new streak reaching L again fires again).
 * Returns `blocked` when a `blockIfOutOfPoints` deduction would take a total below 0: the caller
 * refuses the whole call and keeps the old state. Otherwise the next states (including progress
 * that awarded nothing yet), the changes per system that recorded awards, and the domain events.
 */
export function applyPointsForEvent(
  states: Readonly<Record<string, PointsState>>,
  config: PointsConfig,
  user: PointsUser,
  context: PointsTriggerContext,
  at: Date,
  newId: () => string,
): PointsApplied | PointsBlocked {
  return settleActiveSystems(states, config, user, at, newId, (snapshot, stored) => {
    let state = stored;
    let touched = false;
    const pending: PendingAward[] = [];
    if (context.userCreated) {
      for (const trigger of firing(snapshot, "user_creation", user, config)) {
        if (state.userCreationAwardedAt[trigger.id] !== undefined) continue;
        state = { ...state, userCreationAwardedAt: { ...state.userCreationAwardedAt, [trigger.id]: at } };
        touched = true;
        pending.push({ trigger, base: new Big(trigger.points) });
      }
    }
    const event = context.event;
    if (event) {
      for (const trigger of firing(snapshot, "metric", user, config)) {
        if (trigger.metricId !== event.metricId || !matchesFilters(trigger.eventAttributes, event.attributes, config.attributeKeys)) continue;
        const { progress, crossed } = advanceMetricTrigger(state.metricProgress[trigger.id], trigger, event);
        state = { ...state, metricProgress: { ...state.metricProgress, [trigger.id]: progress } };
        touched = true;
        if (crossed.gt(0)) pending.push({ trigger, base: crossed.times(trigger.points) });
      }
    }
    const completed = new Set(context.completedAchievementIds ?? []);
    for (const trigger of firing(snapshot, "achievement", user, config)) {
      if (trigger.achievementId !== undefined && completed.has(trigger.achievementId)) pending.push({ trigger, base: new Big(trigger.points) });
    }
    const streak = context.streakLength;
    if (streak && streak.after > streak.before) {
      for (const trigger of firing(snapshot, "streak", user, config)) {
        const length = trigger.streakLength ?? 1;
        const milestones = Math.floor(streak.after / length) - Math.floor(Math.max(0, streak.before) / length) - Math.floor((streak.paidRun ?? 0) / length);
        if (milestones > 0) pending.push({ trigger, base: new Big(trigger.points).times(milestones) });
      }
    }
    return { state, touched, pending };
  });
}

/**
 * The loop both kinds of award share: for each active system, `gather` updates the user's state of
 * the system (`touched` when it changed) and lists the awards due; they are then settled (boosts,
 * caps, levels). A blocked deduction (a metric trigger's) stops everything.
 */
function settleActiveSystems(
  states: Readonly<Record<string, PointsState>>,
  config: PointsConfig,
  user: PointsUser,
  at: Date,
  newId: () => string,
  gather: (snapshot: PointsSystemSnapshot, state: PointsState) => { state: PointsState; touched: boolean; pending: PendingAward[] },
): PointsApplied | PointsBlocked {
  const next: Record<string, PointsState> = { ...states };
  const changes: PointsChange[] = [];
  const events: PointsEvent[] = [];
  for (const snapshot of config.systems) {
    if (snapshot.system.status !== "active") continue;
    const systemId = snapshot.system.id;
    const { state, touched, pending } = gather(snapshot, states[systemId] ?? emptyPointsState());
    const result = settle(state, snapshot, pending, user, at, config, newId);
    if (result.kind === "blocked") return blocked(snapshot, result);
    if (result.change) {
      changes.push(result.change);
      events.push(...result.events);
    }
    if (touched || result.state !== state) next[systemId] = result.state;
  }
  return { kind: "applied", states: next, changes, events };
}

function blocked(snapshot: PointsSystemSnapshot, result: Extract<SettleResult, { kind: "blocked" }>): PointsBlocked {
  const { id: systemId, key: systemKey } = snapshot.system;
  return {
    kind: "blocked",
    systemId,
    systemKey,
    triggerId: result.trigger.id,
    message: `Not enough points in points system "${systemKey}": this would deduct ${result.needed} points and the user has ${result.total}`,
  };
}

/** What `applyTimeTriggers` paid: the next states and events, and the awards by the moment they are dated. */
export interface TimeTriggersPaid extends PointsApplied {
  /**
   * The changes by the instant they are dated, oldest first (`changes` lists them all): each
   * counts in the leaderboard run of its own instant, not the one of the visit that paid it.
   */
  steps: Array<{ at: Date; changes: PointsChange[] }>;
}

/**
 * Days of owed intervals paid interval by interval; intervals due earlier (a longer outage) are
 * paid as one unboosted award dated at the last of them, which bounds a visit's work.
 */
export const TIME_BACKLOG_DAYS = 31;

/**
 * Time triggers, for the scheduler: pays every interval of every active time trigger that has come
 * due since it was last settled. Intervals run from the user's creation (every N hours, or N × 24
 * hours for days). Each interval is an award dated when it came due, not when the scheduler got
 * there (a minute later, or days after an outage), settled in the order they came due, as visits
 * on time would have: the intervals due on one local day of the user and one UTC day (boosts run by
 * UTC days) are one change (`steps`), boosted by the boosts of that day and counted on points
 * leaderboards in the run of its last interval; `splitAfter` splits them further (the next moment
 * after an instant where they must: a leaderboard's daily window opening or closing). Intervals
 * owed from more than `TIME_BACKLOG_DAYS` ago are one unboosted award of k × points dated at the
 * last of them. Intervals that came due while the trigger did not apply to the user (user
 * attribute filters) pass unpaid; intervals due before the trigger's `owedFrom` (its activation,
 * or a new schedule) are never owed. Never blocks.
 */
export function applyTimeTriggers(
  states: Readonly<Record<string, PointsState>>,
  config: PointsConfig,
  user: PointsUser,
  now: Date,
  newId: () => string,
  splitAfter: (at: Date) => number | null = () => null,
): TimeTriggersPaid {
  const paid: TimeTriggersPaid = { kind: "applied", states: { ...states }, changes: [], events: [], steps: [] };
  const backlogEnd = now.getTime() - TIME_BACKLOG_DAYS * 24 * HOUR_MS;
  for (let due = nextTimeTriggerDueAt(paid.states, config, user); due !== null && due <= now; due = nextTimeTriggerDueAt(paid.states, config, user)) {
    const backlog = due.getTime() <= backlogEnd;
    const groupEnd = backlog ? backlogEnd + 1 : Math.min(endOfDays(due, zoneInForce(user, due)), splitAfter(due) ?? Infinity, now.getTime() + 1);
    const at = lastDueBefore(paid.states, config, user, groupEnd);
    // The backlog's lump spans many days: no one day's boosts apply to it.
    const settledConfig = backlog ? { ...config, systems: config.systems.map((snapshot) => ({ ...snapshot, boosts: [] })) } : config;
    const step = settleActiveSystems(paid.states, settledConfig, user, at, newId, (snapshot, stored) =>
      owedTimeAwards(snapshot, stored, user, at, backlog, config.attributeKeys),
    );
    if (step.kind === "blocked") throw new Error("unreachable: only metric events block");
    paid.states = step.states;
    paid.events.push(...step.events);
    if (step.changes.length > 0) {
      paid.changes.push(...step.changes);
      paid.steps.push({ at, changes: step.changes });
    }
  }
  return paid;
}

/**
 * One system's time-trigger intervals due by `at` and not settled yet: settled now, and owed when
 * the trigger applies to the user: one award each, in the order they came due (triggers in their
 * order at one instant), so caps and the floor are judged as visits on time would have judged
 * them; or, for the backlog (`lump`), one award of k × points per trigger.
 */
function owedTimeAwards(
  snapshot: PointsSystemSnapshot,
  stored: PointsState,
  user: PointsUser,
  at: Date,
  lump: boolean,
  attributeKeys: AttributeKeys,
): { state: PointsState; touched: boolean; pending: PendingAward[] } {
  let state = stored;
  let touched = false;
  const pending: PendingAward[] = [];
  for (const trigger of snapshot.triggers) {
    const until = owedUntil(trigger);
    if (until === null) continue;
    const interval = timeIntervalMs(trigger);
    const settledCount = intervalsDueBy(user, interval, settledAt(state, trigger, user));
    const dueCount = intervalsDueBy(user, interval, until < at ? until : at);
    if (dueCount <= settledCount) continue;
    state = { ...state, timeSettledAt: { ...state.timeSettledAt, [trigger.id]: new Date(user.created.getTime() + dueCount * interval) } };
    touched = true;
    if (!matchesFilters(trigger.userAttributes, user.attributes, attributeKeys)) continue;
    if (lump) pending.push({ trigger, base: new Big(trigger.points).times(dueCount - settledCount) });
    else
      for (let k = settledCount + 1; k <= dueCount; k++)
        pending.push({ trigger, base: new Big(trigger.points), due: new Date(user.created.getTime() + k * interval) });
  }
  if (!lump) pending.sort((a, b) => a.due!.getTime() - b.due!.getTime());
  return { state, touched, pending };
}

/** The end (exclusive, epoch ms) of the user's local day and of the UTC day `at` falls in, whichever comes first. */
function endOfDays(at: Date, zone: string | null): number {
  const utcDayEnd = DateTime.fromJSDate(at, { zone: "UTC" }).startOf("day").plus({ days: 1 }).toMillis();
  const localDayEnd = DateTime.fromJSDate(at, { zone: zone ?? "UTC" })
    .startOf("day")
    .plus({ days: 1 });
  return localDayEnd.isValid ? Math.min(utcDayEnd, localDayEnd.toMillis()) : utcDayEnd;
}

/** The last unsettled due instant of any active time trigger before `end` (epoch ms, exclusive). */
function lastDueBefore(states: Readonly<Record<string, PointsState>>, config: PointsConfig, user: PointsUser, end: number): Date {
  let last = -Infinity;
  for (const { interval, settledCount, until } of owingTimeTriggers(states, config, user)) {
    const dueCount = intervalsDueBy(user, interval, new Date(Math.min(end - 1, until.getTime())));
    if (dueCount > settledCount) last = Math.max(last, user.created.getTime() + dueCount * interval);
  }
  return new Date(last);
}

/**
 * Until when a time trigger's intervals are owed: forever while it is active, until its
 * deactivation while it is inactive (`owedUntil`: those due before it and not paid yet); null when
 * none are (not a time trigger, or inactive since its creation).
 */
function owedUntil(trigger: PointsTriggerConfig): Date | null {
  if (trigger.type !== "time") return null;
  if (trigger.status === "active") return FOREVER;
  return trigger.owedUntil ?? null;
}
const FOREVER = new Date(8.64e15);

/**
 * Every time trigger of an active system whose intervals may be owed, with its interval, how many
 * of its intervals are settled and until when they are owed; one whose owing ended before its next
 * interval is left out.
 */
function* owingTimeTriggers(
  states: Readonly<Record<string, PointsState>>,
  config: PointsConfig,
  user: PointsUser,
): Generator<{ interval: number; settledCount: number; until: Date }> {
  for (const snapshot of config.systems) {
    if (snapshot.system.status !== "active") continue;
    const state = states[snapshot.system.id] ?? emptyPointsState();
    for (const trigger of snapshot.triggers) {
      const until = owedUntil(trigger);
      if (until === null) continue;
      const interval = timeIntervalMs(trigger);
      const settledCount = intervalsDueBy(user, interval, settledAt(state, trigger, user));
      if (user.created.getTime() + (settledCount + 1) * interval > until.getTime()) continue;
      yield { interval, settledCount, until };
    }
  }
}

/**
 * When the scheduler should next run `applyTimeTriggers` for the user: the earliest unsettled due
 * time of any time trigger in an active system that owes it (active, or made inactive after it),
 * whatever the user's attributes, so intervals pass on time; or null when there is none. At or
 * before `now` means intervals are waiting.
 */
export function nextTimeTriggerDueAt(states: Readonly<Record<string, PointsState>>, config: PointsConfig, user: PointsUser): Date | null {
  let earliest: number | null = null;
  for (const { interval, settledCount } of owingTimeTriggers(states, config, user)) {
    const due = user.created.getTime() + (settledCount + 1) * interval;
    if (earliest === null || due < earliest) earliest = due;
  }
  return earliest === null ? null : new Date(earliest);
}
