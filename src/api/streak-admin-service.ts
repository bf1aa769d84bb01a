import { create } from "@bufbuild/protobuf";
import type { StreakEvaluationMode, StreakFrequency, StreakSettings } from "../domain/streak-config.js";
import * as pb from "../gen/gamification/v1/streak_admin_service_pb.js";
import { StreakFrequency as ProtoFrequency } from "../gen/gamification/v1/streak_pb.js";
import { getStreakSettings, putStreakSettings } from "../pipeline/admin-streaks.js";
import type { ServiceContext } from "../pipeline/context.js";
import { enumMapping } from "./enum-mapping.js";
import type { CallScope, ScopedMethod } from "./guard.js";
import { setRestStatus } from "./rest-status.js";
import { created, deleted } from "./admin-service.js";
import { issueToProto } from "./convert.js";
import { createStreakPauses, deleteStreakPauses, grantStreakFreezes, restoreStreaks } from "../pipeline/streak-admin.js";

const frequencies = enumMapping<StreakFrequency, ProtoFrequency>([
  ["daily", ProtoFrequency.DAILY],
  ["weekly", ProtoFrequency.WEEKLY],
  ["monthly", ProtoFrequency.MONTHLY],
]);
const modes = enumMapping<StreakEvaluationMode, pb.StreakEvaluationMode>([
  ["all", pb.StreakEvaluationMode.ALL],
  ["any", pb.StreakEvaluationMode.ANY],
]);

export function streakSettingsToProto(s: StreakSettings): pb.StreakSettings {
  return create(pb.StreakSettingsSchema, {
    frequency: frequencies.toProto(s.frequency),
    metrics: s.metrics.map((m) => create(pb.StreakMetricSchema, m)),
    evaluationMode: modes.toProto(s.evaluationMode),
    freezes: s.freezes
      ? create(pb.StreakFreezeSettingsSchema, {
          initialGrant: s.freezes.initialGrant,
          maxFreezes: s.freezes.maxFreezes,
          autoEarn: s.freezes.autoEarn ? create(pb.StreakFreezeAutoEarnSchema, s.freezes.autoEarn) : undefined,
        })
      : undefined,
  });
}

/** StreakAdminService; the guard has checked the admin key, the request rules and the tenant. */
export function createStreakAdminMethods(services: ServiceContext): Record<string, ScopedMethod> {
  return {
    async createStreakFreezes(req: pb.CreateStreakFreezesRequest, scope: CallScope) {
      const result = await grantStreakFreezes(services, scope.tenantId, req.freezes.map((f) => f.userId));
      if (result.issues.length === 0) setRestStatus(scope.ctx, 201);
      return { issues: result.issues.map(issueToProto) };
    },
    async createStreakPauses(req: pb.CreateStreakPausesRequest, scope: CallScope) {
      const result = await createStreakPauses(services, scope.tenantId, req.pauses);
      return created(scope, result, (p) => create(pb.AdminStreakPauseSchema, { ...p, status: "active" }));
    },
    async deleteStreakPauses(req: pb.DeleteStreakPausesRequest, scope: CallScope) {
      return deleted(await deleteStreakPauses(services, scope.tenantId, req.ids));
    },
    async restoreStreaks(req: pb.RestoreStreaksRequest, scope: CallScope) {
      const result = await restoreStreaks(services, scope.tenantId, req.users.map((u) => u.id));
      if (result.done.length > 0) setRestStatus(scope.ctx, 201);
      return { restoredUsers: result.done, issues: result.issues.map(issueToProto) };
    },
    async getStreakSettings(_req: pb.GetStreakSettingsRequest, scope: CallScope) {
      return { settings: streakSettingsToProto(await getStreakSettings(services, scope.tenantId)) };
    },
    async updateStreakSettings(req: pb.UpdateStreakSettingsRequest, scope: CallScope) {
      // `settings` is required by the proto rules.
      const s = req.settings!;
      const result = await putStreakSettings(services, scope.tenantId, {
        frequency: frequencies.fromProto(s.frequency),
        metrics: s.metrics.map((m) => ({ metricId: m.metricId, threshold: m.threshold })),
        evaluationMode: modes.fromProto(s.evaluationMode),
        freezes: s.freezes
          ? {
              initialGrant: s.freezes.initialGrant,
              maxFreezes: s.freezes.maxFreezes,
              autoEarn: s.freezes.autoEarn ? { amount: s.freezes.autoEarn.amount, intervalDays: s.freezes.autoEarn.intervalDays } : null,
            }
          : null,
      });
      if (result.created) setRestStatus(scope.ctx, 201);
      return { settings: streakSettingsToProto(result.settings) };
    },
  };
}
