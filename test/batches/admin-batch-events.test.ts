import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MetricEventBatchStatus, type MetricEventBatch } from "../../sdk/src/index.js";
import { findFreePort } from "../../src/server/embedded-db.js";
import { startService, type ServiceOptions } from "../../src/server/service.js";
import { CHILD_ADMIN_KEY, startChildServer } from "../helpers/child-server.js";
import { openTestDatabase } from "../helpers/database.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/metrics", {
    body: [
      { key: "words", name: "Words" },
      { key: "pages", name: "Pages" },
    ],
  });
  await server.rest("POST", "/admin/v1/attributes", { body: [{ key: "source", name: "Source", type: "event" }] });
  await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "other", name: "Other" }] });
});
afterAll(() => server.close());

/** Polls a batch's status (REST) until it is completed. */
async function completedBatch(id: string, rest: (path: string) => Promise<{ status: number; body: any }> = (p) => server.rest("GET", p)) {
  for (let i = 0; i < 500; i++) {
    const { status, body } = await rest(`/admin/v1/metrics/events/${id}`);
    expect(status).toBe(200);
    if (body.status === "completed") return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`batch ${id} did not complete`);
}

const total = async (userId: string, key: string) => (await server.rest("GET", `/v1/users/${userId}/metrics/${key}`)).body.current;
const storedBatches = () => server.service.context.database.collections.metricEventBatches.countDocuments();

