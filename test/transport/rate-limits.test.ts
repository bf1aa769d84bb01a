import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN_KEY, CLIENT_PROTOCOLS, startTestServer, type TestServer } from "../helpers/server.js";

/** A REST call that also returns the response headers. */
async function call(server: TestServer, method: string, path: string, apiKey: string, body?: unknown, tenantId?: string) {
  const response = await fetch(server.baseUrl + path, {
    method,
    headers: { "x-api-key": apiKey, "content-type": "application/json", ...(tenantId === undefined ? {} : { "tenant-id": tenantId }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/**
 * Calls until the first refusal and returns it with the number of calls allowed before it. The
 * buckets refill at 1 request per second, so a burst of quick calls always reaches a refusal; the
 * bound only stops a broken limiter from looping forever.
 */
async function untilRefused<T>(attempt: () => Promise<T>, refused: (result: T) => boolean): Promise<{ result: T; allowed: number }> {
  for (let allowed = 0; allowed < 200; allowed++) {
    const result = await attempt();
    if (refused(result)) return { result, allowed };
  }
  throw new Error("never refused");
}

async function connectError(call: Promise<unknown>): Promise<ConnectError | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return ConnectError.from(error);
  }
}

async function ownKeyId(server: TestServer): Promise<string> {
  const keys = await call(server, "GET", "/admin/v1/admin-api-keys", ADMIN_KEY);
  return keys.body.find((k: { prefix: string }) => ADMIN_KEY.startsWith(`${k.prefix}.`)).id;
}

describe("rate limits off by default", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("never refuses a burst of requests and sends no RateLimit headers", async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => call(server, "GET", "/admin/v1/metrics", ADMIN_KEY)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(answers[0]!.headers.get("ratelimit")).toBeNull();
    expect(answers[0]!.headers.get("ratelimit-policy")).toBeNull();
  });

  it("answers every invalid key 401, however many come from one address", async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => call(server, "GET", "/admin/v1/metrics", `bogus.${randomUUID()}`)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 401));
  });

  it("limits a key created with its own rate limit, shows it, and lets an update change or clear it", async () => {
    const created = await call(server, "POST", "/admin/v1/admin-api-keys", ADMIN_KEY, { rateLimit: { requestsPerSecond: 1, burst: 2 } });
    expect(created.status).toBe(201);
    expect(created.body.rateLimit).toEqual({ requestsPerSecond: 1, burst: 2 });
    const limited = created.body.key as string;

    const { result, allowed } = await untilRefused(
      () => call(server, "GET", "/admin/v1/metrics", limited),
      (r) => r.status === 429,
    );
    expect(allowed).toBeGreaterThanOrEqual(2);
    expect(result.body.error).toBe("Rate limit exceeded: this API key's limit (1 requests per second, bursts of up to 2); retry in 1 s");
    expect(result.headers.get("ratelimit-policy")).toBe('"key";q=2;w=2');
    // The operator's key is not limited by another key's setting.
    expect((await call(server, "GET", "/admin/v1/metrics", ADMIN_KEY)).status).toBe(200);

    const listed = await call(server, "GET", "/admin/v1/admin-api-keys", ADMIN_KEY);
    expect(listed.body.find((k: { id: string }) => k.id === created.body.id).rateLimit).toEqual({ requestsPerSecond: 1, burst: 2 });
    expect(listed.body.find((k: { id: string }) => k.id !== created.body.id).rateLimit).toBeNull();

    const raised = await call(server, "PATCH", "/admin/v1/admin-api-keys", ADMIN_KEY, [{ id: created.body.id, rateLimit: { requestsPerSecond: 1000 } }]);
    expect(raised).toMatchObject({
      status: 200,
      body: { updated: [{ id: created.body.id, rateLimit: { requestsPerSecond: 1000, burst: null } }], issues: [] },
    });
    const cleared = await call(server, "PATCH", "/admin/v1/admin-api-keys", ADMIN_KEY, [{ id: created.body.id, rateLimit: null }, { id: "nope" }]);
    expect(cleared.body).toEqual({
      updated: [expect.objectContaining({ id: created.body.id, rateLimit: null })],
      issues: [{ id: "nope", severity: "error", message: "Admin API key not found by ID", level: "error", reason: "Admin API key not found by ID" }],
    });
    // Back to the default, which is no limit: the key's cached setting expires within a second.
    await expect.poll(async () => (await call(server, "GET", "/admin/v1/metrics", limited)).headers.get("ratelimit"), { timeout: 30_000 }).toBeNull();
  });

  it("sets, lists and updates application keys' rate limits within the tenant", async () => {
    const created = await call(server, "POST", "/admin/v1/application-api-keys", ADMIN_KEY, [
      { userId: "u1", rateLimit: { requestsPerSecond: 5, burst: 10 } },
      { userId: "u2" },
    ]);
    expect(created.status).toBe(201);
    expect(created.body.created.map((k: { rateLimit: unknown }) => k.rateLimit)).toEqual([{ requestsPerSecond: 5, burst: 10 }, null]);
    const [first, second] = created.body.created as Array<{ id: string }>;

    const updated = await call(server, "PATCH", "/admin/v1/application-api-keys", ADMIN_KEY, [{ id: second!.id, rateLimit: { requestsPerSecond: 2 } }]);
    expect(updated.body.updated).toEqual([
      { id: second!.id, userId: "u2", prefix: expect.any(String), created: expect.any(String), rateLimit: { requestsPerSecond: 2, burst: null } },
    ]);
    const listed = await call(server, "GET", "/admin/v1/application-api-keys", ADMIN_KEY);
    expect(listed.body.map((k: { id: string; rateLimit: unknown }) => [k.id, k.rateLimit])).toEqual([
      [first!.id, { requestsPerSecond: 5, burst: 10 }],
      [second!.id, { requestsPerSecond: 2, burst: null }],
    ]);
  });

  it("refuses a rate limit out of bounds with 400 and changes nothing", async () => {
    const zero = await call(server, "POST", "/admin/v1/admin-api-keys", ADMIN_KEY, { rateLimit: { requestsPerSecond: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.body.error).toBe("Invalid request: rateLimit.requestsPerSecond: must be greater than or equal to 1 and less than or equal to 1000000");
    const ownId = await ownKeyId(server);
    const huge = await call(server, "PATCH", "/admin/v1/admin-api-keys", ADMIN_KEY, [{ id: ownId, rateLimit: { requestsPerSecond: 1, burst: 2_000_000 } }]);
    expect(huge.status).toBe(400);
    expect(huge.body.error).toBe("Invalid request: keys[0].rateLimit.burst: must be greater than or equal to 1 and less than or equal to 1000000");
    const keys = await call(server, "GET", "/admin/v1/admin-api-keys", ADMIN_KEY);
    expect(keys.body.find((k: { id: string }) => k.id === ownId).rateLimit).toBeNull();
  });

  it("refuses to update a key of another kind or tenant", async () => {
    const created = await call(server, "POST", "/admin/v1/application-api-keys", ADMIN_KEY, [{ userId: "u3" }]);
    const appKeyId = created.body.created[0].id;
    const asAdmin = await call(server, "PATCH", "/admin/v1/admin-api-keys", ADMIN_KEY, [{ id: appKeyId, rateLimit: { requestsPerSecond: 1 } }]);
    expect(asAdmin.body).toEqual({
      updated: [],
      issues: [{ id: appKeyId, severity: "error", message: "Admin API key not found by ID", level: "error", reason: "Admin API key not found by ID" }],
    });
    await call(server, "POST", "/admin/v1/tenants", ADMIN_KEY, [{ customerId: "other", name: "Other" }]);
    const otherTenant = await call(
      server,
      "PATCH",
      "/admin/v1/application-api-keys",
      ADMIN_KEY,
      [{ id: appKeyId, rateLimit: { requestsPerSecond: 1 } }],
      "other",
    );
    expect(otherTenant.body.issues).toEqual([
      { id: appKeyId, severity: "error", message: "Application API key not found by ID", level: "error", reason: "Application API key not found by ID" },
    ]);
  });
});

