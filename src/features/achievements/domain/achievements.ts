import type { AchievementConfig, AttributeFilter } from "./achievement-config.js";
import type { UserState } from "../../../engine/domain/user.js";
import Big from "big.js";
import { addDecimals, decimalFromNumber, ZERO, type DecimalString } from "../../../engine/domain/decimal.js";

/** A user's completion of an achievement. */
export interface AchievementCompletion {
  achievedAt: Date;
  completionId: string;
}

/** What may complete achievements now. */
export interface AchievementTriggerContext {
  /** The event just applied: its metric, value and attributes. */
  event?: { metricId: string; value: number; attributes: Record<string, string> };
  /**
   * The user's streak length after the change, when streaks are evaluated (when backdating: the
   * streak as of now, a lapsed one being 0). Absent: no streak achievement completes.
   */
  streakLength?: number;
  /** An API achievement being completed through the Application API. */
  apiAchievementId?: string;
  /**
   * Backdating on activation: metric achievements complete on the stored total alone; those with
   * event attribute filters on what the matching events counted while they were active (past
   * events' attributes are not kept: nothing for a new one). Streak achievements complete on
   * `streakLength` as for an event.
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
      if (achievement.metricValue === null) return false;
      if (achievement.eventAttributes.length > 0) {
        // Only matching events count, from the achievement's activation on (past events' attributes
        // are not kept): it completes on one of them, or by backdating on what they counted (a
        // lowered value), never on an event it does not apply to.
        const progress = state.achievementProgress?.[progressKeyOf(achievement)];
        if (progress === undefined || new Big(progress).lt(achievement.metricValue)) return false;
        const event = context.event;
        return context.backfill === true || (event?.metricId === achievement.metricId && matchesAll(achievement.eventAttributes, event.attributes));
      }
      const total = state.metrics[achievement.metricId ?? ""]?.total;
      if (total === undefined || new Big(total).lt(achievement.metricValue)) return false;
      return context.backfill === true || context.event?.metricId === achievement.metricId;
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
 * The key of an achievement's progress in the user document: its ID, then one per redefinition
 * (`progressGeneration`), so progress toward another metric or filter is not read.
 */
export function progressKeyOf(achievement: Pick<AchievementConfig, "id" | "progressGeneration">): string {
  return achievement.progressGeneration ? `${achievement.id}.${achievement.progressGeneration}` : achievement.id;
}

/** The progress without the achievement's entries, but for `keep` (entries of earlier definitions go). */
function withoutProgressOf(progress: Record<string, DecimalString>, id: string, keep?: string): Record<string, DecimalString> {
  const mine = (k: string) => k !== keep && (k === id || k.startsWith(`${id}.`));
  return Object.keys(progress).some(mine) ? Object.fromEntries(Object.entries(progress).filter(([k]) => !mine(k))) : progress;
}

/**
 * Adds an event's value to the progress of every active metric achievement with event attribute
 * filters that it matches and the user does not hold yet: such an achievement counts only the
 * events it applies to (the reference: it "only appl[ies] to events with" those attributes), not the
 * metric's total. The entry goes when the achievement is completed.
 */
function countMatchingEvent(state: UserState, achievements: readonly AchievementConfig[], event: NonNullable<AchievementTriggerContext["event"]>): UserState {
  let progress = state.achievementProgress;
  for (const a of achievements) {
    if (a.status !== "active" || a.trigger !== "metric" || a.metricId !== event.metricId || a.eventAttributes.length === 0) continue;
    if (state.achievements[a.id] !== undefined || !matchesAll(a.eventAttributes, event.attributes)) continue;
    const key = progressKeyOf(a);
    progress = { ...withoutProgressOf(progress ?? {}, a.id, key), [key]: addDecimals(progress?.[key] ?? ZERO, decimalFromNumber(event.value)) };
  }
  return progress === state.achievementProgress ? state : { ...state, achievementProgress: progress };
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
  let next = context.event ? countMatchingEvent(state, achievements, context.event) : state;
  const completed: AchievementConfig[] = [];
  for (let changed = true; changed;) {
    changed = false;
    for (const achievement of achievements) {
      if (achievement.status !== "active" || next.achievements[achievement.id] !== undefined) continue;
      if (!matchesAll(achievement.userAttributes, next.attributes) || !isTriggered(achievement, next, context)) continue;
      next = { ...next, achievements: { ...next.achievements, [achievement.id]: { achievedAt: at, completionId: newId() } } };
      if (next.achievementProgress) {
        const rest = withoutProgressOf(next.achievementProgress, achievement.id);
        if (rest !== next.achievementProgress) next = { ...next, achievementProgress: rest };
      }
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
