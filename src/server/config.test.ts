import { describe, expect, it } from "vitest";
import { DOCUMENTED_VARIABLES, readConfig } from "./config.js";

describe("rate limit configuration", () => {
  it("is off unless configured", () => {
    expect(readConfig({}).rateLimits).toEqual({ perKey: null, tenant: null, invalidKeys: null });
  });

  it("reads the per-key and tenant limits with their bursts", () => {
    const env = { RATE_LIMIT_PER_KEY: "5", RATE_LIMIT_BURST: "20", RATE_LIMIT_TENANT: "50", RATE_LIMIT_INVALID_KEYS: "2", RATE_LIMIT_INVALID_KEYS_BURST: "30" };
    expect(readConfig(env).rateLimits).toEqual({
      perKey: { requestsPerSecond: 5, burst: 20 },
      tenant: { requestsPerSecond: 50, burst: null },
      invalidKeys: { requestsPerSecond: 2, burst: 30 },
    });
  });

  it("refuses to start on a value that is not a whole number of requests from 1 to 1,000,000", () => {
    for (const value of ["abc", "0", "-1", "2.5", "1e3", "1000001", "NaN", "Infinity"]) {
      expect(() => readConfig({ RATE_LIMIT_PER_KEY: value }), value).toThrow(
        `RATE_LIMIT_PER_KEY must be a whole number of requests from 1 to 1000000, got "${value}"`,
      );
    }
    expect(() => readConfig({ RATE_LIMIT_TENANT: "50", RATE_LIMIT_TENANT_BURST: "x" })).toThrow(/RATE_LIMIT_TENANT_BURST must be a whole number/);
  });

  it("refuses a burst without its rate", () => {
    expect(() => readConfig({ RATE_LIMIT_BURST: "10" })).toThrow("RATE_LIMIT_BURST needs RATE_LIMIT_PER_KEY: set the rate too, or unset RATE_LIMIT_BURST");
    expect(() => readConfig({ RATE_LIMIT_INVALID_KEYS_BURST: "10" })).toThrow(
      "RATE_LIMIT_INVALID_KEYS_BURST needs RATE_LIMIT_INVALID_KEYS: set the rate too, or unset RATE_LIMIT_INVALID_KEYS_BURST",
    );
  });
});

describe("embedded database durability", () => {
  it("syncs at checkpoints unless told to sync every commit, and refuses anything else", () => {
    expect(readConfig({}).embeddedDbSync).toBe("normal");
    expect(readConfig({ EMBEDDED_DB_SYNC: "full" }).embeddedDbSync).toBe("full");
    expect(() => readConfig({ EMBEDDED_DB_SYNC: "off" })).toThrow('EMBEDDED_DB_SYNC must be "normal" or "full", got "off"');
  });
});

