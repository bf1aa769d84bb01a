import { randomUUID } from "node:crypto";
import type { BulkResult } from "../domain/bulk.js";
import { checkMetricChanges, checkMetricDraft, type MetricChanges, type MetricConfig, type MetricDraft } from "../domain/metric.js";
import { isDuplicateKeyError } from "../store/database.js";
import { metricFromDocument, metricToDocument } from "../store/metrics.js";
import type { ServiceContext } from "./context.js";

/** Creates metrics in a tenant; a key already used in the tenant is an issue for that item. */
export async function createMetrics(ctx: ServiceContext, tenantId: string, drafts: MetricDraft[]): Promise<BulkResult<MetricConfig>> {
  const result: BulkResult<MetricConfig> = { done: [], issues: [] };
  for (const [index, draft] of drafts.entries()) {
    const problem = checkMetricDraft(draft);
    if (problem) {
      result.issues.push({ index, severity: "error", message: problem });
      continue;
    }
    const now = ctx.now();
    const metric: MetricConfig = {
      id: randomUUID(),
      key: draft.key,
      name: draft.name,
      unitType: draft.unitType ?? "number",
      units: draft.units ?? "",
      created: now,
      updated: now,
    };
    try {
      await ctx.database.collections.metrics.insertOne(metricToDocument(tenantId, metric));
      result.done.push(metric);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      result.issues.push({ index, severity: "error", message: `Key "${draft.key}" is already in use by another metric` });
    }
  }
  ctx.config.invalidate();
  return result;
}

export async function listMetrics(ctx: ServiceContext, tenantId: string, page: { limit: number; skip: number }): Promise<MetricConfig[]> {
  const docs = await ctx.database.collections.metrics
    .find({ tenantId })
    .sort({ created: 1, _id: 1 })
    .skip(page.skip)
    .limit(page.limit)
    .toArray();
  return docs.map(metricFromDocument);
}

export async function getMetric(ctx: ServiceContext, tenantId: string, id: string): Promise<MetricConfig | null> {
  const doc = await ctx.database.collections.metrics.findOne({ _id: id, tenantId });
  return doc ? metricFromDocument(doc) : null;
}

/** Updates metrics by ID. The key is immutable: events and clients refer to it. */
export async function updateMetrics(
  ctx: ServiceContext,
  tenantId: string,
  updates: Array<{ id: string } & MetricChanges>,
): Promise<BulkResult<MetricConfig>> {
  const result: BulkResult<MetricConfig> = { done: [], issues: [] };
  for (const { id, ...changes } of updates) {
    const current = await getMetric(ctx, tenantId, id);
    if (!current) {
      result.issues.push({ id, severity: "error", message: "Metric not found by ID" });
      continue;
    }
    const problem = checkMetricChanges(current, changes);
    if (problem) {
      result.issues.push({ id, severity: "error", message: problem });
      continue;
    }
    const next: MetricConfig = {
      ...current,
      ...definedOnly(changes),
      units: changes.units ?? (changes.unitType && changes.unitType !== current.unitType ? "" : current.units),
      updated: ctx.now(),
    };
    await ctx.database.collections.metrics.replaceOne({ _id: id, tenantId }, metricToDocument(tenantId, next));
    result.done.push(next);
  }
  ctx.config.invalidate();
  return result;
}

export async function deleteMetrics(ctx: ServiceContext, tenantId: string, ids: string[]): Promise<BulkResult<{ id: string }>> {
  const result: BulkResult<{ id: string }> = { done: [], issues: [] };
  for (const id of ids) {
    const deleted = await ctx.database.collections.metrics.deleteOne({ _id: id, tenantId });
    if (deleted.deletedCount === 1) result.done.push({ id });
    else result.issues.push({ id, severity: "error", message: "Metric not found by ID" });
  }
  ctx.config.invalidate();
  return result;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
