import type { AchievementConfig } from "../../features/achievements/domain/achievement-config.js";
import { completeAchievements, type AchievementCompletion } from "../../features/achievements/domain/achievements.js";
import type { DecimalString } from "./decimal.js";
import type { LeaderboardResult, RankedLeaderboard } from "../../features/leaderboards/domain/leaderboard-entries.js";
import { DomainError } from "./errors.js";
import { applyPointsForEvent, nextTimeTriggerDueAt, type PointsChange, type PointsConfig, type PointsEvent } from "../../features/points/domain/points.js";
import type { StreakSettings } from "../../features/streaks/domain/streak-config.js";
import { effectiveStreakSettings } from "../../features/users/domain/preferences.js";
import {
  applyStreakEvent,
  catchUpStreak,
  describeStreak,
  nextStreakDueAt,
  noStreakView,
  type StreakDomainEvent,
  type StreakView,
} from "../../features/streaks/domain/streak.js";
import { userStreak } from "../../features/streaks/domain/streak-frequency.js";
import type { Sha256 } from "./hashing.js";
import { isInControlGroup } from "../../features/account/domain/settings.js";
import { createUserState, zoneInForce, type UserState } from "./user.js";
import { lifecycleMessages, messagesForUserEvents, type UserEvents, type WebhookSettings } from "../../features/webhooks/domain/webhooks.js";
import { planLifecycle } from "../../features/webhooks/domain/lifecycle.js";

/** The configuration the engine reacts with (a snapshot read once per call). */
export interface EngineConfig {
  achievements: readonly AchievementConfig[];
  points: PointsConfig;
  /** The tenant's streak settings; null when streaks are not configured. */
  streak: StreakSettings | null;
  newId: () => string;
  /** SHA-256, for the IDs of messages announced once and the control group's buckets. */
  sha256: Sha256;
  /** Who listens to the tenant's webhooks; absent or empty: no messages are built. */
  webhooks?: WebhookSettings;
  /** The tenant's leaderboards (every status); absent: none. */
  leaderboards?: readonly RankedLeaderboard[];
  /** The percentage of new users put in the control group (features/account/domain/settings.ts); absent: none. */
  controlRatio?: number;
}

/** A user seen for the first time, in the control group or not by the tenant's ratio (features/account/domain/settings.ts). */
export function newUserState(userId: string, now: Date, config: EngineConfig): UserState {
  return createUserState(userId, now, isInControlGroup(userId, config.controlRatio ?? 0, config.sha256));
}

/** What a call caused besides the metric total: for the response and for webhooks. */
export interface Reactions {
  achievements: Array<{ achievement: AchievementConfig; completion: AchievementCompletion }>;
  points: PointsChange[];
  pointsEvents: PointsEvent[];
  /** The streak after the call (null when streaks are not configured), and whether this call extended it. */
  streak: (StreakView & { extended: boolean }) | null;
  streakEvents: StreakDomainEvent[];
  /** Leaderboards whose ranking the call changed (filled in by the pipeline, which writes rankings). */
  leaderboards: LeaderboardResult[];
}

export const NO_REACTIONS: Reactions = { achievements: [], points: [], pointsEvents: [], streak: null, streakEvents: [], leaderboards: [] };

/** What happened in the call. */
export interface ReactionTrigger {
  event?: { metricId: string; value: number; attributes: Record<string, string>; totalAfter: DecimalString };
  apiAchievementId?: string;
  /** True when this call created (first identified) the user. */
  userCreated: boolean;
}

/**
 * The engine's reactions to one call, in order: the streak (brought up to the moment, then the
 * event counted in its period), achievements (metric, streak length, API, composite), then points
 * systems for the event, the completed achievements, the streak's growth and a first
 * identification, with boosts, caps and levels. A deduction that `blockIfOutOfPoints` forbids
 * refuses the whole call (nothing of it is written). The state returned has neither the webhook
 * messages nor the next due time: `completeChange` adds both once leaderboards are ranked.
 */
