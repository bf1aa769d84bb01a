import { create } from "@bufbuild/protobuf";
import type { StreakEvaluationMode, StreakSettings } from "../domain/streak-config.js";
import * as pb from "../../../gen/gamification/v1/streak_admin_service_pb.js";
import { getStreakSettings, patchStreakSettingsOf, putStreakSettings } from "../streak-settings.js";
import type { ServiceContext } from "../../../engine/context.js";
import { enumMapping, streakFrequencies } from "../../../transport/enum-mapping.js";
import { toJson } from "@bufbuild/protobuf";
import { ValueSchema, type ListValue, type Value } from "@bufbuild/protobuf/wkt";
import { invalidArgument } from "../../../engine/domain/errors.js";
import type { StreakFreezeSettings } from "../domain/streak-config.js";
import { readNullable } from "../../../transport/nullable-value.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import { setRestStatus } from "../../../transport/rest-status.js";
import { created, deleted } from "../../../transport/admin-answers.js";
import { issueToProto } from "../../../transport/convert.js";
import { createStreakPauses, deleteStreakPauses, grantStreakFreezes, resetStreaks, restoreStreaks } from "../streak-user-actions.js";

const modes = enumMapping<StreakEvaluationMode, pb.StreakEvaluationMode>({
  all: pb.StreakEvaluationMode.ALL,
  any: pb.StreakEvaluationMode.ANY,
});

/**
 * The settings in both forms: ours (`metricId`, `initialGrant`/`maxFreezes`/`autoEarn`) and the
 * published clients' (`key`, `startCount`/`maxCount`/`autoEarnInterval`/`autoEarnAmount`,
 * `customizationEnabled`, `daysOff`). `keys`: metric keys by ID.
 */
export function streakSettingsToProto(s: StreakSettings, keys: ReadonlyMap<string, string> = new Map()): pb.StreakSettings {
  return create(pb.StreakSettingsSchema, {
    frequency: streakFrequencies.toProto(s.frequency),
    metrics: s.metrics.map((m) => create(pb.StreakMetricSchema, { metricId: m.metricId, threshold: m.threshold, key: keys.get(m.metricId) ?? "" })),
    evaluationMode: modes.toProto(s.evaluationMode),
    freezes: s.freezes
      ? create(pb.StreakFreezeSettingsSchema, {
          initialGrant: s.freezes.initialGrant,
          maxFreezes: s.freezes.maxFreezes,
          autoEarn: s.freezes.autoEarn ? create(pb.StreakFreezeAutoEarnSchema, s.freezes.autoEarn) : undefined,
          startCount: s.freezes.initialGrant,
          maxCount: s.freezes.maxFreezes,
          autoEarnInterval: s.freezes.autoEarn?.intervalDays,
          autoEarnAmount: s.freezes.autoEarn?.amount,
        })
      : undefined,
    customizationEnabled: s.customizationEnabled ?? false,
    daysOff: s.daysOff ?? [],
  });
}

async function metricKeys(services: ServiceContext, tenantId: string): Promise<Map<string, string>> {
  return new Map((await services.config.metrics(tenantId)).map((m) => [m.id, m.key]));
}

/** `freezes` of a PATCH: `{startCount, maxCount, autoEarnInterval?, autoEarnAmount?}` (the pair both or neither), or null. */
function freezesOfPatch(value: Value | undefined): StreakFreezeSettings | null | undefined {
  const expected = "an object {startCount, maxCount, autoEarnInterval?, autoEarnAmount?} of whole numbers";
  return readNullable(value, "freezes", expected, (json) => {
    if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
    const fields = ["startCount", "maxCount", "autoEarnInterval", "autoEarnAmount"];
    const unknown = Object.keys(json).find((k) => !fields.includes(k));
    if (unknown) throw invalidArgument(`Invalid request: freezes.${unknown} is not a field of freezes (${fields.join(", ")})`);
    const whole = (name: string, required: boolean): number | null => {
      const v = json[name];
      if (v === undefined || v === null) {
        if (required) throw invalidArgument(`Invalid request: freezes.${name} is required`);
        return null;
      }
      if (typeof v !== "number" || !Number.isInteger(v))
        throw invalidArgument(`Invalid request: freezes.${name} must be a whole number, got ${JSON.stringify(v)}`);
      return v;
    };
    const [startCount, maxCount, interval, amount] = [
      whole("startCount", true)!,
      whole("maxCount", true)!,
      whole("autoEarnInterval", false),
      whole("autoEarnAmount", false),
    ];
    if ((interval === null) !== (amount === null))
      throw invalidArgument("Invalid request: freezes.autoEarnInterval and freezes.autoEarnAmount are a pair: give both or neither");
    return { initialGrant: startCount, maxFreezes: maxCount, autoEarn: interval !== null && amount !== null ? { amount, intervalDays: interval } : null };
  });
}

