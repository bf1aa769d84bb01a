import { randomUUID } from "node:crypto";
import type { AchievementConfig } from "./domain/achievement-config.js";
import { completeAchievements, isOpenTo, isVisibleTo, rarityOf, type AchievementCompletion } from "./domain/achievements.js";
import { parseAttributeFilter } from "../points/domain/points-summary.js";
import { DomainError, notFound } from "../../engine/domain/errors.js";
import { currentStreakView, eventsOf, newUserState, NO_REACTIONS, react, type Reactions } from "../../engine/domain/reactions.js";
import { loadEngineConfig } from "../../engine/engine-config.js";
import { upsertUser, type UserUpsert } from "../../engine/domain/user.js";
import { readAchievementStats } from "./store/achievement-stats.js";
import { findUser, storedStatesOfTenant } from "../../engine/store/user-documents.js";
import { userIdsOfTenant } from "../../engine/store/tenant-users.js";
import type { ServiceContext } from "../../engine/context.js";
import { applyUserChange, changeUserState, type UserChange } from "../../engine/user-state.js";
import { dueWorkFirst } from "../../workers/due-work.js";
import { checkAttributeKeys, checkUserFields } from "../../engine/user-access.js";
import { contributionOf } from "../leaderboards/domain/leaderboard-entries.js";

/** An achievement as seen by one user (with the completion when there is one) and, in lists, statistics. */
export interface AchievementView {
  achievement: AchievementConfig;
  completion: AchievementCompletion | null;
  stats?: { completions: number; rarity: number };
}

/**
 * Completes an API achievement for a user (created on first sight, with the fields sent). Completing
 * it again answers with the original completion (`alreadyCompleted`). Composite achievements whose
 * last prerequisite this was complete too. As an event does, one write creates or updates the user
 * and completes the achievement: a first-seen user's user-creation awards are in the response, and
 * a refused completion writes nothing.
 */
export async function completeApiAchievement(
  ctx: ServiceContext,
  tenantId: string,
  key: string,
  user: UserUpsert,
): Promise<{ view: AchievementView; alreadyCompleted: boolean; reactions: Reactions }> {
  const achievement = (await ctx.config.achievements(tenantId)).find((a) => a.key === key && a.status !== "inactive");
  if (!achievement) throw notFound(`Achievement with key "${key}" not found`);
  if (achievement.trigger !== "api") {
    throw new DomainError("unprocessable", `Achievement "${key}" completes automatically (trigger ${achievement.trigger}), not through the API`);
  }
  await checkUserFields(ctx, tenantId, user);
  const engine = await loadEngineConfig(ctx, tenantId);
  return changeUserState(
    ctx,
    tenantId,
    user.id,
    async (stored, now): Promise<UserChange<{ view: AchievementView; alreadyCompleted: boolean; reactions: Reactions }>> => {
      const state = upsertUser(stored?.state ?? newUserState(user.id, now, engine), user, now);
      const existing = state.achievements[achievement.id];
      if (existing) {
        // Completed before: only the fields sent are written, as a user write would.
        const applied = await applyUserChange(ctx, tenantId, engine, { state, events: {}, contribution: {}, at: now });
        return { write: applied.state, result: { view: { achievement, completion: existing }, alreadyCompleted: true, reactions: NO_REACTIONS } };
      }
      if (achievement.status === "locked") throw new DomainError("unprocessable", `Achievement "${key}" is locked and can no longer be completed`);
      if (state.control)
        throw new DomainError("unprocessable", `User "${user.id}" is in the control group (experimentation settings), which earns no achievements`);
      const result = react(state, { apiAchievementId: achievement.id, userCreated: stored === null }, engine, now);
      const completion = result.state.achievements[achievement.id];
      if (!completion) throw new DomainError("unprocessable", `User "${user.id}" does not match the user attribute filters of achievement "${key}"`);
      const contribution = contributionOf(undefined, result.reactions.points, result.reactions.streak?.length);
      const applied = await applyUserChange(ctx, tenantId, engine, { state: result.state, events: eventsOf(result.reactions), contribution, at: now });
      const reactions = { ...result.reactions, leaderboards: applied.leaderboards };
      return { write: applied.state, result: { view: { achievement, completion }, alreadyCompleted: false, reactions } };
    },
    { catchUp: dueWorkFirst(ctx, tenantId, engine) },
  );
}

