/**
 * The streak engine (issue 5): pure functions over a user's `StreakState`. No I/O and no clock:
 * every function that depends on time takes `now` (or an event's `at`) as an argument.
 *
 * Key decisions (the reference leaves them open or contradicts itself):
 *
 * - Periods. Daily = calendar days, weekly = ISO weeks (Monday to Sunday; the reference's examples
 *   disagree, we follow ISO), monthly = calendar months, all on the user's local calendar. A period
 *   is identified by the local DATE of its first day, never by an instant.
 * - Zones. The zone in force at an instant is the latest `tzHistory` entry at or before it (UTC
 *   before any). The current period ends when the local date, in the zone in force, passes its last
 *   day; that instant is judged (met, paused, frozen or lost). An event counts toward the period
 *   containing its moment in the zone in force then, which is the current period; the current
 *   period never moves backwards, so an event whose local date is earlier (after a move back over
 *   the date line) counts toward the current one. A zone change never ends a streak and never uses
 *   a freeze:
 *   - when it moves the local date into the SAME period or an EARLIER one (flying east over the date
 *     line, Auckland -> Honolulu; Tokyo -> Los Angeles), the current period simply continues until
 *     its last day has passed in the new zone: no double period (a date already lived in the old
 *     zone is not lived again: Tokyo's 03-02 over, the user's Los Angeles 03-02 belongs to 03-03);
 *   - when it moves the local date into a LATER period (flying west over the date line, Honolulu ->
 *     Auckland, Los Angeles -> Tokyo, or east after midnight there), the new zone's period becomes
 *     the current one at once. The period left behind counts if it was met; if it was not, it was
 *     cut short by the move and is not judged (the length is held); periods jumped over were never
 *     lived on the user's clock and are not judged either: no gap.
 *   The service learns a zone change when an event or identify call carries it, so that instant is
 *   when it takes effect.
 * - Condition. For each configured metric, the sum of the event values within the current period
 *   (exact, big.js) is compared with its threshold; `all` needs every one, `any` one. The period
 *   counts the moment the condition is first met (that event alone gets `extended: true`); later
 *   events of the period, even negative ones, change nothing. Events during a pause count as usual.
 *   The condition is that of the settings in force: settings lowered since the period's last event
 *   count it at the next event of any metric, or else at its last millisecond when it is left; the
 *   period keeps the sum of every metric, so a metric made a streak metric counts its earlier events.
 * - Expiry. `expires` is the last date of the period that must be met next: the next period's last
 *   date when the current one is met, otherwise the current period's last date. Freezes and pauses
 *   may still save the streak after it. With no streak (length 0) every date field is null.
 * - Missed periods. At the end of an unmet period of a live streak: a pause overlapping the period
 *   by at least one day holds the length (`usedPause`); so does what a frequency switch carried
 *   over as held (`carriedHoldOver`: a freeze spent on a day of this week); otherwise one freeze is
 *   consumed and holds it (`usedFreeze`); otherwise the streak is lost. Held periods add no length.
 * - Freezes. `initialGrant` when the state is created; then `amount` every `intervalDays` whole
 *   days (exact 24-hour multiples) counted from the user's creation instant, never above
 *   `maxFreezes` (an interval reached at the maximum earns nothing; intervals that pass while
 *   earning is off earn nothing). At equal instants an earning comes before a consumption. A
 *   maximum lowered below what a user holds drops the excess at the next catch-up.
 * - Restore (admin). The docs' meaning: "the length it was when they last lost it". The length lost
 *   last is given back and joined with the run since (as if the missed periods had been frozen);
 *   only the latest loss is restorable, once. (The OpenAPI's "longest within a window" is not used.)
 * - Catch-up. `catchUpStreak` replays every period end, zone change and freeze earning between the
 *   state's `asOf` and `now`, in time order. It is deterministic and idempotent, and catching up to
 *   t1 then t2 equals catching up to t2 at once. Every read and every event goes through it first.
 * - Frequency change. A streak computed with another frequency is computed again for the tenant's
 *   from the user's daily activity before it is used (streak-frequency.ts); `catchUpStreak`, given
 *   such a state without that step, restarts the run and its history (freezes and pauses are kept).
 * - Late events. An event stamped before the state's `asOf` (an admin backfill after a read)
 *   counts toward the current period, at the state's `asOf`: the streak's clock never runs backwards.
 */
import Big from "big.js";
import { addDecimals, decimalFromNumber, type DecimalString } from "../../../engine/domain/decimal.js";
import { DomainError, invalidArgument } from "../../../engine/domain/errors.js";
import type { StreakFrequency, StreakSettings } from "./streak-config.js";
import {
  localDateIn,
  nextPeriodStart,
  nextZoneChangeAfter,
  periodEndDate,
  periodStartOf,
  previousPeriodStart,
  startOfDateIn,
  zoneAt,
} from "./streak-calendar.js";
import { addDays, checkDate, DAY_MS } from "../../../engine/domain/plain-dates.js";
import { HISTORY_DAYS } from "../../../engine/domain/history.js";
import type { TimeZoneChange } from "../../../engine/domain/user.js";
import { sameZone } from "../../../engine/domain/rules.js";

/** Period arithmetic and the zone in force, for callers that date things the way streaks do. */
export { periodEndDate, periodStartOf, nextPeriodStart, zoneAt } from "./streak-calendar.js";