describe("rate limits configured", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      rateLimits: { perKey: { requestsPerSecond: 1, burst: 3 }, tenant: { requestsPerSecond: 1, burst: 4 } },
    });
    // The operator's own key gets a high limit of its own, so the set-up calls below never wait.
    await call(server, "PATCH", "/admin/v1/admin-api-keys", ADMIN_KEY, [{ id: await ownKeyId(server), rateLimit: { requestsPerSecond: 100_000 } }]);
    // Key lookups are cached for a second: wait until the new setting is the one applied.
    await vi.waitFor(
      async () => expect((await call(server, "GET", "/admin/v1/metrics", ADMIN_KEY)).headers.get("ratelimit-policy")).toBe('"key";q=100000;w=1'),
      { timeout: 30_000, interval: 200 },
    );
  });
  afterAll(() => server.close());

  async function newAdminKey(): Promise<string> {
    return (await call(server, "POST", "/admin/v1/admin-api-keys", ADMIN_KEY, {})).body.key;
  }

  it("answers REST with the RateLimit headers, then 429 with Retry-After and an error body", async () => {
    const key = await newAdminKey();
    const first = await call(server, "GET", "/admin/v1/metrics", key);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"key";q=3;w=3');
    expect(first.headers.get("ratelimit")).toMatch(/^"key";r=2;t=[01]$/);
    expect(first.headers.get("retry-after")).toBeNull();

    const { result } = await untilRefused(
      () => call(server, "GET", "/admin/v1/metrics", key),
      (r) => r.status !== 200,
    );
    expect(result.status).toBe(429);
    expect(result.body).toEqual({
      error: "Rate limit exceeded: this API key's limit (1 requests per second, bursts of up to 3); retry in 1 s",
      requestId: result.headers.get("x-request-id"),
    });
    expect(result.headers.get("retry-after")).toBe("1");
    expect(result.headers.get("ratelimit-policy")).toBe('"key";q=3;w=3');
    expect(result.headers.get("ratelimit")).toMatch(/^"key";r=0;t=[1-3]$/);
    expect(result.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  it("answers resource_exhausted with the headers as metadata on every client protocol", async () => {
    for (const protocol of CLIENT_PROTOCOLS) {
      const client = server.client(protocol, { apiKey: await newAdminKey() });
      const { result } = await untilRefused(
        () => connectError(client.admin.listMetrics({})),
        (e) => e !== undefined,
      );
      expect(result!.code, protocol).toBe(Code.ResourceExhausted);
      expect(result!.rawMessage, protocol).toMatch(/^Rate limit exceeded: this API key's limit/);
      expect(result!.metadata.get("retry-after"), protocol).toBe("1");
      expect(result!.metadata.get("ratelimit-policy"), protocol).toBe('"key";q=3;w=3');
    }
  });

  it("shares the tenant's ceiling among its application keys; admin keys are not counted against it", async () => {
    const created = await call(server, "POST", "/admin/v1/application-api-keys", ADMIN_KEY, [
      { userId: "u1", rateLimit: { requestsPerSecond: 100_000 } },
      { userId: "u2", rateLimit: { requestsPerSecond: 100_000 } },
    ]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [k1, k2] = created.body.created.map((k: { key: string }) => k.key) as string[];
    const first = await untilRefused(
      () => call(server, "GET", "/v1/users/u1", k1!),
      (r) => r.status === 429,
    );
    expect(first.result.body.error).toBe(
      "Rate limit exceeded: the tenant's limit shared by all its application keys (1 requests per second, bursts of up to 4); retry in 1 s",
    );
    expect(first.result.headers.get("ratelimit-policy")).toBe('"key";q=100000;w=1, "tenant";q=4;w=4');
    // The other key of the tenant, despite its own high limit, is refused by the same ceiling.
    const second = await untilRefused(
      () => call(server, "GET", "/v1/users/u2", k2!),
      (r) => r.status === 429,
    );
    expect(second.result.body.error).toMatch(/the tenant's limit/);
    const admin = await call(server, "GET", "/admin/v1/metrics", ADMIN_KEY);
    expect(admin.status).toBe(200);
    expect(admin.headers.get("ratelimit-policy")).toBe('"key";q=100000;w=1');
  });
});

describe("invalid keys limited per client address (RATE_LIMIT_INVALID_KEYS)", () => {
  let server: TestServer;
  beforeAll(async () => {
    // A refill far slower than the variable allows (whole requests per second), so the bucket
    // stays empty for the whole test, however slow the machine.
    server = await startTestServer({ rateLimits: { invalidKeys: { requestsPerSecond: 0.001, burst: 3 } } });
  });
  afterAll(() => server.close());

  const invalid = () => call(server, "GET", "/admin/v1/metrics", `bogus.${randomUUID()}`);

  it("answers 401 for the burst, then 429 before any lookup; keys used lately still pass, others wait", async () => {
    expect((await call(server, "GET", "/admin/v1/metrics", ADMIN_KEY)).status).toBe(200);
    const unused = (await call(server, "POST", "/admin/v1/admin-api-keys", ADMIN_KEY, {})).body.key as string;
    for (let i = 0; i < 3; i++) expect((await invalid()).status).toBe(401);
    const refused = await invalid();
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(
      /^Rate limit exceeded: too many requests with an invalid API key from this address \(0.001 per second, bursts of up to 3\); until then only keys recently used with success are accepted from it; retry in \d+ s$/,
    );
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(1);
    // No key at all costs no lookup and is still told so.
    const missing = await fetch(`${server.baseUrl}/admin/v1/metrics`);
    expect(missing.status).toBe(401);
    // The operator's key authenticated a moment ago: it passes. A valid key not used yet must wait.
    expect((await call(server, "GET", "/admin/v1/metrics", ADMIN_KEY)).status).toBe(200);
    expect((await call(server, "GET", "/admin/v1/metrics", unused)).status).toBe(429);
  });

  it("answers resource_exhausted on every client protocol", async () => {
    for (const protocol of CLIENT_PROTOCOLS) {
      const error = await connectError(server.client(protocol, { apiKey: `bogus.${randomUUID()}` }).admin.listMetrics({}));
      expect(error?.code, protocol).toBe(Code.ResourceExhausted);
      expect(error?.rawMessage, protocol).toMatch(/too many requests with an invalid API key from this address/);
      expect(Number(error?.metadata.get("retry-after")), protocol).toBeGreaterThan(1);
    }
  });
});
