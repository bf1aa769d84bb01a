import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

const APP = "https://app.example.com";
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ corsOrigins: [APP] });
  await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words", name: "Words" }] });
});
afterAll(() => server.close());

function preflight(baseUrl: string, origin: string, path = "/api/metrics/words/event") {
  return fetch(`${baseUrl}${path}`, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "x-api-key, content-type, tenant-id" },
  });
}

describe("CORS (CORS_ALLOWED_ORIGINS)", () => {
  it("answers a preflight from an allowed origin without a key, for REST and Connect paths", async () => {
    for (const path of ["/api/metrics/words/event", "/gamification.v1.ApplicationService/TrackMetricEvent"]) {
      const response = await preflight(server.baseUrl, APP, path);
      expect(response.status, path).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe(APP);
      expect(response.headers.get("vary")).toBe("Origin");
      expect(response.headers.get("access-control-allow-methods")).toContain("POST");
      const allowed = response.headers.get("access-control-allow-headers")!.toLowerCase();
      for (const header of ["x-api-key", "tenant-id", "content-type", "idempotency-key", "connect-protocol-version"]) expect(allowed).toContain(header);
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("lets the browser read the answer and its headers from an allowed origin only", async () => {
    const sent = await fetch(`${server.baseUrl}/api/metrics/words/event`, {
      method: "POST",
      headers: { origin: APP, "x-api-key": ADMIN_KEY, "content-type": "application/json" },
      body: JSON.stringify({ user: { id: "browser" }, value: 1 }),
    });
    expect(sent.status).toBe(201);
    expect(sent.headers.get("access-control-allow-origin")).toBe(APP);
    expect(sent.headers.get("access-control-expose-headers")).toContain("X-Request-ID");

    const elsewhere = await fetch(`${server.baseUrl}/v1/users/browser`, { headers: { origin: "https://evil.example", "x-api-key": ADMIN_KEY } });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get("access-control-allow-origin")).toBeNull();
    // A preflight from elsewhere is not answered as one: it needs a key like any call.
    expect((await preflight(server.baseUrl, "https://evil.example")).status).toBe(401);
  });

  it("sends no CORS headers unless origins are configured, and any origin with *", async () => {
    const closed = await startTestServer();
    const open = await startTestServer({ corsOrigins: ["*"] });
    try {
      expect((await preflight(closed.baseUrl, APP)).headers.get("access-control-allow-origin")).toBeNull();
      const any = await preflight(open.baseUrl, "https://anywhere.example");
      expect([any.status, any.headers.get("access-control-allow-origin"), any.headers.get("vary")]).toEqual([204, "*", null]);
    } finally {
      await Promise.all([closed.close(), open.close()]);
    }
  }, 120_000);
});
