import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { decimalToNumber } from "../../../engine/domain/decimal.js";
import { levelForTotal, recentAwards, type PointsConfig } from "../domain/points.js";
import { filtersByKey } from "../domain/points-boosts.js";
import type {
  AttributeFilterConfig,
  BoostStatus,
  PointsBoostConfig,
  PointsSystemConfig,
  PointsTriggerConfig,
  TriggerTimeUnit,
} from "../domain/points-config.js";
import * as pointsPb from "../../../gen/gamification/v1/points_pb.js";
import type * as ps from "../../../gen/gamification/v1/points_service_pb.js";
import type { ServiceContext } from "../../../engine/context.js";
import * as reads from "../points-reads.js";
import { checkUserScope } from "../../../transport/guard.js";
import { awardToProto, levelToProto } from "../../../transport/convert.js";
import { boostRoundings, enumMapping, pointsTriggerStatuses, pointsTriggerTypes } from "../../../transport/enum-mapping.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";

/** A configured trigger's time unit (the Admin API's names) as the Application API's enum. */
const triggerTimeUnits = enumMapping<TriggerTimeUnit, pointsPb.TimeUnit>({ hours: pointsPb.TimeUnit.HOUR, days: pointsPb.TimeUnit.DAY });

/** Awards returned by GetUserPoints when `awards` is not given (the reference's default). */
const DEFAULT_AWARDS = 10;

/**
 * The PointsService methods (Application API: application or admin keys). The guard has checked
 * the key, the request rules and the tenant; application keys may read only their own user.
 */
export function createPointsMethods(services: ServiceContext): ScopedService<typeof ps.PointsService> {
  return {
    async getUserPoints(req: ps.GetUserPointsRequest, scope: CallScope): Promise<MessageInitShape<typeof ps.GetUserPointsResponseSchema>> {
      checkUserScope(scope, req.id);
      const awards = req.awards ?? DEFAULT_AWARDS;
      const { snapshot, state } = await reads.readUserPoints(services, scope.tenantId, req.id, req.key, awards);
      const level = levelForTotal(state.total, snapshot.levels);
      return {
        points: {
          ...systemFields(snapshot.system),
          key: snapshot.system.key,
          total: BigInt(state.total),
          level: level ? levelToProto(level) : undefined,
          awards: recentAwards(state, awards).map(awardToProto),
        },
      };
    },
    async getUserPointsEventSummary(
      req: ps.GetUserPointsEventSummaryRequest,
      scope: CallScope,
    ): Promise<MessageInitShape<typeof ps.GetUserPointsEventSummaryResponseSchema>> {
      checkUserScope(scope, req.id);
      const aggregation = (["daily", "weekly", "monthly"] as const)[req.aggregation - 1]!;
      const periods = await reads.summarizeUserPoints(services, scope.tenantId, req.id, req.key, aggregation, { start: req.startDate, end: req.endDate });
      return { periods: periods.map((p) => ({ date: p.date, total: decimalToNumber(p.total), change: decimalToNumber(p.change) })) };
    },
    async listUserPointsBoosts(req: ps.ListUserPointsBoostsRequest, scope: CallScope): Promise<MessageInitShape<typeof ps.ListUserPointsBoostsResponseSchema>> {
      checkUserScope(scope, req.id);
      const boosts = await reads.listUserBoosts(services, scope.tenantId, req.id, req.key);
      return { boosts: boosts.map((b) => boostToProto(b, "active")) };
    },
    async describePointsSystem(req: ps.DescribePointsSystemRequest, scope: CallScope): Promise<MessageInitShape<typeof ps.DescribePointsSystemResponseSchema>> {
      const { snapshot, config } = await reads.findPointsSystem(services, scope.tenantId, req.key);
      return {
        system: {
          ...systemFields(snapshot.system),
          triggers: snapshot.triggers.filter((t) => t.status === "active").map((t) => triggerToProto(t, config)),
        },
      };
    },
    async listGlobalPointsBoosts(
      req: ps.ListGlobalPointsBoostsRequest,
      scope: CallScope,
    ): Promise<MessageInitShape<typeof ps.ListGlobalPointsBoostsResponseSchema>> {
      const boosts = await reads.listGlobalBoosts(services, scope.tenantId, req.key, req.includeFinished);
      return { boosts: boosts.map(({ boost, status }) => boostToProto(boost, status)) };
    },
    async listPointsSystemLevels(
      req: ps.ListPointsSystemLevelsRequest,
      scope: CallScope,
    ): Promise<MessageInitShape<typeof ps.ListPointsSystemLevelsResponseSchema>> {
      const { snapshot } = await reads.findPointsSystem(services, scope.tenantId, req.key);
      return { levels: [...snapshot.levels].sort((a, b) => a.points - b.points).map(levelToProto) };
    },
    async getPointsLevelSummary(
      req: ps.GetPointsLevelSummaryRequest,
      scope: CallScope,
    ): Promise<MessageInitShape<typeof ps.GetPointsLevelSummaryResponseSchema>> {
      const counts = await reads.levelSummary(services, scope.tenantId, req.key);
      return { levels: counts.map(({ level, users }) => ({ level: levelToProto(level), users: BigInt(users) })) };
    },
    async getPointsSummary(req: ps.GetPointsSummaryRequest, scope: CallScope): Promise<MessageInitShape<typeof ps.GetPointsSummaryResponseSchema>> {
      const ranges = await reads.pointsSummary(services, scope.tenantId, req.key, req.userAttributes);
      return { ranges: ranges.map((r) => ({ from: BigInt(r.from), to: BigInt(r.to), users: BigInt(r.users) })) };
    },
  };
}

