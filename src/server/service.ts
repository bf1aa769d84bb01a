import { ErasedUsers } from "../features/batches/erased-users.js";
import { randomUUID } from "node:crypto";
import type { ConnectRouter } from "@connectrpc/connect";
import type { MongoClient } from "mongodb";
import type { JsonValue } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { ACCOUNT_LEVEL_ADMIN_METHODS, createAdminMethods } from "../features/account/api/admin-service.js";
import { createApplicationMethods } from "../features/users/api/application-service.js";
import type { DescFile, DescService } from "@bufbuild/protobuf";
import { createAdmission, type ServicePolicy } from "../transport/admission.js";
import { guardService, unaryMethod, type ScopedService } from "../transport/guard.js";
import { REFLECTION_SERVICES, registerReflection } from "../transport/reflection.js";
import { createRateLimiter, type RateLimitOptions } from "../transport/rate-limit-buckets.js";
import { createRestRouter, type RestService } from "../transport/rest.js";
import { AdminService, file_gamification_v1_admin_service } from "../gen/gamification/v1/admin_service_pb.js";
import { ApplicationService, file_gamification_v1_application_service } from "../gen/gamification/v1/application_service_pb.js";
import { createAchievementAdminMethods } from "../features/achievements/api/achievement-admin-service.js";
import { createLeaderboardAdminMethods } from "../features/leaderboards/api/leaderboard-admin-service.js";
import { createStreakAdminMethods } from "../features/streaks/api/streak-admin-service.js";
import { createSettingsAdminMethods } from "../features/account/api/settings-admin-service.js";
import { SettingsAdminService, file_gamification_v1_settings_admin_service } from "../gen/gamification/v1/settings_admin_service_pb.js";
import { createPointsAdminMethods } from "../features/points/api/points-admin-service.js";
import { PointsAdminService, file_gamification_v1_points_admin_service } from "../gen/gamification/v1/points_admin_service_pb.js";
import { createPointsMethods } from "../features/points/api/points-service.js";
import { PointsService, file_gamification_v1_points_service } from "../gen/gamification/v1/points_service_pb.js";
import { AchievementAdminService, file_gamification_v1_achievement_admin_service } from "../gen/gamification/v1/achievement_admin_service_pb.js";
import { LeaderboardAdminService, file_gamification_v1_leaderboard_admin_service } from "../gen/gamification/v1/leaderboard_admin_service_pb.js";
import { LeaderboardService, file_gamification_v1_leaderboard_service } from "../gen/gamification/v1/leaderboard_service_pb.js";
import { createLeaderboardMethods } from "../features/leaderboards/api/leaderboard-service.js";
import { StreakAdminService, file_gamification_v1_streak_admin_service } from "../gen/gamification/v1/streak_admin_service_pb.js";
import type { RetentionOptions, ServiceContext } from "../engine/context.js";
import { createEventBatchWorker } from "../features/batches/event-batches.js";
import { runDueWork } from "../workers/due-work.js";
import { createScheduler, schedulerLagMs } from "../workers/scheduler.js";
import { createWebhookWorker } from "../features/webhooks/webhook-worker.js";
import { createWebhookAdminMethods } from "../features/webhooks/api/webhook-admin-service.js";
import { createPrivacyAdminMethods } from "../features/privacy/api/privacy-admin-service.js";
import { PrivacyAdminService, file_gamification_v1_privacy_admin_service } from "../gen/gamification/v1/privacy_admin_service_pb.js";
import { finishUnfinishedErasures } from "../features/privacy/erase-user.js";
import { finishUnfinishedTenantDeletions } from "../features/account/admin-tenants.js";
import { WebhookAdminService, file_gamification_v1_webhook_admin_service } from "../gen/gamification/v1/webhook_admin_service_pb.js";
import { DEFAULT_RETRY_SCHEDULE_MS } from "../features/webhooks/webhook-delivery-policy.js";
import { createSecretCodec } from "../features/webhooks/store/webhook-secrets.js";
import { ensureAdminKey } from "../features/account/store/api-keys.js";
import { ConfigCache } from "../engine/store/config-cache.js";
import { openDatabase } from "../engine/store/database.js";
import { acquireInstanceLease, DEFAULT_INSTANCE_LEASE_MS, type InstanceLease } from "../workers/store/instance-lease.js";
import type { WriteMode } from "../engine/store/user-documents.js";
import { TenantCalls } from "../engine/tenant-calls.js";
import { KeyedLock } from "../engine/store/keyed-lock.js";
import { DEFAULT_LIMITS, startHttpServer, type RequestTracing, type RunningHttpServer, type ServerLimits } from "./http-server.js";
import { createMetrics, type ServiceMetrics } from "./metrics.js";
import { createApiDocs } from "./api-docs.js";

