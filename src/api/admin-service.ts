import { DEFAULT_LIST_LIMIT, type BulkResult } from "../domain/bulk.js";
import { notFound } from "../domain/errors.js";
import type * as admin from "../gen/gamification/v1/admin_service_pb.js";
import * as adminMetrics from "../pipeline/admin-metrics.js";
import * as adminTenants from "../pipeline/admin-tenants.js";
import type { ServiceContext } from "../pipeline/context.js";
import { issueToProto, metricToProto, tenantToProto, unitTypeFromProto } from "./convert.js";
import type { CallScope, ScopedMethod } from "./guard.js";
import { setRestStatus } from "./rest-status.js";

/** Tenant management acts on the account: the Tenant-ID header does not apply to it. */
export const ACCOUNT_LEVEL_ADMIN_METHODS: ReadonlySet<string> = new Set([
  "createTenants",
  "listTenants",
  "getTenant",
  "updateTenants",
  "deleteTenants",
]);

/** The Admin API methods; the guard has checked the admin key, the request rules and the tenant. */
export function createAdminMethods(services: ServiceContext): Record<string, ScopedMethod> {
  return {
    async createMetrics(req: admin.CreateMetricsRequest, scope: CallScope) {
      const result = await adminMetrics.createMetrics(
        services,
        scope.tenantId,
        req.metrics.map((m) => ({ name: m.name, key: m.key, unitType: unitTypeFromProto(m.unitType), units: m.units })),
      );
      markCreated(scope, result);
      return { created: result.done.map(metricToProto), issues: result.issues.map(issueToProto) };
    },
    async listMetrics(req: admin.ListMetricsRequest, scope: CallScope) {
      const metrics = await adminMetrics.listMetrics(services, scope.tenantId, pageOf(req));
      return { metrics: metrics.map(metricToProto) };
    },
    async getMetric(req: admin.GetMetricRequest, scope: CallScope) {
      const metric = await adminMetrics.getMetric(services, scope.tenantId, req.id);
      if (!metric) throw notFound(`Metric "${req.id}" not found`);
      return { metric: metricToProto(metric) };
    },
    async updateMetrics(req: admin.UpdateMetricsRequest, scope: CallScope) {
      const result = await adminMetrics.updateMetrics(
        services,
        scope.tenantId,
        req.metrics.map((m) => ({ id: m.id, name: m.name, unitType: unitTypeFromProto(m.unitType), units: m.units })),
      );
      return { updated: result.done.map(metricToProto), issues: result.issues.map(issueToProto) };
    },
    async deleteMetrics(req: admin.DeleteMetricsRequest, scope: CallScope) {
      const result = await adminMetrics.deleteMetrics(services, scope.tenantId, req.ids);
      return { deleted: result.done, issues: result.issues.map(issueToProto) };
    },

    async createTenants(req: admin.CreateTenantsRequest, scope: CallScope) {
      const result = await adminTenants.createTenants(services, req.tenants.map((t) => ({ customerId: t.customerId, name: t.name })));
      markCreated(scope, result);
      return { created: result.done.map(tenantToProto), issues: result.issues.map(issueToProto) };
    },
    async listTenants(req: admin.ListTenantsRequest) {
      const tenants = await adminTenants.listTenants(services, pageOf(req));
      return { tenants: tenants.map(tenantToProto) };
    },
    async getTenant(req: admin.GetTenantRequest) {
      const tenant = await adminTenants.getTenant(services, req.id);
      if (!tenant) throw notFound(`Tenant "${req.id}" not found`);
      return { tenant: tenantToProto(tenant) };
    },
    async updateTenants(req: admin.UpdateTenantsRequest) {
      const result = await adminTenants.updateTenants(
        services,
        req.tenants.map((t) => ({ id: t.id, customerId: t.customerId, name: t.name })),
      );
      return { updated: result.done.map(tenantToProto), issues: result.issues.map(issueToProto) };
    },
    async deleteTenants(req: admin.DeleteTenantsRequest) {
      const result = await adminTenants.deleteTenants(services, req.ids);
      return { deleted: result.done, issues: result.issues.map(issueToProto) };
    },
  };
}

/** REST answers 201 when a bulk create created at least one item, 200 otherwise. */
function markCreated(scope: CallScope, result: BulkResult<unknown>): void {
  if (result.done.length > 0) setRestStatus(scope.ctx, 201);
}

function pageOf(req: { limit?: number; skip: number }): { limit: number; skip: number } {
  return { limit: req.limit ?? DEFAULT_LIST_LIMIT, skip: req.skip };
}
