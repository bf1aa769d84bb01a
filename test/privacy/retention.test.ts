import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trimEndpointLog } from "../../src/features/webhooks/store/webhook-store.js";
import { findUser } from "../../src/engine/store/user-documents.js";
import { DEFAULT_SCOPE } from "../../src/features/account/domain/tenant.js";
import { startService, type RunningService, type ServiceOptions } from "../../src/server/service.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { ADMIN_KEY } from "../helpers/server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

/**
 * Retention (issue 18, part 4), with short retention and a clock the test moves: a server works on
 * day 0 (webhook deliveries, an admin batch whose events move idempotency keys out of the user
 * document, rank history), stops; a server on the same database starts five days later, and its
 * background loops delete what has expired, by day buckets, while what is recent stays.
 */
const DAY = 86_400_000;
const T0 = new Date();
const clock = { now: T0 };
const date = (at: Date) => at.toISOString().slice(0, 10);

let database: TestDatabase;
let receiver: WebhookReceiver;
let service: RunningService;

const RETENTION: Partial<ServiceOptions> = {
  retention: { batchMs: 2 * DAY, rankHistoryDays: 3 },
  idempotencyWindowMs: 3_600_000,
  webhooks: { allowPrivateNetworks: true, pollMs: 50, retentionMs: 2 * DAY },
};

async function start(): Promise<void> {
  service = await startService({
    mongodbUri: database.uri,
    mongodbDb: database.dbName,
    port: 0,
    host: "127.0.0.1",
    adminApiKey: ADMIN_KEY,
    logger: pino({ level: "silent" }),
    shutdownGraceMs: 2000,
    now: () => clock.now,
    ...RETENTION,
  });
}