export interface ServiceOptions {
  mongodbUri: string;
  mongodbDb?: string;
  port: number;
  host?: string;
  adminApiKey?: string;
  /** HTTP resource limits; each unset one keeps its default (http-server.ts DEFAULT_LIMITS). */
  limits?: Partial<ServerLimits>;
  logger: Logger;
  now?: () => Date;
  /** How long idempotency keys are remembered; unset: forever. */
  idempotencyWindowMs?: number | null;
  /** Retention of batch records and rank history (see workers/retention-purge.ts); unset fields: their defaults. */
  retention?: Partial<RetentionOptions>;
  /** This deployment as an environment; unset: key "production", name "Production". */
  environment?: { key: string; name: string };
  /** Default rate limits per key and per tenant; unset: none (keys' own Admin API settings still apply). */
  rateLimits?: Partial<RateLimitOptions>;
  /**
   * How user writes are made safe (engine/store/user-documents.ts); unset: versioned on MongoDB,
   * single-instance on FerretDB. `versioned` on FerretDB is refused (its version checks are not
   * atomic: concurrent writers lose writes) unless `versionedOnFerretDbForTests` is set.
   */
  writeMode?: WriteMode;
  /** Test-only: run `versioned` on FerretDB anyway, to test the several-instances code paths where MongoDB cannot run. */
  versionedOnFerretDbForTests?: boolean;
  /** Single-instance mode: how long this instance's claim on the database lasts unless renewed (15 s). */
  instanceLeaseMs?: number;
  /** Single-instance mode: users kept in memory (default 5,000; 0: none). */
  userCacheEntries?: number;
  /** Single-instance mode: the estimated memory they may take, in MiB (default 256). */
  userCacheMb?: number;
  /** Called when another instance took this one's database lease over (default: exit the process). */
  onInstanceLeaseLost?: () => void;
  /** Test-only fault injection at named pipeline points. */
  atPipelinePoint?: ServiceContext["atPipelinePoint"];
  /** How long a claim on a batch of events lasts unless renewed (default 30 s; tests shorten it). */
  eventBatchLeaseMs?: number;
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; unset: open. */
  metricsToken?: string;
  /** Web origins browsers may call from (CORS), or "*"; absent or empty: no CORS headers. */
  corsOrigins?: readonly string[];
  /** Request and database command spans (tracing.ts); unset: tracing is off. */
  tracing?: ServiceTracing;
  /** How long close() lets requests in flight finish (10 s). */
  shutdownGraceMs?: number;
  /** Webhook delivery; every field has a default (see engine/context.ts WebhookOptions). */
  webhooks?: {
    allowPrivateNetworks?: boolean;
    retryScheduleMs?: readonly number[];
    timeoutMs?: number;
    retentionMs?: number;
    /** 32 bytes: signing secrets are encrypted at rest with it; unset: stored as they are. */
    secretsKey?: Buffer | null;
    /** How often idle webhook loops look for work (1 s). */
    pollMs?: number;
    /** How often boosts are checked for a start or finish to announce (60 s). */
    boostCheckMs?: number;
    /** How long the webhook coordinator's lease lasts unless renewed (30 s; tests shorten it). */
    leaseMs?: number;
  };
}

export interface RunningService {
  port: number;
  context: ServiceContext;
  metrics: ServiceMetrics;
  /** Every REST route the server answers (method and path template), as openapi/openapi.json must describe them. */
  restRoutes: ReadonlyArray<{ method: string; template: string }>;
  /**
   * Graceful stop: readiness turns 503, the server stops accepting and lets requests in flight
   * finish (within the grace time), then the background workers stop and the database closes.
   */
  close(): Promise<void>;
}

/** What tracing.ts hands the service when tracing is on. */
export interface ServiceTracing {
  requests: RequestTracing;
  /** Spans for the database commands of this client (created with `monitorCommands: true`). */
  watchCommands(client: MongoClient): void;
}