describe("configuration schema", () => {
  it("refuses a value that is not a number, naming the variable, instead of reading NaN", () => {
    expect(() => readConfig({ MAX_REQUEST_BYTES: "abc" })).toThrow('MAX_REQUEST_BYTES must be a positive whole number, got "abc"');
    for (const value of ["0", "-5", "1.5", "1e6", " "]) expect(() => readConfig({ MAX_REQUEST_BYTES: value }), value).toThrow(/MAX_REQUEST_BYTES must be/);
  });

  it("names every refused variable at once", () => {
    expect(() => readConfig({ PORT: "99999", LOG_LEVEL: "loud", WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "yes", SHUTDOWN_GRACE_MS: "soon" })).toThrow(
      'PORT must be a port number, got "99999"; LOG_LEVEL must be "fatal", "error", "warn", "info", "debug", "trace", "silent", got "loud"; WEBHOOKS_ALLOW_PRIVATE_NETWORKS must be "true" or "false", got "yes"; SHUTDOWN_GRACE_MS must be a positive whole number, got "soon"',
    );
    expect(() => readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got "collector:4318"',
    );
    expect(() => readConfig({ WEBHOOK_SECRETS_KEY: "c2hvcnQ=" })).toThrow(/WEBHOOK_SECRETS_KEY must be 32 bytes/);
    expect(() => readConfig({ WEBHOOK_RETRY_SCHEDULE_MS: "0,soon" })).toThrow(/WEBHOOK_RETRY_SCHEDULE_MS: a retry schedule is comma-separated/);
  });

  it("has a default for everything, and reads what is set", () => {
    const config = readConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      mongodbUri: "",
      logLevel: "info",
      userCacheEntries: 5000,
      userCacheMb: 256,
      shutdownGraceMs: 10_000,
      metricsToken: undefined,
      otlpEndpoint: undefined,
    });
    expect(config.limits.maxRequestBytes).toBe(1_048_576);
    expect(config.idempotencyWindowHours).toBeNull();
    const set = readConfig({
      PORT: "0",
      USER_CACHE_ENTRIES: "0",
      USER_CACHE_MB: "64",
      MAX_REQUEST_BYTES: "2048",
      IDEMPOTENCY_WINDOW_HOURS: "1.5",
      WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
      SHUTDOWN_GRACE_MS: "500",
      METRICS_TOKEN: "t0k",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
    });
    expect(set).toMatchObject({
      port: 0,
      userCacheEntries: 0,
      userCacheMb: 64,
      idempotencyWindowHours: 1.5,
      shutdownGraceMs: 500,
      metricsToken: "t0k",
      otlpEndpoint: "http://127.0.0.1:4318",
    });
    expect([set.limits.maxRequestBytes, set.webhooks.allowPrivateNetworks]).toEqual([2048, true]);
  });

  it("reads CORS origins: none by default, a list, or any; refuses what is not an origin", () => {
    expect(readConfig({}).corsOrigins).toEqual([]);
    expect(readConfig({ CORS_ALLOWED_ORIGINS: "https://app.example.com, http://localhost:3000" }).corsOrigins).toEqual([
      "https://app.example.com",
      "http://localhost:3000",
    ]);
    expect(readConfig({ CORS_ALLOWED_ORIGINS: "*" }).corsOrigins).toEqual(["*"]);
    expect(() => readConfig({ CORS_ALLOWED_ORIGINS: "https://app.example.com/" })).toThrow(
      'CORS_ALLOWED_ORIGINS must be "*" or comma-separated origins such as https://app.example.com, got "https://app.example.com/"',
    );
  });

  it("reads retention: batches 7 days and rank history by count by default, both settable, refused when not positive", () => {
    expect(readConfig({}).retention).toEqual({ batchDays: 7, rankHistoryDays: null });
    expect(readConfig({ BATCH_RETENTION_DAYS: "1.5", RANK_HISTORY_RETENTION_DAYS: "90" }).retention).toEqual({ batchDays: 1.5, rankHistoryDays: 90 });
    expect(() => readConfig({ BATCH_RETENTION_DAYS: "0" })).toThrow('BATCH_RETENTION_DAYS must be a positive number, got "0"');
    expect(() => readConfig({ RANK_HISTORY_RETENTION_DAYS: "forever" })).toThrow('RANK_HISTORY_RETENTION_DAYS must be a positive number, got "forever"');
  });

  it("reads an empty value as unset", () => {
    expect(readConfig({ PORT: "", MAX_REQUEST_BYTES: "", LOG_LEVEL: "" })).toMatchObject({
      port: 8080,
      logLevel: "info",
      limits: { maxRequestBytes: 1_048_576 },
    });
  });
});

describe("the README's table of variables", () => {
  it("lists every variable of the schema with its default, and nothing else", async () => {
    const { readFile } = await import("node:fs/promises");
    const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Running it"), readme.indexOf("## Calling it"));
    const rows = new Map([...section.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));
    expect(rows.size).toBeGreaterThan(30);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(DOCUMENTED_VARIABLES));
  });
});
