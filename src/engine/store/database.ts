import type { AccountSettings } from "../../features/account/domain/settings.js";
import { MongoClient, type Collection, type Db } from "mongodb";
import type { ApiKeyDocument } from "../../features/account/store/api-keys.js";
import type { EventBatchDocument, EventBatchEventsDocument, QueuedBatchDocument } from "../../features/batches/store/batch-records.js";
import type { IdempotencyDocument } from "./idempotency-records.js";
import type { LeaderboardAnnouncementDocument } from "../../features/webhooks/store/leaderboard-announcements.js";
import type { ChunkDocument, RankingDocument } from "../../features/leaderboards/store/leaderboard-rankings.js";
import type { LeaseDocument } from "../../workers/store/leases.js";
import type { Document } from "mongodb";
import type { MetricDocument } from "../../features/metrics/store/metrics.js";
import type { MetricUsageDocument } from "../../features/metrics/store/metric-usage.js";
import { ensureStatsBaseline, type AchievementStatsDocument } from "../../features/achievements/store/achievement-stats.js";
import type { TenantDocument } from "../../features/account/store/tenants.js";
import type { DueUsersDocument } from "../../workers/store/due-users.js";
import type { PendingOutboxDocument } from "../../features/webhooks/store/pending-outboxes.js";
import type { StreakPauseOwnerDocument } from "../../features/streaks/store/streak-pauses.js";
import { cacheUsers, keepStandings, type UserDocument, type WriteMode } from "./user-documents.js";
import { ensureTenantUsersBaseline, type TenantUsersDocument } from "./tenant-users.js";
import { settledWithin } from "../settled-within.js";
import { ensureListingsBaseline, type UserDeliveriesDocument } from "../../features/webhooks/store/user-deliveries.js";
import type {
  WebhookClaimDocument,
  WebhookDeliveryDocument,
  WebhookEndpointDocument,
  WebhookEndpointLogDocument,
  WebhookReadyDocument,
} from "../../features/webhooks/store/webhook-store.js";
import type { KeyedBucketDocument } from "./keyed-buckets.js";
import type { UserPageDocument } from "./list-pages.js";
import type { UserErasureDocument } from "../../features/privacy/store/user-erasures.js";

/** A tenant's account settings (features/account/domain/settings.ts), read and written by `_id` only. */
export interface AccountSettingsDocument extends AccountSettings {
  _id: string;
  /** The same as `_id`, so deleting a tenant deletes it with the tenant's other documents. */
  tenantId: string;
  updated: Date;
}

