import { create } from "@bufbuild/protobuf";
import type { AchievementConfig, AchievementStatus, AttributeFilter } from "../domain/achievement-config.js";
import * as pb from "../../../gen/gamification/v1/achievement_admin_service_pb.js";
import { AttributeFilterSchema } from "../../../gen/gamification/v1/common_pb.js";
import type { JsonValue } from "@bufbuild/protobuf";
import { invalidArgument } from "../../../engine/domain/errors.js";
import { achievementSpec, loadAttributeDirectory, type AttributeDirectory } from "../admin-achievements.js";
import * as resources from "../../account/admin-resources.js";
import type { ServiceContext } from "../../../engine/context.js";
import { created, deleted, found, pageOf, updated } from "../../../transport/admin-answers.js";
import { achievementTriggers, enumMapping } from "../../../transport/enum-mapping.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import { asObjectList, asString, readNullable } from "../../../transport/nullable-value.js";

const statuses = enumMapping<AchievementStatus, pb.AchievementStatus>({
  active: pb.AchievementStatus.ACTIVE,
  inactive: pb.AchievementStatus.INACTIVE,
  locked: pb.AchievementStatus.LOCKED,
});

type FilterType = "user" | "event";

/**
 * Achievement filters as sent: `{key, value}` (the Application API's shape) or `{attributeId,
 * attributeValue}` (the Admin API shape the reference's clients send), each resolved to the key the
 * achievement stores. An unknown attribute ID refuses the request.
 */
function filtersFromInput(
  filters: ReadonlyArray<{ key: string; value: string; attributeId?: string; attributeValue?: string }>,
  type: FilterType,
  path: string,
  directory: AttributeDirectory,
): AttributeFilter[] {
  return filters.map((f, i) => {
    if (f.attributeId === undefined) return { key: f.key, value: f.value };
    const key = directory.keyOf(type, f.attributeId);
    if (key === undefined) throw invalidArgument(`${path}[${i}].attributeId "${f.attributeId}" is not the ID of a ${type} attribute of this tenant`);
    if (f.key !== "" && f.key !== key) throw invalidArgument(`${path}[${i}]: key "${f.key}" and attributeId "${f.attributeId}" name different attributes`);
    return { key, value: f.attributeValue ?? f.value };
  });
}

const FILTERS = 'an array of {"attributeId": string, "attributeValue": string} or of {"key": string, "value": string}';
const asIdFilters = asObjectList(["attributeId", "attributeValue"] as const);
const asKeyFilters = asObjectList(["key", "value"] as const);
const asFilters = (json: JsonValue) => asIdFilters(json)?.map((f) => ({ key: "", value: "", ...f })) ?? asKeyFilters(json);

const asBadge = (json: JsonValue) => asObjectList(["url"] as const)([json])?.[0];
const urlOf = (badge: { url: string } | null | undefined) => (badge ? badge.url : badge);

/**
 * The badge URL sent as `badgeUrl` or as the newest clients' `badge: {url}`: either, or both when
 * they agree (undefined: not sent; null: removed).
 */
function oneBadgeUrl<T extends string | null | undefined>(badgeUrl: T, badge: T, path: string): T {
  if (badgeUrl !== undefined && badge !== undefined && badgeUrl !== badge)
    throw invalidArgument(`Invalid request: ${path}.badgeUrl and ${path}.badge name different badges`);
  return badgeUrl !== undefined ? badgeUrl : badge;
}

/** An achievement as the Admin API shows it; filters carry both the key and the attribute's ID. */
export function achievementToProto(a: AchievementConfig, directory: AttributeDirectory): pb.AdminAchievement {
  const filters = (list: AttributeFilter[], type: FilterType) =>
    list.map((f) => create(AttributeFilterSchema, { key: f.key, value: f.value, attributeId: directory.idOf(type, f.key), attributeValue: f.value }));
  return create(pb.AdminAchievementSchema, {
    id: a.id,
    name: a.name,
    key: a.key,
    description: a.description ?? undefined,
    badgeUrl: a.badgeUrl ?? undefined,
    badge: a.badgeUrl ? { url: a.badgeUrl } : undefined,
    trigger: achievementTriggers.toProto(a.trigger),
    status: statuses.toProto(a.status),
    metricId: a.metricId ?? undefined,
    metricValue: a.metricValue ?? undefined,
    streakLength: a.streakLength ?? undefined,
    achievementIds: a.achievementIds,
    userAttributes: filters(a.userAttributes, "user"),
    eventAttributes: filters(a.eventAttributes, "event"),
  });
}

