import type { AchievementConfig } from "../../features/achievements/domain/achievement-config.js";
import type { AttributeType } from "../domain/attribute.js";
import type { LeaderboardConfig } from "../../features/leaderboards/domain/leaderboard-config.js";
import type { RankedLeaderboard } from "../../features/leaderboards/domain/leaderboard-entries.js";
import type { MetricConfig } from "../../features/metrics/domain/metric.js";
import type { StreakSettings } from "../../features/streaks/domain/streak-config.js";
import { storedStreakSettings } from "../../features/streaks/store/stored-streak-settings.js";
import { DEFAULT_SETTINGS, type AccountSettings } from "../../features/account/domain/settings.js";
import type { PointsConfig, PointsSystemSnapshot } from "../../features/points/domain/points.js";
import type { PointsBoostConfig, PointsLevelConfig, PointsSystemConfig, PointsTriggerConfig } from "../../features/points/domain/points-config.js";
import { DEFAULT_SCOPE, type TenantConfig } from "../../features/account/domain/tenant.js";
import type { WebhookEventType, WebhookSettings } from "../../features/webhooks/domain/webhooks.js";
import type { Collections } from "./database.js";
import { findMetricByKey } from "../../features/metrics/store/metrics.js";
import { liveTenant } from "../../features/account/store/tenants.js";
import { processNowMs } from "../process-clock.js";
import { LRUCache } from "lru-cache";

/** The characters of all keys together (a metric key in a path can be long). */
const MAX_KEY_CHARS = 4 * 1024 * 1024;

/** A tenant's webhook listeners, as the event path and the hand-over to delivery need them. */
export interface TenantWebhooks extends WebhookSettings {
  /** Enabled endpoints and what each subscribes to. */
  endpoints: Array<{ id: string; eventTypes: WebhookEventType[] }>;
}

/**
 * Configuration reads on the hot path, cached for at most `ttlMs` (1 s by default). An admin write on
 * this instance clears the cache at once; other instances see it within the TTL. That bound is the
 * documented staleness of configuration across instances.
 */
export class ConfigCache {
  /**
   * Bounded, least recently used out first: keys come from callers (tenant IDs, metric keys in
   * paths), and made-up ones must not grow the process; a live tenant's entries are used every second.
   */
  private readonly entries: LRUCache<string, { value: Promise<unknown>; expires: number }>;
  private readonly invalidationListeners: Array<() => void> = [];

  constructor(
    private readonly collections: Collections,
    /** How stale an entry may be: other instances see an admin write within it. */
    readonly ttlMs = 1000,
    private readonly nowMs: () => number = processNowMs,
    maxEntries = 10_000,
  ) {
    this.entries = new LRUCache({ max: maxEntries, maxSize: MAX_KEY_CHARS, sizeCalculation: (_entry, key) => key.length + 1 });
  }

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

  /**
   * Everything that decides points awards in a tenant: systems with their triggers, levels and
   * boosts, plus the names and attribute keys awards and filters need. Four reads, cached.
   * Systems, triggers and boosts come in creation order (triggers apply in it): items created in
   * one Admin call have distinct, increasing `created` instants (`creationClock`), the random ID
   * only breaks ties between separate calls made at one instant.
   */
  pointsConfig(tenantId: string): Promise<PointsConfig> {
    return this.cached(`points:${tenantId}`, async () => {
      const c = this.collections;
      const byTenant = { tenantId };
      const [systems, triggers, levels, boosts, attributes, metrics, achievements] = await Promise.all([
        c.pointsSystems.find(byTenant).sort({ created: 1, _id: 1 }).toArray(),
        c.pointsTriggers.find(byTenant).sort({ created: 1, _id: 1 }).toArray(),
        c.pointsLevels.find(byTenant).sort({ points: 1 }).toArray(),
        c.pointsBoosts.find(byTenant).sort({ created: 1, _id: 1 }).toArray(),
        c.attributes.find(byTenant, { projection: { key: 1 } }).toArray(),
        this.metrics(tenantId),
        this.achievements(tenantId),
      ]);
      const ofSystem = <T>(docs: Array<Record<string, unknown>>, systemId: string) =>
        docs.filter((d) => d.systemId === systemId).map(({ _id, tenantId: _t, systemId: _s, ...rest }) => ({ id: String(_id), ...rest }) as T);
      const snapshots: PointsSystemSnapshot[] = systems.map(({ _id, tenantId: _t, ...rest }) => {
        const system = { id: String(_id), ...rest } as PointsSystemConfig;
        return {
          system,
          triggers: ofSystem<PointsTriggerConfig>(triggers, system.id),
          levels: ofSystem<PointsLevelConfig>(levels, system.id),
          boosts: ofSystem<PointsBoostConfig>(boosts, system.id),
        };
      });
      return {
        systems: snapshots,
        attributeKeys: Object.fromEntries(attributes.map((a) => [String(a._id), a.key as string])),
        metricNames: Object.fromEntries(metrics.map((m) => [m.id, m.name])),
        achievementNames: Object.fromEntries(achievements.map((a) => [a.id, a.name])),
      };
    });
  }

