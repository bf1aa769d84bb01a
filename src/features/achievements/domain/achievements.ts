import type { AchievementConfig, AttributeFilter } from "./achievement-config.js";
import type { UserState } from "../../../engine/domain/user.js";
import Big from "big.js";

/** A user's completion of an achievement. */
export interface AchievementCompletion {
  achievedAt: Date;
  completionId: string;
}

/** What may complete achievements now. */
export interface AchievementTriggerContext {
  /** The event just applied: its metric and attributes. */
  event?: { metricId: string; attributes: Record<string, string> };
  /**
   * The user's streak length after the change, when streaks are evaluated (when backdating: the
   * streak as of now, a lapsed one being 0). Absent: no streak achievement completes.
   */
  streakLength?: number;
  /** An API achievement being completed through the Application API. */
  apiAchievementId?: string;
  /**
   * Backdating on activation: metric achievements complete on the stored total alone. Those with
   * event attribute filters are skipped, since past events' attributes are not kept. Streak
   * achievements complete on `streakLength` as for an event.
   */
  backfill?: boolean;
}

function matchesAll(filters: readonly AttributeFilter[], values: Record<string, string>): boolean {
  return filters.every((f) => values[f.key] === f.value);
}

/** Whether the trigger of one achievement is met now (prerequisites aside). */
function isTriggered(achievement: AchievementConfig, state: UserState, context: AchievementTriggerContext): boolean {
  switch (achievement.trigger) {
    case "metric": {
      const total = state.metrics[achievement.metricId ?? ""]?.total;
      if (total === undefined || achievement.metricValue === null || new Big(total).lt(achievement.metricValue)) return false;
      if (context.backfill) return achievement.eventAttributes.length === 0;
      return context.event?.metricId === achievement.metricId && matchesAll(achievement.eventAttributes, context.event.attributes);
    }
    case "streak":
      return context.streakLength !== undefined && achievement.streakLength !== null && context.streakLength >= achievement.streakLength;
    case "api":
      return context.apiAchievementId === achievement.id;
    case "achievement":
      return achievement.achievementIds.length > 0 && achievement.achievementIds.every((id) => state.achievements[id] !== undefined);
  }
}

/**
 * Completes every active achievement whose trigger is met and whose user attribute filters match,
 * each at most once per user. Composite achievements complete as soon as their last prerequisite
 * does, in the same call (repeated until nothing more completes). Inactive and locked achievements
 * are never newly completed. Pure: `newId` supplies completion IDs.
 */
export function completeAchievements(
  state: UserState,
  achievements: readonly AchievementConfig[],
  context: AchievementTriggerContext,
  at: Date,
  newId: () => string,
): { state: UserState; completed: AchievementConfig[] } {
  let next = state;
  const completed: AchievementConfig[] = [];
  for (let changed = true; changed;) {
    changed = false;
    for (const achievement of achievements) {
      if (achievement.status !== "active" || next.achievements[achievement.id] !== undefined) continue;
      if (!matchesAll(achievement.userAttributes, next.attributes) || !isTriggered(achievement, next, context)) continue;
      next = { ...next, achievements: { ...next.achievements, [achievement.id]: { achievedAt: at, completionId: newId() } } };
      completed.push(achievement);
      changed = true;
    }
  }
  return { state: next, completed };
}

/**
 * The completions and rarity of an achievement: the percentage of the tenant's users (everyone
 * the service has seen in the tenant) who completed it, rounded to two decimals; 0 with no users.
 */
export function rarityOf(completions: number, users: number): number {
  return users === 0 ? 0 : Math.round((completions / users) * 10_000) / 100;
}

/**
 * Which achievements a user sees: active ones, plus locked ones the user holds. Inactive
 * achievements are never shown.
 */
/**
 * Whether an achievement is open to a user with these attribute values: every one of its user
 * attribute filters matches (none: open to everyone).
 */
export function isOpenTo(achievement: AchievementConfig, attributes: Record<string, string>): boolean {
  return matchesAll(achievement.userAttributes, attributes);
}

export function isVisibleTo(achievement: AchievementConfig, state: UserState | null): boolean {
  return achievement.status === "active" || (achievement.status === "locked" && state?.achievements[achievement.id] !== undefined);
}
