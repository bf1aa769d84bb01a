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
  /** Largest accepted request body, in bytes. */
  maxRequestBytes: number;
  /** How long idempotency keys are remembered, in hours; null: forever. */
  idempotencyWindowHours: number | null;
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
    maxRequestBytes: Number(env.MAX_REQUEST_BYTES ?? 1024 * 1024),
    idempotencyWindowHours: env.IDEMPOTENCY_WINDOW_HOURS ? Number(env.IDEMPOTENCY_WINDOW_HOURS) : null,
  };
}
