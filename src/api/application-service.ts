import { timestampDate } from "@bufbuild/protobuf/wkt";
import { decimalToNumber } from "../domain/decimal.js";
import type * as app from "../gen/gamification/v1/application_service_pb.js";
import type { ServiceContext } from "../pipeline/context.js";
import { recordEvent } from "../pipeline/record-event.js";
import type { MetricConfig } from "../domain/metric.js";
import type { UserState } from "../domain/user.js";
import { metricSpec } from "../pipeline/admin-metrics.js";
import { listResources } from "../pipeline/admin-resources.js";
import { findMetricByKeyOrFail, readUser, summarizeUserMetric, writeUser } from "../pipeline/users.js";
import { userToProto, userUpsertFromProto } from "./convert.js";
import { DomainError } from "../domain/errors.js";
import type { CallScope, ScopedMethod } from "./guard.js";
import { setRestStatus } from "./rest-status.js";

/** The Application API methods; authentication, validation and tenant scope are done by the guard. */
export function createApplicationMethods(services: ServiceContext): Record<string, ScopedMethod> {
  return {
    async trackMetricEvent(req: app.TrackMetricEventRequest, scope: CallScope): Promise<Partial<app.TrackMetricEventResponse>> {
      checkUserScope(scope, req.user!.id);
      if (req.timestamp && scope.caller.kind !== "admin") {
        throw new DomainError("permission_denied", "Only admin keys may set an event timestamp");
      }
      const idempotencyKey = req.idempotencyKey || scope.ctx.requestHeader.get("idempotency-key") || undefined;
      const result = await recordEvent(services, scope.tenantId, {
        metricKey: req.key,
        user: userUpsertFromProto(req.user!.id, req.user),
        value: req.value!,
        attributes: req.attributes,
        timestamp: req.timestamp ? timestampDate(req.timestamp) : undefined,
        idempotencyKey,
      });
      setRestStatus(scope.ctx, result.kind === "replayed" ? 202 : 201);
      const { outcome } = result;
      return {
        metricId: outcome.metricId,
        eventId: outcome.eventId,
        total: decimalToNumber(outcome.total),
        achievements: [],
        points: {},
        leaderboards: {},
        ...(idempotencyKey !== undefined && { idempotencyKey, idempotentReplayed: result.kind === "replayed" }),
      };
    },

    async getUser(req: app.GetUserRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      return { user: userToProto(await readUser(services, scope.tenantId, req.id)) };
    },
    async createUser(req: app.CreateUserRequest, scope: CallScope) {
      checkUserScope(scope, req.user!.id);
      const user = await writeUser(services, scope.tenantId, "create", userUpsertFromProto(req.user!.id, req.user));
      setRestStatus(scope.ctx, 201);
      return { user: userToProto(user) };
    },
    async identifyUser(req: app.IdentifyUserRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      return { user: userToProto(await writeUser(services, scope.tenantId, "identify", userUpsertFromProto(req.id, req.user))) };
    },
    async updateUser(req: app.UpdateUserRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      return { user: userToProto(await writeUser(services, scope.tenantId, "update", userUpsertFromProto(req.id, req.user))) };
    },
    async listUserMetrics(req: app.ListUserMetricsRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const [user, metrics] = await Promise.all([
        readUser(services, scope.tenantId, req.id),
        listResources(metricSpec, services, { tenantId: scope.tenantId }, { limit: 1000, skip: 0 }),
      ]);
      return { metrics: metrics.map((m) => userMetricToProto(m, user)) };
    },
    async getUserMetric(req: app.GetUserMetricRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const [user, metric] = await Promise.all([readUser(services, scope.tenantId, req.id), findMetricByKeyOrFail(services, scope.tenantId, req.key)]);
      return { metric: userMetricToProto(metric, user) };
    },
    async getUserMetricEventSummary(req: app.GetUserMetricEventSummaryRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const aggregation = (["daily", "weekly", "monthly"] as const)[req.aggregation - 1]!;
      const periods = await summarizeUserMetric(services, scope.tenantId, req.id, req.key, aggregation, { start: req.startDate, end: req.endDate });
      return { periods: periods.map((p) => ({ date: p.date, total: decimalToNumber(p.total), change: decimalToNumber(p.change) })) };
    },
  };
}

/** Application keys act for one user only. */
function checkUserScope(scope: CallScope, userId: string): void {
  if (scope.caller.userId !== null && scope.caller.userId !== userId) {
    throw new DomainError("permission_denied", "This API key may only act for its own user");
  }
}

/** A user's progress on a metric. Achievements of the metric join here once achievements exist. */
function userMetricToProto(metric: MetricConfig, user: UserState) {
  return { id: metric.id, key: metric.key, name: metric.name, current: decimalToNumber(user.metrics[metric.id]?.total ?? "0"), achievements: [] };
}
