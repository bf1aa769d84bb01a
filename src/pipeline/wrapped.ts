import type { AchievementView } from "./achievements.js";
import { localDate } from "../domain/history.js";
import type { RankedLeaderboard } from "../domain/leaderboard-entries.js";
import type { MetricConfig } from "../domain/metric.js";
import type { PointsSystemConfig } from "../domain/points-config.js";
import { catchUpStreak, STREAK_HISTORY_LIMIT, streakHistory, zoneAt } from "../domain/streak.js";
import type { UserState } from "../domain/user.js";
import { computeWrapped, wrappedYear, type Wrapped, type WrappedInput } from "../domain/wrapped.js";
import { listUserAchievements } from "./achievements.js";
import type { ServiceContext } from "./context.js";
import { readUser } from "./users.js";

export interface WrappedRead {
  user: UserState;
  year: number;
  wrapped: Wrapped<AchievementView, RankedLeaderboard>;
  metrics: ReadonlyMap<string, MetricConfig>;
  pointsSystems: ReadonlyMap<string, PointsSystemConfig>;
}

/** The local date of an instant in the zone the user was in then (their current zone before any recorded move). */
function localDateAt(user: UserState, at: Date): string {
  const recorded = user.tzHistory.some((c) => c.from.getTime() <= at.getTime());
  return localDate(at, recorded ? zoneAt(user.tzHistory, at) : user.tz);
}

/**
 * A user's year in review (src/domain/wrapped.ts has the rules): read from the user document and
 * the tenant's configuration, nothing written. The year defaults to the current year in the
 * user's zone; unknown users are 404, unsupported years 400.
 */
export async function readUserWrapped(ctx: ServiceContext, tenantId: string, userId: string, requestedYear: number | undefined): Promise<WrappedRead> {
  const user = await readUser(ctx, tenantId, userId);
  const now = ctx.now();
  const year = wrappedYear(requestedYear, localDate(now, user.tz));
  const [metrics, points, achievements, leaderboards, streakSettings] = await Promise.all([
    ctx.config.metrics(tenantId),
    ctx.config.pointsConfig(tenantId),
    listUserAchievements(ctx, tenantId, userId, false),
    ctx.config.leaderboards(tenantId),
    ctx.config.streakSettings(tenantId),
  ]);
  const systems = points.systems.map((s) => s.system);
  let streak: WrappedInput<AchievementView, RankedLeaderboard>["streak"] = null;
  if (streakSettings && user.streak) {
    const caught = catchUpStreak(user.streak, streakSettings, user.tzHistory, now).state;
    streak = { frequency: caught.frequency, periods: streakHistory(caught, STREAK_HISTORY_LIMIT + 1), currentStarted: caught.started };
  }
  const wrapped = computeWrapped<AchievementView, RankedLeaderboard>({
    year,
    activity: user.activity,
    metrics: metrics.filter((m) => user.metrics[m.id]).map((m) => ({ key: m.key, total: user.metrics[m.id]!.total, daily: user.metrics[m.id]!.daily })),
    points: systems.filter((s) => user.points[s.id]).map((s) => ({ key: s.key, total: String(user.points[s.id]!.total), daily: user.points[s.id]!.daily })),
    achievements: achievements.map((view) => ({ item: view, date: localDateAt(user, view.completion!.achievedAt) })),
    leaderboards: leaderboards
      .filter((l) => l.config.status !== "inactive" && user.leaderboards[l.config.id])
      .map((l) => ({ key: l.config.key, leaderboard: l, history: user.leaderboards[l.config.id]!.history })),
    streak,
    streakFrequency: streakSettings?.frequency ?? null,
  });
  return {
    user,
    year,
    wrapped,
    metrics: new Map(metrics.map((m) => [m.key, m])),
    pointsSystems: new Map(systems.map((s) => [s.key, s])),
  };
}
