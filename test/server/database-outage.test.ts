// The database out of reach, through a proxy the test breaks: the service answers fast and plainly
// meanwhile (503 `unavailable`, health in bounded time, metrics still served), and works again
// once a hung database answers, without a restart.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startDatabaseProxy, type DatabaseProxy } from "../helpers/database-proxy.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/until.js";

let proxy: DatabaseProxy;
let server: TestServer;

beforeAll(async () => {
  proxy = await startDatabaseProxy(inject("mongoUri"));
  // The service reaches its database through the proxy; `server.database` (the test's own client) does not.
  server = await startTestServer({ mongodbUri: proxy.uri });
}, 120_000);
afterAll(async () => {
  proxy?.restore();
  await server?.close();
  await proxy?.close();
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text;
  return { status: response.status, body: parsed, ms: Date.now() - started };
}

/** The first answer with this status (until.ts polls; a 503 meanwhile is expected). */
const answered = (send: () => ReturnType<typeof call>, status: number) =>
  until(
    async () => ({ body: await send() }),
    (answer) => answer.status === status,
  );

const event = (user: string) => call("POST", "/api/metrics/words/event", { user: { id: user }, value: 1 });

describe("a database out of reach", () => {
  it("hung: health and readiness say so within their bound, and metrics still answer with the database gauges unknown", async () => {
    expect((await call("POST", "/admin/v1/metrics", [{ key: "words", name: "Words" }])).status).toBe(201);
    expect((await event("before")).status).toBe(201);
    proxy.hang();
    try {
      const health = await call("GET", "/healthz");
      expect([health.status, health.body]).toEqual([503, { status: "unavailable", database: "unreachable" }]);
      // The ping's bound (2 s), not the driver's 10 s or more; generous for a loaded machine.
      expect(health.ms).toBeLessThan(8_000);
      const ready = await call("GET", "/readyz");
      expect([ready.status, ready.body.failing]).toEqual([503, ["database"]]);
      const metrics = await call("GET", "/metrics");
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatch(/^gamification_webhook_queue_depth nan$/im); // prom-client writes "Nan"
      expect(metrics.body).toMatch(/^gamification_event_batch_backlog nan$/im);
      expect(metrics.body).toMatch(/^gamification_requests_total\{/m);
    } finally {
      proxy.restore();
    }
    // What the hang held goes on: the service answers again.
    expect((await answered(() => call("GET", "/healthz"), 200)).body).toEqual({ status: "ok", database: "reachable" });
  }, 120_000);

  it("gone: calls answer 503 with a plain JSON error and change nothing", async () => {
    proxy.cut();
    const refused = await event("during");
    expect([refused.status, refused.body.error]).toEqual([503, "The database is unavailable; try again shortly"]);
    const admin = await call("POST", "/admin/v1/metrics", [{ key: "pages", name: "Pages" }]);
    expect(admin.status).toBe(503);
    const health = await call("GET", "/healthz");
    expect(health.status).toBe(503);
    // Read past the proxy: nothing of the refused calls was stored.
    expect(await server.database.db.collection("metrics").countDocuments({ key: "pages" })).toBe(0);
    expect(await server.database.db.collection("users").countDocuments({ userId: "during" })).toBe(0);
    expect(await server.database.db.collection("users").countDocuments({ userId: "before" })).toBe(1);
    expect(health.ms).toBeLessThan(8_000);
    // Coming back after a cut is not asserted here: the driver (mongodb 7.0 to 7.9) can leave its
    // server monitor waiting forever when the monitor's connection dies while a command of the pool
    // fails at the same moment (see the notes of issue 14); after a hang it is asserted above.
  }, 120_000);
});