  /**
   * The tenant's leaderboards of every status, oldest first, with the keys and names of what they
   * rank by and the keys of their breakdown attributes. One read besides cached ones.
   */
  leaderboards(tenantId: string): Promise<RankedLeaderboard[]> {
    return this.cached(`leaderboards:${tenantId}`, async () => {
      const [docs, points, metrics] = await Promise.all([
        this.collections.leaderboards.find({ tenantId }).sort({ created: 1, _id: 1 }).toArray(),
        this.pointsConfig(tenantId),
        this.metrics(tenantId),
      ]);
      return docs.map(({ _id, tenantId: _t, ...rest }) => {
        const config = { id: String(_id), ...rest } as LeaderboardConfig;
        const metric = metrics.find((m) => m.id === config.metricId);
        const system = points.systems.find((s) => s.system.id === config.pointsSystemId)?.system;
        return {
          config,
          metric: metric ? { key: metric.key, name: metric.name } : null,
          pointsSystem: system ? { key: system.key, name: system.name } : null,
          breakdownKeys: config.breakdownAttributes.map((id) => points.attributeKeys[id] ?? id),
          userFilters: (config.userAttributes ?? []).map((f) => ({ key: points.attributeKeys[f.attributeId] ?? f.attributeId, value: f.attributeValue })),
        };
      });
    });
  }

  /** The tenant's streak settings, or null when they were never set. */
  streakSettings(tenantId: string): Promise<StreakSettings | null> {
    return this.cached(`streak:${tenantId}`, async () => {
      const doc = await this.collections.streakSettings.findOne({ tenantId });
      return doc ? storedStreakSettings(doc) : null;
    });
  }

  /** The tenant's account settings (branding, experimentation, aggregation); the defaults until set. */
  accountSettings(tenantId: string): Promise<AccountSettings> {
    return this.cached(`settings:${tenantId}`, async () => settingsFromDocument(await this.collections.accountSettings.findOne({ _id: tenantId })));
  }

  /**
   * Who listens to the tenant's webhooks: its enabled endpoints (without secrets) and the event
   * types they subscribe to, and the tenant's own identifier for the envelope. Two reads, cached.
   */
  webhooks(tenantId: string): Promise<TenantWebhooks> {
    return this.cached(`webhooks:${tenantId}`, async () => {
      const [endpoints, tenant] = await Promise.all([
        this.collections.webhookEndpoints.find({ tenantId, enabled: true }, { projection: { _id: 1, eventTypes: 1 } }).toArray(),
        tenantId === DEFAULT_SCOPE ? null : this.collections.tenants.findOne({ _id: tenantId }, { projection: { customerId: 1 } }),
      ]);
      return {
        tenant: tenant?.customerId ?? null,
        subscribed: new Set(endpoints.flatMap((e) => e.eventTypes)),
        endpoints: endpoints.map((e) => ({ id: e._id, eventTypes: e.eventTypes })),
      };
    });
  }

  /** The tenant's custom attributes of one type: the ID of each by key (`attributesInForce`, engine/domain/user.ts). */
  attributes(tenantId: string, type: AttributeType): Promise<ReadonlyMap<string, string>> {
    return this.cached(`attributes:${tenantId}:${type}`, () => this.storedAttributes(tenantId, type));
  }

  /**
   * The same, read from the database now: for the Admin API's checks of what a new or changed item
   * names, which must not accept an attribute another instance deleted within the cache's lifetime.
   */
  async storedAttributes(tenantId: string, type: AttributeType): Promise<ReadonlyMap<string, string>> {
    const docs = await this.collections.attributes.find({ tenantId, type }, { projection: { key: 1 } }).toArray();
    return new Map(docs.map((d) => [d.key as string, String(d._id)]));
  }

  tenantByCustomerId(customerId: string): Promise<TenantConfig | null> {
    return this.cached(`tenant:${customerId}`, async () => {
      return liveTenant(await this.collections.tenants.findOne({ customerId }));
    });
  }

  /** Forgets everything; called after every configuration write (API keys included). */
  invalidate(): void {
    this.entries.clear();
    for (const listener of this.invalidationListeners) listener();
  }

  /** Calls `listener` on every `invalidate()`: for caches of configuration kept elsewhere (API keys). */
  onInvalidate(listener: () => void): void {
    this.invalidationListeners.push(listener);
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

/** The settings a stored document holds (fields an earlier version did not store read as defaults). */
export function settingsFromDocument(doc: Partial<AccountSettings> | null): AccountSettings {
  return {
    branding: { ...DEFAULT_SETTINGS.branding, ...doc?.branding },
    experimentation: { ...DEFAULT_SETTINGS.experimentation, ...doc?.experimentation },
    aggregationPeriod: doc?.aggregationPeriod ?? DEFAULT_SETTINGS.aggregationPeriod,
  };
}