/** The system fields both shapes share; an empty description reads as null, as in event responses. */
function systemFields(system: PointsSystemConfig) {
  return {
    id: system.id,
    name: system.name,
    description: system.description || undefined,
    badgeUrl: system.badge?.url,
    maxPoints: system.maxPoints === null ? undefined : BigInt(system.maxPoints),
  };
}

/**
 * A configured trigger as the Application API shows it (the reference's PointsTrigger): only the
 * settings of its type, names of what it refers to, and filters by attribute key rather than ID.
 */
function triggerToProto(t: PointsTriggerConfig, config: PointsConfig): pointsPb.PointsTrigger {
  const filters = (list: readonly AttributeFilterConfig[]) => filtersByKey(list, config.attributeKeys);
  return create(pointsPb.PointsTriggerSchema, {
    id: t.id,
    type: pointsTriggerTypes.toProto(t.type),
    points: BigInt(t.points),
    status: pointsTriggerStatuses.toProto(t.status === "active" ? "active" : "inactive"),
    metricId: t.type === "metric" ? t.metricId : undefined,
    metricName: t.type === "metric" && t.metricId !== undefined ? config.metricNames?.[t.metricId] : undefined,
    metricThreshold: t.type === "metric" ? t.metricThreshold : undefined,
    achievementId: t.type === "achievement" ? t.achievementId : undefined,
    achievementName: t.type === "achievement" && t.achievementId !== undefined ? config.achievementNames?.[t.achievementId] : undefined,
    streakLengthThreshold: t.type === "streak" ? t.streakLength : undefined,
    timeUnit: t.type === "time" && t.timeUnit !== undefined ? triggerTimeUnits.toProto(t.timeUnit) : undefined,
    timeInterval: t.type === "time" ? t.timeInterval : undefined,
    userAttributes: filters(t.userAttributes),
    eventAttributes: t.type === "metric" ? filters(t.eventAttributes) : [],
    created: timestampFromDate(t.created),
    updated: timestampFromDate(t.updated),
  });
}

function boostToProto(b: PointsBoostConfig, status: Exclude<BoostStatus, "archived">): pointsPb.PointsBoost {
  return create(pointsPb.PointsBoostSchema, {
    id: b.id,
    name: b.name,
    status,
    start: b.start,
    end: b.end ?? undefined,
    multiplier: b.multiplier,
    rounding: boostRoundings.toProto(b.rounding),
  });
}
