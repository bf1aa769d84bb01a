import { create, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { DomainError } from "../../../engine/domain/errors.js";
import type { BulkIssue } from "../../../engine/domain/bulk.js";
import type * as pb from "../../../gen/gamification/v1/privacy_admin_service_pb.js";
import type { PrivacyAdminService } from "../../../gen/gamification/v1/privacy_admin_service_pb.js";
import * as appPb from "../../../gen/gamification/v1/application_service_pb.js";
import * as leaderboardPb from "../../../gen/gamification/v1/leaderboard_service_pb.js";
import * as pointsPb from "../../../gen/gamification/v1/points_service_pb.js";
import type { ServiceContext } from "../../../engine/context.js";
import { eraseUser } from "../erase-user.js";
import { asJson, readStoredUserData } from "../export-user.js";
import { createApplicationMethods } from "../../users/api/application-service.js";
import { issueToProto } from "../../../transport/convert.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import { createLeaderboardMethods } from "../../leaderboards/api/leaderboard-service.js";
import { createPointsMethods } from "../../points/api/points-service.js";
import { boostToProto } from "../../points/api/points-convert.js";

type Init<T extends DescMessage> = MessageInitShape<T>;

/** The most a read returns of what it lists (awards, history): an export asks for all it keeps. */
const ALL_KEPT = 100;

/**
 * PrivacyAdminService (docs/privacy.md); the guard has checked the admin key, the request rules and
 * the tenant. The export answers each part with the Application API's own read, so it shows
 * exactly what the reads show.
 */
export function createPrivacyAdminMethods(services: ServiceContext): ScopedService<typeof PrivacyAdminService> {
  const app = createApplicationMethods(services);
  const points = createPointsMethods(services);
  const leaderboards = createLeaderboardMethods(services);
  return {
    async eraseUser(req: pb.EraseUserRequest, scope: CallScope): Promise<MessageInitShape<typeof pb.EraseUserResponseSchema>> {
      const { erased } = await eraseUser(services, scope.tenantId, req.id);
      return { id: req.id, erased };
    },

    async eraseUsers(req: pb.EraseUsersRequest, scope: CallScope): Promise<MessageInitShape<typeof pb.EraseUsersResponseSchema>> {
      const deleted: Array<{ id: string }> = [];
      const issues: BulkIssue[] = [];
      // One at a time: each erasure may rewrite whole rankings.
      for (const id of new Set(req.ids)) {
        try {
          if ((await eraseUser(services, scope.tenantId, id)).erased) deleted.push({ id });
          else issues.push({ userId: id, severity: "warning", message: `User "${id}" not found: nothing to erase` });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          issues.push({ userId: id, severity: "error", message: error.message });
        }
      }
      return { deleted, issues: issues.map(issueToProto) };
    },

    async exportUser(req: pb.ExportUserRequest, scope: CallScope): Promise<MessageInitShape<typeof pb.ExportUserResponseSchema>> {
      const id = req.id;
      const stored = await readStoredUserData(services, scope.tenantId, id);
      const [user, metrics, achievements, streak, preferences, pointsReads, boardReads] = (await Promise.all([
        app.getUser(create(appPb.GetUserRequestSchema, { id }), scope),
        app.listUserMetrics(create(appPb.ListUserMetricsRequestSchema, { id }), scope),
        app.listUserAchievements(create(appPb.ListUserAchievementsRequestSchema, { id, includeIncomplete: false }), scope),
        app.getUserStreak(create(appPb.GetUserStreakRequestSchema, { id, historyPeriods: ALL_KEPT }), scope),
        app.getUserPreferences(create(appPb.GetUserPreferencesRequestSchema, { id }), scope),
        readEach(stored.pointsSystemKeys, (key) => points.getUserPoints(create(pointsPb.GetUserPointsRequestSchema, { id, key, awards: ALL_KEPT }), scope)),
        readEach(stored.leaderboardKeys, (key) =>
          leaderboards.getUserLeaderboard(create(leaderboardPb.GetUserLeaderboardRequestSchema, { id, key, numEvents: ALL_KEPT }), scope),
        ),
      ])) as [
        Init<typeof appPb.GetUserResponseSchema>,
        Init<typeof appPb.ListUserMetricsResponseSchema>,
        Init<typeof appPb.ListUserAchievementsResponseSchema>,
        Init<typeof appPb.GetUserStreakResponseSchema>,
        Init<typeof appPb.GetUserPreferencesResponseSchema>,
        Array<Init<typeof pointsPb.GetUserPointsResponseSchema>>,
        Array<Init<typeof leaderboardPb.GetUserLeaderboardResponseSchema>>,
      ];
      return {
        user: user.user,
        metrics: metrics.metrics,
        achievements: achievements.achievements,
        streak: streak.streak,
        preferences: preferences.preferences,
        points: pointsReads.flatMap((r) => (r.points ? [r.points] : [])),
        leaderboards: boardReads.flatMap((r) => (r.leaderboard ? [r.leaderboard] : [])),
        state: asJson(stored.state),
        idempotencyRecords: stored.idempotencyRecords,
        webhookDeliveries: stored.webhookDeliveries,
        boosts: stored.boosts.map((b) => ({ pointsSystemId: b.systemId, pointsSystemKey: b.systemKey, boost: boostToProto(b.boost, services.now()) })),
      };
    },
  };
}

/**
 * The read of each key, in order, leaving out keys the read does not find (a leaderboard the
 * Application API does not show, e.g. inactive): the stored state holds their data still.
 */
async function readEach(keys: readonly string[], read: (key: string) => Promise<unknown>): Promise<unknown[]> {
  const reads = await Promise.all(
    keys.map((key) =>
      read(key).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === "not_found") return null;
        throw error;
      }),
    ),
  );
  return reads.filter((r) => r !== null);
}
