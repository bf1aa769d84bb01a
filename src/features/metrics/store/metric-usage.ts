import type { Collection } from "mongodb";
import { onlyDuplicateKeys } from "../../../engine/store/database.js";

/**
 * Metrics that have received events: one document per such metric, `_id` = the metric's ID. A
 * metric's key may change only while it has none; this answers that by `_id`, where asking the users
 * would read every user of the tenant. Written before the first user write that records an event of
 * the metric (a crash in between leaves the metric marked as used, which only keeps its key fixed).
 */
export interface MetricUsageDocument {
  _id: string;
  since: Date;
}

/** Metrics this process has already seen marked, so the event path writes a marker once per metric. */
const known = new WeakMap<Collection<MetricUsageDocument>, Set<string>>();

export async function markMetricsUsed(usage: Collection<MetricUsageDocument>, metricIds: readonly string[], now: Date): Promise<void> {
  let seen = known.get(usage);
  if (!seen) known.set(usage, (seen = new Set()));
  const fresh = metricIds.filter((id) => !seen.has(id));
  if (fresh.length === 0) return;
  try {
    await usage.bulkWrite(
      fresh.map((_id) => ({ updateOne: { filter: { _id }, update: { $setOnInsert: { since: now } }, upsert: true } })),
      { ordered: false },
    );
  } catch (error) {
    if (!onlyDuplicateKeys(error)) throw error; // another writer marked the metric at the same moment
  }
  for (const id of fresh) seen.add(id);
}

export async function hasMetricEvents(usage: Collection<MetricUsageDocument>, metricId: string): Promise<boolean> {
  return (await usage.findOne({ _id: metricId })) !== null;
}
