import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import * as admin from "../../../gen/gamification/v1/admin_service_pb.js";
import type { RateLimitSetting } from "../domain/rate-limits.js";
import { createAdminKey, createApplicationKeys, listAccountAdminKeys, listTenantApplicationKeys, revokeKeys, updateKeyRateLimits } from "../admin-api-keys.js";
import { attributeSpec } from "../admin-attributes.js";
import { metricSpec } from "../../metrics/admin-metrics.js";
import * as resources from "../admin-resources.js";
import * as adminTenants from "../admin-tenants.js";
import type { ServiceContext } from "../../../engine/context.js";
import type { ApiKeyInfo } from "../store/api-keys.js";
import { metricToProto, tenantToProto, unitTypeFromProto } from "../../../transport/convert.js";
import { enumMapping } from "../../../transport/enum-mapping.js";
import { createEventBatchMethods } from "../../batches/api/event-batch-methods.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import { setRestStatus } from "../../../transport/rest-status.js";
import { created, deleted, found, pageOf, updated } from "../../../transport/admin-answers.js";

/** Account-level methods: tenants and admin keys belong to the account, so Tenant-ID does not apply. */
export const ACCOUNT_LEVEL_ADMIN_METHODS: ReadonlySet<string> = new Set([
  "createTenants",
  "listTenants",
  "getTenant",
  "updateTenants",
  "deleteTenants",
  "listAdminApiKeys",
  "createAdminApiKey",
  "updateAdminApiKeys",
  "deleteAdminApiKeys",
]);

const attributeTypes = enumMapping<"user" | "event", admin.AttributeType>({ user: admin.AttributeType.USER, event: admin.AttributeType.EVENT });

/**
 * The Admin API methods; the guard has checked the admin key, the request rules and the tenant.
 * `eventBatchSubmitted` wakes this instance's batch worker when a batch of events was stored.
 */