export function react(state: UserState, trigger: ReactionTrigger, config: EngineConfig, at: Date): { state: UserState; reactions: Reactions } {
  // The control group earns nothing: no streak, achievements or points (and so no webhooks).
  if (state.control) return { state, reactions: { ...NO_REACTIONS, streak: controlStreakView(effectiveStreakSettings(config.streak, state.preferences)) } };
  const streaked = advanceStreak(state, trigger, effectiveStreakSettings(config.streak, state.preferences), at);
  // Periods its catch-up counted at their ends come first, rewarded as a visit would have (a user
  // without a live streak has no visit due at a period's end); so is the extension of a late event
  // (stamped before the streak's last catch-up), which counts at that catch-up, not at the event.
  const extendedLate = streaked.after > streaked.before && streaked.extendedAt !== null && streaked.extendedAt > at;
  const late = extendedLate ? [{ before: streaked.before, after: streaked.after, at: streaked.extendedAt! }] : [];
  const grown = rewardStreakGrowth(streaked.state, [...growthsOf(streaked.caughtUp), ...late], config);
  const achieved = completeAchievements(
    grown.state,
    config.achievements,
    { event: trigger.event, apiAchievementId: trigger.apiAchievementId, streakLength: extendedLate ? undefined : streaked.after },
    at,
    config.newId,
  );
  const points = applyPointsForEvent(
    achieved.state.points,
    config.points,
    achieved.state,
    {
      event: trigger.event,
      completedAchievementIds: achieved.completed.map((a) => a.id),
      streakLength: !extendedLate && streaked.after > streaked.before ? { before: streaked.before, after: streaked.after } : undefined,
      userCreated: trigger.userCreated,
    },
    at,
    config.newId,
  );
  if (points.kind === "blocked") throw new DomainError("unprocessable", points.message);
  const counted: UserState = { ...achieved.state, points: points.states };
  const reactions: Reactions = {
    achievements: [...grown.achievements, ...achieved.completed.map((achievement) => ({ achievement, completion: counted.achievements[achievement.id]! }))],
    points: mergePointsChanges([...grown.steps.flatMap((step) => step.changes), ...points.changes]),
    pointsEvents: [...grown.pointsEvents, ...points.events],
    streak: streaked.view,
    streakEvents: streaked.events,
    leaderboards: [],
  };
  return { state: counted, reactions };
}

/**
 * A length a streak reached without an event extending it: a period a catch-up counted at its end
 * (settings changed since its last event), or a restore joined with the run since. `paidRun`: a run
 * whose lengths were paid as its own and now count after `before` (a restore's run since).
 */
export interface StreakGrowth {
  before: number;
  after: number;
  at: Date;
  paidRun?: number;
}

/** The periods a catch-up counted at their ends (`streak.started`, `streak.extended`), as growths. */
export function growthsOf(events: readonly StreakDomainEvent[]): StreakGrowth[] {
  return events.flatMap((e) =>
    e.type === "streak.started" || e.type === "streak.extended" ? [{ before: e.streak.length - 1, after: e.streak.length, at: e.at }] : [],
  );
}

/**
 * Rewards what a streak reached outside an event as an event's extension would: the streak
 * achievements it reaches complete, its streak triggers pay the milestones it newly reaches (and
 * the completed achievements' triggers pay), dated when it was reached. Each growth's points are
 * one step, for the leaderboard runs of its moment.
 */
export function rewardStreakGrowth(
  state: UserState,
  growths: readonly StreakGrowth[],
  config: EngineConfig,
): { state: UserState; achievements: Reactions["achievements"]; pointsEvents: PointsEvent[]; steps: Array<{ at: Date; changes: PointsChange[] }> } {
  const rewarded = {
    state,
    achievements: [] as Reactions["achievements"],
    pointsEvents: [] as PointsEvent[],
    steps: [] as Array<{ at: Date; changes: PointsChange[] }>,
  };
  if (state.control) return rewarded;
  for (const { before, after, at, paidRun } of growths) {
    const achieved = completeAchievements(rewarded.state, config.achievements, { streakLength: after }, at, config.newId);
    const completedAchievementIds = achieved.completed.map((a) => a.id);
    const points = applyPointsForEvent(
      achieved.state.points,
      config.points,
      achieved.state,
      { completedAchievementIds, streakLength: { before, after, paidRun } },
      at,
      config.newId,
    );
    if (points.kind === "blocked") throw new Error("unreachable: only metric events block");
    rewarded.state = { ...achieved.state, points: points.states };
    rewarded.achievements.push(...achieved.completed.map((achievement) => ({ achievement, completion: rewarded.state.achievements[achievement.id]! })));
    rewarded.pointsEvents.push(...points.events);
    if (points.changes.length > 0) rewarded.steps.push({ at, changes: points.changes });
  }
  return rewarded;
}