/** The service's collections. Every document but tenants and API keys carries `tenantId`. */
export interface Collections {
  tenants: Collection<TenantDocument>;
  metrics: Collection<MetricDocument>;
  apiKeys: Collection<ApiKeyDocument>;
  users: Collection<UserDocument>;
  /** The users of each tenant, listed by key (see engine/store/tenant-users.ts). */
  tenantUsers: Collection<TenantUsersDocument>;
  /** The older items of users' long lists, in pages by `_id` `tenant/user/list/page` (see engine/store/list-pages.ts). */
  userPages: Collection<UserPageDocument>;
  /** Users whose outbox holds messages not yet handed over (pending work; see features/webhooks/store/pending-outboxes.ts). */
  pendingOutboxes: Collection<PendingOutboxDocument>;
  /** Which user holds a streak pause, by pause ID (see features/streaks/store/streak-pauses.ts). */
  streakPauseOwners: Collection<StreakPauseOwnerDocument>;
  /** Users due for time-driven work, by minute (pending work; see workers/store/due-users.ts). */
  dueUsers: Collection<DueUsersDocument>;
  /** Leases and cursors of background work (the scheduler). */
  leases: Collection<LeaseDocument>;
  /** Idempotency keys moved out of user documents (see engine/record-event.ts). */
  idempotencyKeys: Collection<IdempotencyDocument>;
  /** Idempotency keys whose window ends, by day (keyed buckets; only with a window set). */
  idempotencyPurge: Collection<KeyedBucketDocument>;
  /** Custom user and event attributes. */
  attributes: Collection<Document>;
  achievements: Collection<Document>;
  /** One document per tenant: the streak rules. */
  streakSettings: Collection<Document>;
  /** One document per tenant, `_id` = the tenant's ID: branding, experimentation, aggregation (see features/account/account-settings.ts). */
  accountSettings: Collection<AccountSettingsDocument>;
  pointsSystems: Collection<Document>;
  /** Points triggers, levels and boosts carry the `systemId` of their points system. */
  pointsTriggers: Collection<Document>;
  pointsLevels: Collection<Document>;
  pointsBoosts: Collection<Document>;
  leaderboards: Collection<Document>;
  /** Admin batches of metric events, with their progress (see features/batches/event-batches.ts). */
  metricEventBatches: Collection<EventBatchDocument>;
  /** The events of batches not yet completed, one document per batch. */
  metricEventBatchEvents: Collection<EventBatchEventsDocument>;
  /** Counters behind achievement rarity (see features/achievements/store/achievement-stats.ts). */
  achievementStats: Collection<AchievementStatsDocument>;
  /** Metrics that have received events (see features/metrics/store/metric-usage.ts). */
  metricUsage: Collection<MetricUsageDocument>;
  /** Batches not completed yet (pending work; see features/batches/store/batch-records.ts). */
  metricEventBatchQueue: Collection<QueuedBatchDocument>;
  /** Completed batches whose retention ends, by day (keyed buckets). */
  metricEventBatchPurge: Collection<KeyedBucketDocument>;
  /** Leaderboard rankings: per run and group, root versions and a head (see features/leaderboards/store/leaderboard-rankings.ts). */
  leaderboardRankings: Collection<RankingDocument>;
  /** Chunks of rankings' lines in rank order, and in user order. */
  leaderboardRankChunks: Collection<ChunkDocument>;
  leaderboardUserChunks: Collection<ChunkDocument>;
  /** What the webhook worker announced about leaderboard runs (see features/webhooks/store/leaderboard-announcements.ts). */
  leaderboardAnnouncements: Collection<LeaderboardAnnouncementDocument>;
  /** Webhook endpoints with their (at-rest) signing secrets. */
  webhookEndpoints: Collection<WebhookEndpointDocument>;
  /** One document per webhook message and endpoint: delivery state, lease and attempt log. */
  webhookDeliveries: Collection<WebhookDeliveryDocument>;
  /** Markers of delivery attempts in progress (the exclusive step of a claim; see features/webhooks/store/webhook-store.ts). */
  webhookClaims: Collection<WebhookClaimDocument>;
  /** Deliveries ready to attempt (pending work; see features/webhooks/store/webhook-store.ts). */
  webhookReady: Collection<WebhookReadyDocument>;
  /** Per endpoint, its deliveries in hand-over order (pages of IDs; see features/webhooks/store/webhook-store.ts). */
  webhookEndpointLog: Collection<WebhookEndpointLogDocument>;
  /** Deliveries due for a retry (or an attempt's end), by minute (keyed buckets). */
  webhookDue: Collection<KeyedBucketDocument>;
  /** Finished deliveries whose retention ends, by day (keyed buckets). */
  webhookPurge: Collection<KeyedBucketDocument>;
  webhookUserDeliveries: Collection<UserDeliveriesDocument>;
  /** Erasures of users not finished yet (pending work; see features/privacy/store/user-erasures.ts). */
  userErasures: Collection<UserErasureDocument>;
}

export interface Database {
  client: MongoClient;
  db: Db;
  collections: Collections;
  /** How user writes are made safe (engine/store/user-documents.ts): versioned on MongoDB, single-instance on FerretDB. */
  writeMode: WriteMode;
  /** True when the server is FerretDB (it names its version in `buildInfo`). */
  isFerretDb: boolean;
  /** True when the server answers a ping. */
  isReachable(): Promise<boolean>;
  close(): Promise<void>;
}

/** How long the health and readiness probes wait for the database's answer to a ping. */
export const REACHABILITY_TIMEOUT_MS = 2_000;

