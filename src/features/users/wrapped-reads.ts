import type { RankedLeaderboard } from "../leaderboards/domain/leaderboard-entries.js";
import type { MetricConfig } from "../metrics/domain/metric.js";
import type { PointsSystemConfig } from "../points/domain/points-config.js";
import type { UserState } from "../../engine/domain/user.js";
import { wrappedOfUser, type Wrapped } from "./domain/wrapped.js";
import { listUserAchievements, type AchievementView } from "../achievements/achievement-reads.js";
import type { ServiceContext } from "../../engine/context.js";
import { readWholeUser } from "../../engine/user-access.js";

export interface WrappedRead {
  user: UserState;
  year: number;
  wrapped: Wrapped<AchievementView, RankedLeaderboard>;
  /** By key. */
  metrics: ReadonlyMap<string, MetricConfig>;
  /** By key. */
  pointsSystems: ReadonlyMap<string, PointsSystemConfig>;
}

/**
 * A user's year in review (src/features/users/domain/wrapped.ts has the rules): read from the user document and
 * the tenant's configuration, nothing written. Unknown users are 404, unsupported years 400.
 */
export async function readUserWrapped(ctx: ServiceContext, tenantId: string, userId: string, requestedYear: number | undefined): Promise<WrappedRead> {
  const user = await readWholeUser(ctx, tenantId, userId);
  const [metrics, points, achievements, leaderboards, streak] = await Promise.all([
    ctx.config.metrics(tenantId),
    ctx.config.pointsConfig(tenantId),
    listUserAchievements(ctx, tenantId, userId, false),
    ctx.config.leaderboards(tenantId),
    ctx.config.streakSettings(tenantId),
  ]);
  const pointsSystems = points.systems.map((s) => s.system);
  const { year, wrapped } = wrappedOfUser(
    user,
    { metrics, pointsSystems, achievements: achievements.map((view) => ({ item: view, achievedAt: view.completion!.achievedAt })), leaderboards, streak },
    requestedYear,
    ctx.now(),
  );
  return { user, year, wrapped, metrics: new Map(metrics.map((m) => [m.key, m])), pointsSystems: new Map(pointsSystems.map((s) => [s.key, s])) };
}