/**
 * Opens the database (creating indexes), makes sure the bootstrap admin key exists, and serves
 * every protocol on one port. `close()` stops accepting requests, then closes the database.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { logger } = options;
  const database = await openDatabase(options.mongodbUri, options.mongodbDb, options.writeMode, options.userCacheEntries, options.userCacheMb);
  if (database.isFerretDb && database.writeMode === "versioned" && !options.versionedOnFerretDbForTests) {
    await database.client.close();
    throw new Error(
      "WRITE_MODE=versioned cannot run on FerretDB: its version-checked writes are not atomic, so instances writing at once lose events. " +
        "Leave WRITE_MODE unset (single-instance, one instance per database) or run several instances against MongoDB.",
    );
  }
  // openDatabase returns once every index exists; the server listens only after that.
  const indexesBuilt = true;
  options.tracing?.watchCommands(database.client);
  let instanceLease: InstanceLease | null = null;
  if (database.writeMode === "single-instance") {
    try {
      instanceLease = await acquireInstanceLease(database.db.collection("leases"), {
        owner: randomUUID(),
        leaseMs: options.instanceLeaseMs ?? DEFAULT_INSTANCE_LEASE_MS,
        logger,
        onLost: options.onInstanceLeaseLost ?? (() => process.exit(1)),
      });
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  const now = options.now ?? (() => new Date());
  if (options.adminApiKey && (await ensureAdminKey(database.collections.apiKeys, options.adminApiKey, now())) === "revoked") {
    logger.warn(
      "ADMIN_API_KEY was revoked through the Admin API and stays revoked: set another value to bootstrap a new admin key " +
        "(embedded database: delete admin-api-key in DATA_DIR and one is generated)",
    );
  }
  const context: ServiceContext = {
    database,
    config: new ConfigCache(database.collections),
    userLocks: new KeyedLock(),
    erasedUsers: new ErasedUsers(),
    tenantCalls: new TenantCalls(),
    now,
    idempotencyWindowMs: options.idempotencyWindowMs ?? null,
    retention: options.retention,
    environment: options.environment,
    atPipelinePoint: options.atPipelinePoint,
    observer: undefined,
    webhooks: {
      secrets: createSecretCodec(options.webhooks?.secretsKey ?? null),
      allowPrivateNetworks: options.webhooks?.allowPrivateNetworks ?? false,
      retryScheduleMs: options.webhooks?.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULE_MS,
      timeoutMs: options.webhooks?.timeoutMs ?? 15_000,
      retentionMs: options.webhooks?.retentionMs ?? 30 * 86_400_000,
    },
  };
  let server: RunningHttpServer | undefined;
  const metrics = createMetrics({
    schedulerLagMs: () => schedulerLagMs(context),
    batchBacklog: () => database.collections.metricEventBatchQueue.estimatedDocumentCount(),
    webhookQueueDepth: () => database.collections.webhookReady.estimatedDocumentCount(),
    requestsInFlight: () => server?.inFlight() ?? 0,
  });
  metrics.watchCommands(database.client);
  context.observer = metrics.observer;
  let workersRunning = false;
  let stopping = false;
  // Processes admin batches of events in the background; started once the server listens.
  const batchWorker = createEventBatchWorker(context, logger, { leaseMs: options.eventBatchLeaseMs });
  // Hands webhook messages over from users' outboxes and delivers them; started once the server listens.
  const webhookWorker = createWebhookWorker(context, logger, {
    pollMs: options.webhooks?.pollMs,
    boostCheckMs: options.webhooks?.boostCheckMs,
    leaseMs: options.webhooks?.leaseMs,
  });
  context.wakeWebhooks = () => webhookWorker.wake();

  // Every service the server exposes, with its methods and who may call them. Adding a service is
  // one entry here: Connect, gRPC, gRPC-web, REST and reflection all follow from it. `serve` checks
  // each service's methods against its own generated descriptor, then guards them.
  const serve = <S extends DescService>(service: S, methods: ScopedService<S>, options: ServicePolicy, file: DescFile) => ({
    service,
    options,
    file,
    methods: guardService(service, methods, options, context, logger),
  });
  // Configuration writes (`ServicePolicy.configurationWrites`): creating, changing and deleting
  // metrics, attributes, achievements, leaderboards, points systems and what they hold, and the
  // streak settings; not the user operations of the streak service, keys, tenants or batches.
  const writes = (pattern: RegExp) => (method: string) => pattern.test(method);
  const definitions = [
    serve(ApplicationService, createApplicationMethods(context), { adminOnly: false }, file_gamification_v1_application_service),
    serve(
      AdminService,
      createAdminMethods(context, { eventBatchSubmitted: () => batchWorker.wake() }),
      { adminOnly: true, accountLevel: ACCOUNT_LEVEL_ADMIN_METHODS, configurationWrites: writes(/^(create|update|delete)(Metrics|Attributes)$/) },
      file_gamification_v1_admin_service,
    ),
    serve(
      AchievementAdminService,
      createAchievementAdminMethods(context),
      { adminOnly: true, configurationWrites: writes(/^(create|update|delete)/) },
      file_gamification_v1_achievement_admin_service,
    ),
    serve(
      LeaderboardAdminService,
      createLeaderboardAdminMethods(context),
      { adminOnly: true, configurationWrites: writes(/^(create|update|delete)/) },
      file_gamification_v1_leaderboard_admin_service,
    ),
    serve(
      StreakAdminService,
      createStreakAdminMethods(context),
      { adminOnly: true, configurationWrites: writes(/^(update|patch)StreakSettings$/) },
      file_gamification_v1_streak_admin_service,
    ),
    serve(
      PointsAdminService,
      createPointsAdminMethods(context),
      { adminOnly: true, configurationWrites: writes(/^(create|update|delete)/) },
      file_gamification_v1_points_admin_service,
    ),
    serve(PointsService, createPointsMethods(context), { adminOnly: false }, file_gamification_v1_points_service),
    serve(LeaderboardService, createLeaderboardMethods(context), { adminOnly: false }, file_gamification_v1_leaderboard_service),
    serve(WebhookAdminService, createWebhookAdminMethods(context), { adminOnly: true }, file_gamification_v1_webhook_admin_service),
    serve(PrivacyAdminService, createPrivacyAdminMethods(context), { adminOnly: true }, file_gamification_v1_privacy_admin_service),
    serve(
      SettingsAdminService,
      createSettingsAdminMethods(context),
      { adminOnly: true, accountLevel: new Set(["listEnvironments"]) },
      file_gamification_v1_settings_admin_service,
    ),
  ];
  // One limiter for every service and protocol, so a key's requests all draw from one bucket.
  const rateLimiter = createRateLimiter({
    perKey: options.rateLimits?.perKey ?? null,
    tenant: options.rateLimits?.tenant ?? null,
    invalidKeys: options.rateLimits?.invalidKeys ?? null,
  });
  const services: RestService[] = definitions.map(({ service, methods }) => ({ service, methods }));
  const routes = (router: ConnectRouter) => {
    // Method by method: the guarded methods are typed from the descriptors they were checked against.
    for (const { service, methods } of services) {
      for (const method of service.methods) router.rpc(unaryMethod(method), methods[method.localName]!);
    }
    registerReflection(router, [...new Set(definitions.map((d) => d.file))]);
  };
  const rest = createRestRouter(services);
  try {
    server = await startHttpServer(
      {
        routes,
        rest,
        admission: createAdmission(context, new Map(definitions.map((d) => [d.service.typeName, d.options])), rateLimiter, logger),
        publicServices: REFLECTION_SERVICES,
        health: async () =>
          (await database.isReachable())
            ? { status: 200, body: { status: "ok", database: "reachable" } }
            : { status: 503, body: { status: "unavailable", database: "unreachable" } },
        ready: async (): Promise<{ status: number; body: JsonValue }> => {
          const checks = {
            database: (await database.isReachable()) ? "reachable" : "unreachable",
            indexes: indexesBuilt ? "built" : "missing",
            workers: stopping ? "stopping" : workersRunning ? "running" : "not started",
          };
          const failing = Object.entries(checks)
            .filter(([, value]) => !["reachable", "built", "running"].includes(value))
            .map(([name]) => name);
          return failing.length === 0 ? { status: 200, body: { status: "ready", checks } } : { status: 503, body: { status: "unavailable", checks, failing } };
        },
        metrics: { metrics, token: options.metricsToken },
        corsOrigins: options.corsOrigins,
        tracing: options.tracing?.requests,
        shutdownGraceMs: options.shutdownGraceMs,
        docs: createApiDocs(),
        limits: { ...DEFAULT_LIMITS, ...options.limits },
        logger,
      },
      options.port,
      options.host ?? "0.0.0.0",
    );
  } catch (error) {
    await instanceLease?.release();
    await database.close();
    throw error;
  }
  batchWorker.start();
  // Time-driven work of every user (streak period ends, freezes, time-triggered points).
  const scheduler = createScheduler(context, logger, { work: runDueWork });
  scheduler.start();
  webhookWorker.start();
  // Erasures a crash cut short are finished (each also finishes when the user is erased again).
  void finishUnfinishedErasures(context, logger).catch((error) => logger.error({ err: error }, "could not finish unfinished user erasures"));
  // So are tenant deletions (each also finishes when the tenant is deleted again).
  void finishUnfinishedTenantDeletions(context, logger).catch((error) => logger.error({ err: error }, "could not finish unfinished tenant deletions"));
  workersRunning = true;
  let closing: Promise<void> | null = null;
  return {
    port: server.port,
    context,
    metrics,
    restRoutes: rest.routes.map((r) => ({ method: r.httpMethod, template: r.template })),
    close: () =>
      (closing ??= (async () => {
        stopping = true;
        // Requests in flight may still need the workers' wake-ups and the database: drain them first.
        await server.close();
        // A database out of reach must not keep the service from closing: leases not released end
        // on their own after their time.
        const atShutdown = (what: string, step: Promise<void> | undefined) =>
          step?.catch((error: unknown) => logger.warn({ err: error }, `${what} at shutdown failed`));
        await Promise.all([
          atShutdown("stopping the batch worker", batchWorker.stop()),
          atShutdown("stopping the scheduler", scheduler.stop()),
          atShutdown("stopping the webhook worker", webhookWorker.stop()),
        ]);
        workersRunning = false;
        await atShutdown("releasing the instance lease", instanceLease?.release());
        await database.close();
      })()),
  };
}
