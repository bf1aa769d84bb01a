import { create } from "@bufbuild/protobuf";
import {
  DEFAULT_MAX_PARTICIPANTS,
  type LeaderboardConfig,
  type LeaderboardRankBy,
  type LeaderboardRunUnit,
  type LeaderboardStatus,
} from "../domain/leaderboard-config.js";
import * as pb from "../../../gen/gamification/v1/leaderboard_admin_service_pb.js";
import {
  LeaderboardRankBy as ProtoRankBy,
  LeaderboardRunUnit as ProtoRunUnit,
  LeaderboardStatus as ProtoStatus,
} from "../../../gen/gamification/v1/leaderboard_pb.js";
import { leaderboardSpec } from "../admin-leaderboards.js";
import { statusOf } from "../domain/leaderboard-runs.js";
import { invalidArgument } from "../../../engine/domain/errors.js";
import * as resources from "../../account/admin-resources.js";
import type { ServiceContext } from "../../../engine/context.js";
import { created, deleted, found, pageOf, updated } from "../../../transport/admin-answers.js";
import { enumMapping } from "../../../transport/enum-mapping.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import { asObjectList, asString, asStringList, readNullable } from "../../../transport/nullable-value.js";

export const rankBys = enumMapping<LeaderboardRankBy, ProtoRankBy>({
  metric: ProtoRankBy.METRIC,
  points: ProtoRankBy.POINTS,
  streak: ProtoRankBy.STREAK,
});
export const statuses = enumMapping<LeaderboardStatus, ProtoStatus>({
  inactive: ProtoStatus.INACTIVE,
  scheduled: ProtoStatus.SCHEDULED,
  active: ProtoStatus.ACTIVE,
  finished: ProtoStatus.FINISHED,
});
export const runUnits = enumMapping<LeaderboardRunUnit, ProtoRunUnit>({
  day: ProtoRunUnit.DAY,
  month: ProtoRunUnit.MONTH,
  year: ProtoRunUnit.YEAR,
});

const RUN_UNIT_NAMES: readonly LeaderboardRunUnit[] = ["day", "month", "year"];

/**
 * A leaderboard as the Admin API shows it. The status is the one in force at `now`: a scheduled
 * leaderboard shows `active` once its start has begun, an active one `finished` once its last run
 * is final (src/features/leaderboards/domain/leaderboard-runs.ts `statusOf`); the stored status stays as set.
 */
export function leaderboardToProto(l: LeaderboardConfig, now: Date): pb.AdminLeaderboard {
  return create(pb.AdminLeaderboardSchema, {
    id: l.id,
    name: l.name,
    key: l.key,
    description: l.description ?? undefined,
    status: statuses.toProto(statusOf(l, now)),
    rankBy: rankBys.toProto(l.rankBy),
    metricId: l.metricId ?? undefined,
    pointsSystemId: l.pointsSystemId ?? undefined,
    maxParticipants: l.maxParticipants,
    start: l.start,
    end: l.end ?? undefined,
    startTime: l.startTime ?? undefined,
    endTime: l.endTime ?? undefined,
    breakdownAttributes: l.breakdownAttributes,
    runUnit: l.runUnit === null ? undefined : runUnits.toProto(l.runUnit),
    runInterval: l.runInterval ?? undefined,
    userAttributes: l.userAttributes ?? [],
  });
}

const FILTERS = 'an array of {"attributeId": string, "attributeValue": string}';
const asFilters = asObjectList(["attributeId", "attributeValue"] as const);

/** LeaderboardAdminService; the guard has checked the admin key, the request rules and the tenant. */
export function createLeaderboardAdminMethods(services: ServiceContext): ScopedService<typeof pb.LeaderboardAdminService> {
  const scopeOf = (scope: CallScope) => ({ tenantId: scope.tenantId });
  const toProto = (l: LeaderboardConfig) => leaderboardToProto(l, services.now());
  return {
    async createLeaderboards(req: pb.CreateLeaderboardsRequest, scope: CallScope) {
      const drafts = req.leaderboards.map((l) => ({
        name: l.name,
        key: l.key,
        description: l.description,
        status: statuses.fromProto(l.status),
        rankBy: rankBys.fromProto(l.rankBy),
        metricId: l.metricId,
        pointsSystemId: l.pointsSystemId,
        maxParticipants: l.maxParticipants,
        start: l.start,
        end: l.end,
        startTime: l.startTime,
        endTime: l.endTime,
        breakdownAttributes: l.breakdownAttributes,
        runUnit: runUnits.fromProto(l.runUnit),
        runInterval: l.runInterval,
        userAttributes: l.userAttributes.map(({ attributeId, attributeValue }) => ({ attributeId, attributeValue })),
      }));
      return created(scope, await resources.createResources(leaderboardSpec, services, scopeOf(scope), drafts), toProto);
    },
    async listLeaderboards(req: pb.ListLeaderboardsRequest, scope: CallScope) {
      return { leaderboards: (await resources.listResources(leaderboardSpec, services, scopeOf(scope), pageOf(req))).map(toProto) };
    },
    async getLeaderboard(req: pb.GetLeaderboardRequest, scope: CallScope) {
      const leaderboard = await resources.getResource(leaderboardSpec, services, scopeOf(scope), req.id);
      return { leaderboard: toProto(found(leaderboard, "Leaderboard", req.id)) };
    },
    async updateLeaderboards(req: pb.UpdateLeaderboardsRequest, scope: CallScope) {
      const updates = req.leaderboards.map((l, i) => {
        const path = (field: string) => `leaderboards[${i}].${field}`;
        if (l.resetMaxParticipants && l.maxParticipants !== undefined) {
          throw invalidArgument(`Invalid request: send ${path("maxParticipants")} or ${path("resetMaxParticipants")}, not both`);
        }
        return {
          id: l.id,
          changes: {
            name: l.name,
            key: l.key,
            description: readNullable(l.description, path("description"), "a string", asString),
            status: statuses.fromProto(l.status),
            rankBy: rankBys.fromProto(l.rankBy),
            metricId: l.metricId,
            pointsSystemId: l.pointsSystemId,
            maxParticipants: l.resetMaxParticipants ? DEFAULT_MAX_PARTICIPANTS : l.maxParticipants,
            start: l.start,
            end: readNullable(l.end, path("end"), "a date string (YYYY-MM-DD)", asString),
            startTime: readNullable(l.startTime, path("startTime"), "a time string (HH:mm or HH:mm:ss)", asString),
            endTime: readNullable(l.endTime, path("endTime"), "a time string (HH:mm or HH:mm:ss)", asString),
            breakdownAttributes: readNullable(l.breakdownAttributes, path("breakdownAttributes"), "an array of user attribute IDs", asStringList),
            runUnit: readNullable(l.runUnit, path("runUnit"), '"day", "month" or "year"', (json) => RUN_UNIT_NAMES.find((unit) => unit === json)),
            runInterval: l.runInterval,
            userAttributes: readNullable(l.userAttributes, path("userAttributes"), FILTERS, asFilters),
          },
        };
      });
      return updated(await resources.updateResources(leaderboardSpec, services, scopeOf(scope), updates), toProto);
    },
    async deleteLeaderboards(req: pb.DeleteLeaderboardsRequest, scope: CallScope) {
      return deleted(await resources.deleteResources(leaderboardSpec, services, scopeOf(scope), req.ids));
    },
  };
}