/**
 * One change per system for a call's response and leaderboards, in the order given: awards
 * joined, `added` summed, the last total, and a level change from the first one's previous level
 * to the last one's new level (none when they are the same).
 */
function mergePointsChanges(changes: readonly PointsChange[]): PointsChange[] {
  const bySystem = new Map<string, PointsChange>();
  for (const change of changes) {
    const earlier = bySystem.get(change.systemId);
    if (!earlier) {
      bySystem.set(change.systemId, change);
      continue;
    }
    const previous = (earlier.levelChanged ?? change.levelChanged)?.previous ?? null;
    const next = (change.levelChanged ?? earlier.levelChanged)?.next ?? null;
    const moved = (earlier.levelChanged || change.levelChanged) && previous?.id !== next?.id;
    bySystem.set(change.systemId, {
      systemId: change.systemId,
      systemKey: change.systemKey,
      total: change.total,
      added: earlier.added + change.added,
      awards: [...earlier.awards, ...change.awards],
      ...(moved && { levelChanged: { previous, next } }),
    });
  }
  return [...bySystem.values()];
}

/** The webhook-facing part of reactions (leaderboard results are added once rankings are written). */
export function eventsOf(reactions: Reactions): UserEvents {
  return {
    achievements: reactions.achievements,
    pointsEvents: reactions.pointsEvents,
    streakEvents: reactions.streakEvents,
    leaderboardResults: reactions.leaderboards,
  };
}

/**
 * The last pure step of every change to a user, once its leaderboard results are known: the webhook
 * messages of what happened go into the outbox (written with the change itself), then the lifecycle
 * messages due at `now` (`emails.*`, features/webhooks/domain/lifecycle.ts) with their marks, and the time when
 * time-driven work is next due is set (the earliest of the streak's, the time triggers' and the
 * next lifecycle message's). Carried out by the pipeline's one applier (`applyUserChange`). `now`
 * is the clock (`at` is the change's moment, earlier for a backdated event).
 */
export function completeChange(state: UserState, events: UserEvents, config: EngineConfig, at: Date, now: Date = at): UserState {
  const lifecycle = lifecycleStep(notify(state, events, config, at), config, now);
  const next = lifecycle.state;
  next.dueAt = afterBackfillQuiet(earliest(nextDueAt(next, config), lifecycle.at), next, now);
  return next;
}

/**
 * The due time `completeChange` will set, known before the change's webhook messages and
 * leaderboards (neither moves it): a change starts the scheduler's bucket entry with it, beside its
 * ranking writes.
 */
export function plannedDueAt(state: UserState, config: EngineConfig, now: Date): Date | null {
  const lifecycle = lifecycleStep(state, config, now);
  return afterBackfillQuiet(earliest(nextDueAt(lifecycle.state, config), lifecycle.at), state, now);
}

/** A due time within the wait after a backdated event (`BACKFILL_QUIET_MS`) moves to its end. */
function afterBackfillQuiet(dueAt: Date | null, state: UserState, now: Date): Date | null {
  const quietUntil = state.backfillQuietUntil;
  return dueAt && quietUntil && quietUntil > now && dueAt < quietUntil ? quietUntil : dueAt;
}

