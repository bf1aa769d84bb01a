import { createGrpcTransport } from "@connectrpc/connect-node";
import pino from "pino";
import { createClient, type GamificationClient } from "../../sdk/src/index.js";
import { startService, type RunningService, type ServiceOptions } from "../../src/server/service.js";
import { openTestDatabase, type TestDatabase } from "./database.js";

export const ADMIN_KEY = "adm_testkey.0123456789abcdefghijklmnopqrstuvwxyz";

export type Protocol = "rest" | "connect-json" | "connect-binary" | "grpc" | "grpc-web";
export const CLIENT_PROTOCOLS = ["connect-json", "connect-binary", "grpc", "grpc-web"] as const;

/** A real server on a free port, over its own database; every test talks to it over the network. */
export interface TestServer {
  baseUrl: string;
  service: RunningService;
  database: TestDatabase;
  /** A typed client over the given protocol, with these headers. */
  client(protocol: (typeof CLIENT_PROTOCOLS)[number], options?: { apiKey?: string; tenantId?: string }): GamificationClient;
  /** A raw REST call; returns the status and parsed JSON body. */
  rest(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; apiKey?: string | null; tenantId?: string },
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * Another instance on a test server's database, as several instances run on MongoDB: version-checked
 * writes, no instance lease (allowed on FerretDB for tests only). `options` add to it (a pipeline hook, webhooks).
 * On FerretDB the version check is not atomic: leases and webhook claims hold across
 * the two, but concurrent writes to one user's document from both can lose one (MongoDB is needed
 * for that: TEST_MONGODB_URI).
 */
export function startAnotherInstance(server: Pick<TestServer, "database">, options: Partial<ServiceOptions> = {}): Promise<RunningService> {
  return startService({
    mongodbUri: server.database.uri,
    mongodbDb: server.database.dbName,
    writeMode: "versioned",
    versionedOnFerretDbForTests: true,
    port: 0,
    host: "127.0.0.1",
    logger: pino({ level: "silent" }),
    ...options,
  });
}

/** `options` override the defaults (e.g. a clock, webhook settings). */
export async function startTestServer(options: Partial<ServiceOptions> = {}): Promise<TestServer> {
  const database = await openTestDatabase();
  const service = await startService({
    mongodbUri: database.uri,
    mongodbDb: database.dbName,
    port: 0,
    host: "127.0.0.1",
    adminApiKey: ADMIN_KEY,
    // TEST_LOG_LEVEL=error shows why a call answered 500 ("unexpected error", with the stack).
    logger: process.env.TEST_LOG_LEVEL ? pino({ level: process.env.TEST_LOG_LEVEL }, pino.destination(2)) : pino({ level: "silent" }),
    // As before graceful shutdown: a request still in flight after 2 s does not hold the test up.
    shutdownGraceMs: 2000,
    ...options,
  });
  const baseUrl = `http://127.0.0.1:${service.port}`;
  return {
    baseUrl,
    service,
    database,
    client(protocol, options = {}) {
      return createClient({
        baseUrl,
        apiKey: options.apiKey ?? ADMIN_KEY,
        tenantId: options.tenantId,
        protocol: protocol === "grpc-web" ? "grpc-web" : "connect",
        binary: protocol === "connect-binary" || protocol === "grpc-web",
        transport: protocol === "grpc" ? (interceptors) => createGrpcTransport({ baseUrl, interceptors }) : undefined,
      });
    },
    async rest(method, path, options = {}) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      const apiKey = options.apiKey === undefined ? ADMIN_KEY : options.apiKey;
      if (apiKey !== null) headers["x-api-key"] = apiKey;
      if (options.tenantId !== undefined) headers["tenant-id"] = options.tenantId;
      const response = await fetch(baseUrl + path, {
        method,
        headers,
        body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      });
      const text = await response.text();
      const body = text ? JSON.parse(text) : null;
      // Error answers carry the request's ID (as the X-Request-ID header does): checked here once,
      // then left out so that tests compare the reference's `{"error": ...}` shape.
      if (body !== null && typeof body === "object" && "requestId" in body) {
        if (body.requestId !== response.headers.get("x-request-id"))
          throw new Error(`requestId ${body.requestId} differs from X-Request-ID ${response.headers.get("x-request-id")}`);
        delete body.requestId;
      }
      return { status: response.status, body };
    },
    async close() {
      await service.close();
      await database.close();
    },
  };
}
