import type { AchievementConfig } from "../domain/achievement-config.js";
import type { AttributeType } from "../domain/attribute.js";
import type { MetricConfig } from "../domain/metric.js";
import type { TenantConfig } from "../domain/tenant.js";
import type { Collections } from "./database.js";
import { findMetricByKey } from "./metrics.js";
import { tenantFromDocument } from "./tenants.js";

/**
 * Configuration reads on the hot path, cached for at most `ttlMs` (1 s by default). An admin write on
 * this instance clears the cache at once; other instances see it within the TTL. That bound is the
 * documented staleness of configuration across instances.
 */
export class ConfigCache {
  private readonly entries = new Map<string, { value: Promise<unknown>; expires: number }>();

  constructor(
    private readonly collections: Collections,
    private readonly ttlMs = 1000,
    private readonly nowMs: () => number = Date.now,
  ) {}

  metricByKey(tenantId: string, key: string): Promise<MetricConfig | null> {
    return this.cached(`metric:${tenantId}:${key}`, () => findMetricByKey(this.collections.metrics, tenantId, key));
  }

  /** The tenant's metrics, oldest first. */
  metrics(tenantId: string): Promise<MetricConfig[]> {
    return this.cached(`metrics:${tenantId}`, async () => {
      const docs = await this.collections.metrics.find({ tenantId }).sort({ created: 1, _id: 1 }).toArray();
      return docs.map(({ _id, tenantId: _t, ...rest }) => ({ id: _id, ...rest }));
    });
  }

  /** The tenant's achievements of every status, oldest first. */
  achievements(tenantId: string): Promise<AchievementConfig[]> {
    return this.cached(`achievements:${tenantId}`, async () => {
      const docs = await this.collections.achievements.find({ tenantId }).sort({ created: 1, _id: 1 }).toArray();
      return docs.map(({ _id, tenantId: _t, ...rest }) => ({ id: String(_id), ...rest }) as AchievementConfig);
    });
  }

  /** The keys of the tenant's custom attributes of one type. */
  attributeKeys(tenantId: string, type: AttributeType): Promise<ReadonlySet<string>> {
    return this.cached(`attributes:${tenantId}:${type}`, async () => {
      const docs = await this.collections.attributes.find({ tenantId, type }, { projection: { key: 1 } }).toArray();
      return new Set(docs.map((d) => d.key as string));
    });
  }

  tenantByCustomerId(customerId: string): Promise<TenantConfig | null> {
    return this.cached(`tenant:${customerId}`, async () => {
      const doc = await this.collections.tenants.findOne({ customerId });
      return doc ? tenantFromDocument(doc) : null;
    });
  }

  /** Forgets everything; called after every configuration write. */
  invalidate(): void {
    this.entries.clear();
  }

  /** Concurrent misses of one entry share one load (single flight), so an expiry costs one read. */
  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.nowMs()) return hit.value as Promise<T>;
    const value = load();
    this.entries.set(key, { value, expires: this.nowMs() + this.ttlMs });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}
