import { MAX_RATE_LIMIT, type RateLimitSetting } from "../domain/rate-limits.js";
import { parseRetrySchedule } from "../domain/webhooks.js";
import { DEFAULT_USER_CACHE_ENTRIES } from "../store/database.js";
import { DEFAULT_INSTANCE_LEASE_MS } from "../store/instance-lease.js";
import type { WriteMode } from "../store/users.js";
import type { EmbeddedDbSync } from "./embedded-db.js";
import { DEFAULT_LIMITS, type ServerLimits } from "./http-server.js";

/** Service configuration, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  /** Empty: start the embedded development database. */
  mongodbUri: string;
  /** Database name; defaults to the one in the URI, or `gamification`. */
  mongodbDb: string | undefined;
  /** When set, an admin key with exactly this value is made to exist at start-up. */
  adminApiKey: string | undefined;
  /** Where the embedded database and its generated admin key live. */
  dataDir: string;
  /** When the embedded FerretDB's writes reach the disk (see EmbeddedDbSync). */
  embeddedDbSync: EmbeddedDbSync;
  logLevel: string;
  /** How user writes are made safe; unset: by the database (versioned on MongoDB, single-instance on FerretDB). */
  writeMode: WriteMode | undefined;
  /** Single-instance mode: how long the instance's claim on the database lasts unless renewed, in ms. */
  instanceLeaseMs: number;
  /** Single-instance mode: users kept in memory (0: none). */
  userCacheEntries: number;
  /** HTTP resource limits: body and header sizes, timeouts, connections, HTTP/2 streams. */
  limits: ServerLimits;
  /** How long idempotency keys are remembered, in hours; null: forever. */
  idempotencyWindowHours: number | null;
  webhooks: {
    /** Allow webhook endpoints on loopback and private networks (development, tests, on-premises receivers). */
    allowPrivateNetworks: boolean;
    /** Delays before each attempt, in ms; unset: the default schedule (about a day). */
    retryScheduleMs: number[] | undefined;
    /** Timeout of one attempt, in ms. */
    timeoutMs: number;
    /** How long delivered and failed messages (with their attempt logs) are kept, in days. */
    retentionDays: number;
    /** Base64 of 32 bytes: signing secrets are encrypted at rest with it. */
    secretsKey: string | undefined;
  };
  /** This deployment as an environment (the Admin API's environments): machine key and display name. */
  environment: { key: string; name: string };
  /** Token-bucket rate limits; null: none (the default). A key's own Admin API setting applies regardless. */
  rateLimits: {
    /** Every key without its own setting. */
    perKey: RateLimitSetting | null;
    /** Shared by all application keys of one tenant. */
    tenant: RateLimitSetting | null;
  };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    mongodbUri: env.MONGODB_URI ?? "",
    mongodbDb: env.MONGODB_DB || undefined,
    adminApiKey: env.ADMIN_API_KEY || undefined,
    dataDir: env.DATA_DIR ?? ".data",
    embeddedDbSync: embeddedDbSync(env.EMBEDDED_DB_SYNC),
    logLevel: env.LOG_LEVEL ?? "info",
    writeMode: writeMode(env.WRITE_MODE),
    instanceLeaseMs: positiveInteger(env, "INSTANCE_LEASE_MS", DEFAULT_INSTANCE_LEASE_MS),
    userCacheEntries: env.USER_CACHE_ENTRIES === "0" ? 0 : positiveInteger(env, "USER_CACHE_ENTRIES", DEFAULT_USER_CACHE_ENTRIES),
    limits: {
      maxRequestBytes: positiveInteger(env, "MAX_REQUEST_BYTES", DEFAULT_LIMITS.maxRequestBytes),
      headersTimeoutMs: positiveInteger(env, "HEADERS_TIMEOUT_MS", DEFAULT_LIMITS.headersTimeoutMs),
      requestTimeoutMs: positiveInteger(env, "REQUEST_TIMEOUT_MS", DEFAULT_LIMITS.requestTimeoutMs),
      keepAliveTimeoutMs: positiveInteger(env, "KEEP_ALIVE_TIMEOUT_MS", DEFAULT_LIMITS.keepAliveTimeoutMs),
      idleTimeoutMs: positiveInteger(env, "IDLE_TIMEOUT_MS", DEFAULT_LIMITS.idleTimeoutMs),
      maxHeaderBytes: positiveInteger(env, "MAX_HEADER_BYTES", DEFAULT_LIMITS.maxHeaderBytes),
      maxConnections: positiveInteger(env, "MAX_CONNECTIONS", DEFAULT_LIMITS.maxConnections),
      maxConcurrentStreams: positiveInteger(env, "MAX_CONCURRENT_STREAMS", DEFAULT_LIMITS.maxConcurrentStreams),
    },
    idempotencyWindowHours: env.IDEMPOTENCY_WINDOW_HOURS ? positiveNumber(env, "IDEMPOTENCY_WINDOW_HOURS", 0) : null,
    webhooks: {
      allowPrivateNetworks: env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS === "true",
      retryScheduleMs: env.WEBHOOK_RETRY_SCHEDULE_MS ? parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE_MS) : undefined,
      timeoutMs: positiveNumber(env, "WEBHOOK_TIMEOUT_MS", 15_000),
      retentionDays: positiveNumber(env, "WEBHOOK_LOG_RETENTION_DAYS", 30),
      secretsKey: env.WEBHOOK_SECRETS_KEY || undefined,
    },
    environment: environment(env),
    rateLimits: {
      perKey: rateLimit(env, "RATE_LIMIT_PER_KEY", "RATE_LIMIT_BURST"),
      tenant: rateLimit(env, "RATE_LIMIT_TENANT", "RATE_LIMIT_TENANT_BURST"),
    },
  };
}