/** Lifecycle messages due now (into the outbox, with their marks), and when the next one is due. */
function lifecycleStep(state: UserState, config: EngineConfig, now: Date): { state: UserState; at: Date | null } {
  const subscribed = config.webhooks?.subscribed;
  if (!subscribed || subscribed.size === 0) return { state, at: null };
  const plan = planLifecycle(state, { subscribed, streak: effectiveStreakSettings(config.streak, state.preferences) }, now);
  // An import in progress (the wait after a backdated event): its next events may make the user
  // active again, so what is due is judged when the wait ends, not sent now.
  const quietUntil = state.backfillQuietUntil;
  if (quietUntil && quietUntil > now) return { state, at: plan.due.length > 0 ? quietUntil : (plan.next?.at ?? null) };
  const messages = lifecycleMessages(state, plan.due, config.webhooks, now, config.sha256);
  return { state: { ...state, lifecycle: plan.marks, outbox: messages.length > 0 ? [...state.outbox, ...messages] : state.outbox }, at: plan.next?.at ?? null };
}

function earliest(a: Date | null, b: Date | null): Date | null {
  return a && b ? (a < b ? a : b) : (a ?? b);
}

/**
 * Appends the webhook messages of a change to the user's outbox, so they are written with the change
 * itself. `state` is the state after the change; only types someone subscribes to are built.
 */
function notify(state: UserState, events: UserEvents, config: EngineConfig, at: Date): UserState {
  const messages = messagesForUserEvents(state, events, config.webhooks, config.points, at, config.newId, config.sha256);
  return messages.length === 0 ? { ...state } : { ...state, outbox: [...state.outbox, ...messages] };
}

/** The user's streak as of `at` (periods that ended since judged), created when the user has none. */
function caughtUpStreak(state: UserState, settings: StreakSettings, at: Date) {
  return catchUpStreak(userStreak(state, settings, at), settings, state.tzHistory, at);
}

/**
 * The streak as a call that changes nothing shows it (an idempotent replay): as of `at`, not
 * extended by this call. Null when streaks are not configured.
 */
export function currentStreakView(state: UserState, tenantSettings: StreakSettings | null, at: Date): Reactions["streak"] {
  const settings = effectiveStreakSettings(tenantSettings, state.preferences);
  if (state.control) return controlStreakView(settings);
  if (!settings) return null;
  return { ...describeStreak(caughtUpStreak(state, settings, at).state, settings, state.tzHistory, at), extended: false };
}

/** The control group has no streak: a zero-length one of the settings' frequency (none without settings). */
function controlStreakView(settings: StreakSettings | null): Reactions["streak"] {
  return settings ? { ...noStreakView(settings.frequency), extended: false } : null;
}

/** The streak part of a call: catch up to `at`, then count the event (when there is one). */
function advanceStreak(state: UserState, trigger: ReactionTrigger, settings: StreakSettings | null, at: Date) {
  const none = [] as StreakDomainEvent[];
  if (!settings) return { state, before: 0, after: 0, view: null, events: none, caughtUp: none, extendedAt: null };
  const caught = caughtUpStreak(state, settings, at);
  const before = caught.state.length;
  if (!trigger.event) {
    const view = { ...describeStreak(caught.state, settings, state.tzHistory, at), extended: false };
    return { state: { ...state, streak: caught.state }, before, after: before, view, events: caught.events, caughtUp: caught.events, extendedAt: null };
  }
  const applied = applyStreakEvent(
    caught.state,
    settings,
    { metricId: trigger.event.metricId, value: trigger.event.value, at, tz: zoneInForce(state, at) },
    state.tzHistory,
  );
  return {
    state: { ...state, streak: applied.state },
    before,
    after: applied.state.length,
    view: { ...applied.streak, extended: applied.extended },
    events: [...caught.events, ...applied.events],
    caughtUp: caught.events,
    /** When the event's extension counted: its moment, or a late event's the streak's last catch-up. */
    extendedAt: applied.extended ? applied.state.lastExtendedAt : null,
  };
}

/** When time-driven work is next due: a streak period end or freeze earning, or a time trigger. */
export function nextDueAt(state: UserState, config: EngineConfig): Date | null {
  if (state.control) return null; // nothing time-driven is earned in the control group
  const candidates = [
    config.streak && state.streak ? nextStreakDueAt(state.streak, effectiveStreakSettings(config.streak, state.preferences)!, state.tzHistory) : null,
    nextTimeTriggerDueAt(state.points, config.points, state),
  ].filter((d): d is Date => d !== null);
  return candidates.length === 0 ? null : new Date(Math.min(...candidates.map((d) => d.getTime())));
}