/** Users kept in memory by default in single-instance mode (see engine/store/user-documents.ts). */
export const DEFAULT_USER_CACHE_ENTRIES = 5_000;
/** The user cache's memory bound (estimated: engine/store/user-documents.ts `cacheUsers`). */
export const DEFAULT_USER_CACHE_MB = 256;

/** Connects and makes sure every index exists (idempotent; run at every start-up). */
export async function openDatabase(
  uri: string,
  dbName?: string,
  writeMode?: WriteMode,
  userCacheEntries = DEFAULT_USER_CACHE_ENTRIES,
  userCacheMb = DEFAULT_USER_CACHE_MB,
): Promise<Database> {
  // Command monitoring feeds the database latency metrics and traces (server/metrics.ts, server/tracing.ts).
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000, monitorCommands: true });
  await client.connect();
  const db = client.db(dbName);
  const buildInfo = await client.db("admin").command({ buildInfo: 1 });
  const isFerretDb = typeof buildInfo.ferretdbVersion === "string";
  const collections: Collections = {
    tenants: db.collection("tenants"),
    metrics: db.collection("metrics"),
    apiKeys: db.collection("api_keys"),
    users: db.collection("users"),
    tenantUsers: db.collection("tenant_users"),
    userPages: db.collection("user_pages"),
    pendingOutboxes: db.collection("pending_outboxes"),
    dueUsers: db.collection("due_users"),
    streakPauseOwners: db.collection("streak_pause_owners"),
    idempotencyKeys: db.collection("idempotency_keys"),
    idempotencyPurge: db.collection("idempotency_purge"),
    leases: db.collection("leases"),
    attributes: db.collection("attributes"),
    achievements: db.collection("achievements"),
    streakSettings: db.collection("streak_settings"),
    accountSettings: db.collection("account_settings"),
    pointsSystems: db.collection("points_systems"),
    pointsTriggers: db.collection("points_triggers"),
    pointsLevels: db.collection("points_levels"),
    pointsBoosts: db.collection("points_boosts"),
    leaderboards: db.collection("leaderboards"),
    metricEventBatches: db.collection("metric_event_batches"),
    metricEventBatchEvents: db.collection("metric_event_batch_events"),
    metricEventBatchQueue: db.collection("metric_event_batch_queue"),
    metricUsage: db.collection("metric_usage"),
    achievementStats: db.collection("achievement_stats"),
    metricEventBatchPurge: db.collection("metric_event_batch_purge"),
    leaderboardRankings: db.collection("leaderboard_rankings"),
    leaderboardRankChunks: db.collection("leaderboard_rank_chunks"),
    leaderboardUserChunks: db.collection("leaderboard_user_chunks"),
    leaderboardAnnouncements: db.collection("leaderboard_announcements"),
    webhookEndpoints: db.collection("webhook_endpoints"),
    webhookDeliveries: db.collection("webhook_deliveries"),
    webhookClaims: db.collection("webhook_claims"),
    webhookReady: db.collection("webhook_ready"),
    webhookEndpointLog: db.collection("webhook_endpoint_log"),
    webhookDue: db.collection("webhook_due"),
    webhookPurge: db.collection("webhook_purge"),
    webhookUserDeliveries: db.collection("webhook_user_deliveries"),
    userErasures: db.collection("user_erasures"),
  };
  await createIndexes(collections);
  await ensureStatsBaseline(collections.achievementStats, collections.users);
  await ensureTenantUsersBaseline(collections.tenantUsers, collections.users);
  await ensureListingsBaseline(collections.webhookUserDeliveries, collections.webhookDeliveries, new Date());
  const mode = writeMode ?? (isFerretDb ? "single-instance" : "versioned");
  if (mode === "single-instance") {
    cacheUsers(collections.users, userCacheEntries, userCacheMb * 1024 * 1024);
    keepStandings(collections.users);
  }
  return {
    client,
    db,
    collections,
    writeMode: mode,
    isFerretDb,
    isReachable() {
      // Bounded: a database that does not answer at all (hung, or its host gone) is unreachable
      // within the health probe's budget, not after the driver's own timeouts.
      const ping = db.command({ ping: 1 }).then(
        () => true,
        () => false,
      );
      return settledWithin(ping, REACHABILITY_TIMEOUT_MS, false);
    },
    close: () => client.close(),
  };
}

