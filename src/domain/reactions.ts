import type { AchievementConfig } from "./achievement-config.js";
import { completeAchievements, type AchievementCompletion } from "./achievements.js";
import type { DecimalString } from "./decimal.js";
import { DomainError } from "./errors.js";
import { applyPointsForEvent, nextTimeTriggerDueAt, type PointsChange, type PointsConfig, type PointsEvent } from "./points.js";
import type { UserState } from "./user.js";

/** The configuration the engine reacts with (a snapshot read once per call). */
export interface EngineConfig {
  achievements: readonly AchievementConfig[];
  points: PointsConfig;
  newId: () => string;
}

/** What a call caused besides the metric total: for the response and for webhooks. */
export interface Reactions {
  achievements: Array<{ achievement: AchievementConfig; completion: AchievementCompletion }>;
  points: PointsChange[];
  pointsEvents: PointsEvent[];
}

export const NO_REACTIONS: Reactions = { achievements: [], points: [], pointsEvents: [] };

/** What happened in the call. */
export interface ReactionTrigger {
  event?: { metricId: string; value: number; attributes: Record<string, string>; totalAfter: DecimalString };
  apiAchievementId?: string;
  /** True when this call created (first identified) the user. */
  userCreated: boolean;
}

/**
 * The engine's reactions to one call, in order: achievements complete (metric, API, composite),
 * then points systems award or deduct for the event, the completed achievements and a first
 * identification, with boosts, caps and levels. A deduction that `blockIfOutOfPoints` forbids
 * refuses the whole call (nothing of it is written). Also sets when time-driven work is next due.
 */
export function react(state: UserState, trigger: ReactionTrigger, config: EngineConfig, at: Date): { state: UserState; reactions: Reactions } {
  const achieved = completeAchievements(
    state,
    config.achievements,
    { event: trigger.event, apiAchievementId: trigger.apiAchievementId },
    at,
    config.newId,
  );
  const points = applyPointsForEvent(
    achieved.state.points,
    config.points,
    achieved.state,
    { event: trigger.event, completedAchievementIds: achieved.completed.map((a) => a.id), userCreated: trigger.userCreated },
    at,
    config.newId,
  );
  if (points.kind === "blocked") throw new DomainError("unprocessable", points.message);
  const next: UserState = { ...achieved.state, points: points.states };
  next.dueAt = nextTimeTriggerDueAt(next.points, config.points, next);
  return {
    state: next,
    reactions: {
      achievements: achieved.completed.map((achievement) => ({ achievement, completion: next.achievements[achievement.id]! })),
      points: points.changes,
      pointsEvents: points.events,
    },
  };
}
