import type { JsonValue } from "@bufbuild/protobuf";
import type { AccountSettings, AggregationPeriod, FontFamily, SettingsUpdate } from "../domain/settings.js";
import * as pb from "../../../gen/gamification/v1/settings_admin_service_pb.js";
import type { ServiceContext } from "../../../engine/context.js";
import { getAccountSettings, listEnvironments, updateAccountSettings } from "../account-settings.js";
import { enumMapping } from "../../../transport/enum-mapping.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import { readNullable } from "../../../transport/nullable-value.js";

const periods = enumMapping<AggregationPeriod, pb.AggregationPeriod>({
  weekly: pb.AggregationPeriod.WEEKLY,
  monthly: pb.AggregationPeriod.MONTHLY,
});

function settingsToProto(s: AccountSettings) {
  return {
    branding: { ...s.branding, logo: s.branding.logo ?? undefined, appIcon: s.branding.appIcon ?? undefined },
    experimentation: s.experimentation,
    aggregationPeriod: periods.toProto(s.aggregationPeriod),
  };
}

/** `{"url": "..."}` and nothing else. */
const asImage = (json: JsonValue): { url: string } | undefined =>
  typeof json === "object" && json !== null && !Array.isArray(json) && Object.keys(json).length === 1 && typeof json.url === "string"
    ? { url: json.url }
    : undefined;

function updateFromProto(req: pb.UpdateSettingsRequest): SettingsUpdate {
  const b = req.branding;
  const e = req.experimentation;
  return {
    branding: b && {
      appName: b.appName,
      appUrl: b.appUrl,
      brandColor: b.brandColor,
      font: b.font as FontFamily | undefined,
      logo: readNullable(b.logo, "branding.logo", 'an object {"url": "..."}', asImage),
      appIcon: readNullable(b.appIcon, "branding.appIcon", 'an object {"url": "..."}', asImage),
    },
    experimentation: e && { controlRatio: e.controlRatio, userActivationWindow: e.userActivationWindow },
    aggregationPeriod: req.aggregationPeriod === undefined ? undefined : periods.fromProto(req.aggregationPeriod),
  };
}

/** SettingsAdminService; the guard has checked the admin key, the request rules and the tenant. */
export function createSettingsAdminMethods(services: ServiceContext): ScopedService<typeof pb.SettingsAdminService> {
  return {
    async getSettings(_req: pb.GetSettingsRequest, scope: CallScope) {
      return { settings: settingsToProto(await getAccountSettings(services, scope.tenantId)) };
    },
    async updateSettings(req: pb.UpdateSettingsRequest, scope: CallScope) {
      return { settings: settingsToProto(await updateAccountSettings(services, scope.tenantId, updateFromProto(req))) };
    },
    async listEnvironments() {
      return { environments: listEnvironments(services) };
    },
  };
}
