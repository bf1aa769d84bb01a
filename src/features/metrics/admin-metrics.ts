import { checkMetricChanges, checkMetricDraft, unitsAfter, type MetricChanges, type MetricConfig, type MetricDraft } from "./domain/metric.js";
import { hasMetricEvents } from "./store/metric-usage.js";
import { definedOnly, type ResourceSpec } from "../account/admin-resources.js";
import { describeReferrers } from "../../engine/references.js";

/** Metrics: keys unique per tenant; the key may change only while no user has events on the metric. */
export const metricSpec: ResourceSpec<MetricConfig, MetricDraft, MetricChanges & { key?: string }> = {
  noun: "Metric",
  collection: (ctx) => ctx.database.collections.metrics as never,
  async checkDraft(_ctx, _scope, draft) {
    return checkMetricDraft(draft);
  },
  build(draft, id, now) {
    return { id, key: draft.key, name: draft.name, unitType: draft.unitType ?? "number", units: draft.units ?? "", created: now, updated: now };
  },
  async checkChanges(ctx, scope, current, changes) {
    const problem = checkMetricChanges(current, changes) ?? (changes.key !== undefined ? checkMetricDraft({ ...current, key: changes.key }) : null);
    if (problem || changes.key === undefined || changes.key === current.key) return problem;
    return (await hasMetricEvents(ctx.database.collections.metricUsage, current.id)) ? "key cannot be changed once the metric has events" : null;
  },
  applyChanges: (current, changes, now) => ({ ...current, ...definedOnly(changes), units: unitsAfter(current, changes), updated: now }),
  duplicateMessage: (metric) => `Key "${metric.key}" is already in use by another metric`,
  checkDelete: (ctx, scope, metric) => describeReferrers(ctx, scope.tenantId, "metric", metric.id, metric.key),
};
