import { create } from "@bufbuild/protobuf";
import type { AchievementConfig, AchievementStatus, AchievementTrigger, AttributeFilter } from "../domain/achievement-config.js";
import * as pb from "../gen/gamification/v1/achievement_admin_service_pb.js";
import { AchievementTrigger as ProtoTrigger } from "../gen/gamification/v1/achievement_pb.js";
import { AttributeFilterSchema, type AttributeFilter as ProtoAttributeFilter } from "../gen/gamification/v1/common_pb.js";
import { achievementSpec } from "../pipeline/admin-achievements.js";
import * as resources from "../pipeline/admin-resources.js";
import type { ServiceContext } from "../pipeline/context.js";
import { created, deleted, found, pageOf, updated } from "./admin-service.js";
import { enumMapping } from "./enum-mapping.js";
import type { CallScope, ScopedMethod } from "./guard.js";
import { asObjectList, asString, readNullable } from "./nullable-value.js";

const triggers = enumMapping<AchievementTrigger, ProtoTrigger>([
  ["metric", ProtoTrigger.METRIC],
  ["streak", ProtoTrigger.STREAK],
  ["api", ProtoTrigger.API],
  ["achievement", ProtoTrigger.ACHIEVEMENT],
]);
const statuses = enumMapping<AchievementStatus, pb.AchievementStatus>([
  ["active", pb.AchievementStatus.ACTIVE],
  ["inactive", pb.AchievementStatus.INACTIVE],
  ["locked", pb.AchievementStatus.LOCKED],
]);

const filtersFromProto = (filters: ProtoAttributeFilter[]): AttributeFilter[] => filters.map(({ key, value }) => ({ key, value }));
const FILTERS = 'an array of {"key": string, "value": string}';
const asFilters = asObjectList(["key", "value"] as const);

export function achievementToProto(a: AchievementConfig): pb.AdminAchievement {
  return create(pb.AdminAchievementSchema, {
    id: a.id,
    name: a.name,
    key: a.key,
    description: a.description ?? undefined,
    badgeUrl: a.badgeUrl ?? undefined,
    trigger: triggers.toProto(a.trigger),
    status: statuses.toProto(a.status),
    metricId: a.metricId ?? undefined,
    metricValue: a.metricValue ?? undefined,
    streakLength: a.streakLength ?? undefined,
    achievementIds: a.achievementIds,
    userAttributes: a.userAttributes.map((f) => create(AttributeFilterSchema, f)),
    eventAttributes: a.eventAttributes.map((f) => create(AttributeFilterSchema, f)),
  });
}

/** AchievementAdminService; the guard has checked the admin key, the request rules and the tenant. */
export function createAchievementAdminMethods(services: ServiceContext): Record<string, ScopedMethod> {
  const scopeOf = (scope: CallScope) => ({ tenantId: scope.tenantId });
  return {
    async createAchievements(req: pb.CreateAchievementsRequest, scope: CallScope) {
      const drafts = req.achievements.map((a) => ({
        name: a.name,
        key: a.key,
        description: a.description,
        badgeUrl: a.badgeUrl,
        trigger: triggers.fromProto(a.trigger),
        status: statuses.fromProto(a.status),
        metricId: a.metricId,
        metricValue: a.metricValue,
        streakLength: a.streakLength,
        achievementIds: a.achievementIds,
        userAttributes: filtersFromProto(a.userAttributes),
        eventAttributes: filtersFromProto(a.eventAttributes),
      }));
      return created(scope, await resources.createResources(achievementSpec, services, scopeOf(scope), drafts), achievementToProto);
    },
    async listAchievements(req: pb.ListAchievementsRequest, scope: CallScope) {
      return { achievements: (await resources.listResources(achievementSpec, services, scopeOf(scope), pageOf(req))).map(achievementToProto) };
    },
    async getAchievement(req: pb.GetAchievementRequest, scope: CallScope) {
      const achievement = await resources.getResource(achievementSpec, services, scopeOf(scope), req.id);
      return { achievement: achievementToProto(found(achievement, "Achievement", req.id)) };
    },
    async updateAchievements(req: pb.UpdateAchievementsRequest, scope: CallScope) {
      const updates = req.achievements.map((a, i) => ({
        id: a.id,
        changes: {
          name: a.name,
          key: a.key,
          description: readNullable(a.description, `achievements[${i}].description`, "a string", asString),
          badgeUrl: readNullable(a.badgeUrl, `achievements[${i}].badgeUrl`, "a URL string", asString),
          trigger: triggers.fromProto(a.trigger),
          status: statuses.fromProto(a.status),
          metricId: a.metricId,
          metricValue: a.metricValue,
          streakLength: a.streakLength,
          // Protobuf cannot tell an empty list from an absent one: empty means "unchanged".
          achievementIds: a.achievementIds.length > 0 ? a.achievementIds : undefined,
          userAttributes: readNullable(a.userAttributes, `achievements[${i}].userAttributes`, FILTERS, asFilters),
          eventAttributes: readNullable(a.eventAttributes, `achievements[${i}].eventAttributes`, FILTERS, asFilters),
        },
      }));
      return updated(await resources.updateResources(achievementSpec, services, scopeOf(scope), updates), achievementToProto);
    },
    async deleteAchievements(req: pb.DeleteAchievementsRequest, scope: CallScope) {
      return deleted(await resources.deleteResources(achievementSpec, services, scopeOf(scope), req.ids));
    },
  };
}
