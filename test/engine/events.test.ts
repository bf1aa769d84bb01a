import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningService } from "../../src/server/service.js";
import { ADMIN_KEY, startAnotherInstance, startTestServer, type TestServer } from "../helpers/server.js";
import { readStoredUser } from "../../src/engine/store/user-documents.js";
import { RECENT_IDEMPOTENCY_LIMIT } from "../../src/engine/record-event.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/metrics", {
    body: [
      { key: "words", name: "Words" },
      { key: "pages", name: "Pages" },
    ],
  });
  await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "t2", name: "T2" }] });
  await server.rest("POST", "/admin/v1/metrics", { tenantId: "t2", body: [{ key: "words", name: "Words" }] });
});
afterAll(() => server.close());

async function event(path: string, body: unknown, headers: Record<string, string> = {}, tenantId?: string) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", ...(tenantId ? { "tenant-id": tenantId } : {}), ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe("idempotency", () => {
  it("processes a key once (201), then replays it (202) with the current state and nothing applied", async () => {
    const first = await event("/api/metrics/words/event", { user: { id: "i1" }, value: 10 }, { "idempotency-key": "k1" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ total: 10, idempotentReplayed: false, idempotencyKey: "k1" });
    await event("/api/metrics/words/event", { user: { id: "i1" }, value: 5 });
    const replay = await event("/api/metrics/words/event", { user: { id: "i1" }, value: 10 }, { "idempotency-key": "k1" });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ total: 15, idempotentReplayed: true, idempotencyKey: "k1", eventId: first.body.eventId, achievements: [] });
  });

  it("scopes keys by metric, user and tenant", async () => {
    const headers = { "idempotency-key": "shared" };
    const results = [
      await event("/api/metrics/words/event", { user: { id: "i2" }, value: 1 }, headers),
      await event("/api/metrics/pages/event", { user: { id: "i2" }, value: 1 }, headers),
      await event("/api/metrics/words/event", { user: { id: "i3" }, value: 1 }, headers),
      await event("/api/metrics/words/event", { user: { id: "i2" }, value: 1 }, headers, "t2"),
    ];
    expect(results.map((r) => [r.status, r.body.idempotentReplayed])).toEqual(Array(4).fill([201, false]));
  });

  it("refuses a reused key with a different request (422) and changes nothing", async () => {
    await event("/api/metrics/words/event", { user: { id: "i4" }, value: 3, attributes: {} }, { "idempotency-key": "fp" });
    const different = await event("/api/metrics/words/event", { user: { id: "i4" }, value: 4 }, { "idempotency-key": "fp" });
    expect(different.status).toBe(422);
    expect(different.body.error).toMatch(
      /^Idempotency key "fp" was already used for a different request on this metric \(request fingerprint [0-9a-f]{16}, original [0-9a-f]{16}\)/,
    );
    expect((await server.client("grpc").application.trackMetricEvent({ key: "words", user: { id: "i4" }, value: 0, idempotencyKey: "other" })).total).toBe(3);
  });

  it("replays a key whose request names an attribute deleted since (it was applied while valid); a new key is refused", async () => {
    const created = await server.rest("POST", "/admin/v1/attributes", { body: [{ key: "source", name: "Source", type: "event" }] });
    const request = { user: { id: "i-attr" }, value: 2, attributes: { source: "web" } };
    const first = await event("/api/metrics/words/event", request, { "idempotency-key": "with-source" });
    expect([first.status, first.body.total]).toEqual([201, 2]);
    await server.rest("DELETE", `/admin/v1/attributes?ids=${created.body.created[0].id}`);
    const replay = await event("/api/metrics/words/event", request, { "idempotency-key": "with-source" });
    expect([replay.status, replay.body.idempotentReplayed, replay.body.eventId, replay.body.total]).toEqual([202, true, first.body.eventId, 2]);
    const fresh = await event("/api/metrics/words/event", request, { "idempotency-key": "another" });
    expect([fresh.status, fresh.body.error]).toEqual([400, expect.stringMatching(/^Invalid attribute keys: source\./)]);
    expect((await server.rest("GET", "/v1/users/i-attr/metrics/words")).body).toMatchObject({ current: 2 });
  });

  it("reads an Idempotency-Key header beyond ASCII as the UTF-8 its client sent, the same key as in the body", async () => {
    const utf8Header = (key: string) => Buffer.from(key, "utf8").toString("latin1"); // the header's bytes, as fetch sends them
    const first = await event("/api/metrics/words/event", { user: { id: "i-utf8" }, value: 1 }, { "idempotency-key": utf8Header("clé-名前") });
    expect([first.status, first.body.idempotencyKey]).toEqual([201, "clé-名前"]);
    const inBody = await event("/api/metrics/words/event", { user: { id: "i-utf8" }, value: 1, idempotencyKey: "clé-名前" });
    expect([inBody.status, inBody.body.eventId]).toEqual([202, first.body.eventId]);
    const both = await event(
      "/api/metrics/words/event",
      { user: { id: "i-utf8" }, value: 1, idempotencyKey: "clé-名前" },
      { "idempotency-key": utf8Header("clé-名前") },
    );
    expect(both.status).toBe(202);
  });

  it("holds the Idempotency-Key header to the body field's rule: at most 255 characters", async () => {
    const atLimit = await event("/api/metrics/words/event", { user: { id: "i5" }, value: 1 }, { "idempotency-key": "k".repeat(255) });
    expect([atLimit.status, atLimit.body.idempotencyKey]).toEqual([201, "k".repeat(255)]);
    const over = await event("/api/metrics/words/event", { user: { id: "i5" }, value: 1 }, { "idempotency-key": "k".repeat(256) });
    expect(over).toEqual({ status: 400, body: expect.objectContaining({ error: "The Idempotency-Key header must be at most 255 characters, got 256" }) });
    expect((await server.rest("GET", "/v1/users/i5/metrics/words")).body).toMatchObject({ current: 1 });
  });

  it("refuses an empty Idempotency-Key header, and a header and body key that differ (one would be ignored), changing nothing", async () => {
    const empty = await event("/api/metrics/words/event", { user: { id: "i6" }, value: 1 }, { "idempotency-key": "" });
    expect(empty).toEqual({
      status: 400,
      body: expect.objectContaining({ error: "The Idempotency-Key header must not be empty; leave it out to send no key" }),
    });
    const both = await event("/api/metrics/words/event", { user: { id: "i6" }, value: 1, idempotencyKey: "body" }, { "idempotency-key": "header" });
    expect(both).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'The Idempotency-Key header ("header") and the body\'s idempotencyKey ("body") differ; send one key' }),
    });
    expect((await server.rest("GET", "/v1/users/i6")).status).toBe(404);
    // The same key in both is one key.
    const same = await event("/api/metrics/words/event", { user: { id: "i6" }, value: 1, idempotencyKey: "k1" }, { "idempotency-key": "k1" });
    expect([same.status, same.body.idempotencyKey]).toEqual([201, "k1"]);
    const replay = await event("/api/metrics/words/event", { user: { id: "i6" }, value: 1 }, { "idempotency-key": "k1" });
    expect([replay.status, replay.body.idempotentReplayed, replay.body.total]).toEqual([202, true, 1]);
  });

  it("works through Connect with the key in the request and remembers keys beyond the in-document batch", async () => {
    const client = server.client("connect-binary").application;
    for (let i = 0; i < 60; i++) await client.trackMetricEvent({ key: "pages", user: { id: "batch" }, value: 1, idempotencyKey: `b${i}` });
    const users = server.service.context.database.collections.users;
    expect((await readStoredUser(users, "default", "batch"))!.state.recentIdempotency.length).toBeLessThan(50);
    for (const i of [0, 25, 59]) {
      const replay = await client.trackMetricEvent({ key: "pages", user: { id: "batch" }, value: 1, idempotencyKey: `b${i}` });
      expect([replay.idempotentReplayed, replay.total]).toEqual([true, 60]);
    }
  });
});

