import { z } from "zod";
import { MAX_RATE_LIMIT, type RateLimitSetting } from "../features/account/domain/rate-limits.js";
import { parseRetrySchedule } from "../features/webhooks/webhook-delivery-policy.js";
import { DEFAULT_USER_CACHE_ENTRIES, DEFAULT_USER_CACHE_MB } from "../engine/store/database.js";
import { DEFAULT_INSTANCE_LEASE_MS } from "../workers/store/instance-lease.js";
import type { WriteMode } from "../engine/store/user-documents.js";
import { parseSecretsKey } from "../features/webhooks/store/webhook-secrets.js";
import type { EmbeddedDbSync } from "./embedded-db.js";
import { DEFAULT_LIMITS, DEFAULT_SHUTDOWN_GRACE_MS, type ServerLimits } from "./http-server.js";

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
  /** Single-instance mode: the estimated memory the kept users may take, in MiB. */
  userCacheMb: number;
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
  /** How long records are kept (see workers/retention-purge.ts; webhook deliveries: `webhooks.retentionDays`). */
  retention: {
    /** Completed admin batches of events, in days. */
    batchDays: number;
    /** Leaderboard rank history in user documents, in days; null: by count only (100 per leaderboard). */
    rankHistoryDays: number | null;
  };
  /** This deployment as an environment (the Admin API's environments): machine key and display name. */
  environment: { key: string; name: string };
  /** Token-bucket rate limits; null: none (the default). A key's own Admin API setting applies regardless. */
  rateLimits: {
    /** Every key without its own setting. */
    perKey: RateLimitSetting | null;
    /** Shared by all application keys of one tenant. */
    tenant: RateLimitSetting | null;
    /** Requests with an invalid key, per client address. */
    invalidKeys: RateLimitSetting | null;
  };
  /** When set, GET /metrics needs `Authorization: Bearer <token>`; unset: open. */
  metricsToken: string | undefined;
  /** Web origins browsers may call from (CORS): exact origins, or "*" for any; empty: none. */
  corsOrigins: readonly string[];
  /** OTLP/HTTP collector base URL; set: traces are exported (OpenTelemetry); unset: tracing is not even loaded. */
  otlpEndpoint: string | undefined;
  /** How long a shutdown (SIGTERM, SIGINT) waits for requests in flight before closing their connections, in ms. */
  shutdownGraceMs: number;
  /** Test-only fault injection and short leases (never set in production; not in the README's table). */
  test: {
    crashAt: string | undefined;
    batchLeaseMs: number | undefined;
    webhookLeaseMs: number | undefined;
  };
}

/** A start-up refused for a configuration value; the message names the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** One environment variable: how it is parsed (zod) and its default as the README's table shows it. */
interface Variable<T> {
  schema: z.ZodType<T, string | undefined>;
  /** The README's "Default" cell, exactly. */
  shown: string;
  /** Test-only variables are in the schema but not in the README's table. */
  internal?: boolean;
}

type VariableFactory<T> = (name: string) => Variable<T>;

const isUnset = (raw: string | undefined): raw is undefined | "" => raw === undefined || raw === "";

/** A value parsed by `read`, which returns the value or the reason it is refused (the message names the variable). */
function parsed<T>(shown: string, fallback: T, read: (raw: string, name: string) => T | { refused: string }): VariableFactory<T> {
  return (name) => ({
    shown,
    schema: z
      .string()
      .optional()
      .transform((raw, ctx): T => {
        if (isUnset(raw)) return fallback;
        const value = read(raw, name);
        if (value !== null && typeof value === "object" && "refused" in (value as object)) {
          ctx.addIssue({ code: "custom", message: (value as { refused: string }).refused });
          return z.NEVER;
        }
        return value as T;
      }),
  });
}

function text(shown: string, fallback: string): VariableFactory<string> {
  return parsed(shown, fallback, (raw) => raw);
}

function optionalText(shown = "(none)"): VariableFactory<string | undefined> {
  return parsed<string | undefined>(shown, undefined, (raw) => raw);
}

function oneOf<const V extends string, F extends V | undefined>(shown: string, values: readonly V[], fallback: F): VariableFactory<V | F> {
  const list = values.map((v) => `"${v}"`).join(values.length === 2 ? " or " : ", ");
  return parsed<V | F>(shown, fallback, (raw, name) =>
    (values as readonly string[]).includes(raw) ? (raw as V) : { refused: `${name} must be ${list}, got "${raw}"` },
  );
}