async function createIndexes(c: Collections): Promise<void> {
  await Promise.all([
    c.tenants.createIndex({ customerId: 1 }, { unique: true, name: "customerId_unique" }),
    c.metrics.createIndex({ tenantId: 1, key: 1 }, { unique: true, name: "tenant_key_unique" }),
    c.apiKeys.createIndex({ prefix: 1 }, { unique: true, name: "prefix_unique" }),
    c.users.createIndex({ tenantId: 1, userId: 1 }, { unique: true, name: "tenant_user_unique" }),
    c.attributes.createIndex({ tenantId: 1, type: 1, key: 1 }, { unique: true, name: "tenant_type_key_unique" }),
    c.achievements.createIndex({ tenantId: 1, key: 1 }, { unique: true, name: "tenant_key_unique" }),
    c.streakSettings.createIndex({ tenantId: 1 }, { unique: true, name: "tenant_unique" }),
    c.pointsSystems.createIndex({ tenantId: 1, key: 1 }, { unique: true, name: "tenant_key_unique" }),
    c.pointsTriggers.createIndex({ tenantId: 1, systemId: 1 }, { name: "tenant_system" }),
    c.pointsLevels.createIndex({ tenantId: 1, systemId: 1, key: 1 }, { unique: true, name: "tenant_system_key_unique" }),
    c.pointsLevels.createIndex({ tenantId: 1, systemId: 1, points: 1 }, { unique: true, name: "tenant_system_points_unique" }),
    c.pointsBoosts.createIndex({ tenantId: 1, systemId: 1 }, { name: "tenant_system" }),
    c.leaderboards.createIndex({ tenantId: 1, key: 1 }, { unique: true, name: "tenant_key_unique" }),
    // Rankings are read by _id only; these serve deleting a leaderboard's or a tenant's rankings.
    c.leaderboardRankings.createIndex({ tenantId: 1, leaderboardId: 1 }, { name: "tenant_leaderboard" }),
    c.leaderboardRankChunks.createIndex({ tenantId: 1, leaderboardId: 1 }, { name: "tenant_leaderboard" }),
    c.leaderboardUserChunks.createIndex({ tenantId: 1, leaderboardId: 1 }, { name: "tenant_leaderboard" }),
    // The announcer reads a tenant's announcement state in one query.
    c.leaderboardAnnouncements.createIndex({ tenantId: 1 }, { name: "tenant" }),
    c.webhookEndpoints.createIndex({ tenantId: 1 }, { name: "tenant" }),
    // Delivery work, the Admin API's listings and deleting an endpoint reach deliveries by _id
    // (webhook_ready, keyed buckets, the endpoint log); this serves deleting a tenant's deliveries.
    c.webhookDeliveries.createIndex({ tenantId: 1, endpointId: 1 }, { name: "tenant_endpoint" }),
    // Erasing or exporting a user whose document was stored before moves were listed finds the
    // idempotency records moved out of it by their user (and deleting a tenant, by its prefix).
    c.idempotencyKeys.createIndex({ tenantId: 1, userId: 1 }, { name: "tenant_user" }),
  ]);
}

/**
 * True when a driver error is a unique-index violation: code 11000, or on FerretDB's SQLite backend
 * an update or replacement that would break a unique index, which it answers with code 1
 * (`InternalError`) and SQLite's "UNIQUE constraint failed" (its inserts answer 11000).
 */
export function isDuplicateKeyError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 11000 || (code === 1 && typeof message === "string" && message.includes("UNIQUE constraint failed"));
}

/** Runs an upsert again when it lost the race to create its document (the document exists now). */
export async function retryOnDuplicate<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    return write();
  }
}

/**
 * True when every write of a failed bulk write (or the single write) lost a race to insert the same
 * `_id`: two upserts of one new document at once can make one of them fail so (on MongoDB and
 * FerretDB), after the other created the document.
 */
export function onlyDuplicateKeys(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
  if (writeErrors === undefined) return isDuplicateKeyError(error);
  const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
  return list.length > 0 && list.every(isDuplicateKeyError);
}
