// Operations over the network: Prometheus metrics, request IDs, readiness and the drain of
// requests in flight when the service closes. (Configuration, SIGTERM and tracing run the real
// entry point in a child process: test/server/operations-process.test.ts.)
import http2 from "node:http2";
import net from "node:net";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Writable } from "node:stream";
import { createClient as createConnectClient, ConnectError } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApplicationService, TrackMetricEventRequestSchema, TrackMetricEventResponseSchema } from "../../src/gen/gamification/v1/application_service_pb.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

let server: TestServer;
let receiver: WebhookReceiver;
const logLines: any[] = [];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  server = await startTestServer({
    logger: pino({ level: "info" }, logStream),
    webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0, 100, 100], pollMs: 100 },
  });
  const metric = await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "ops-minutes", name: "Minutes" }] });
  expect(metric.status).toBe(201);
  const settings = await server.rest("PUT", "/admin/v1/streaks/settings", {
    body: { frequency: "daily", metrics: [{ metricId: metric.body.created[0].id, threshold: 1 }], evaluationMode: "all" },
  });
  expect(settings.status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.baseUrl + path, { headers });

/** The value of a sample in the Prometheus text format: the sum of the series whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? "").matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
      total += Number(match[3]);
      found = true;
    }
  }
  return found ? total : NaN;
}

async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const response = await get("/metrics", headers);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const track = (user: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}/api/metrics/ops-minutes/event`, {
    method: "POST",
    headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", ...headers },
    body: JSON.stringify({ user: { id: user }, value: 5, ...body }),
  });

describe("GET /metrics", () => {
  it("counts a small scenario: requests by route template, protocol and status, events applied and replayed, webhook deliveries, database commands", async () => {
    const before = await scrape();
    receiver.on("/ops", (n) => ({ status: n === 1 ? 503 : 200 })); // the first attempt fails: a retry, then delivered
    const hook = await server.rest("POST", "/admin/v1/webhooks", { body: [{ url: receiver.url("/ops"), eventTypes: ["streak.started"] }] });
    expect(hook.status).toBe(201);

    expect((await track("mia", { idempotencyKey: "mia-1" })).status).toBe(201);
    expect((await track("mia", { idempotencyKey: "mia-1" })).status).toBe(202); // replayed
    expect((await track("ned")).status).toBe(201);
    expect((await server.rest("POST", "/api/metrics/no-such-metric/event", { body: { user: { id: "mia" }, value: 1 } })).status).toBe(404);
    await server.client("connect-json").application.trackMetricEvent({ key: "ops-minutes", user: { id: "ola" }, value: 1 });
    await server.client("grpc").application.trackMetricEvent({ key: "ops-minutes", user: { id: "pat" }, value: 1 });
    await server.client("grpc-web").application.trackMetricEvent({ key: "ops-minutes", user: { id: "quinn" }, value: 1 });
    await expect(server.client("grpc").application.trackMetricEvent({ key: "no-such-metric", user: { id: "pat" }, value: 1 })).rejects.toThrow(/not found/);
    // An admin batch: processed in the background.
    const batch = await server.rest("POST", "/admin/v1/metrics/events", {
      body: [{ key: "ops-minutes", user: { id: "rio" }, value: 1, idempotencyKey: "rio-1" }],
    });
    expect(batch.status).toBe(202);
    await receiver.waitFor("/ops", (got) => got.length >= 2);

    const after = await waitFor("the batch and the webhook delivery to be counted", async () => {
      const text = await scrape();
      const done =
        sample(text, "gamification_events_total", { result: "applied", source: "batch" }) >= 1 &&
        sample(text, "gamification_webhook_deliveries_total", { result: "delivered" }) >= 1 &&
        sample(text, "gamification_event_batch_backlog") === 0;
      return done && text;
    });
    const moved = (name: string, labels: Record<string, string>) => sample(after, name, labels) - (sample(before, name, labels) || 0);

    const eventRoute = "POST /api/metrics/{key}/event";
    expect(moved("gamification_requests_total", { route: eventRoute, protocol: "rest", status: "201" })).toBe(2);
    expect(moved("gamification_requests_total", { route: eventRoute, protocol: "rest", status: "202" })).toBe(1);
    expect(moved("gamification_requests_total", { route: eventRoute, protocol: "rest", status: "404" })).toBe(1);
    const rpcRoute = "gamification.v1.ApplicationService/TrackMetricEvent";
    expect(moved("gamification_requests_total", { route: rpcRoute, protocol: "connect", status: "200" })).toBe(1);
    expect(moved("gamification_requests_total", { route: rpcRoute, protocol: "grpc", status: "200" })).toBe(1);
    expect(moved("gamification_requests_total", { route: rpcRoute, protocol: "grpc-web", status: "200" })).toBe(1);
    expect(moved("gamification_requests_total", { route: rpcRoute, protocol: "grpc", status: "404" })).toBe(1); // not_found, as Connect maps it
    expect(moved("gamification_request_duration_seconds_count", { route: eventRoute, protocol: "rest" })).toBe(4);
    expect(sample(after, "gamification_request_duration_seconds_bucket", { route: eventRoute, le: "+Inf" })).toBeGreaterThanOrEqual(4);
    // Route templates and method names only: never a raw path with a metric key or user ID in it.
    expect(after).not.toMatch(/no-such-metric|ops-minutes|\/api\/metrics\/[a-z]/);

    expect(moved("gamification_events_total", { result: "applied", source: "api" })).toBe(5);
    expect(moved("gamification_events_total", { result: "replayed", source: "api" })).toBe(1);
    expect(moved("gamification_events_total", { result: "applied", source: "batch" })).toBe(1);
    expect(moved("gamification_webhook_deliveries_total", { result: "retrying" })).toBeGreaterThanOrEqual(1);
    expect(moved("gamification_webhook_deliveries_total", { result: "delivered" })).toBeGreaterThanOrEqual(1);
    expect(sample(after, "gamification_webhook_queue_depth")).toBeGreaterThanOrEqual(0);
    expect(sample(after, "gamification_scheduler_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(moved("gamification_db_command_duration_seconds_count", { command: "find" })).toBeGreaterThan(0);
    // By command name only: no collection or database label.
    expect(after).not.toMatch(/gamification_db_command_duration_seconds_count\{[^}]*(collection|db)=/);
    expect(sample(after, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  });

  it("labels a made-up method on the documentation paths as unmatched (HTTP/2 carries any method; no key is needed)", async () => {
    const session = http2.connect(server.baseUrl);
    session.on("error", () => undefined);
    const statuses: number[] = [];
    for (const [method, path] of [
      ["MADEUP1", "/openapi.json"],
      ["MADEUP2", "/docs"],
      ["MADEUP3", "/docs/swagger-ui.css"],
    ]) {
      await new Promise<void>((resolve) => {
        const stream = session.request({ ":method": method!, ":path": path! });
        stream.on("response", (headers) => statuses.push(Number(headers[":status"])));
        stream.on("data", () => undefined);
        stream.on("close", resolve);
        stream.on("error", () => resolve());
        stream.end();
      });
    }
    session.close();
    expect(statuses).toEqual([405, 405, 405]);
    const text = await scrape();
    // One series per route, never one per method a client makes up.
    expect(text).not.toMatch(/MADEUP/);
    expect(sample(text, "gamification_requests_total", { route: "unmatched", status: "405" })).toBeGreaterThanOrEqual(3);
  });

  it("needs no API key, as /healthz and /readyz", async () => {
    expect((await get("/metrics")).status).toBe(200);
    expect((await get("/healthz")).status).toBe(200);
    expect((await get("/readyz")).status).toBe(200);
  });

  it("asks for the bearer token when one is configured", async () => {
    const guarded = await startTestServer({ metricsToken: "s3cret-token" });
    try {
      const none = await fetch(`${guarded.baseUrl}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toBe("Bearer");
      expect(((await none.json()) as any).error).toMatch(/metrics token/);
      expect((await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      const ok = await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: "Bearer s3cret-token" } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("gamification_requests_total");
    } finally {
      await guarded.close();
    }
  });
});

describe("request IDs", () => {
  it("are on every REST answer, taken from the caller when valid, and beside the error in error bodies", async () => {
    const ok = await track("sam");
    expect(ok.headers.get("x-request-id")).toMatch(UUID);
    const mine = await track("sam", {}, { "x-request-id": "client-req-0001" });
    expect(mine.headers.get("x-request-id")).toBe("client-req-0001");
    expect(((await mine.json()) as any).requestId).toBeUndefined(); // successes keep the reference's shape
    for (const invalid of ["x".repeat(129), "caf\u00e9"]) {
      const replaced = await track("sam", {}, { "x-request-id": invalid });
      expect(replaced.headers.get("x-request-id"), invalid).toMatch(UUID);
    }
    expect((await track("sam", {}, { "x-request-id": "y".repeat(128) })).headers.get("x-request-id")).toBe("y".repeat(128));

    const failed = await fetch(`${server.baseUrl}/api/metrics/no-such-metric/event`, {
      method: "POST",
      headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", "x-request-id": "client-req-0002" },
      body: JSON.stringify({ user: { id: "sam" }, value: 1 }),
    });
    expect(failed.status).toBe(404);
    expect(await failed.json()).toEqual({ error: 'Metric with key "no-such-metric" not found', requestId: "client-req-0002" });
    const unauthenticated = await fetch(`${server.baseUrl}/admin/v1/metrics`);
    const body = (await unauthenticated.json()) as any;
    expect([unauthenticated.status, body.requestId]).toEqual([401, unauthenticated.headers.get("x-request-id")]);
    expect((await get("/healthz")).headers.get("x-request-id")).toMatch(UUID);
  });

  it("are on Connect answers and in Connect JSON errors", async () => {
    const call = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.baseUrl}/gamification.v1.ApplicationService/TrackMetricEvent`, {
        method: "POST",
        headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    const ok = await call({ key: "ops-minutes", user: { id: "tia" }, value: 1 }, { "x-request-id": "connect-req-1" });
    expect([ok.status, ok.headers.get("x-request-id")]).toEqual([200, "connect-req-1"]);
    const notFound = await call({ key: "no-such-metric", user: { id: "tia" }, value: 1 }, { "x-request-id": "connect-req-2" });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ code: "not_found", message: 'Metric with key "no-such-metric" not found', requestId: "connect-req-2" });
    const refused = await call({ key: "ops-minutes", user: { id: "tia" }, value: 1 }, { "x-api-key": "wrong", "x-request-id": "connect-req-3" });
    expect(await refused.json()).toEqual({ code: "unauthenticated", message: "Invalid API key", requestId: "connect-req-3" });
    // The published Connect client still reads such an error.
    await expect(server.client("connect-json").application.trackMetricEvent({ key: "no-such-metric", user: { id: "tia" }, value: 1 })).rejects.toThrow(
      /not found/,
    );
  });

  it("are in gRPC response metadata, on success and on error", async () => {
    const client = createConnectClient(ApplicationService, createGrpcTransport({ baseUrl: server.baseUrl }));
    let header: Headers | undefined;
    await client.trackMetricEvent(
      { key: "ops-minutes", user: { id: "uma" }, value: 1 },
      { headers: { "x-api-key": ADMIN_KEY, "x-request-id": "grpc-req-1" }, onHeader: (h) => (header = h) },
    );
    expect(header?.get("x-request-id")).toBe("grpc-req-1");
    const error = await client
      .trackMetricEvent({ key: "no-such-metric", user: { id: "uma" }, value: 1 }, { headers: { "x-api-key": ADMIN_KEY } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).metadata.get("x-request-id")).toMatch(UUID);
  });

  it("are on every log line of their request", async () => {
    await track("val", {}, { "x-request-id": "logged-req-1" });
    const line = await waitFor("the request's log line", async () => logLines.find((l) => l.requestId === "logged-req-1" && l.msg === "request"));
    expect(line).toMatchObject({ route: "POST /api/metrics/{key}/event", status: 201, requestId: "logged-req-1" });
    expect(logLines.filter((l) => l.msg === "request").every((l) => typeof l.requestId === "string")).toBe(true);
  });

  it("are on the lines logged deeper down, e.g. an unexpected error in a guarded method", async () => {
    const config = server.service.context.config;
    const original = config.tenantByCustomerId.bind(config);
    config.tenantByCustomerId = async () => {
      throw new Error("tenant lookup broke");
    };
    try {
      const response = await fetch(`${server.baseUrl}/v1/users/sam`, {
        headers: { "x-api-key": ADMIN_KEY, "tenant-id": "acme", "x-request-id": "broken-req-1" },
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ error: "Internal error", requestId: "broken-req-1" });
    } finally {
      config.tenantByCustomerId = original;
    }
    const error = await waitFor("the error's log line", async () =>
      logLines.find((l) => l.msg === "unexpected error" && l.err?.message === "tenant lookup broke"),
    );
    expect(error.requestId).toBe("broken-req-1");
    const requestLine = logLines.find((l) => l.msg === "request" && l.requestId === "broken-req-1");
    expect(requestLine).toMatchObject({ status: 500, route: "GET /v1/users/{id}" });
  });
});

describe("readiness and draining", () => {
  it("GET /readyz names each check", async () => {
    const response = await get("/readyz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready", checks: { database: "reachable", indexes: "built", workers: "running" } });
  });

  it("on close: readiness fails naming the workers, a request in flight still gets its answer, and no new connection is accepted", async () => {
    const closing = await startTestServer({ shutdownGraceMs: 30_000 });
    await closing.rest("POST", "/admin/v1/metrics", { body: [{ key: "slow", name: "Slow" }] });
    const port = closing.service.port;
    // A connection opened before the close, that sends its request later.
    const waiting = await connect(port);
    // A request in flight: its headers are in, its body arrives in two parts.
    const body = JSON.stringify({ user: { id: "wes" }, value: 3 });
    const slow = await connect(port);
    const answer = readAll(slow);
    slow.write(
      `POST /api/metrics/slow/event HTTP/1.1\r\nhost: x\r\nx-api-key: ${ADMIN_KEY}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await waitFor(
      "the slow request to be in flight",
      async () => sample(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text(), "gamification_requests_in_flight") >= 2,
    );

    const closed = closing.service.close();
    await waitFor(
      "new connections to be refused",
      async () =>
        await connect(port).then(
          (s) => (s.destroy(), false),
          () => true,
        ),
    );
    waiting.write("GET /readyz HTTP/1.1\r\nhost: x\r\n\r\n");
    const readiness = await readAll(waiting);
    expect(readiness).toMatch(/^HTTP\/1\.1 503/);
    expect(JSON.parse(readiness.slice(readiness.indexOf("\r\n\r\n") + 4))).toEqual({
      status: "unavailable",
      checks: { database: "reachable", indexes: "built", workers: "stopping" },
      failing: ["workers"],
    });

    slow.write(body.slice(10));
    const response = await answer;
    expect(response).toMatch(/^HTTP\/1\.1 201/);
    expect(response).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4))).toMatchObject({ total: 3 });
    await closed;
    await closing.database.close();
  });
});

describe("draining HTTP/2", () => {
  it("a gRPC call in flight at close gets its answer; the session gets a GOAWAY", async () => {
    const closing = await startTestServer({ shutdownGraceMs: 30_000 });
    await closing.rest("POST", "/admin/v1/metrics", { body: [{ key: "slow", name: "Slow" }] });
    const message = toBinary(TrackMetricEventRequestSchema, create(TrackMetricEventRequestSchema, { key: "slow", user: { id: "xia" }, value: 2 }));
    const envelope = Buffer.alloc(5 + message.length);
    envelope.writeUInt32BE(message.length, 1);
    Buffer.from(message).copy(envelope, 5);

    const session = http2.connect(closing.baseUrl);
    let goaway = false;
    session.on("goaway", () => (goaway = true));
    session.on("error", () => undefined);
    const stream = session.request({
      ":method": "POST",
      ":path": "/gamification.v1.ApplicationService/TrackMetricEvent",
      "content-type": "application/grpc+proto",
      te: "trailers",
      "x-api-key": ADMIN_KEY,
    });
    const chunks: Buffer[] = [];
    let headers: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    stream.on("response", (h) => (headers = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve) => stream.on("close", () => resolve()));
    stream.write(envelope.subarray(0, 7));
    const port = closing.service.port;
    await waitFor(
      "the call to be in flight",
      async () => sample(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text(), "gamification_requests_in_flight") >= 2,
    );

    const closed = closing.service.close();
    await waitFor("the GOAWAY", async () => goaway);
    stream.end(envelope.subarray(7));
    await ended;
    expect(headers[":status"]).toBe(200);
    expect(headers["x-request-id"]).toMatch(UUID);
    expect(trailers["grpc-status"]).toBe("0");
    const answer = Buffer.concat(chunks);
    expect(fromBinary(TrackMetricEventResponseSchema, answer.subarray(5, 5 + answer.readUInt32BE(1))).total).toBe(2);
    session.close();
    await closed;
    await closing.database.close();
  });
});

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything the server sends until it closes the connection. */
function readAll(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    socket.on("close", () => resolve(text));
    socket.on("error", () => undefined);
  });
}