function positiveNumber<F extends number | null>(fallback: F, shown = `\`${fallback}\``): VariableFactory<number | F> {
  return parsed<number | F>(shown, fallback, (raw, name) => {
    const value = Number(raw);
    return Number.isFinite(value) && value > 0 && raw.trim() !== "" ? value : { refused: `${name} must be a positive number, got "${raw}"` };
  });
}

function positiveInteger(fallback: number, { zero = false } = {}): VariableFactory<number> {
  return parsed(`\`${fallback}\``, fallback, (raw, name) => {
    const value = Number(raw);
    if (/^\s*\d+\s*$/.test(raw) && Number.isSafeInteger(value) && (value > 0 || (zero && value === 0))) return value;
    return { refused: `${name} must be a ${zero ? "non-negative" : "positive"} whole number, got "${raw}"` };
  });
}

function boolean(fallback: boolean): VariableFactory<boolean> {
  return parsed(`\`${fallback}\``, fallback, (raw, name) =>
    raw === "true" ? true : raw === "false" ? false : { refused: `${name} must be "true" or "false", got "${raw}"` },
  );
}

function requestCount(shown: string): VariableFactory<number | null> {
  return parsed<number | null>(shown, null, (raw, name) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < 1 || value > MAX_RATE_LIMIT) {
      return { refused: `${name} must be a whole number of requests from 1 to ${MAX_RATE_LIMIT}, got "${raw}"` };
    }
    return value;
  });
}

function url(shown: string): VariableFactory<string | undefined> {
  return parsed<string | undefined>(shown, undefined, (raw, name) =>
    z.url({ protocol: /^https?$/ }).safeParse(raw).success ? raw : { refused: `${name} must be an http(s) URL, got "${raw}"` },
  );
}

/**
 * Every environment variable the service reads, with its parsing and its default, in one place. The
 * README's table lists exactly these (test/operations-config.test.ts checks it), internal ones aside.
 */