/** Judged periods kept in the state (the read's `historyPeriods` can show at most this many plus the current one). */
export const STREAK_HISTORY_LIMIT = 100;
/** Upcoming and active pauses a user may hold at once. */
export const MAX_STREAK_PAUSES = 100;

/** One period of the streak history, as the reference's `streakHistory` items. */
export interface StreakPeriodRecord {
  periodStart: string;
  periodEnd: string;
  /** The length at the end of the period: held by a pause or freeze, 0 when the streak was lost or absent. */
  length: number;
  /** A freeze was consumed for this period. */
  usedFreeze: boolean;
  /** A pause held the streak through this period. */
  usedPause: boolean;
  /** When an admin reset the streak to zero in this period (absent: never). */
  resetAt?: Date;
  /**
   * The length the streak had reached in this period before a reset (or the user turning streaks
   * off) cut it to 0: the period's peak, which `length` no longer shows (the year in review's
   * longest streak). Ours, not sent to clients.
   */
  peakBeforeReset?: number;
}

/** A planned break: local dates in the user's zone, both included. */
export interface StreakPause {
  id: string;
  start: string;
  end: string;
}

/** The period the user is in now. */
export interface StreakCurrentPeriod {
  /** First local date of the period (its identity). */
  start: string;
  /** The zone the period is being lived in (to notice zone changes). */
  zone: string;
  /** Whether the condition has been met (the period counts). */
  met: boolean;
  /**
   * Sum of event values within the period, by metric ID, as exact decimals: every metric the user's
   * events touched (at most the tenant's metrics), so that a metric made a streak metric during the
   * period counts what was done before.
   */
  sums: Record<string, DecimalString>;
  /** When an admin reset the streak in this period (absent: never). */
  resetAt?: Date;
  /** See `StreakPeriodRecord.peakBeforeReset`. */
  peakBeforeReset?: number;
}

/** The last streak lost, for an admin restore. */
export interface StreakLoss {
  length: number;
  started: string | null;
  /** The period that was missed. */
  periodStart: string;
  lostAt: Date;
  /** When the lost run was last extended. */
  lastExtendedAt: Date | null;
}

/**
 * A user's streak, embedded in the user document: plain objects, Dates and strings only (metric
 * IDs and dates as keys), bounded in size (history and pauses are capped).
 */
export interface StreakState {
  /** The frequency the periods below were computed with. */
  frequency: StreakFrequency;
  /** Consecutive counted periods, the current one included when met. */
  length: number;
  /** Local date of the event that started the current run, or null with no streak. */
  started: string | null;
  /** Null until the first event anchors the user's timeline (so backfills start where they start). */
  period: StreakCurrentPeriod | null;
  /** The instant the state has been brought up to. */
  asOf: Date;
  /** When the streak was last extended (the read's `extended` timestamp); null after a loss. */
  lastExtendedAt: Date | null;
  /** Freezes held. */
  freezes: number;
  /** The baseline of automatic earning: the user's creation. */
  freezeEarningSince: Date;
  /** Earning intervals ending at or before this instant have been processed. */
  freezesEarnedUntil: Date;
  pauses: StreakPause[];
  lastLost: StreakLoss | null;
  /** Judged periods, oldest first, at most STREAK_HISTORY_LIMIT. */
  history: StreakPeriodRecord[];
  /** The longest length reached (absent in states stored before it was kept: see `longestStreak`). */
  longest?: number;
  /**
   * Counts the restarts of `history` (a frequency switch, streak-frequency.ts), so that the periods of
   * the previous frequency kept in pages are dropped with it (absent: none yet).
   */
  historySeries?: number;
  /**
   * What a later frequency switch carries over as held (streak-frequency.ts): what the last switch
   * carried, and the user's pauses that ended since (absent: neither yet).
   */
  carried?: CarriedHolds;
}

/** A period an earlier frequency's streak held, at that frequency's own length, and by what. */
export interface StreakHold {
  start: string;
  end: string;
  by: "freeze" | "pause";
  /** Set for one of the user's own pauses, kept after it ended: its days are exact, not a period's. */
  pauseId?: string;
}

/**
 * The holds a frequency switch carried over (and the user's pauses that ended, with `pauseId`), and
 * the first period judged after it: a later switch carries these again, with what periods from
 * `judgedFrom` on held, rather than the periods these held in between (which would widen a held day
 * to a week and back to seven days).
 */
export interface CarriedHolds {
  holds: StreakHold[];
  judgedFrom: string;
}

/** The reference's BaseStreakResponse: dates are local dates; freeze fields only when freezes are enabled. */
export interface StreakView {
  length: number;
  frequency: StreakFrequency;
  started: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  expires: string | null;
  freezes?: number;
  maxFreezes?: number;
  freezeAutoEarnInterval?: number;
  freezeAutoEarnAmount?: number;
}

/** The streak read (reference StreakResponse): the view plus the last extension, history and pauses. */
export interface StreakReadView extends StreakView {
  /** When the streak was last extended; null when there is no streak. */
  extended: Date | null;
  streakHistory: StreakPeriodRecord[];
  pauses: StreakPause[];
}

/**
 * Domain events for webhooks, with the reference payload fields (the caller adds `user`) and the
 * instant they happened.
 */
