import type { Collection } from "mongodb";
import type { MetricConfig } from "../domain/metric.js";

export interface MetricDocument extends Omit<MetricConfig, "id"> {
  _id: string;
  tenantId: string;
}

export function metricFromDocument({ _id, tenantId: _tenant, ...rest }: MetricDocument): MetricConfig {
  return { id: _id, ...rest };
}

export async function findMetricByKey(metrics: Collection<MetricDocument>, tenantId: string, key: string): Promise<MetricConfig | null> {
  const doc = await metrics.findOne({ tenantId, key });
  return doc ? metricFromDocument(doc) : null;
}