const VARIABLES = {
  PORT: parsed("`8080`", 8080, (raw, name) => {
    const value = Number(raw);
    return /^\s*\d+\s*$/.test(raw) && value <= 65535 ? value : { refused: `${name} must be a port number, got "${raw}"` };
  }),
  HOST: text("`0.0.0.0`", "0.0.0.0"),
  MONGODB_URI: parsed("(embedded)", "", (raw, name) =>
    /^mongodb(\+srv)?:\/\//.test(raw) ? raw : { refused: `${name} must be a mongodb:// or mongodb+srv:// URI` },
  ),
  MONGODB_DB: optionalText("from the URI (`test` when it names none); `gamification` on the embedded database"),
  ADMIN_API_KEY: optionalText(),
  DATA_DIR: text("`.data`", ".data"),
  EMBEDDED_DB_SYNC: oneOf("`normal`", ["normal", "full"] as const, "normal"),
  LOG_LEVEL: oneOf("`info`", ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const, "info"),
  WRITE_MODE: oneOf("by database", ["versioned", "single-instance"] as const, undefined),
  USER_CACHE_ENTRIES: positiveInteger(DEFAULT_USER_CACHE_ENTRIES, { zero: true }),
  USER_CACHE_MB: positiveInteger(DEFAULT_USER_CACHE_MB),
  INSTANCE_LEASE_MS: positiveInteger(DEFAULT_INSTANCE_LEASE_MS),
  MAX_REQUEST_BYTES: positiveInteger(DEFAULT_LIMITS.maxRequestBytes),
  MAX_HEADER_BYTES: positiveInteger(DEFAULT_LIMITS.maxHeaderBytes),
  HEADERS_TIMEOUT_MS: positiveInteger(DEFAULT_LIMITS.headersTimeoutMs),
  REQUEST_TIMEOUT_MS: positiveInteger(DEFAULT_LIMITS.requestTimeoutMs),
  KEEP_ALIVE_TIMEOUT_MS: positiveInteger(DEFAULT_LIMITS.keepAliveTimeoutMs),
  IDLE_TIMEOUT_MS: positiveInteger(DEFAULT_LIMITS.idleTimeoutMs),
  MAX_CONNECTIONS: positiveInteger(DEFAULT_LIMITS.maxConnections),
  MAX_CONCURRENT_STREAMS: positiveInteger(DEFAULT_LIMITS.maxConcurrentStreams),
  IDEMPOTENCY_WINDOW_HOURS: parsed<number | null>("(unlimited)", null, (raw, name) => {
    const value = Number(raw);
    return Number.isFinite(value) && value > 0 ? value : { refused: `${name} must be a positive number, got "${raw}"` };
  }),
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: boolean(false),
  WEBHOOK_SECRETS_KEY: parsed<string | undefined>("(none)", undefined, (raw) => {
    try {
      parseSecretsKey(raw);
      return raw;
    } catch (error) {
      return { refused: (error as Error).message };
    }
  }),
  WEBHOOK_RETRY_SCHEDULE_MS: parsed<number[] | undefined>("`0,5000,300000,1800000,7200000,18000000,36000000,36000000`", undefined, (raw, name) => {
    try {
      return parseRetrySchedule(raw);
    } catch (error) {
      return { refused: `${name}: ${(error as Error).message}` };
    }
  }),
  WEBHOOK_TIMEOUT_MS: positiveNumber(15_000),
  WEBHOOK_LOG_RETENTION_DAYS: positiveNumber(30),
  BATCH_RETENTION_DAYS: positiveNumber(7),
  RANK_HISTORY_RETENTION_DAYS: positiveNumber(null, "(by count: 100 per leaderboard)"),
  RATE_LIMIT_PER_KEY: requestCount("(no limit)"),
  RATE_LIMIT_BURST: requestCount("`RATE_LIMIT_PER_KEY`"),
  RATE_LIMIT_TENANT: requestCount("(no limit)"),
  RATE_LIMIT_TENANT_BURST: requestCount("`RATE_LIMIT_TENANT`"),
  RATE_LIMIT_INVALID_KEYS: requestCount("(no limit)"),
  RATE_LIMIT_INVALID_KEYS_BURST: requestCount("`RATE_LIMIT_INVALID_KEYS`"),
  ENVIRONMENT_KEY: parsed("`production`", "production", (raw, name) =>
    /^[a-z0-9][a-z0-9_-]{0,62}$/.test(raw)
      ? raw
      : { refused: `${name} must be 1 to 63 lower-case letters, digits, "-" or "_", starting with a letter or digit, got "${raw}"` },
  ),
  ENVIRONMENT_NAME: parsed("`Production`", "Production", (raw, name) =>
    raw.trim() !== "" && raw.length <= 100 ? raw : { refused: `${name} must be 1 to 100 characters, got "${raw}"` },
  ),
  METRICS_TOKEN: optionalText(),
  CORS_ALLOWED_ORIGINS: parsed<readonly string[]>("(none)", [], (raw, name) => {
    const origins = raw.split(",").map((origin) => origin.trim());
    const bad = origins.find((origin) => origin !== "*" && !/^https?:\/\/[^/\s?#]+$/.test(origin));
    return bad === undefined ? origins : { refused: `${name} must be "*" or comma-separated origins such as https://app.example.com, got "${bad}"` };
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: url("(tracing off)"),
  SHUTDOWN_GRACE_MS: positiveInteger(DEFAULT_SHUTDOWN_GRACE_MS),
  GAMIFICATION_TEST_CRASH_AT: internal(optionalText()),
  GAMIFICATION_TEST_BATCH_LEASE_MS: internal(parsed<number | undefined>("(none)", undefined, (raw) => Number(raw) || undefined)),
  GAMIFICATION_TEST_WEBHOOK_LEASE_MS: internal(parsed<number | undefined>("(none)", undefined, (raw) => Number(raw) || undefined)),
} satisfies Record<string, VariableFactory<unknown>>;

function internal<T>(factory: VariableFactory<T>): VariableFactory<T> {
  return (name) => ({ ...factory(name), internal: true });
}

type Variables = typeof VARIABLES;
type Values = { [K in keyof Variables]: Variables[K] extends VariableFactory<infer T> ? T : never };

const definitions = Object.fromEntries(Object.entries(VARIABLES).map(([name, factory]) => [name, (factory as VariableFactory<unknown>)(name)])) as {
  [K in keyof Variables]: Variable<Values[K]>;
};

/** The environment's schema: every variable, then the rules between them. */
const ENV_SCHEMA = z
  .object(
    Object.fromEntries(Object.entries(definitions).map(([name, v]) => [name, v.schema])) as {
      [K in keyof Variables]: z.ZodType<Values[K], string | undefined>;
    },
  )
  .superRefine((env, ctx) => {
    for (const [rate, burst] of [
      ["RATE_LIMIT_PER_KEY", "RATE_LIMIT_BURST"],
      ["RATE_LIMIT_TENANT", "RATE_LIMIT_TENANT_BURST"],
      ["RATE_LIMIT_INVALID_KEYS", "RATE_LIMIT_INVALID_KEYS_BURST"],
    ] as const) {
      if (env[rate] === null && env[burst] !== null)
        ctx.addIssue({ code: "custom", path: [burst], message: `${burst} needs ${rate}: set the rate too, or unset ${burst}` });
    }
  });

/** The documented variables and their defaults as the README shows them (internal ones left out). */
export const DOCUMENTED_VARIABLES: ReadonlyMap<string, string> = new Map(
  Object.entries(definitions as Record<string, Variable<unknown>>)
    .filter(([, v]) => !v.internal)
    .map(([name, v]) => [name, v.shown]),
);

/** Reads and checks every variable; throws a ConfigError naming each refused variable. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, env[name]]));
  const result = ENV_SCHEMA.safeParse(input);
  if (!result.success) throw new ConfigError(result.error.issues.map((issue) => issue.message).join("; "));
  const e = result.data;
  return {
    port: e.PORT,
    host: e.HOST,
    mongodbUri: e.MONGODB_URI,
    mongodbDb: e.MONGODB_DB,
    adminApiKey: e.ADMIN_API_KEY,
    dataDir: e.DATA_DIR,
    embeddedDbSync: e.EMBEDDED_DB_SYNC,
    logLevel: e.LOG_LEVEL,
    writeMode: e.WRITE_MODE,
    instanceLeaseMs: e.INSTANCE_LEASE_MS,
    userCacheEntries: e.USER_CACHE_ENTRIES,
    userCacheMb: e.USER_CACHE_MB,
    limits: {
      maxRequestBytes: e.MAX_REQUEST_BYTES,
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: e.IDLE_TIMEOUT_MS,
      maxHeaderBytes: e.MAX_HEADER_BYTES,
      maxConnections: e.MAX_CONNECTIONS,
      maxConcurrentStreams: e.MAX_CONCURRENT_STREAMS,
    },
    idempotencyWindowHours: e.IDEMPOTENCY_WINDOW_HOURS,
    webhooks: {
      allowPrivateNetworks: e.WEBHOOKS_ALLOW_PRIVATE_NETWORKS,
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retentionDays: e.WEBHOOK_LOG_RETENTION_DAYS,
      secretsKey: e.WEBHOOK_SECRETS_KEY,
    },
    retention: { batchDays: e.BATCH_RETENTION_DAYS, rankHistoryDays: e.RANK_HISTORY_RETENTION_DAYS },
    environment: { key: e.ENVIRONMENT_KEY, name: e.ENVIRONMENT_NAME },
    rateLimits: {
      perKey: e.RATE_LIMIT_PER_KEY === null ? null : { requestsPerSecond: e.RATE_LIMIT_PER_KEY, burst: e.RATE_LIMIT_BURST },
      tenant: e.RATE_LIMIT_TENANT === null ? null : { requestsPerSecond: e.RATE_LIMIT_TENANT, burst: e.RATE_LIMIT_TENANT_BURST },
      invalidKeys: e.RATE_LIMIT_INVALID_KEYS === null ? null : { requestsPerSecond: e.RATE_LIMIT_INVALID_KEYS, burst: e.RATE_LIMIT_INVALID_KEYS_BURST },
    },
    metricsToken: e.METRICS_TOKEN,
    corsOrigins: e.CORS_ALLOWED_ORIGINS,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    test: {
      crashAt: e.GAMIFICATION_TEST_CRASH_AT,
      batchLeaseMs: e.GAMIFICATION_TEST_BATCH_LEASE_MS,
      webhookLeaseMs: e.GAMIFICATION_TEST_WEBHOOK_LEASE_MS,
    },
  };
}
