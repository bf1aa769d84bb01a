import type * as pa from "../../../gen/gamification/v1/points_admin_service_pb.js";
import {
  archivePointsSystems,
  createPointsSystems,
  pointsBoostSpec,
  pointsLevelSpec,
  pointsSystemSpec,
  pointsTriggerSpec,
  systemScope,
} from "../admin-points.js";
import * as resources from "../../account/admin-resources.js";
import type { ServiceContext } from "../../../engine/context.js";
import { created, deleted, found, pageOf, updated } from "../../../transport/admin-answers.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import * as convert from "./points-convert.js";
import type { PointsBoostConfig } from "../domain/points-config.js";

/** The PointsAdminService methods; the guard has checked the admin key, the request rules and the tenant. */
export function createPointsAdminMethods(services: ServiceContext): ScopedService<typeof pa.PointsAdminService> {
  const tenant = (scope: CallScope) => ({ tenantId: scope.tenantId });
  const triggers = nestedResource(services, pointsTriggerSpec, convert.triggerDraftFromProto, convert.triggerChangesFromProto, "triggers");
  const levels = nestedResource(services, pointsLevelSpec, convert.levelDraftFromProto, convert.levelChangesFromProto, "levels");
  const boosts = nestedResource(services, pointsBoostSpec, convert.boostDraftFromProto, convert.boostChangesFromProto, "boosts");
  const boostToProto = (boost: PointsBoostConfig) => convert.boostToProto(boost, services.now());
  return {
    async createPointsSystems(req: pa.CreatePointsSystemsRequest, scope: CallScope) {
      const result = await createPointsSystems(services, scope.tenantId, req.systems.map(convert.systemCreationFromProto));
      return created(scope, result, (c) => convert.systemToProto(c.system, { ...c, now: services.now() }));
    },
    async listPointsSystems(req: pa.ListPointsSystemsRequest, scope: CallScope) {
      return { systems: (await resources.listResources(pointsSystemSpec, services, tenant(scope), pageOf(req))).map((s) => convert.systemToProto(s)) };
    },
    async getPointsSystem(req: pa.GetPointsSystemRequest, scope: CallScope) {
      return { system: convert.systemToProto(found(await resources.getResource(pointsSystemSpec, services, tenant(scope), req.id), "Points system", req.id)) };
    },
    async updatePointsSystems(req: pa.UpdatePointsSystemsRequest, scope: CallScope) {
      const updates = req.systems.map((s, i) => ({ id: s.id, changes: convert.systemChangesFromProto(s, `systems[${i}]`) }));
      return updated(await resources.updateResources(pointsSystemSpec, services, tenant(scope), updates), (s) => convert.systemToProto(s));
    },
    async deletePointsSystems(req: pa.DeletePointsSystemsRequest, scope: CallScope) {
      return deleted(await archivePointsSystems(services, scope.tenantId, req.ids));
    },

    // Triggers, levels and boosts live inside a points system: see nestedResource below.
    async createPointsTriggers(req, scope) {
      return created(scope, await triggers.create(scope, req.systemId, req.triggers), convert.triggerToProto);
    },
    async listPointsTriggers(req, scope) {
      return { triggers: (await triggers.list(scope, req)).map(convert.triggerToProto) };
    },
    async getPointsTrigger(req, scope) {
      return { trigger: convert.triggerToProto(await triggers.get(scope, req)) };
    },
    async updatePointsTriggers(req, scope) {
      return updated(await triggers.update(scope, req.systemId, req.triggers), convert.triggerToProto);
    },
    async deletePointsTriggers(req, scope) {
      return deleted(await triggers.remove(scope, req));
    },

    async createPointsLevels(req, scope) {
      return created(scope, await levels.create(scope, req.systemId, req.levels), convert.levelToProto);
    },
    async listPointsLevels(req, scope) {
      return { levels: (await levels.list(scope, req)).map(convert.levelToProto) };
    },
    async getPointsLevel(req, scope) {
      return { level: convert.levelToProto(await levels.get(scope, req)) };
    },
    async updatePointsLevels(req, scope) {
      return updated(await levels.update(scope, req.systemId, req.levels), convert.levelToProto);
    },
    async deletePointsLevels(req, scope) {
      return deleted(await levels.remove(scope, req));
    },

    async createPointsBoosts(req, scope) {
      return created(scope, await boosts.create(scope, req.systemId, req.boosts), boostToProto);
    },
    async listPointsBoosts(req, scope) {
      return { boosts: (await boosts.list(scope, req)).map(boostToProto) };
    },
    async getPointsBoost(req, scope) {
      return { boost: boostToProto(await boosts.get(scope, req)) };
    },
    async updatePointsBoosts(req, scope) {
      return updated(await boosts.update(scope, req.systemId, req.boosts), boostToProto);
    },
    async deletePointsBoosts(req, scope) {
      return deleted(await boosts.remove(scope, req));
    },
  };
}

/**
 * The five calls of a resource nested in a points system (create, list, get, update, delete), all
 * scoped to a points system of the caller's tenant: an unknown system answers not found for the
 * whole call. The methods above turn their results into the resource's messages.
 */
function nestedResource<T extends { id: string; updated: Date }, D, C, CreateItem, UpdateItem extends { id: string }>(
  services: ServiceContext,
  spec: resources.ResourceSpec<T, D, C>,
  draftOf: (item: CreateItem) => D,
  changesOf: (item: UpdateItem, path: string) => C,
  /** The request field that holds the items, for paths in errors (`triggers[2]`). */
  field: string,
) {
  const inSystem = (scope: CallScope, systemId: string, changing = false) => systemScope(services, scope.tenantId, systemId, changing);
  return {
    async create(scope: CallScope, systemId: string, items: CreateItem[]) {
      const where = await inSystem(scope, systemId, true);
      return resources.createResources(spec, services, where, items.map(draftOf));
    },
    async list(scope: CallScope, req: { systemId: string; limit?: number; skip: number }) {
      return resources.listResources(spec, services, await inSystem(scope, req.systemId), pageOf(req));
    },
    async get(scope: CallScope, req: { systemId: string; id: string }) {
      return found(await resources.getResource(spec, services, await inSystem(scope, req.systemId), req.id), spec.noun, req.id);
    },
    async update(scope: CallScope, systemId: string, items: UpdateItem[]) {
      const where = await inSystem(scope, systemId, true);
      return resources.updateResources(
        spec,
        services,
        where,
        items.map((item, i) => ({ id: item.id, changes: changesOf(item, `${field}[${i}]`) })),
      );
    },
    async remove(scope: CallScope, req: { systemId: string; ids: string[] }) {
      return resources.deleteResources(spec, services, await inSystem(scope, req.systemId), req.ids);
    },
  };
}