/** How many users of the tenant completed each achievement, and how many users the tenant has (counters by `_id`). */
async function countCompletions(ctx: ServiceContext, tenantId: string, achievements: AchievementConfig[]) {
  const { users, tenantUsers, achievementStats } = ctx.database.collections;
  // Only for a database that had users before the counters existed, once per tenant.
  const countOnce = async () => {
    const all = await ctx.config.achievements(tenantId);
    const completions = new Map(all.map((a) => [a.id, 0]));
    let total = 0;
    const userIds = await userIdsOfTenant(tenantUsers, users, ctx.userLocks, tenantId);
    for await (const { stored } of storedStatesOfTenant(users, tenantId, userIds, ["achievements"])) {
      total += 1;
      for (const id of Object.keys(stored.achievements ?? {})) if (completions.has(id)) completions.set(id, completions.get(id)! + 1);
    }
    return { users: total, completions };
  };
  const stats = await readAchievementStats(
    achievementStats,
    ctx.userLocks,
    tenantId,
    achievements.map((a) => a.id),
    countOnce,
  );
  return new Map(
    achievements.map((a) => {
      const completions = stats.completions.get(a.id) ?? 0;
      return [a.id, { completions, rarity: rarityOf(completions, stats.users) }];
    }),
  );
}

/** Every active achievement with completions and rarity. */
/**
 * Every active achievement with its statistics; with `userAttributes` (`key:value,...`, user
 * attribute keys of the tenant), only those open to a user with these attributes.
 */
export async function listAchievementStats(ctx: ServiceContext, tenantId: string, userAttributes = ""): Promise<AchievementView[]> {
  const attributes = Object.fromEntries(parseAttributeFilter(userAttributes).map((f) => [f.key, f.value]));
  if (userAttributes.trim() !== "") await checkAttributeKeys(ctx, tenantId, { user: attributes });
  const active = (await ctx.config.achievements(tenantId)).filter((a) => isVisibleTo(a, null) && (userAttributes.trim() === "" || isOpenTo(a, attributes)));
  const stats = await countCompletions(ctx, tenantId, active);
  return active.map((achievement) => ({ achievement, completion: null, stats: stats.get(achievement.id) }));
}

/** A user's completed achievements, oldest completion first, then (when asked) the incomplete ones. */
export async function listUserAchievements(ctx: ServiceContext, tenantId: string, userId: string, includeIncomplete: boolean): Promise<AchievementView[]> {
  const [found, all] = await Promise.all([findUser(ctx.database.collections.users, tenantId, userId), ctx.config.achievements(tenantId)]);
  if (!found) throw notFound(`User "${userId}" not found`);
  const visible = all.filter((a) => isVisibleTo(a, found.state));
  const stats = await countCompletions(ctx, tenantId, visible);
  const views = visible.map((achievement) => ({ achievement, completion: found.state.achievements[achievement.id] ?? null, stats: stats.get(achievement.id) }));
  const done = views.filter((v) => v.completion).sort((a, b) => a.completion!.achievedAt.getTime() - b.completion!.achievedAt.getTime());
  return includeIncomplete ? [...done, ...views.filter((v) => !v.completion)] : done;
}

/**
 * Backdating: when an achievement is active, every user of the tenant who already qualifies gets it,
 * without notifications. Runs after an admin write; users are visited one by one (by `_id`, from the
 * tenant's user listing) through the same compare-and-set path as events, so it is safe alongside
 * live traffic. A metric achievement qualifies on the stored total; a streak achievement on the
 * user's streak as of now in their zone (as the streak read shows it: a lapsed streak is 0; the
 * caught-up streak is not stored here, the read or the scheduler announces what it changed).
 * Backdated completions are silent and pay nothing (docs/features.md, Achievements): no webhook
 * messages, no achievement-trigger points, nothing ranked.
 */
export async function backfillAchievement(ctx: ServiceContext, tenantId: string, achievement: AchievementConfig): Promise<number> {
  if (achievement.status !== "active" || achievement.trigger === "api") return 0;
  const engine = await loadEngineConfig(ctx, tenantId);
  let completed = 0;
  const { users, tenantUsers } = ctx.database.collections;
  for (const userId of await userIdsOfTenant(tenantUsers, users, ctx.userLocks, tenantId)) {
    completed += await changeUserState(ctx, tenantId, userId, async (stored, now) => {
      // The control group earns nothing, backdated achievements included.
      if (!stored || stored.state.control || stored.state.achievements[achievement.id]) return { write: null, result: 0 };
      const streakLength = currentStreakView(stored.state, engine.streak, now)?.length;
      const result = completeAchievements(stored.state, engine.achievements, { backfill: true, streakLength }, now, randomUUID);
      if (result.completed.length === 0) return { write: null, result: 0 };
      const applied = await applyUserChange(ctx, tenantId, engine, { state: result.state, events: {}, contribution: {}, at: now });
      return { write: applied.state, result: result.completed.length };
    });
  }
  return completed;
}
