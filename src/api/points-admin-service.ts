import type * as pa from "../gen/gamification/v1/points_admin_service_pb.js";
import {
  archivePointsSystems,
  createPointsSystems,
  pointsBoostSpec,
  pointsLevelSpec,
  pointsSystemSpec,
  pointsTriggerSpec,
  systemScope,
} from "../pipeline/admin-points.js";
import * as resources from "../pipeline/admin-resources.js";
import type { ServiceContext } from "../pipeline/context.js";
import { created, deleted, found, pageOf, updated } from "./admin-service.js";
import type { CallScope, ScopedMethod } from "./guard.js";
import * as convert from "./points-convert.js";

/** The PointsAdminService methods; the guard has checked the admin key, the request rules and the tenant. */
export function createPointsAdminMethods(services: ServiceContext): Record<string, ScopedMethod> {
  const tenant = (scope: CallScope) => ({ tenantId: scope.tenantId });
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

    ...nestedMethods(services, {
      plural: "Triggers",
      singular: "Trigger",
      spec: pointsTriggerSpec,
      draftOf: convert.triggerDraftFromProto,
      changesOf: convert.triggerChangesFromProto,
      toProto: convert.triggerToProto,
    }),
    ...nestedMethods(services, {
      plural: "Levels",
      singular: "Level",
      spec: pointsLevelSpec,
      draftOf: convert.levelDraftFromProto,
      changesOf: convert.levelChangesFromProto,
      toProto: convert.levelToProto,
    }),
    ...nestedMethods(services, {
      plural: "Boosts",
      singular: "Boost",
      spec: pointsBoostSpec,
      draftOf: convert.boostDraftFromProto,
      changesOf: convert.boostChangesFromProto,
      toProto: (boost) => convert.boostToProto(boost, services.now()),
    }),
  };
}

/** One kind of resource nested in a points system, and how its messages convert. */
interface NestedResource<T extends { id: string }, D, C, CreateItem, UpdateItem extends { id: string }> {
  /** Names the methods (`createPointsTriggers`, `getPointsTrigger`) and, lower-cased, the item fields (`triggers`, `trigger`). */
  plural: string;
  singular: string;
  spec: resources.ResourceSpec<T, D, C>;
  draftOf(item: CreateItem): D;
  changesOf(item: UpdateItem, path: string): C;
  toProto(resource: T): unknown;
}

/**
 * The five calls of a nested resource (create, list, get, update, delete), all scoped to a points
 * system of the caller's tenant: an unknown system answers not found for the whole call.
 */
function nestedMethods<T extends { id: string }, D, C, CreateItem, UpdateItem extends { id: string }>(
  services: ServiceContext,
  r: NestedResource<T, D, C, CreateItem, UpdateItem>,
): Record<string, ScopedMethod> {
  const many = r.plural.toLowerCase();
  const one = r.singular.toLowerCase();
  const inSystem = (scope: CallScope, req: { systemId: string }) => systemScope(services, scope.tenantId, req.systemId);
  return {
    async [`createPoints${r.plural}`](req: { systemId: string } & Record<string, CreateItem[]>, scope: CallScope) {
      const where = await inSystem(scope, req);
      return created(scope, await resources.createResources(r.spec, services, where, req[many]!.map((item) => r.draftOf(item))), r.toProto);
    },
    async [`listPoints${r.plural}`](req: { systemId: string; limit?: number; skip: number }, scope: CallScope) {
      const where = await inSystem(scope, req);
      return { [many]: (await resources.listResources(r.spec, services, where, pageOf(req))).map(r.toProto) };
    },
    async [`getPoints${r.singular}`](req: { systemId: string; id: string }, scope: CallScope) {
      const where = await inSystem(scope, req);
      return { [one]: r.toProto(found(await resources.getResource(r.spec, services, where, req.id), r.spec.noun, req.id)) };
    },
    async [`updatePoints${r.plural}`](req: { systemId: string } & Record<string, UpdateItem[]>, scope: CallScope) {
      const where = await inSystem(scope, req);
      const updates = req[many]!.map((item, i) => ({ id: item.id, changes: r.changesOf(item, `${many}[${i}]`) }));
      return updated(await resources.updateResources(r.spec, services, where, updates), r.toProto);
    },
    async [`deletePoints${r.plural}`](req: { systemId: string; ids: string[] }, scope: CallScope) {
      return deleted(await resources.deleteResources(r.spec, services, await inSystem(scope, req), req.ids));
    },
  };
}