/** A JSON array of whole numbers (weekdays), or undefined when not sent. */
export function daysOffOf(list: ListValue | undefined, path: string): number[] | undefined {
  if (list === undefined) return undefined;
  const json = list.values.map((value) => toJson(ValueSchema, value));
  return json.map((day, i) => {
    if (typeof day !== "number" || !Number.isInteger(day))
      throw invalidArgument(`Invalid request: ${path}[${i}] must be a weekday from 0 (Sunday) to 6 (Saturday), got ${JSON.stringify(day)}`);
    return day;
  });
}

/** `AND`/`OR` (the clients' names) as ours. */
export const clientModes: Record<string, StreakEvaluationMode> = { AND: "all", OR: "any" };

/** StreakAdminService; the guard has checked the admin key, the request rules and the tenant. */
export function createStreakAdminMethods(services: ServiceContext): ScopedService<typeof pb.StreakAdminService> {
  return {
    async createStreakFreezes(req: pb.CreateStreakFreezesRequest, scope: CallScope) {
      const result = await grantStreakFreezes(
        services,
        scope.tenantId,
        req.freezes.map((f) => f.userId),
      );
      // As in the reference: 201 when at least one freeze was granted, 200 when none was.
      if (result.done.length > 0) setRestStatus(scope.ctx, 201);
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
      const result = await restoreStreaks(
        services,
        scope.tenantId,
        req.users.map((u) => u.id),
      );
      if (result.done.length > 0) setRestStatus(scope.ctx, 201);
      return { restoredUsers: result.done, issues: result.issues.map(issueToProto) };
    },
    async getStreakSettings(_req: pb.GetStreakSettingsRequest, scope: CallScope) {
      const [settings, keys] = await Promise.all([getStreakSettings(services, scope.tenantId), metricKeys(services, scope.tenantId)]);
      return { settings: streakSettingsToProto(settings, keys) };
    },
    async patchStreakSettings(req: pb.PatchStreakSettingsRequest, scope: CallScope) {
      const metrics = await services.config.metrics(scope.tenantId);
      const byKey = new Map(metrics.map((m) => [m.key, m.id]));
      const conditions = req.metrics.map((m, i) => {
        const metricId = byKey.get(m.key);
        if (metricId === undefined) throw invalidArgument(`metrics[${i}].key "${m.key}" is not a metric of this tenant`);
        return { metricId, threshold: m.threshold };
      });
      const result = await patchStreakSettingsOf(services, scope.tenantId, {
        frequency: req.frequency === undefined ? undefined : streakFrequencies.fromProto(req.frequency),
        evaluationMode: req.evaluationMode === undefined ? undefined : (clientModes[req.evaluationMode] ?? (req.evaluationMode as StreakEvaluationMode)),
        customizationEnabled: req.customizationEnabled,
        daysOff: daysOffOf(req.daysOff, "daysOff"),
        metrics: conditions.length > 0 ? conditions : undefined,
        freezes: freezesOfPatch(req.freezes),
      });
      if (result.created) setRestStatus(scope.ctx, 201);
      return { settings: streakSettingsToProto(result.settings, new Map(metrics.map((m) => [m.id, m.key]))) };
    },
    async resetStreaks(req: pb.ResetStreaksRequest, scope: CallScope) {
      const result = await resetStreaks(
        services,
        scope.tenantId,
        req.users.map((u) => u.id),
      );
      if (result.done.length > 0) setRestStatus(scope.ctx, 201);
      return { resetUsers: result.done, issues: result.issues.map(issueToProto) };
    },
    async updateStreakSettings(req: pb.UpdateStreakSettingsRequest, scope: CallScope) {
      // `settings` is required by the proto rules.
      const s = req.settings!;
      const result = await putStreakSettings(services, scope.tenantId, {
        frequency: streakFrequencies.fromProto(s.frequency),
        metrics: s.metrics.map((m) => ({ metricId: m.metricId, threshold: m.threshold })),
        evaluationMode: modes.fromProto(s.evaluationMode),
        freezes: s.freezes
          ? {
              initialGrant: s.freezes.initialGrant,
              maxFreezes: s.freezes.maxFreezes,
              autoEarn: s.freezes.autoEarn ? { amount: s.freezes.autoEarn.amount, intervalDays: s.freezes.autoEarn.intervalDays } : null,
            }
          : null,
        customizationEnabled: s.customizationEnabled,
        daysOff: s.daysOff,
      });
      if (result.created) setRestStatus(scope.ctx, 201);
      return { settings: streakSettingsToProto(result.settings, await metricKeys(services, scope.tenantId)) };
    },
  };
}