export type StreakDomainEvent =
  | { type: "streak.started"; at: Date; streak: StreakView }
  | { type: "streak.extended"; at: Date; streak: StreakView }
  | { type: "streak.lost"; at: Date; length: number }
  | { type: "streak.freeze_consumed"; at: Date; consumed: number; freezes: number }
  | { type: "streak.freeze_earned"; at: Date; earned: number; freezes: number };

/** The part of a metric event the streak needs. `tz`: the user's zone at `at`, if not yet in the history. */
export interface StreakEventInput {
  metricId: string;
  value: number;
  at: Date;
  tz?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Creation

/**
 * A new user's streak: no streak yet, the tenant's initial freeze grant, earning counted from the
 * user's creation. `now` (default: the creation) is the instant from which earning intervals are
 * processed, so a state created for an existing user does not receive a retroactive lump.
 */
export function createStreakState(settings: StreakSettings, userCreatedAt: Date, now: Date = userCreatedAt): StreakState {
  return {
    frequency: settings.frequency,
    length: 0,
    started: null,
    period: null,
    asOf: now,
    lastExtendedAt: null,
    freezes: settings.freezes?.initialGrant ?? 0,
    freezeEarningSince: userCreatedAt,
    freezesEarnedUntil: now,
    pauses: [],
    lastLost: null,
    history: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Freeze earning schedule

function earning(settings: StreakSettings): { amount: number; intervalMs: number; max: number } | null {
  const f = settings.freezes;
  if (!f || !f.autoEarn) return null;
  return { amount: f.autoEarn.amount, intervalMs: f.autoEarn.intervalDays * DAY_MS, max: f.maxFreezes };
}

/** The latest earning instant at or before t (the baseline itself when none). */
function lastEarnAtOrBefore(s: StreakState, intervalMs: number, t: Date): Date {
  const base = s.freezeEarningSince.getTime();
  const k = Math.max(0, Math.floor((t.getTime() - base) / intervalMs));
  return new Date(base + k * intervalMs);
}

/** The next earning instant strictly after `freezesEarnedUntil` that can grant something, or null. */
function nextEarnAt(s: StreakState, settings: StreakSettings): Date | null {
  const e = earning(settings);
  if (!e || s.freezes >= e.max) return null;
  const base = s.freezeEarningSince.getTime();
  const k = Math.max(1, Math.floor((s.freezesEarnedUntil.getTime() - base) / e.intervalMs) + 1);
  return new Date(base + k * e.intervalMs);
}

/** Marks the intervals up to t as processed when they cannot grant anything (earning off, or at the maximum). */
function settleEarning(s: StreakState, settings: StreakSettings, t: Date): void {
  const e = earning(settings);
  let until = s.freezesEarnedUntil;
  if (!e) until = t;
  else if (s.freezes >= e.max) until = lastEarnAtOrBefore(s, e.intervalMs, t);
  if (until.getTime() > s.freezesEarnedUntil.getTime()) s.freezesEarnedUntil = until;
}

// ---------------------------------------------------------------------------------------------
// Days off

/**
 * Whether the period starting on `start` is a day off: daily streaks only, by the weekday of the
 * local date (so it is the user's own weekday in the zone they live the day in; a DST change or a
 * zone move changes nothing about which date it is).
 */
export function isDayOff(start: string, frequency: StreakFrequency, settings: StreakSettings): boolean {
  const daysOff = settings.daysOff;
  if (frequency !== "daily" || !daysOff || daysOff.length === 0) return false;
  return daysOff.includes(new Date(`${start}T00:00:00Z`).getUTCDay());
}

/**
 * The last date of the first period, from the one starting on `start`, that is not a day off: the
 * streak's expiry when that period must be met. Null when every weekday is off (it never expires).
 */
function firstWorkingPeriodEnd(start: string, frequency: StreakFrequency, settings: StreakSettings): string | null {
  let d = start;
  for (let i = 0; i < 7; i++, d = nextPeriodStart(d, frequency)) {
    if (!isDayOff(d, frequency, settings)) return periodEndDate(d, frequency);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The timeline walk

function conditionMet(sums: Record<string, DecimalString>, settings: StreakSettings): boolean {
  if (settings.metrics.length === 0) return false;
  const met = (c: { metricId: string; threshold: number }) => new Big(sums[c.metricId] ?? "0").gte(c.threshold);
  return settings.evaluationMode === "any" ? settings.metrics.some(met) : settings.metrics.every(met);
}

/**
 * Whether the current period meets the condition by the settings in force and has not counted yet
 * (a day off never counts). With unchanged settings this is false outside an event that changes the
 * sums; after a threshold or mode was lowered it can be true of sums already there.
 */
function newlyMet(s: StreakState, settings: StreakSettings): boolean {
  const period = s.period;
  return period !== null && !period.met && !isDayOff(period.start, s.frequency, settings) && conditionMet(period.sums, settings);
}

/** Counts the current period at `at`: the length grows, with `streak.started` (length 1) or `streak.extended`. */
function countPeriod(s: StreakState, settings: StreakSettings, at: Date, zone: string, events: StreakDomainEvent[]): void {
  const period = s.period!;
  period.met = true;
  s.length += 1;
  s.longest = Math.max(s.longest ?? 0, s.length);
  s.lastExtendedAt = at;
  if (s.length === 1) {
    const day = localDateIn(at, zone);
    s.started = day < period.start ? period.start : day;
  }
  events.push({ type: s.length === 1 ? "streak.started" : "streak.extended", at, streak: view(s, settings) });
}

/**
 * A period whose sums meet the condition only by settings changed since its last event (a lowered
 * threshold, `any` instead of `all`) counts when it is left, at its last moment: what the user did
 * in it is judged by the settings in force then, as a later event in it would have been.
 */
function countIfNowMet(s: StreakState, settings: StreakSettings, leftAt: Date, zone: string, events: StreakDomainEvent[]): void {
  if (newlyMet(s, settings)) countPeriod(s, settings, new Date(leftAt.getTime() - 1), zone, events);
}

function pushHistory(s: StreakState, record: StreakPeriodRecord): void {
  s.history.push(record);
  if (s.history.length > STREAK_HISTORY_LIMIT) s.history.splice(0, s.history.length - STREAK_HISTORY_LIMIT);
}

function newPeriod(s: StreakState, start: string, zone: string): void {
  s.period = { start, zone, met: false, sums: {} };
  // A pause that ended before the current period can no longer hold anything here; a later
  // frequency switch still needs its exact days.
  const ended = s.pauses.filter((p) => p.end < start);
  if (ended.length === 0) return;
  s.pauses = s.pauses.filter((p) => p.end >= start);
  s.carried = rememberEndedPauses(s.carried, ended, start);
}

/**
 * Keeps the days of pauses that ended for a later frequency switch (streak-frequency.ts), for as long
 * as the user's days are kept (HISTORY_DAYS): a week a 2-day pause held is not seven days held.
 */
export function rememberEndedPauses(carried: CarriedHolds | undefined, ended: readonly StreakPause[], today: string): CarriedHolds {
  const oldest = addDays(today, -HISTORY_DAYS);
  const holds = [...(carried?.holds ?? []), ...ended.map(endedPauseHold)].filter((h) => h.end >= oldest);
  return { holds: latestHolds(holds), judgedFrom: carried?.judgedFrom ?? "" };
}

/** Holds kept at most (the user document stays bounded however many pauses an admin gives). */
export const MAX_CARRIED_HOLDS = 200;

/** The MAX_CARRIED_HOLDS holds that end last. */
export function latestHolds(holds: readonly StreakHold[]): StreakHold[] {
  if (holds.length <= MAX_CARRIED_HOLDS) return [...holds];
  return [...holds].sort((a, b) => (a.end < b.end ? -1 : a.end > b.end ? 1 : 0)).slice(-MAX_CARRIED_HOLDS);
}

/**
 * What a frequency switch carried over (streak-frequency.ts) holds in the period `start` to `end`: a
 * freeze when only freezes held what overlaps it, a pause otherwise, or nothing. The user's ended
 * pauses kept there do not count: they are their own pauses, judged as pauses.
 */
export function carriedHoldOver(holds: readonly StreakHold[], start: string, end: string): "freeze" | "pause" | null {
  const over = holds.filter((h) => h.pauseId === undefined && h.start <= end && h.end >= start);
  if (over.length === 0) return null;
  return over.every((h) => h.by === "freeze") ? "freeze" : "pause";
}

/** A user's pause kept after it ended (`rememberEndedPauses`). */
export function endedPauseHold(pause: StreakPause): StreakHold {
  return { start: pause.start, end: pause.end, by: "pause", pauseId: pause.id };
}

function record(s: StreakState, period: StreakCurrentPeriod, flags: { usedFreeze?: boolean; usedPause?: boolean } = {}): void {
  pushHistory(s, {
    periodStart: period.start,
    periodEnd: periodEndDate(period.start, s.frequency),
    length: s.length,
    usedFreeze: flags.usedFreeze ?? false,
    usedPause: flags.usedPause ?? false,
    ...(period.resetAt && { resetAt: period.resetAt }),
    ...(period.peakBeforeReset && { peakBeforeReset: period.peakBeforeReset }),
  });
}

/** The natural end of the current period (its last day passed in the zone in force) or the next zone change, whichever comes first. */
function nextPeriodStep(s: StreakState, history: readonly TimeZoneChange[], cursor: Date): { kind: "end" | "zone"; at: Date; zone: string } | null {
  if (!s.period) return null;
  const zone = zoneAt(history, cursor);
  const end = startOfDateIn(nextPeriodStart(s.period.start, s.frequency), zone);
  const change = nextZoneChangeAfter(history, cursor);
  if (change && change.getTime() <= end.getTime()) return { kind: "zone", at: change, zone };
  return { kind: "end", at: end, zone };
}

/** At a zone change: a later local period becomes current at once (see the zone rules at the top). */
function followZone(s: StreakState, settings: StreakSettings, history: readonly TimeZoneChange[], cursor: Date, events: StreakDomainEvent[]): void {
  const period = s.period;
  if (!period) return;
  const zone = zoneAt(history, cursor);
  if (zone === period.zone) return;
  const here = periodStartOf(localDateIn(cursor, zone), s.frequency);
  if (here > period.start) {
    // Met: it counted. Not met: cut short by the move, not judged; the length is held either way.
    countIfNowMet(s, settings, cursor, period.zone, events);
    record(s, period);
    newPeriod(s, here, zone);
  } else {
    s.period = { ...period, zone };
  }
}

/** The current period's last day has passed: judge it and move to the period of the local date now. */
function endPeriod(s: StreakState, settings: StreakSettings, at: Date, zone: string, events: StreakDomainEvent[]): void {
  const period = s.period!;
  countIfNowMet(s, settings, at, zone, events);
  const periodEnd = periodEndDate(period.start, s.frequency);
  const carriedHold = carriedHoldOver(s.carried?.holds ?? [], period.start, periodEnd);
  if (period.met || s.length === 0 || isDayOff(period.start, s.frequency, settings)) {
    // Met, no streak to lose, or a day off (missing it holds the length; no pause or freeze is used).
    record(s, period);
  } else if (s.pauses.some((p) => p.start <= periodEnd && p.end >= period.start)) {
    record(s, period, { usedPause: true });
  } else if (carriedHold) {
    // Held before a frequency switch (a freeze spent on a day of this week): held here too, as a
    // later switch's replay would judge it.
    record(s, period, carriedHold === "freeze" ? { usedFreeze: true } : { usedPause: true });
  } else if (settings.freezes && s.freezes > 0) {
    s.freezes -= 1;
    events.push({ type: "streak.freeze_consumed", at, consumed: 1, freezes: s.freezes });
    record(s, period, { usedFreeze: true });
  } else {
    events.push({ type: "streak.lost", at, length: s.length });
    s.lastLost = { length: s.length, started: s.started, periodStart: period.start, lostAt: at, lastExtendedAt: s.lastExtendedAt };
    s.length = 0;
    s.started = null;
    s.lastExtendedAt = null;
    record(s, period);
  }
  newPeriod(s, periodStartOf(localDateIn(at, zone), s.frequency), zone);
}

/**
 * Without a streak, ends of periods only add zero-length history entries, so a long idle stretch
 * within one zone is skipped at once (the entries written are those the step-by-step walk would
 * write, the last STREAK_HISTORY_LIMIT of them). Returns the new cursor.
 */
function skipIdlePeriods(s: StreakState, settings: StreakSettings, history: readonly TimeZoneChange[], cursor: Date, now: Date): Date {
  const period = s.period;
  // A current period that counts when it ends (`countIfNowMet`) starts a streak: no skipping over it.
  if (!period || s.length > 0 || newlyMet(s, settings)) return cursor;
  const zone = period.zone;
  const change = nextZoneChangeAfter(history, cursor);
  // Ends at a zone change give way to the change, so only ends strictly before it are natural.
  const horizon = change && change.getTime() <= now.getTime() ? new Date(change.getTime() - 1) : now;
  const last = periodStartOf(localDateIn(horizon, zone), s.frequency);
  if (last <= period.start) return cursor;
  const lived: string[] = [];
  for (let d = previousPeriodStart(last, s.frequency); d >= period.start && lived.length < STREAK_HISTORY_LIMIT; d = previousPeriodStart(d, s.frequency)) {
    // A date the zone skipped (Pacific/Apia, 2011-12-30) was never a period of the user's.
    if (d === period.start || s.frequency !== "daily" || localDateIn(startOfDateIn(d, zone), zone) === d) lived.push(d);
  }
  for (const start of lived.reverse()) record(s, start === period.start ? period : { start, zone, met: false, sums: {} });
  newPeriod(s, last, zone);
  const start = startOfDateIn(last, zone);
  return start.getTime() > cursor.getTime() ? start : cursor;
}

function earn(s: StreakState, settings: StreakSettings, at: Date, events: StreakDomainEvent[]): void {
  const e = earning(settings)!;
  const earned = Math.min(e.amount, e.max - s.freezes);
  s.freezesEarnedUntil = at;
  if (earned <= 0) return;
  s.freezes += earned;
  events.push({ type: "streak.freeze_earned", at, earned, freezes: s.freezes });
}

function copy(state: StreakState): StreakState {
  return {
    ...state,
    period: state.period ? { ...state.period, sums: { ...state.period.sums } } : null,
    pauses: [...state.pauses],
    history: [...state.history],
  };
}

/**
 * Freezes held above a maximum lowered since are dropped: `maxFreezes` is "the maximum number of
 * streak freezes a user can have" (the reference), whatever they held before.
 */
function withinFreezeMaximum(state: StreakState, settings: StreakSettings): StreakState {
  const max = settings.freezes?.maxFreezes;
  return max !== undefined && state.freezes > max ? { ...state, freezes: max } : state;
}

/**
 * A state of another frequency that was not computed again for this one (`followStreakFrequency`,
 * which callers apply first) restarts the run and its history; freezes, pauses and earning are kept.
 */
function followFrequency(state: StreakState, settings: StreakSettings): StreakState {
  if (state.frequency === settings.frequency) return state;
  return {
    ...state,
    frequency: settings.frequency,
    length: 0,
    started: null,
    period: null,
    lastExtendedAt: null,
    lastLost: null,
    history: [],
    historySeries: (state.historySeries ?? 0) + 1,
  };
}

/**
 * Brings a stored streak up to `now`: every period that ended since `state.asOf` is judged at its
 * end in the user's zone (counted, held by a pause, held by one freeze, or lost), zone changes are
 * followed, and freezes due since the last update are earned, all in time order. Reads and events
 * both go through this first, so nobody ever sees a stale streak. Deterministic and idempotent: a
 * second call with the same `now` changes nothing and emits nothing; a `now` at or before `asOf`
 * changes nothing.
 */
export function catchUpStreak(
  state: StreakState,
  settings: StreakSettings,
  tzHistory: readonly TimeZoneChange[],
  now: Date,
): { state: StreakState; events: StreakDomainEvent[] } {
  const events: StreakDomainEvent[] = [];
  const followed = withinFreezeMaximum(followFrequency(state, settings), settings);
  if (now.getTime() < followed.asOf.getTime()) return { state: followed, events };
  if (now.getTime() === followed.asOf.getTime()) {
    // Nothing has passed, but a zone taken at this very instant (an event in the same millisecond
    // as the last write) is in force from it, as it would be a millisecond later.
    if (!followed.period || zoneAt(tzHistory, now) === followed.period.zone) return { state: followed, events };
    const s = copy(followed);
    followZone(s, settings, tzHistory, now, events);
    return { state: s, events };
  }
  const s = copy(followed);
  let cursor = s.asOf;
  for (;;) {
    followZone(s, settings, tzHistory, cursor, events);
    cursor = skipIdlePeriods(s, settings, tzHistory, cursor, now);
    const earnAt = nextEarnAt(s, settings);
    const step = nextPeriodStep(s, tzHistory, cursor);
    if (earnAt && earnAt.getTime() <= now.getTime() && (!step || earnAt.getTime() <= step.at.getTime())) {
      earn(s, settings, earnAt, events);
      if (earnAt.getTime() > cursor.getTime()) cursor = earnAt;
      continue;
    }
    if (step && step.at.getTime() <= now.getTime()) {
      // Never backwards (only a state written inconsistently could make a step precede the cursor).
      const at = step.at.getTime() < cursor.getTime() ? cursor : step.at;
      settleEarning(s, settings, at);
      cursor = at;
      if (step.kind === "end") endPeriod(s, settings, at, step.zone, events);
      continue;
    }
    break;
  }
  settleEarning(s, settings, now);
  s.asOf = now;
  return { state: s, events };
}

// ---------------------------------------------------------------------------------------------
// Views

function view(s: StreakState, settings: StreakSettings): StreakView {
  const freezeFields: Pick<StreakView, "freezes" | "maxFreezes" | "freezeAutoEarnInterval" | "freezeAutoEarnAmount"> = {};
  if (settings.freezes) {
    freezeFields.freezes = s.freezes;
    freezeFields.maxFreezes = settings.freezes.maxFreezes;
    if (settings.freezes.autoEarn) {
      freezeFields.freezeAutoEarnInterval = settings.freezes.autoEarn.intervalDays;
      freezeFields.freezeAutoEarnAmount = settings.freezes.autoEarn.amount;
    }
  }
  const period = s.period;
  if (s.length === 0 || !period) {
    return { length: 0, frequency: settings.frequency, started: null, periodStart: null, periodEnd: null, expires: null, ...freezeFields };
  }
  const periodEnd = periodEndDate(period.start, s.frequency);
  // Days off ahead (or today, unmet) hold the streak: it expires with the first period to be met.
  const expires = firstWorkingPeriodEnd(period.met ? nextPeriodStart(period.start, s.frequency) : period.start, s.frequency, settings);
  return { length: s.length, frequency: settings.frequency, started: s.started, periodStart: period.start, periodEnd, expires, ...freezeFields };
}

/**
 * The streak as the reference shows it (BaseStreakResponse), as of `now`: it catches up first (the
 * caught-up state is not returned; use `catchUpStreak` or `readStreak` to keep it). Length 0 and
 * null dates when there is no streak; `expires` is the last date of the period that must be met
 * next. Freeze fields appear only when the tenant enables freezes (auto-earn fields only with
 * automatic earning), as in the reference.
 */
export function describeStreak(state: StreakState, settings: StreakSettings, tzHistory: readonly TimeZoneChange[], now: Date): StreakView {
  return view(catchUpStreak(state, settings, tzHistory, now).state, settings);
}

/**
 * The last `n` periods, oldest first (the reference's order), the current period last with the
 * current length. Periods before the user's first event are not listed. Call on a caught-up state.
 */
export function streakHistory(state: StreakState, n: number): StreakPeriodRecord[] {
  if (n <= 0) return [];
  const all = [...state.history];
  if (state.period) {
    all.push({
      periodStart: state.period.start,
      periodEnd: periodEndDate(state.period.start, state.frequency),
      length: state.length,
      usedFreeze: false,
      usedPause: false,
      ...(state.period.resetAt && { resetAt: state.period.resetAt }),
      ...(state.period.peakBeforeReset && { peakBeforeReset: state.period.peakBeforeReset }),
    });
  }
  return all.slice(-n);
}

/** Pauses that are active or upcoming on the user's local today (past ones are omitted, as in the reference), by start. */
export function activePauses(state: StreakState, tzHistory: readonly TimeZoneChange[], now: Date): StreakPause[] {
  const today = localDateIn(now, zoneAt(tzHistory, now));
  return state.pauses.filter((p) => p.end >= today).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id < b.id ? -1 : 1));
}

/**
 * The streak read (GET /v1/users/{id}/streak): catches up to `now` and returns the state to store
 * (when it changed), the events to deliver, and the reference StreakResponse fields with the last
 * `historyPeriods` periods.
 */
export function readStreak(
  state: StreakState,
  settings: StreakSettings,
  tzHistory: readonly TimeZoneChange[],
  now: Date,
  historyPeriods: number,
): { state: StreakState; events: StreakDomainEvent[]; streak: StreakReadView } {
  const { state: s, events } = catchUpStreak(state, settings, tzHistory, now);
  const streak: StreakReadView = {
    ...view(s, settings),
    extended: s.length > 0 ? s.lastExtendedAt : null,
    streakHistory: streakHistory(s, historyPeriods),
    pauses: activePauses(s, tzHistory, now),
  };
  return { state: s, events, streak };
}

// ---------------------------------------------------------------------------------------------
// Events

function withEventZone(tzHistory: readonly TimeZoneChange[], at: Date, tz: string | null | undefined): readonly TimeZoneChange[] {
  if (typeof tz !== "string" || sameZone(zoneAt(tzHistory, at), tz)) return tzHistory;
  return [...tzHistory, { tz, from: at }];
}

/**
 * Applies one metric event: catches up to the event's moment (the same function as reads), anchors
 * the user's timeline at the first event, adds the value to the current period's sum of that metric
 * (exactly, whether or not it is a streak metric now) and, if the condition is met for the first time
 * in the period, counts the period: `extended` is true for this event only, with `streak.started` (length
 * 1) or `streak.extended`. `tzHistory` is the user's zone history; `event.tz`, when given and not
 * yet in it, takes effect at `event.at`.
 */
export function applyStreakEvent(
  state: StreakState,
  settings: StreakSettings,
  event: StreakEventInput,
  tzHistory: readonly TimeZoneChange[],
): { state: StreakState; extended: boolean; events: StreakDomainEvent[]; streak: StreakView } {
  const history = withEventZone(tzHistory, event.at, event.tz);
  const caught = catchUpStreak(state, settings, history, event.at);
  const events = caught.events;
  const s = copy(caught.state);
  const zone = zoneAt(history, event.at);
  if (!s.period) {
    s.period = { start: periodStartOf(localDateIn(event.at, zone), s.frequency), zone, met: false, sums: {} };
    s.asOf = event.at;
  }
  const period = s.period;
  period.sums[event.metricId] = addDecimals(period.sums[event.metricId] ?? "0", decimalFromNumber(event.value));
  // Any event judges the period (settings lowered since may make it met without a streak metric's
  // event); a day off neither extends nor breaks a streak: meeting the condition on one counts for nothing.
  const extended = newlyMet(s, settings);
  // A late event (stamped before the last catch-up) counts on the streak's clock: a streak is not
  // started or extended before the catch-up that judged the periods between.
  if (extended) countPeriod(s, settings, event.at < s.asOf ? s.asOf : event.at, zone, events);
  return { state: s, extended, events, streak: view(s, settings) };
}

// ---------------------------------------------------------------------------------------------
// Scheduling

/**
 * When the scheduler must next catch this user up for something to happen without them: the end of
 * the current period of a live streak in the zone in force (or an earlier recorded zone change), or
 * the next freeze earning while below the maximum; null when nothing is due (no streak and nothing
 * to earn). Recompute after every write of the state.
 */
export function nextStreakDueAt(state: StreakState, settings: StreakSettings, tzHistory: readonly TimeZoneChange[]): Date | null {
  if (state.frequency !== settings.frequency) return state.asOf;
  const candidates: Date[] = [];
  const earnAt = nextEarnAt(state, settings);
  if (earnAt) candidates.push(earnAt);
  if (state.length > 0 && state.period) {
    if (zoneAt(tzHistory, state.asOf) !== state.period.zone) return state.asOf;
    const step = nextPeriodStep(state, tzHistory, state.asOf);
    if (step) candidates.push(step.at);
  }
  if (candidates.length === 0) return null;
  return new Date(Math.min(...candidates.map((d) => d.getTime())));
}

// ---------------------------------------------------------------------------------------------
// Admin operations

/**
 * Restores the streak the user last lost (the documentation's meaning: "the length it was when
 * they last lost it"): that length comes back, joined with the run since (so a user who lost 10
 * and has met today has 11, as if the missed periods had been frozen), `started` returns to the
 * lost run's start; `reached` says what lengths that reaches for rewards. Only the latest loss can
 * be restored, once; `restored` is false when there is nothing to restore (the reference's "No
 * streak to restore" warning). Catches up first.
 */
export function restoreStreak(
  state: StreakState,
  settings: StreakSettings,
  tzHistory: readonly TimeZoneChange[],
  now: Date,
): { state: StreakState; events: StreakDomainEvent[]; restored: boolean; reached?: { before: number; after: number; paidRun: number } } {
  const { state: caught, events } = catchUpStreak(state, settings, tzHistory, now);
  const lost = caught.lastLost;
  if (!lost || !caught.period) return { state: caught, events, restored: false };
  const s = copy(caught);
  s.length = lost.length + caught.length;
  s.longest = Math.max(s.longest ?? 0, s.length);
  s.started = lost.started;
  s.lastLost = null;
  s.lastExtendedAt = caught.lastExtendedAt ?? lost.lastExtendedAt;
  // Lengths above the lost one are reached now (the run since was paid as its own lengths).
  return { state: s, events, restored: true, reached: { before: lost.length, after: s.length, paidRun: caught.length } };
}

/**
 * Adds a pause (local dates, both included). It holds the length of a live streak through every
 * period it overlaps by at least one day that is missed (a pause of Wednesday to Friday protects
 * that whole ISO week; a one-day pause protects its month), so a planned break never costs the
 * streak whatever the frequency. As in the reference, `start` must not be before today in the
 * user's zone and `end` not before `start`; dates lie within FIRST_DATE to LAST_DATE, and a pause
 * may not overlap another pause of the user (ours: the reference does not say).
 */
export function addPause(state: StreakState, pause: StreakPause, tzHistory: readonly TimeZoneChange[], now: Date): StreakState {
  const badDate = checkDate("start", pause.start) ?? checkDate("end", pause.end);
  if (badDate) throw invalidArgument(badDate);
  if (pause.end < pause.start) throw invalidArgument(`end (${pause.end}) must be on or after start (${pause.start})`);
  const today = localDateIn(now, zoneAt(tzHistory, now));
  if (pause.start < today) throw new DomainError("unprocessable", `start (${pause.start}) must not be before today in the user's time zone (${today})`);
  if (state.pauses.some((p) => p.id === pause.id)) throw new DomainError("unprocessable", `a pause with id ${pause.id} already exists`);
  // Pauses of one user never overlap: a repeated request (a retry) must not stack copies, and an
  // overlapping pause would protect nothing more.
  const overlapping = state.pauses.find((p) => p.start <= pause.end && pause.start <= p.end);
  if (overlapping) {
    const same = overlapping.start === pause.start && overlapping.end === pause.end;
    throw new DomainError(
      "unprocessable",
      `${same ? "the user already has this pause" : "the pause overlaps this user's pause"} ${overlapping.id} (${overlapping.start} to ${overlapping.end}); a user's pauses may not overlap`,
    );
  }
  if (state.pauses.length >= MAX_STREAK_PAUSES) {
    throw new DomainError("unprocessable", `a user can hold at most ${MAX_STREAK_PAUSES} upcoming or active pauses`);
  }
  return { ...state, pauses: [...state.pauses, { id: pause.id, start: pause.start, end: pause.end }] };
}

/** Removes a pause by ID; from then on it protects nothing (periods already held stay held). */
export function removePause(state: StreakState, id: string): { state: StreakState; removed: boolean } {
  const pauses = state.pauses.filter((p) => p.id !== id);
  return pauses.length === state.pauses.length ? { state, removed: false } : { state: { ...state, pauses }, removed: true };
}

/**
 * Grants freezes by admin action (the reference's create-freezes call), never above the maximum:
 * `granted` may be less than asked (the reference's "Would exceed maximum freeze limit" warning);
 * nothing when freezes are off.
 */
export function grantFreezes(state: StreakState, settings: StreakSettings, count: number): { state: StreakState; granted: number } {
  if (!settings.freezes || count <= 0) return { state, granted: 0 };
  const granted = Math.max(0, Math.min(count, settings.freezes.maxFreezes - state.freezes));
  return granted === 0 ? { state, granted } : { state: { ...state, freezes: state.freezes + granted }, granted };
}

/**
 * Resets the streak to zero by admin action (the reference's reset call): catches up first, then
 * the length, start and last extension are cleared and the current period counts anew (an event
 * later in it starts a streak of 1); the period's history entry shows `resetAt`. Freezes, pauses, history and the longest length are kept; the
 * reset streak cannot be restored, nor can an earlier loss. `reset` is false when there was no
 * streak to reset.
 */
export function resetStreak(
  state: StreakState,
  settings: StreakSettings,
  tzHistory: readonly TimeZoneChange[],
  now: Date,
  /** False: not an admin reset (a user turning streaks off), so the history shows no `resetAt`. */
  markReset = true,
): { state: StreakState; events: StreakDomainEvent[]; reset: boolean } {
  const { state: caught, events } = catchUpStreak(state, settings, tzHistory, now);
  if (caught.length === 0) return { state: caught, events, reset: false };
  const s = copy(caught);
  s.longest = longestStreak(caught);
  s.length = 0;
  s.started = null;
  s.lastExtendedAt = null;
  s.lastLost = null;
  if (s.period) {
    // A period met before the reset had reached the length the reset takes away: kept as its peak.
    const peak = Math.max(s.period.peakBeforeReset ?? 0, s.period.met ? caught.length : 0);
    s.period = { ...s.period, met: false, sums: {}, ...(markReset && { resetAt: now }), ...(peak > 0 && { peakBeforeReset: peak }) };
  }
  return { state: s, events, reset: true };
}

/** The longest length the user has reached that the state still shows (older states did not keep it). */
export function longestStreak(state: StreakState): number {
  return Math.max(state.longest ?? 0, state.length, state.lastLost?.length ?? 0, ...state.history.map((p) => p.length));
}

/**
 * The streak shown when the tenant has no streak settings: length 0, no dates, `daily` (the
 * published clients require a streak object with a frequency; nothing can extend it).
 */
export function noStreakView(frequency: StreakFrequency = "daily"): StreakView {
  return { length: 0, frequency, started: null, periodStart: null, periodEnd: null, expires: null };
}