/** AchievementAdminService; the guard has checked the admin key, the request rules and the tenant. */
export function createAchievementAdminMethods(services: ServiceContext): ScopedService<typeof pb.AchievementAdminService> {
  const scopeOf = (scope: CallScope) => ({ tenantId: scope.tenantId });
  const shown = async (scope: CallScope) => {
    const directory = await loadAttributeDirectory(services, scope.tenantId);
    return (a: AchievementConfig) => achievementToProto(a, directory);
  };
  return {
    async createAchievements(req: pb.CreateAchievementsRequest, scope: CallScope) {
      const directory = await loadAttributeDirectory(services, scope.tenantId);
      const drafts = req.achievements.map((a, i) => ({
        name: a.name,
        key: a.key,
        description: a.description,
        badgeUrl: oneBadgeUrl(a.badgeUrl, a.badge?.url, `achievements[${i}]`),
        trigger: achievementTriggers.fromProto(a.trigger),
        status: statuses.fromProto(a.status),
        metricId: a.metricId,
        metricValue: a.metricValue,
        streakLength: a.streakLength,
        achievementIds: a.achievementIds,
        userAttributes: filtersFromInput(a.userAttributes, "user", `achievements[${i}].userAttributes`, directory),
        eventAttributes: filtersFromInput(a.eventAttributes, "event", `achievements[${i}].eventAttributes`, directory),
      }));
      return created(scope, await resources.createResources(achievementSpec, services, scopeOf(scope), drafts), (a) => achievementToProto(a, directory));
    },
    async listAchievements(req: pb.ListAchievementsRequest, scope: CallScope) {
      const toProto = await shown(scope);
      return { achievements: (await resources.listResources(achievementSpec, services, scopeOf(scope), pageOf(req))).map(toProto) };
    },
    async getAchievement(req: pb.GetAchievementRequest, scope: CallScope) {
      const achievement = await resources.getResource(achievementSpec, services, scopeOf(scope), req.id);
      return { achievement: (await shown(scope))(found(achievement, "Achievement", req.id)) };
    },
    async updateAchievements(req: pb.UpdateAchievementsRequest, scope: CallScope) {
      const directory = await loadAttributeDirectory(services, scope.tenantId);
      const resolve = (filters: AttributeFilter[] | null | undefined, type: FilterType, path: string) =>
        filters ? filtersFromInput(filters, type, path, directory) : filters;
      const updates = req.achievements.map((a, i) => ({
        id: a.id,
        changes: {
          name: a.name,
          key: a.key,
          description: readNullable(a.description, `achievements[${i}].description`, "a string", asString),
          badgeUrl: oneBadgeUrl(
            readNullable(a.badgeUrl, `achievements[${i}].badgeUrl`, "a URL string", asString),
            urlOf(readNullable(a.badge, `achievements[${i}].badge`, 'an object {"url": ...}', asBadge)),
            `achievements[${i}]`,
          ),
          trigger: achievementTriggers.fromProto(a.trigger),
          status: statuses.fromProto(a.status),
          metricId: a.metricId,
          metricValue: a.metricValue,
          streakLength: a.streakLength,
          // Protobuf cannot tell an empty list from an absent one: empty means "unchanged".
          achievementIds: a.achievementIds.length > 0 ? a.achievementIds : undefined,
          userAttributes: resolve(
            readNullable(a.userAttributes, `achievements[${i}].userAttributes`, FILTERS, asFilters),
            "user",
            `achievements[${i}].userAttributes`,
          ),
          eventAttributes: resolve(
            readNullable(a.eventAttributes, `achievements[${i}].eventAttributes`, FILTERS, asFilters),
            "event",
            `achievements[${i}].eventAttributes`,
          ),
        },
      }));
      return updated(await resources.updateResources(achievementSpec, services, scopeOf(scope), updates), (a) => achievementToProto(a, directory));
    },
    async deleteAchievements(req: pb.DeleteAchievementsRequest, scope: CallScope) {
      return deleted(await resources.deleteResources(achievementSpec, services, scopeOf(scope), req.ids));
    },
  };
}