function environment(env: NodeJS.ProcessEnv): { key: string; name: string } {
  const key = env.ENVIRONMENT_KEY || "production";
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(key)) throw new Error(`ENVIRONMENT_KEY must be 1 to 63 lower-case letters, digits, "-" or "_", starting with a letter or digit, got "${key}"`);
  const name = env.ENVIRONMENT_NAME || "Production";
  if (name.trim() === "" || name.length > 100) throw new Error(`ENVIRONMENT_NAME must be 1 to 100 characters, got "${name}"`);
  return { key, name };
}

function embeddedDbSync(raw: string | undefined): EmbeddedDbSync {
  if (raw === undefined || raw === "") return "normal";
  if (raw === "normal" || raw === "full") return raw;
  throw new Error(`EMBEDDED_DB_SYNC must be "normal" or "full", got "${raw}"`);
}

function writeMode(raw: string | undefined): WriteMode | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw === "versioned" || raw === "single-instance") return raw;
  throw new Error(`WRITE_MODE must be "versioned" or "single-instance", got "${raw}"`);
}

/** A rate and its optional burst, both whole numbers of requests; unset rate: no limit. */
function rateLimit(env: NodeJS.ProcessEnv, rateName: string, burstName: string): RateLimitSetting | null {
  const requestsPerSecond = requestCount(env, rateName);
  const burst = requestCount(env, burstName);
  if (requestsPerSecond === null && burst !== null) throw new Error(`${burstName} needs ${rateName}: set the rate too, or unset ${burstName}`);
  return requestsPerSecond === null ? null : { requestsPerSecond, burst };
}

function requestCount(env: NodeJS.ProcessEnv, name: string): number | null {
  const raw = env[name];
  if (raw === undefined || raw === "") return null;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < 1 || value > MAX_RATE_LIMIT) {
    throw new Error(`${name} must be a whole number of requests from 1 to ${MAX_RATE_LIMIT}, got "${raw}"`);
  }
  return value;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = positiveNumber(env, name, fallback);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be a positive whole number, got "${env[name]}"`);
  return value;
}