describe("admin timestamps", () => {
  it("apply a user's events in time order; only admin keys may set time", async () => {
    const at = (iso: string) => ({ user: { id: "ts" }, value: 1, timestamp: iso });
    expect((await event("/api/metrics/words/event", at("2026-01-02T10:00:00Z"))).status).toBe(201);
    const older = await event("/api/metrics/words/event", at("2026-01-01T10:00:00Z"));
    expect(older.status).toBe(422);
    expect(older.body.error).toMatch(/older than this user's latest applied event/);
    expect((await event("/api/metrics/words/event", at("2099-01-01T00:00:00Z"))).body.error).toMatch(/in the future/);
    expect((await event("/api/metrics/words/event", at("2999-01-01T00:00:00Z"))).status).toBe(400);
    expect((await event("/api/metrics/words/event", at("yesterday"))).status).toBe(400);

    const appKey = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "ts" }] })).body.created[0].key;
    const asApp = await event("/api/metrics/words/event", at("2026-01-03T10:00:00Z"), { "x-api-key": appKey });
    expect(asApp).toEqual({ status: 403, body: { error: "Only admin keys may set an event timestamp", requestId: expect.any(String) } });
    expect((await server.rest("GET", "/v1/users/ts")).body.updated).toBe("2026-01-02T10:00:00Z");
  });

  it("a user first seen in a backdated event is created at its moment, not when it was imported", async () => {
    expect((await event("/api/metrics/words/event", { user: { id: "imported" }, value: 1, timestamp: "2026-01-05T08:00:00Z" })).status).toBe(201);
    const read = await server.rest("GET", "/v1/users/imported");
    expect([read.body.created, read.body.updated]).toEqual(["2026-01-05T08:00:00Z", "2026-01-05T08:00:00Z"]);
    // Without a timestamp: now.
    const before = Date.now();
    expect((await event("/api/metrics/words/event", { user: { id: "live" }, value: 1 })).status).toBe(201);
    expect(Date.parse((await server.rest("GET", "/v1/users/live")).body.created)).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe("parallel events", () => {
  it("applies 200 concurrent events of one user and metric without loss or duplication", async () => {
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        i % 2 === 0
          ? event("/api/metrics/words/event", { user: { id: "par" }, value: 1 })
          : server
              .client("connect-json")
              .application.trackMetricEvent({ key: "words", user: { id: "par" }, value: 1 })
              .then((r) => ({ status: 201, body: r })),
      ),
    );
    expect(responses.every((r) => r.status === 201)).toBe(true);
    const totals = responses.map((r) => r.body.total).sort((a, b) => a - b);
    expect(totals).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it("replays a key on one instance while another moves the user's records out of the document", async () => {
    const [a, b] = [await startAnotherInstance(server), await startAnotherInstance(server)];
    const send = async (instance: RunningService, key: string) => {
      const response = await fetch(`http://127.0.0.1:${instance.port}/api/metrics/words/event`, {
        method: "POST",
        headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ user: { id: "moved-race" }, value: 1 }),
      });
      return { status: response.status, body: (await response.json()) as { total: number; idempotentReplayed?: boolean } };
    };
    try {
      // The document holds the latest RECENT_IDEMPOTENCY_LIMIT records; B's next key moves them all out.
      for (let i = 0; i < RECENT_IDEMPOTENCY_LIMIT; i++) expect((await send(b, `k${i}`)).status).toBe(201);
      // If A looked the key up among moved records beside reading the user, B's move could fall
      // between the two reads: the lookup before it (nothing moved yet), the user after it (the key
      // gone from the document). Make it fall there whenever A reads both at once.
      const collections = a.context.database.collections;
      const readKeys = collections.idempotencyKeys.findOne.bind(collections.idempotencyKeys);
      const readUser = collections.users.findOne.bind(collections.users);
      // What B's move is and when A's lookup among moved records began, if it did.
      const race: { lookup?: Promise<unknown>; move?: ReturnType<typeof send> } = {};
      collections.idempotencyKeys.findOne = ((...args: Parameters<typeof readKeys>) => {
        const read = readKeys(...args);
        race.lookup ??= read.then(() => (race.move = send(b, "k-new")));
        return read;
      }) as typeof readKeys;
      collections.users.findOne = (async (...args: Parameters<typeof readUser>) => {
        await new Promise((resolve) => setImmediate(resolve)); // a lookup started beside this read has begun by now
        if (race.lookup) await race.lookup.then(() => race.move);
        return readUser(...args);
      }) as typeof readUser;
      const replay = await send(a, "k0");
      expect([replay.status, replay.body.idempotentReplayed]).toEqual([202, true]);
      if (race.move) expect((await race.move).status).toBe(201);
      const total = (await send(b, `k-last`)).body.total;
      expect(total).toBe(RECENT_IDEMPOTENCY_LIMIT + (race.move ? 2 : 1));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("retries on a version conflict with another instance and applies both events", async () => {
    // eslint-disable-next-line prefer-const -- read by the first instance's hook, which is defined before the second instance starts
    let second: RunningService | undefined;
    let interfered = false;
    const first = await startAnotherInstance(server, {
      // Between reading and writing the user, another instance writes it: the first write must conflict.
      atPipelinePoint: async (point, attempt) => {
        if (point !== "before-user-write" || attempt !== 1 || interfered) return;
        interfered = true;
        const res = await fetch(`http://127.0.0.1:${second!.port}/api/metrics/words/event`, {
          method: "POST",
          headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
          body: JSON.stringify({ user: { id: "race" }, value: 100 }),
        });
        expect(((await res.json()) as { total: number }).total).toBe(101);
      },
    });
    second = await startAnotherInstance(server);
    try {
      await event("/api/metrics/words/event", { user: { id: "race" }, value: 1 });
      const res = await fetch(`http://127.0.0.1:${first.port}/api/metrics/words/event`, {
        method: "POST",
        headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
        body: JSON.stringify({ user: { id: "race" }, value: 10 }),
      });
      expect(interfered).toBe(true);
      expect(((await res.json()) as { total: number }).total).toBe(111);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