async function rest(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method,
    headers: { "content-type": "application/json", "x-api-key": ADMIN_KEY },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Polls until `check` holds (the background loops run on their own timers). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const collections = () => service.context.database.collections;
const leaseCursor = async (name: string) => (await collections().leases.findOne({ _id: name }))?.cursor ?? null;
const deliveriesOf = async (userId: string) => (await collections().webhookDeliveries.find({}).toArray()).filter((d) => d.body.includes(`"${userId}"`));
const batchStatus = async (id: string) => (await rest("GET", `/admin/v1/metrics/events/${id}`)).status;
const historyDates = async (userId: string) =>
  ((await rest("GET", `/v1/users/${userId}/leaderboards/words-board?numEvents=100`)).body.history as Array<{ date: string }>).map((h) => h.date);
/** The same, as the user's stored document holds it (no read of the service, which could write). */
const storedHistoryDates = async (userId: string) =>
  Object.values((await findUser(collections().users, DEFAULT_SCOPE, userId))!.state.leaderboards).flatMap((entry) => entry.history.map((h) => h.date));
const event = async (userId: string, at: Date) =>
  expect((await rest("POST", "/v1/metrics/words/event", { user: { id: userId, tz: "UTC" }, value: 1, timestamp: at.toISOString() })).status).toBe(201);

async function submitBatch(userId: string, count: number): Promise<string> {
  const events = Array.from({ length: count }, (_, i) => ({ key: "words", user: { id: userId }, value: 1, idempotencyKey: `${userId}-${i}` }));
  const submitted = await rest("POST", "/admin/v1/metrics/events", events);
  expect(submitted.status).toBe(202);
  const id = submitted.body.batchId as string;
  await until(`batch ${id}`, async () => (await rest("GET", `/admin/v1/metrics/events/${id}`)).body.status === "completed");
  return id;
}

let oldBatch: string;

beforeAll(async () => {
  database = await openTestDatabase();
  receiver = await startWebhookReceiver();
  await start();
  await rest("POST", "/admin/v1/metrics", [{ key: "words", name: "Words" }]);
  const metricId = (await rest("GET", "/admin/v1/metrics")).body.find((m: { key: string }) => m.key === "words").id;
  await rest("POST", "/admin/v1/leaderboards", [
    { key: "words-board", name: "Words", rankBy: "metric", metricId, status: "active", start: date(new Date(T0.getTime() - 30 * DAY)) },
  ]);
  await rest("PATCH", "/admin/v1/streaks/settings", { frequency: "daily", metrics: [{ key: "words", threshold: 1 }] });
  expect((await rest("POST", "/admin/v1/webhooks", [{ url: receiver.url("/hook"), eventTypes: ["streak.started"] }])).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await service?.close();
  await receiver?.close();
  await database?.close();
});

/** The records listed by each of a user's moves of idempotency records (`user_pages`). */
async function movesListed(userId: string): Promise<number[]> {
  const pages = await collections().userPages.find({}).toArray();
  return pages.filter((p) => p._id.startsWith(`default/${userId}/idempotency-moves/`)).map((p) => (JSON.parse(p.items) as string[]).length);
}

describe("retention", () => {
  it("day 0: records are written, with rank history older than 3 days trimmed at the user's write", async () => {
    for (const offset of [-10, -5, -2, 0]) await event("hist", new Date(T0.getTime() + offset * DAY));
    expect(await historyDates("hist")).toEqual([date(new Date(T0.getTime() - 2 * DAY)), date(T0)]);

    await event("old-user", T0);
    await until("old delivery", async () => (await deliveriesOf("old-user")).some((d) => d.status === "delivered"));
    // 55 events with idempotency keys for one user: the first 50 keys move to the idempotency collection.
    oldBatch = await submitBatch("idem-old", 55);
    expect(await collections().idempotencyKeys.countDocuments({ userId: "idem-old" })).toBe(50);
    // The move is listed (for the user's export and erasure) in a page of its own.
    expect(await movesListed("idem-old")).toEqual([50]);
    // Each loop has purged day 0 (nothing yet): its cursor says where the next server goes on.
    for (const lease of ["webhooks:purge", "event-batches:purge", "retention:purge"])
      await until(`lease ${lease}`, async () => (await leaseCursor(lease)) !== null);
    await service.close();
  }, 300_000);

  it("five days later: expired deliveries, batches and idempotency keys are purged, recent ones kept", async () => {
    clock.now = new Date(T0.getTime() + 5 * DAY);
    // The loops that walk minutes (the scheduler, the webhook coordinator) are put where a service
    // running all along would be; the purges go on from their day cursors.
    const minute = Math.floor(clock.now.getTime() / 60_000) - 1;
    await database.db.collection("leases").updateMany({ _id: { $in: ["scheduler:users", "webhooks:coordinator"] } as never }, { $set: { cursor: minute } });
    await start();
    await event("new-user", clock.now);
    const newBatch = await submitBatch("idem-new", 55);

    await until("old deliveries purged", async () => (await deliveriesOf("old-user")).length === 0);
    await until("old batch purged", async () => (await batchStatus(oldBatch)) === 404);
    await until("old idempotency keys purged", async () => (await collections().idempotencyKeys.countDocuments({ userId: "idem-old" })) === 0);
    // Their listing goes with them; the new user's stays with its records.
    await until("old listing purged", async () => (await movesListed("idem-old")).length === 0);
    expect(await movesListed("idem-new")).toEqual([50]);
    expect(await rest("GET", `/admin/v1/metrics/events/${oldBatch}`)).toMatchObject({ status: 404, body: { error: expect.any(String) } });

    await until("new delivery", async () => (await deliveriesOf("new-user")).some((d) => d.status === "delivered"));
    expect(await batchStatus(newBatch)).toBe(200);
    expect(await collections().idempotencyKeys.countDocuments({ userId: "idem-new" })).toBe(50);
    // A key forgotten with its window: the same key is a new event (before and after the purge alike).
    expect((await rest("POST", "/v1/metrics/words/event", { user: { id: "idem-old" }, value: 1, idempotencyKey: "idem-old-0" })).status).toBe(201);

    // Rank history is trimmed on the user's next write only: stored, day -2 and day 0 are still
    // there; a read of the user, due by now, runs their due visit first (a write), which drops them.
    expect(await storedHistoryDates("hist")).toEqual([date(new Date(T0.getTime() - 2 * DAY)), date(T0)]);
    expect(await historyDates("hist")).toEqual([]);
    await event("hist", clock.now);
    expect(await historyDates("hist")).toEqual([date(clock.now)]);
  }, 300_000);

  it("an endpoint's log loses the pages whose deliveries are all gone, below the newest page", async () => {
    const { webhookEndpointLog, webhookDeliveries } = collections();
    const ids = (page: number) => Array.from({ length: 100 }, (_, i) => `trim-${page}-${i}`);
    await webhookEndpointLog.insertMany([
      { _id: "t9/ep9", tenantId: "t9", seq: 350 },
      ...[0, 1, 2, 3].map((page) => ({ _id: `t9/ep9/${page}`, tenantId: "t9", ids: ids(page) })),
    ]);
    // Page 2 keeps one delivery (its last); page 3 is the newest.
    await webhookDeliveries.insertOne({ _id: "trim-2-99" } as never);
    const c = service.context.database.collections;
    expect(await trimEndpointLog(c, "t9", "ep9")).toBe(2);
    const left = (await webhookEndpointLog.find({}).toArray()).map((d) => d._id).filter((id) => id.startsWith("t9/"));
    expect(left.sort()).toEqual(["t9/ep9", "t9/ep9/2", "t9/ep9/3"]);
    expect((await webhookEndpointLog.findOne({ _id: "t9/ep9" }))?.floor).toBe(2);
    expect(await trimEndpointLog(c, "t9", "ep9")).toBe(0);
  });

  it("erasing a user whose rank history was trimmed by age takes them out of the older runs too", async () => {
    const metricId = (await rest("GET", "/admin/v1/metrics")).body.find((m: { key: string }) => m.key === "words").id;
    const start = date(new Date(clock.now.getTime() - 30 * DAY));
    await rest("POST", "/admin/v1/leaderboards", [
      { key: "daily-words", name: "Daily words", rankBy: "metric", metricId, status: "active", start, runUnit: "day", runInterval: 1 },
    ]);
    const daysAgo = (n: number) => new Date(clock.now.getTime() - n * DAY);
    for (const n of [10, 5, 0]) await event("trimmed", daysAgo(n));
    const run = (n: number) => `/v1/leaderboards/daily-words?run=${date(daysAgo(n))}`;
    expect((await rest("GET", run(10))).body.rankings.map((r: { userId: string }) => r.userId)).toEqual(["trimmed"]);
    // Days 10 and 5 are gone from the history (kept 3 days).
    expect((await rest("GET", "/v1/users/trimmed/leaderboards/daily-words?numEvents=100")).body.history.map((h: { date: string }) => h.date)).toEqual([
      date(clock.now),
    ]);

    expect((await rest("DELETE", "/admin/v1/users/trimmed")).body.erased).toBe(true);
    for (const n of [10, 5, 0]) expect((await rest("GET", run(n))).body.rankings, `run ${n} days ago`).toEqual([]);
  });
});
