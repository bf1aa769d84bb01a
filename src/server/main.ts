import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import pino from "pino";
import { ConfigError, readConfig } from "./config.js";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "./embedded-db.js";
import type { ServiceContext } from "../engine/context.js";
import { startService } from "./service.js";
import { parseSecretsKey } from "../features/webhooks/store/webhook-secrets.js";
import { isDatabaseUnreachable } from "../engine/database-errors.js";

/**
 * Starts the service. Without MONGODB_URI it starts an embedded development database whose data,
 * and a generated admin key, live in DATA_DIR (default `.data/`, git-ignored) between runs.
 */
async function main(): Promise<void> {
  const config = readConfig();
  const logger = pino({ level: config.logLevel, redact: ["req.headers['x-api-key']", "*.apiKey", "*.adminApiKey", "*.secret", "*.secretsKey"] });
  // Tracing is loaded only when a collector is configured: without it, not even the SDK is imported.
  const tracing = config.otlpEndpoint ? (await import("./tracing.js")).startTracing() : undefined;
  if (tracing) logger.info({ endpoint: config.otlpEndpoint }, "tracing on: spans are exported over OTLP/HTTP");
  let embedded: EmbeddedDatabase | undefined;
  let mongodbUri = config.mongodbUri;
  let adminApiKey = config.adminApiKey;
  let webhookSecretsKey = config.webhooks.secretsKey;
  if (!mongodbUri) {
    const dataDir = resolve(config.dataDir);
    await mkdir(dataDir, { recursive: true });
    embedded = await startEmbeddedDatabase({ dataDir, logger, sync: config.embeddedDbSync });
    mongodbUri = embedded.uri;
    adminApiKey ??= await readOrCreateDevAdminKey(dataDir);
    webhookSecretsKey ??= await readOrCreateDevSecretsKey(dataDir);
  }
  const service = await startService({
    mongodbUri,
    mongodbDb: config.mongodbDb ?? (embedded ? "gamification" : undefined),
    port: config.port,
    host: config.host,
    adminApiKey,
    limits: config.limits,
    rateLimits: config.rateLimits,
    environment: config.environment,
    writeMode: config.writeMode,
    instanceLeaseMs: config.instanceLeaseMs,
    userCacheEntries: config.userCacheEntries,
    userCacheMb: config.userCacheMb,
    idempotencyWindowMs: config.idempotencyWindowHours === null ? null : config.idempotencyWindowHours * 3_600_000,
    retention: { batchMs: config.retention.batchDays * 86_400_000, rankHistoryDays: config.retention.rankHistoryDays },
    metricsToken: config.metricsToken,
    corsOrigins: config.corsOrigins,
    tracing,
    shutdownGraceMs: config.shutdownGraceMs,
    atPipelinePoint: crashAtPipelinePoint(config.test.crashAt),
    // Test-only: a short lease lets a restarted server resume a crashed server's batch at once.
    eventBatchLeaseMs: config.test.batchLeaseMs,
    webhooks: {
      allowPrivateNetworks: config.webhooks.allowPrivateNetworks,
      retryScheduleMs: config.webhooks.retryScheduleMs,
      timeoutMs: config.webhooks.timeoutMs,
      retentionMs: config.webhooks.retentionDays * 86_400_000,
      secretsKey: webhookSecretsKey ? parseSecretsKey(webhookSecretsKey) : null,
      // Test-only: a short lease lets a restarted server take over a crashed server's webhook work at once.
      leaseMs: config.test.webhookLeaseMs,
    },
    logger,
  });
  if (!webhookSecretsKey) logger.warn("WEBHOOK_SECRETS_KEY is not set; webhook signing secrets are stored unencrypted in the database");
  logger.info({ port: service.port, database: embedded?.kind ?? "MONGODB_URI" }, "gamification service listening");
  if (embedded) {
    // Printed on purpose, once, for the developer running the embedded database (never in production).
    console.log(
      `\nAdmin API key (embedded development database): ${adminApiKey}\nTry: curl -H "X-API-KEY: ${adminApiKey}" localhost:${service.port}/admin/v1/metrics\n`,
    );
  } else if (!adminApiKey) {
    logger.warn("ADMIN_API_KEY is not set; only admin keys already stored in the database can call the Admin API");
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, inFlightGraceMs: config.shutdownGraceMs }, "shutting down: draining requests in flight");
    await service.close();
    await tracing?.shutdown().catch((error: unknown) => logger.warn({ err: error }, "exporting the last spans failed"));
    await embedded?.stop();
    logger.info("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

/**
 * Test-only fault injection for the crash-safety tests: with GAMIFICATION_TEST_CRASH_AT set to a
 * pipeline point, the process kills itself (SIGKILL, no clean-up) the first time it reaches it.
 */
function crashAtPipelinePoint(point: string | undefined): ServiceContext["atPipelinePoint"] {
  if (!point) return undefined;
  return (reached) => {
    if (reached === point) process.kill(process.pid, "SIGKILL");
  };
}

/** The embedded database's admin key, generated on first start and kept in the data directory. */
async function readOrCreateDevAdminKey(dataDir: string): Promise<string> {
  const file = join(dataDir, "admin-api-key");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    const key = `adm_dev${randomBytes(3).toString("hex")}.${randomBytes(24).toString("base64url")}`;
    await writeFile(file, `${key}\n`, { mode: 0o600 });
    return key;
  }
}

/** The embedded database's webhook secrets key, generated on first start and kept in the data directory. */
async function readOrCreateDevSecretsKey(dataDir: string): Promise<string> {
  const file = join(dataDir, "webhook-secrets-key");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    const key = randomBytes(32).toString("base64");
    await writeFile(file, `${key}\n`, { mode: 0o600 });
    return key;
  }
}

main().catch((error) => {
  // A refused configuration value, or a database out of reach: one line that says what to fix; no stack trace.
  if (error instanceof ConfigError) console.error(`Invalid configuration: ${error.message}`);
  else if (isDatabaseUnreachable(error))
    console.error(`Cannot reach the database at MONGODB_URI (${(error as Error).message}); start it or correct MONGODB_URI`);
  else console.error(error);
  process.exit(1);
});