describe("admin batch ingestion", () => {
  // Three users; values with known sums; three events that fail when processed.
  const batch = [
    { key: "words", user: { id: "b1", tz: "Europe/London" }, value: 10, idempotencyKey: "shared", attributes: { source: "web" } },
    { key: "pages", user: { id: "b1" }, value: 2, idempotencyKey: "shared" }, // same key, other metric
    { key: "words", user: { id: "b2" }, value: 7, idempotencyKey: "shared" }, // same key, other user
    { key: "words", user: { id: "b1" }, value: 20.25, idempotencyKey: "b1-2" },
    { key: "words", user: { id: "b1" }, value: 1, idempotencyKey: "b1-bad-attribute", attributes: { nope: "x" } },
    { key: "words", user: { id: "b2", tz: "Mars/Olympus" }, value: 100, idempotencyKey: "b2-bad-tz" },
    { key: "words", user: { id: "b2" }, value: -2, idempotencyKey: "b2-2" },
    { key: "words", user: { id: "b3" }, value: 5, idempotencyKey: "b3-1", timestamp: "2026-01-02T10:00:00Z" },
    { key: "words", user: { id: "b3" }, value: 6, idempotencyKey: "b3-old", timestamp: "2026-01-01T10:00:00Z" }, // older than b3-1
    { key: "words", user: { id: "b3" }, value: 7, idempotencyKey: "b3-2", timestamp: "2026-01-03T10:00:00Z" },
  ];
  const expectedErrors = [
    { index: 4, idempotencyKey: "b1-bad-attribute", message: expect.stringMatching(/^Invalid attribute keys: nope\./) },
    { index: 5, idempotencyKey: "b2-bad-tz", message: 'user.tz "Mars/Olympus" is not an IANA time zone name (e.g. "Europe/London")' },
    { index: 8, idempotencyKey: "b3-old", message: expect.stringMatching(/is older than this user's latest applied event/) },
  ];

  it("accepts a batch (202), processes it in the background per user in order, and reports per-event errors", async () => {
    const submitted = await server.rest("POST", "/admin/v1/metrics/events", { body: batch });
    expect(submitted.status).toBe(202);
    expect(submitted.body).toEqual({ accepted: 10, batchId: expect.any(String) });

    const status = await completedBatch(submitted.body.batchId);
    expect(status).toEqual({
      id: submitted.body.batchId,
      status: "completed",
      total: 10,
      processed: 10,
      applied: 7,
      replayed: 0,
      failed: 3,
      errors: expectedErrors,
      attempts: 1,
      created: expect.any(String),
      updated: expect.any(String),
      completed: expect.any(String),
    });
    expect([await total("b1", "words"), await total("b1", "pages"), await total("b2", "words"), await total("b3", "words")]).toEqual([30.25, 2, 5, 12]);
    // The completed batch keeps its counters and errors, not its events.
    const { metricEventBatches, metricEventBatchEvents } = server.service.context.database.collections;
    expect(await metricEventBatches.findOne({ _id: submitted.body.batchId })).not.toHaveProperty("outcomes");
    expect(await metricEventBatchEvents.findOne({ _id: submitted.body.batchId })).toBe(null);
  });

  it("replays a resubmitted batch: nothing applied twice", async () => {
    const again = await server.rest("POST", "/admin/v1/metrics/events", { body: batch });
    expect(again.status).toBe(202);
    const status = await completedBatch(again.body.batchId);
    expect([status.applied, status.replayed, status.failed]).toEqual([0, 7, 3]);
    expect(status.errors).toEqual(expectedErrors);
    expect([await total("b1", "words"), await total("b1", "pages"), await total("b2", "words"), await total("b3", "words")]).toEqual([30.25, 2, 5, 12]);
  });

  it("takes 1,000 events in one request and refuses 1,001", async () => {
    // One event for each of 1,000 users (a full batch of small user documents keeps the test short).
    const events = Array.from({ length: 1000 }, (_, i) => ({ key: "pages", user: { id: `full-${i}` }, value: 1, idempotencyKey: `full-${i}` }));
    const accepted = await server.rest("POST", "/admin/v1/metrics/events", { body: events });
    expect(accepted.status).toBe(202);
    expect(accepted.body.accepted).toBe(1000);

    const before = await storedBatches();
    const tooMany = await server.rest("POST", "/admin/v1/metrics/events", { body: [...events, { ...events[0]!, idempotencyKey: "one-more" }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/events: must contain no more than 1000 item/);
    expect(await storedBatches()).toBe(before);

    const status = await completedBatch(accepted.body.batchId);
    expect([status.applied, status.failed]).toEqual([1000, 0]);
    for (const u of [0, 999]) expect(await total(`full-${u}`, "pages")).toBe(1);
  }, 180_000);

  it("refuses the whole batch, storing nothing: duplicate keys (400), unknown metrics (404), overlong keys (400)", async () => {
    const before = await storedBatches();
    const event = (key: string, userId: string, idempotencyKey: string) => ({ key, user: { id: userId }, value: 1, idempotencyKey });

    const duplicates = await server.rest("POST", "/admin/v1/metrics/events", {
      body: [event("words", "d1", "k"), event("words", "d2", "k"), event("words", "d1", "k"), event("pages", "d1", "k"), event("words", "d1", "k")],
    });
    expect(duplicates).toEqual({
      status: 400,
      body: { error: 'Duplicate idempotency keys for the same user and metric: events 0, 2, 4 (user "d1", metric "words", key "k")' },
    });

    const unknown = await server.rest("POST", "/admin/v1/metrics/events", {
      body: [event("words", "d1", "a"), event("nope", "d1", "b"), event("nope", "d2", "c"), event("other", "d1", "d")],
    });
    expect(unknown).toEqual({ status: 404, body: { error: 'Metrics not found: "nope" (events 1, 2), "other" (event 3)' } });

    const longKey = await server.rest("POST", "/admin/v1/metrics/events", { body: [event("words", "d1", "k".repeat(256))] });
    expect(longKey.status).toBe(400);
    expect(longKey.body.error).toMatch(/events\[0\]\.idempotencyKey: must be at most 255 characters/);

    // A batch-level Idempotency-Key header is read nowhere: refused rather than trusted in vain.
    const withHeader = await fetch(`${server.baseUrl}/admin/v1/metrics/events`, {
      method: "POST",
      headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", "idempotency-key": "batch-1" },
      body: JSON.stringify([event("words", "d1", "h")]),
    });
    expect([withHeader.status, ((await withHeader.json()) as { error: string }).error]).toEqual([
      400,
      "A batch takes an idempotencyKey on each event; the Idempotency-Key header is not read by this call, so leave it out",
    ]);

    const notArray = await server.rest("POST", "/admin/v1/metrics/events", { body: event("words", "d1", "x") });
    expect(notArray.status).toBe(400);
    const empty = await server.rest("POST", "/admin/v1/metrics/events", { body: [] });
    expect(empty.status).toBe(400);
    expect(await storedBatches()).toBe(before);
  });

  it("applies events sent without an idempotency key once each, as the reference allows (REST)", async () => {
    const submitted = await server.rest("POST", "/admin/v1/metrics/events", {
      body: [
        { key: "pages", user: { id: "n1" }, value: 5 },
        { key: "pages", user: { id: "n1" }, value: 5 }, // the same event again: a second event, not a replay
        { key: "pages", user: { id: "n1" }, value: 1, idempotencyKey: "" }, // empty means none
        { key: "pages", user: { id: "n1" }, value: 1, attributes: { nope: "x" } }, // fails when processed
        { key: "pages", user: { id: "n2" }, value: 2, idempotencyKey: "n2-1" },
      ],
    });
    expect(submitted.status).toBe(202);
    const status = await completedBatch(submitted.body.batchId);
    expect([status.applied, status.replayed, status.failed]).toEqual([4, 0, 1]);
    expect(status.errors).toEqual([{ index: 3, idempotencyKey: "", message: expect.stringMatching(/^Invalid attribute keys: nope\./) }]);
    expect([await total("n1", "pages"), await total("n2", "pages")]).toEqual([11, 2]);

    // Submitted again, keyless events are new events (nothing identifies them as the same); keyed ones replay.
    const again = await server.rest("POST", "/admin/v1/metrics/events", {
      body: [
        { key: "pages", user: { id: "n1" }, value: 5 },
        { key: "pages", user: { id: "n2" }, value: 2, idempotencyKey: "n2-1" },
      ],
    });
    const second = await completedBatch(again.body.batchId);
    expect([second.applied, second.replayed, second.failed]).toEqual([1, 1, 0]);
    expect([await total("n1", "pages"), await total("n2", "pages")]).toEqual([16, 2]);

    // A keyless event's own key (batch:<batch ID>:<index>) is not the caller's to use: sent with an
    // event it would be answered as that batch event's replay, nothing applied.
    const internalKey = `batch:${again.body.batchId}:0`;
    const reserved = `Idempotency key "${internalKey}" has the form batch:<batch ID>:<index>, which is reserved for the events of a batch sent without a key; use another key`;
    const viaHeader = await fetch(`${server.baseUrl}/v1/metrics/pages/event`, {
      method: "POST",
      headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", "idempotency-key": internalKey },
      body: JSON.stringify({ user: { id: "n1" }, value: 5 }),
    });
    expect([viaHeader.status, ((await viaHeader.json()) as { error: string }).error]).toEqual([400, reserved]);
    const viaBody = server.client("connect-json").application.trackMetricEvent({ key: "pages", user: { id: "n1" }, value: 5, idempotencyKey: internalKey });
    await expect(viaBody).rejects.toThrow(reserved);
    const inBatch = await server.rest("POST", "/admin/v1/metrics/events", {
      body: [{ key: "pages", user: { id: "n1" }, value: 5, idempotencyKey: internalKey }],
    });
    expect(inBatch).toEqual({ status: 400, body: { error: `events[0]: ${reserved}` } });
    expect(await total("n1", "pages")).toBe(16);
  });

  it("is admin-only and tenant-scoped", async () => {
    const appKey = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "b1" }] })).body.created[0].key;
    const body = [{ key: "words", user: { id: "b1" }, value: 1, idempotencyKey: "app" }];
    const asApp = await server.rest("POST", "/admin/v1/metrics/events", { body, apiKey: appKey });
    expect(asApp.status).toBe(403);

    const submitted = await server.rest("POST", "/admin/v1/metrics/events", { body });
    expect((await server.rest("GET", `/admin/v1/metrics/events/${submitted.body.batchId}`, { tenantId: "other" })).status).toBe(404);
    expect(await server.rest("GET", "/admin/v1/metrics/events/no-such-batch")).toEqual({
      status: 404,
      body: { error: 'Metric event batch "no-such-batch" not found' },
    });
    // In the other tenant the metric does not exist.
    expect((await server.rest("POST", "/admin/v1/metrics/events", { body, tenantId: "other" })).status).toBe(404);
    await completedBatch(submitted.body.batchId);
  });

  it("works over Connect", async () => {
    const admin = server.client("connect-json").admin;
    const { accepted, batchId } = await admin.createMetricEventBatch({
      events: [
        { key: "pages", user: { id: "c1" }, value: 3, idempotencyKey: "c-1" },
        { key: "pages", user: { id: "c1" }, value: 4, idempotencyKey: "c-2", attributes: { source: "import" } },
      ],
    });
    expect(accepted).toBe(2);
    let batch: MetricEventBatch | undefined;
    for (let i = 0; i < 600; i++) {
      batch = (await server.client("connect-binary").admin.getMetricEventBatch({ batchId })).batch!;
      if (batch.status === MetricEventBatchStatus.COMPLETED) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([batch!.status, batch!.applied, batch!.failed]).toEqual([MetricEventBatchStatus.COMPLETED, 2, 0]);
    expect(await total("c1", "pages")).toBe(7);
    // Without idempotency keys (the field left out or empty): each event applied once.
    const keyless = await admin.createMetricEventBatch({
      events: [
        { key: "pages", user: { id: "c2" }, value: 3 },
        { key: "pages", user: { id: "c2" }, value: 3, idempotencyKey: "" },
      ],
    });
    for (let i = 0; i < 600; i++) {
      batch = (await admin.getMetricEventBatch({ batchId: keyless.batchId })).batch!;
      if (batch.status === MetricEventBatchStatus.COMPLETED) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([batch!.status, batch!.applied, batch!.replayed, batch!.failed]).toEqual([MetricEventBatchStatus.COMPLETED, 2, 0, 0]);
    expect(await total("c2", "pages")).toBe(6);
    await expect(
      admin.createMetricEventBatch({
        events: [
          { key: "pages", user: { id: "c1" }, value: 1, idempotencyKey: "x" },
          { key: "pages", user: { id: "c1" }, value: 2, idempotencyKey: "x" },
        ],
      }),
    ).rejects.toThrow(/\[invalid_argument\] Duplicate idempotency keys/);
  });
});

describe("admin batch ingestion: interruptions", () => {
  it("a server stopping mid-batch saves its progress and releases the batch; the next one resumes it at once", async () => {
    const database = await openTestDatabase();
    let firstSave: () => void;
    const saved = new Promise<void>((resolve) => (firstSave = resolve));
    const options = (extra: Partial<ServiceOptions> = {}): ServiceOptions => ({
      mongodbUri: database.uri,
      mongodbDb: database.dbName,
      port: 0,
      host: "127.0.0.1",
      adminApiKey: ADMIN_KEY,
      logger: pino({ level: "silent" }),
      ...extra,
    });
    const call = async (port: number, method: string, path: string, body?: unknown) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    try {
      const first = await startService(options({ atPipelinePoint: (point) => void (point === "batch-progress" && firstSave()) }));
      await call(first.port, "POST", "/admin/v1/metrics", [{ key: "steps", name: "Steps" }]);
      const events = ["s1", "s2", "s3"].flatMap((id) =>
        Array.from({ length: 100 }, (_, i) => ({ key: "steps", user: { id }, value: 2, idempotencyKey: `${id}-${i}` })),
      );
      const { body: submitted } = await call(first.port, "POST", "/admin/v1/metrics/events", events);
      await saved;
      await first.close();

      const stored = await database.db.collection("metric_event_batches").findOne({ _id: submitted.batchId });
      const done = stored!.outcomes.filter((o: unknown) => o !== null).length;
      expect([stored!.status, stored!.leaseOwner, done > 0 && done < 300]).toEqual(["processing", null, true]);

      const second = await startService(options());
      try {
        const status = await completedBatch(submitted.batchId, (path) => call(second.port, "GET", path));
        // Nothing was lost at the stop, so nothing is replayed.
        expect([status.applied, status.replayed, status.failed, status.attempts]).toEqual([300, 0, 0, 2]);
        for (const id of ["s1", "s3"]) expect((await call(second.port, "GET", `/v1/users/${id}/metrics/steps`)).body.current).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  }, 180_000);

  it("resumes a batch after SIGKILL mid-batch and applies every event exactly once, with or without idempotency keys", async () => {
    const database = await openTestDatabase();
    const port = await findFreePort();
    // A short lease, so the restarted server may take the dead server's batch over at once.
    const env = { GAMIFICATION_TEST_BATCH_LEASE_MS: "1000" };
    const get = async (path: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { "x-api-key": CHILD_ADMIN_KEY } });
      return { status: response.status, body: (await response.json()) as any };
    };
    try {
      // Dies just before saving the batch's progress for the first time (after 50 events).
      const crashing = await startChildServer(database, port, { ...env, GAMIFICATION_TEST_CRASH_AT: "batch-progress" });
      expect((await crashing.post("/admin/v1/metrics", [{ key: "steps", name: "Steps" }])).status).toBe(201);
      const users = ["k1", "k2", "k3"];
      // k2's events carry no idempotency key: the batch's own keys make them exactly-once too.
      const events = users.flatMap((id) =>
        Array.from({ length: 40 }, (_, i) => ({ key: "steps", user: { id }, value: i + 1, ...(id !== "k2" && { idempotencyKey: `${id}-${i}` }) })),
      );
      const submitted = await crashing.post("/admin/v1/metrics/events", events);
      expect(submitted.status).toBe(202);
      expect(await crashing.exited).toBe(null); // killed by the signal

      // Events were applied, but the batch has recorded none of them.
      const stored = await database.db.collection("metric_event_batches").findOne({ _id: submitted.body.batchId as never });
      expect([stored!.status, stored!.attempts, stored!.outcomes.filter((o: unknown) => o !== null).length]).toEqual(["processing", 1, 0]);
      const applied = await database.db.collection("users").find().toArray();
      expect(applied.length).toBeGreaterThan(0);

      const restarted = await startChildServer(database, port, env);
      try {
        const status = await completedBatch(submitted.body.batchId, get);
        expect([status.total, status.applied + status.replayed, status.failed, status.attempts]).toEqual([120, 120, 0, 2]);
        expect(status.replayed).toBeGreaterThan(0); // applied before the crash, replayed after it
        for (const id of users) expect((await get(`/v1/users/${id}/metrics/steps`)).body.current).toBe(820); // 1 + 2 + ... + 40
      } finally {
        await restarted.stop();
      }
    } finally {
      await database.close();
    }
  }, 180_000);
});
