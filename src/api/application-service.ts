import { timestampDate } from "@bufbuild/protobuf/wkt";
import { decimalToNumber } from "../domain/decimal.js";
import { notFound } from "../domain/errors.js";
import type * as app from "../gen/gamification/v1/application_service_pb.js";
import type { ServiceContext } from "../pipeline/context.js";
import { recordEvent } from "../pipeline/record-event.js";
import { findUser } from "../store/users.js";
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
        user: userUpsertFromProto(req.user!),
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

    async getUser(req: app.GetUserRequest, scope: CallScope): Promise<Partial<app.GetUserResponse>> {
      checkUserScope(scope, req.id);
      const found = await findUser(services.database.collections.users, scope.tenantId, req.id);
      if (!found) throw notFound(`User "${req.id}" not found`);
      return { user: userToProto(found.state) };
    },
  };
}

/** Application keys act for one user only. */
function checkUserScope(scope: CallScope, userId: string): void {
  if (scope.caller.userId !== null && scope.caller.userId !== userId) {
    throw new DomainError("permission_denied", "This API key may only act for its own user");
  }
}