export function createAdminMethods(services: ServiceContext, options: { eventBatchSubmitted?: () => void } = {}): ScopedService<typeof admin.AdminService> {
  const scopeOf = (scope: CallScope) => ({ tenantId: scope.tenantId });
  const attributeToProto = (a: { id: string; key: string; name: string; type: "user" | "event" }) =>
    create(admin.AttributeSchema, { ...a, type: attributeTypes.toProto(a.type) });

  return {
    ...createEventBatchMethods(services, options.eventBatchSubmitted),

    async createMetrics(req: admin.CreateMetricsRequest, scope: CallScope) {
      const drafts = req.metrics.map((m) => ({ name: m.name, key: m.key, unitType: unitTypeFromProto(m.unitType), units: m.units }));
      return created(scope, await resources.createResources(metricSpec, services, scopeOf(scope), drafts), metricToProto);
    },
    async listMetrics(req: admin.ListMetricsRequest, scope: CallScope) {
      return { metrics: (await resources.listResources(metricSpec, services, scopeOf(scope), pageOf(req))).map(metricToProto) };
    },
    async getMetric(req: admin.GetMetricRequest, scope: CallScope) {
      return { metric: metricToProto(found(await resources.getResource(metricSpec, services, scopeOf(scope), req.id), "Metric", req.id)) };
    },
    async updateMetrics(req: admin.UpdateMetricsRequest, scope: CallScope) {
      const updates = req.metrics.map((m) => ({ id: m.id, changes: { name: m.name, key: m.key, unitType: unitTypeFromProto(m.unitType), units: m.units } }));
      return updated(await resources.updateResources(metricSpec, services, scopeOf(scope), updates), metricToProto);
    },
    async deleteMetrics(req: admin.DeleteMetricsRequest, scope: CallScope) {
      return deleted(await resources.deleteResources(metricSpec, services, scopeOf(scope), req.ids));
    },

    async createAttributes(req: admin.CreateAttributesRequest, scope: CallScope) {
      const drafts = req.attributes.map((a) => ({ name: a.name, key: a.key, type: attributeTypes.fromProto(a.type) }));
      return created(scope, await resources.createResources(attributeSpec, services, scopeOf(scope), drafts), attributeToProto);
    },
    async listAttributes(req: admin.ListAttributesRequest, scope: CallScope) {
      return { attributes: (await resources.listResources(attributeSpec, services, scopeOf(scope), pageOf(req))).map(attributeToProto) };
    },
    async getAttribute(req: admin.GetAttributeRequest, scope: CallScope) {
      return { attribute: attributeToProto(found(await resources.getResource(attributeSpec, services, scopeOf(scope), req.id), "Attribute", req.id)) };
    },
    async updateAttributes(req: admin.UpdateAttributesRequest, scope: CallScope) {
      const updates = req.attributes.map((a) => ({ id: a.id, changes: { name: a.name } }));
      return updated(await resources.updateResources(attributeSpec, services, scopeOf(scope), updates), attributeToProto);
    },
    async deleteAttributes(req: admin.DeleteAttributesRequest, scope: CallScope) {
      return deleted(await resources.deleteResources(attributeSpec, services, scopeOf(scope), req.ids));
    },

    async createApplicationApiKeys(req: admin.CreateApplicationApiKeysRequest, scope: CallScope) {
      const items = req.keys.map((k) => ({ userId: k.userId, rateLimit: rateLimitFromProto(k.rateLimit) }));
      const result = await createApplicationKeys(services, scope.tenantId, items);
      return created(scope, result, (k) =>
        create(admin.CreatedApplicationApiKeySchema, {
          id: k.id,
          key: k.key,
          prefix: k.prefix,
          userId: k.userId ?? "",
          rateLimit: rateLimitToProto(k.rateLimit),
        }),
      );
    },
    async listApplicationApiKeys(req: admin.ListApplicationApiKeysRequest, scope: CallScope) {
      return { keys: (await listTenantApplicationKeys(services, scope.tenantId, pageOf(req))).map(applicationKeyToProto) };
    },
    async updateApplicationApiKeys(req: admin.UpdateApplicationApiKeysRequest, scope: CallScope) {
      return updated(await updateKeyRateLimits(services, "application", scope.tenantId, keyUpdatesOf(req.keys)), applicationKeyToProto);
    },
    async deleteApplicationApiKeys(req: admin.DeleteApplicationApiKeysRequest, scope: CallScope) {
      return deleted(await revokeKeys(services, "application", scope.tenantId, scope.caller, req.ids));
    },
    async listAdminApiKeys() {
      return { keys: (await listAccountAdminKeys(services)).map(adminKeyToProto) };
    },
    async createAdminApiKey(req: admin.CreateAdminApiKeyRequest, scope: CallScope) {
      const rateLimit = rateLimitFromProto(req.rateLimit);
      const key = await createAdminKey(services, rateLimit);
      setRestStatus(scope.ctx, 201);
      return { key: create(admin.CreatedAdminApiKeySchema, { ...key, rateLimit: rateLimitToProto(key.rateLimit) }) };
    },
    async updateAdminApiKeys(req: admin.UpdateAdminApiKeysRequest, scope: CallScope) {
      return updated(await updateKeyRateLimits(services, "admin", scope.tenantId, keyUpdatesOf(req.keys)), adminKeyToProto);
    },
    async deleteAdminApiKeys(req: admin.DeleteAdminApiKeysRequest, scope: CallScope) {
      return deleted(await revokeKeys(services, "admin", scope.tenantId, scope.caller, req.ids));
    },

    async createTenants(req: admin.CreateTenantsRequest, scope: CallScope) {
      return created(
        scope,
        await adminTenants.createTenants(
          services,
          req.tenants.map((t) => ({ customerId: t.customerId, name: t.name })),
        ),
        tenantToProto,
      );
    },
    async listTenants(req: admin.ListTenantsRequest) {
      return { tenants: (await adminTenants.listTenants(services, pageOf(req))).map(tenantToProto) };
    },
    async getTenant(req: admin.GetTenantRequest) {
      return { tenant: tenantToProto(found(await adminTenants.getTenant(services, req.id), "Tenant", req.id)) };
    },
    async updateTenants(req: admin.UpdateTenantsRequest) {
      const updates = req.tenants.map((t) => ({ id: t.id, customerId: t.customerId, name: t.name }));
      return updated(await adminTenants.updateTenants(services, updates), tenantToProto);
    },
    async deleteTenants(req: admin.DeleteTenantsRequest) {
      return deleted(await adminTenants.deleteTenants(services, req.ids));
    },
  };
}

function rateLimitFromProto(rateLimit: admin.RateLimit | undefined): RateLimitSetting | null {
  return rateLimit ? { requestsPerSecond: rateLimit.requestsPerSecond, burst: rateLimit.burst ?? null } : null;
}

function rateLimitToProto(rateLimit: RateLimitSetting | null): admin.RateLimit | undefined {
  return rateLimit ? create(admin.RateLimitSchema, { requestsPerSecond: rateLimit.requestsPerSecond, burst: rateLimit.burst ?? undefined }) : undefined;
}

function keyUpdatesOf(items: admin.UpdateApiKeyItem[]): Array<{ id: string; rateLimit: RateLimitSetting | null }> {
  return items.map((k) => ({ id: k.id, rateLimit: rateLimitFromProto(k.rateLimit) }));
}

function adminKeyToProto(k: ApiKeyInfo): admin.AdminApiKey {
  return create(admin.AdminApiKeySchema, { id: k.id, prefix: k.prefix, created: timestampFromDate(k.created), rateLimit: rateLimitToProto(k.rateLimit) });
}

function applicationKeyToProto(k: ApiKeyInfo): admin.ApplicationApiKey {
  return create(admin.ApplicationApiKeySchema, {
    id: k.id,
    userId: k.userId ?? "",
    prefix: k.prefix,
    created: timestampFromDate(k.created),
    rateLimit: rateLimitToProto(k.rateLimit),
  });
}
