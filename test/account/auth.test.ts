import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../src/features/account/store/api-keys.js";
import { ADMIN_KEY, CLIENT_PROTOCOLS, startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let appKey: string;

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "lessons", name: "Lessons" }] });
  appKey = (await createApiKey(server.service.context.database.collections.apiKeys, "application", { tenantId: "default", userId: "alice" }, new Date())).key;
});
afterAll(() => server.close());

async function connectCode(call: Promise<unknown>): Promise<Code | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

describe("authentication", () => {
  it("refuses a missing or wrong key with 401 on REST", async () => {
    expect(await server.rest("GET", "/admin/v1/metrics", { apiKey: null })).toEqual({
      status: 401,
      body: { error: "Missing API key: send it in the X-API-KEY header" },
    });
    expect(await server.rest("GET", "/admin/v1/metrics", { apiKey: "adm_testkey.wrong" })).toEqual({ status: 401, body: { error: "Invalid API key" } });
    const event = await server.rest("POST", "/api/metrics/lessons/event", { apiKey: "garbage", body: { user: { id: "x" }, value: 1 } });
    expect(event.status).toBe(401);
    // The header twice, even with a valid key: said so (Node joins the two values).
    const twice = await fetch(`${server.baseUrl}/admin/v1/metrics`, {
      headers: [
        ["x-api-key", ADMIN_KEY],
        ["x-api-key", ADMIN_KEY],
      ],
    });
    expect([twice.status, await twice.json()]).toEqual([
      401,
      { error: "The X-API-KEY header was sent more than once: send one key", requestId: expect.any(String) },
    ]);
  });

  it("refuses a wrong key with Unauthenticated on every client protocol", async () => {
    for (const protocol of CLIENT_PROTOCOLS) {
      const code = await connectCode(server.client(protocol, { apiKey: "nope" }).admin.listMetrics({}));
      expect(code, protocol).toBe(Code.Unauthenticated);
    }
  });

  it("stores keys hashed, never in plaintext", async () => {
    const docs = await server.service.context.database.collections.apiKeys.find({}).toArray();
    const serialized = JSON.stringify(docs);
    expect(serialized).not.toContain(appKey.split(".")[1]);
    expect(serialized).not.toContain("0123456789abcdefghijklmnopqrstuvwxyz");
  });
});

describe("key scopes", () => {
  it("lets an application key call the Application API for its own user only", async () => {
    const own = await server.rest("POST", "/api/metrics/lessons/event", { apiKey: appKey, body: { user: { id: "alice" }, value: 1 } });
    expect(own.status).toBe(201);
    const other = await server.rest("POST", "/api/metrics/lessons/event", { apiKey: appKey, body: { user: { id: "bob" }, value: 1 } });
    expect(other.status).toBe(403);
    expect((await server.rest("GET", "/v1/users/bob", { apiKey: appKey })).status).toBe(403);
  });

  it("refuses an application key on the Admin API: 403 on REST, PermissionDenied on Connect and gRPC", async () => {
    const response = await server.rest("POST", "/admin/v1/metrics", { apiKey: appKey, body: [{ key: "sneaky", name: "Sneaky" }] });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatch(/admin API key/);
    for (const protocol of CLIENT_PROTOCOLS) {
      expect(await connectCode(server.client(protocol, { apiKey: appKey }).admin.listMetrics({})), protocol).toBe(Code.PermissionDenied);
    }
    const list = await server.rest("GET", "/admin/v1/metrics");
    expect(list.body.map((m: { key: string }) => m.key)).toEqual(["lessons"]);
  });

  it("lets an admin key call the Application API for any user", async () => {
    const response = await server.client("grpc").application.trackMetricEvent({ key: "lessons", user: { id: "bob" }, value: 3 });
    expect(response.total).toBe(3);
  });
});
