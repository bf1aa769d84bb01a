import { isOptedOutOfLeaderboards } from "../users/domain/preferences.js";
import { longestStreak } from "./domain/streak.js";
import type { UserState } from "../../engine/domain/user.js";
import type { ServiceContext } from "../../engine/context.js";
import { rankingScope, rankingsOf } from "../leaderboards/ranking-updates.js";
import { rankedUsers } from "../leaderboards/leaderboard-reads.js";

/**
 * The tenant's streak rankings (GET /v1/streaks/rankings): two keyed rankings in the leaderboard
 * ranking store (features/leaderboards/store/leaderboard-rankings.ts), one of active streak lengths and one of the
 * longest lengths ever reached, each under a reserved leaderboard ID that no leaderboard can have
 * (leaderboard IDs are UUIDs). Every change of a user's streak goes through `applyUserChange`,
 * which calls `rankStreak`: so the rankings follow every event, read, scheduler catch-up and admin
 * call, and a page of the top users reads a handful of documents by `_id`, never the users.
 */
export type StreakRankingType = "active" | "longest";

const scopeOf = (tenantId: string, type: StreakRankingType) => rankingScope(tenantId, `streaks:${type}`, "", "");

/** The tenant's two streak rankings (an erasure looks in both). */
export function streakRankingScopes(tenantId: string): ReturnType<typeof rankingScope>[] {
  return (["active", "longest"] as const).map((type) => scopeOf(tenantId, type));
}

/**
 * Writes the user's streak lengths to the rankings when they moved since last written (the values
 * written are kept in the state, written with the change). An active length of 0 leaves the
 * active ranking; the longest ranking keeps everyone who ever had a streak. Runs before the user
 * write (as leaderboard rankings do): the values are absolute, so a retried decision writes the
 * same values again.
 */
export async function rankStreak(ctx: ServiceContext, tenantId: string, state: UserState, at: Date): Promise<UserState> {
  const active = state.streak?.length ?? 0;
  const longest = state.streak ? longestStreak(state.streak) : 0;
  const before = state.streakRanks ?? { active: 0, longest: 0 };
  // Opted out: off both rankings (left when opting out, `streakRanks` zero); they return on opting in.
  if (isOptedOutOfLeaderboards(state.preferences) || (before.active === active && before.longest === longest)) return state;
  const rankings = rankingsOf(ctx);
  await Promise.all([
    before.active === active
      ? null
      : active === 0
        ? rankings.removeEntry(scopeOf(tenantId, "active"), state.userId)
        : rankings.upsertEntry(scopeOf(tenantId, "active"), state.userId, active, at),
    before.longest === longest || longest === 0 ? null : rankings.upsertEntry(scopeOf(tenantId, "longest"), state.userId, longest, at),
  ]);
  return { ...state, streakRanks: { active, longest } };
}

/**
 * The top `limit` users by active or longest streak, longest first (ties: who reached the length
 * first), with their names: one page of the ranking and one read by `_id` per user listed.
 */
export async function listStreakRankings(ctx: ServiceContext, tenantId: string, type: StreakRankingType, limit: number) {
  const page = await rankingsOf(ctx).page(scopeOf(tenantId, type), 0, limit);
  const users = await rankedUsers(
    ctx,
    tenantId,
    page.entries.map((e) => e.userId),
  );
  return users.visible(page.entries).map((entry) => ({ userId: entry.userId, name: users.names.get(entry.userId) ?? null, streakLength: Number(entry.value) }));
}

/** Takes the user off both streak rankings (opting out of leaderboards); the state then records nothing written. */
export async function leaveStreakRankings(ctx: ServiceContext, tenantId: string, state: UserState): Promise<UserState> {
  const rankings = rankingsOf(ctx);
  await Promise.all([rankings.removeEntry(scopeOf(tenantId, "active"), state.userId), rankings.removeEntry(scopeOf(tenantId, "longest"), state.userId)]);
  return { ...state, streakRanks: { active: 0, longest: 0 } };
}
