import { parseRetrySchedule } from "../domain/webhooks.js";
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
  logLevel: string;
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
    logLevel: env.LOG_LEVEL ?? "info",
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
  };
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
