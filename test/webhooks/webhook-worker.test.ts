import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMessage } from "../../src/features/webhooks/domain/webhooks.js";
import { DEFAULT_RETRY_SCHEDULE_MS } from "../../src/features/webhooks/webhook-delivery-policy.js";
import type { ServiceContext } from "../../src/engine/context.js";
import { newDelivery } from "../../src/features/webhooks/webhook-outbox.js";
import { createWebhookWorker } from "../../src/features/webhooks/webhook-worker.js";
import { ConfigCache } from "../../src/engine/store/config-cache.js";
import { openDatabase, type Database } from "../../src/engine/store/database.js";
import { TenantCalls } from "../../src/engine/tenant-calls.js";
import { KeyedLock } from "../../src/engine/store/keyed-lock.js";
import { createSecretCodec } from "../../src/features/webhooks/store/webhook-secrets.js";
import { dayOf } from "../../src/engine/store/keyed-buckets.js";
import { minuteOf } from "../../src/engine/store/user-documents.js";
import { SKIP_EMPTY_MINUTES_BEYOND } from "../../src/workers/leased-loop.js";
import { claimDelivery, deliveryStore, insertDeliveries, saveEndpoint } from "../../src/features/webhooks/store/webhook-store.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// The webhook worker driven directly, with a clock the test moves: recovery of an attempt cut
// short by a crash, catching up after a pause, and retention.

let testDb: TestDatabase;
let database: Database;
let receiver: WebhookReceiver;
const logger = pino({ level: "silent" });
const T0 = new Date("2026-06-01T12:00:10Z");

beforeAll(async () => {
  testDb = await openTestDatabase();
  database = await openDatabase(testDb.uri, testDb.dbName);
  receiver = await startWebhookReceiver();
  await saveEndpoint(
    database.collections.webhookEndpoints,
    {
      _id: "ep1",
      tenantId: "t1",
      url: receiver.url("/worker"),
      description: null,
      eventTypes: ["streak.lost"],
      enabled: true,
      disabledReason: null,
      secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      previousSecret: null,
      previousSecretExpires: null,
      version: 1,
      created: T0,
      updated: T0,
    },
    0,
  );
});
afterAll(async () => {
  await receiver.close();
  await database.close();
  await testDb.close();
});

function contextAt(clock: { now: Date }): ServiceContext {
  return {
    database,
    config: new ConfigCache(database.collections),
    userLocks: new KeyedLock(),
    tenantCalls: new TenantCalls(),
    now: () => clock.now,
    idempotencyWindowMs: null,
    webhooks: {
      secrets: createSecretCodec(null),
      allowPrivateNetworks: true,
      retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
      timeoutMs: 30_000,
      retentionMs: 86_400_000,
    },
  };
}

const message = (id: string) => createMessage("streak.lost", { user: { id: "u1" } as never, length: 3 }, { id, tenant: null, at: T0 });

describe("webhook worker", () => {
  it("makes a delivery whose attempt died with its instance ready again once the claim has run out, and delivers it", async () => {
    await database.collections.leases.deleteMany({});
    const store = deliveryStore(database, new KeyedLock());
    await insertDeliveries(store, [newDelivery("t1", "ep1", message("msg_crashed"), T0)]);
    const [ready] = await database.collections.webhookDeliveries.find({ messageId: "msg_crashed" }).toArray();
    // A dead instance claimed it (claim lasts 45 s) and never came back.
    const claimed = await claimDelivery(store, ready!, "dead-instance", T0, new Date(T0.getTime() + 45_000));
    expect(claimed).not.toBeNull();
    expect(await claimDelivery(store, ready!, "other", T0, new Date(T0.getTime() + 45_000))).toBeNull(); // once only

    const clock = { now: new Date(T0.getTime() + 30_000) };
    const worker = createWebhookWorker(contextAt(clock), logger, { lookbackMinutes: 2 });
    await worker.coordinate();
    expect(await worker.deliverReady()).toBe(0); // still claimed
    clock.now = new Date(T0.getTime() + 121_000); // the minute of the claim's end has passed
    await worker.coordinate();
    expect(await worker.deliverReady()).toBe(1);
    expect(receiver.at("/worker").map((r) => r.headers["webhook-id"])).toEqual(["msg_crashed"]);
    const after = await database.collections.webhookDeliveries.findOne({ messageId: "msg_crashed" });
    expect([after!.status, after!.attemptCount, after!.leaseOwner]).toEqual(["delivered", 1, null]);
    expect(await database.collections.webhookClaims.countDocuments({ _id: { $regex: "^msg_crashed/" } })).toBe(1); // only the dead instance's marker
    await worker.stop();
  });

  it("takes over a claim whose claimant died between its marker and its update, once the claim has run out", async () => {
    await database.collections.leases.deleteMany({});
    const store = deliveryStore(database, new KeyedLock());
    await insertDeliveries(store, [newDelivery("t1", "ep1", message("msg_half_claimed"), T0), newDelivery("t1", "ep1", message("msg_legacy_marker"), T0)]);
    const doc = async (messageId: string) => (await database.collections.webhookDeliveries.findOne({ messageId }))!;
    const half = await doc("msg_half_claimed");
    const legacy = await doc("msg_legacy_marker");
    // What a crash right after the marker's insert leaves: the marker, and the delivery still ready at its version.
    await database.collections.webhookClaims.insertOne({ _id: `${half._id}@${half.version}`, at: T0, until: new Date(T0.getTime() + 45_000) });
    await database.collections.webhookClaims.insertOne({ _id: `${legacy._id}@${legacy.version}`, at: T0 }); // written before `until`
    const delivered = () => receiver.at("/worker").map((r) => r.headers["webhook-id"]);

    const clock = { now: new Date(T0.getTime() + 30_000) };
    const worker = createWebhookWorker(contextAt(clock), logger, { lookbackMinutes: 2 });
    expect(await worker.deliverReady()).toBe(0); // both claims still hold
    clock.now = new Date(T0.getTime() + 46_000);
    expect(await worker.deliverReady()).toBe(1);
    expect(delivered()).toContain("msg_half_claimed");
    expect(delivered()).not.toContain("msg_legacy_marker");
    expect([(await doc("msg_half_claimed")).status, (await doc("msg_half_claimed")).attemptCount]).toEqual(["delivered", 1]);
    // The dead marker is gone; the takeover's own was released after the attempt.
    expect(await database.collections.webhookClaims.countDocuments({ _id: { $regex: "^msg_half_claimed/" } })).toBe(0);

    clock.now = new Date(T0.getTime() + 16 * 60_000);
    expect(await worker.deliverReady()).toBe(1);
    expect(delivered()).toContain("msg_legacy_marker");
    await worker.stop();
  });

  it("on a database whose walker never ran, also makes ready what was parked before its lookback", async () => {
    await database.collections.leases.deleteMany({});
    const store = deliveryStore(database, new KeyedLock());
    await insertDeliveries(store, [newDelivery("t1", "ep1", message("msg_parked_long_ago"), T0)]);
    const [ready] = await database.collections.webhookDeliveries.find({ messageId: "msg_parked_long_ago" }).toArray();
    expect(await claimDelivery(store, ready!, "dead-instance", T0, new Date(T0.getTime() + 45_000))).not.toBeNull();

    const clock = { now: new Date(T0.getTime() + 5 * 3_600_000) }; // five hours on, a lookback of two minutes
    const worker = createWebhookWorker(contextAt(clock), logger, { lookbackMinutes: 2 });
    await worker.coordinate();
    expect(await worker.deliverReady()).toBe(1);
    expect(receiver.at("/worker").map((r) => r.headers["webhook-id"])).toContain("msg_parked_long_ago");
    await worker.stop();
  });

  it("catches up with a long pause an hour of minutes per pass, so that hand-overs come between", async () => {
    const clock = { now: new Date(T0.getTime() + 86_400_000) };
    const cursor = minuteOf(clock.now) - 1 - SKIP_EMPTY_MINUTES_BEYOND; // hours behind: the service was down
    await database.collections.leases.deleteMany({});
    await database.collections.leases.insertOne({ _id: "webhooks:coordinator", owner: "gone", leaseUntil: T0, version: 1, cursor });
    const worker = createWebhookWorker(contextAt(clock), logger, {});
    const cursorNow = async () => (await database.collections.leases.findOne({ _id: "webhooks:coordinator" }))!.cursor;
    await worker.coordinate();
    expect(await cursorNow()).toBe(cursor + 60);
    await worker.coordinate();
    expect(await cursorNow()).toBe(cursor + 120);
    await worker.stop();
  });

  it("a day behind, visits only the minutes deliveries are parked in, and then stands at the clock", async () => {
    await database.collections.leases.deleteMany({});
    const clock = { now: new Date(T0.getTime() + 2 * 86_400_000) };
    const last = minuteOf(clock.now) - 1;
    await database.collections.leases.insertOne({ _id: "webhooks:coordinator", owner: "gone", leaseUntil: T0, version: 1, cursor: last - 24 * 60 });
    const store = deliveryStore(database, new KeyedLock());
    // A retry due ten hours into the downtime.
    await insertDeliveries(store, [{ ...newDelivery("t1", "ep1", message("msg_parked_in_downtime"), T0), ready: false, dueMinute: last - 600 }]);
    const visited: number[] = [];
    const find = database.collections.webhookDue.findOne.bind(database.collections.webhookDue);
    vi.spyOn(database.collections.webhookDue, "findOne").mockImplementation(((filter: { _id: string }) => {
      visited.push(Number(filter._id.split("/", 1)[0]));
      return find(filter);
    }) as typeof find);
    const worker = createWebhookWorker(contextAt(clock), logger, {});
    await worker.coordinate();
    vi.restoreAllMocks();
    expect([...new Set(visited)]).toEqual([last - 600]); // the one minute listed, not 1,440 of them
    expect((await database.collections.leases.findOne({ _id: "webhooks:coordinator" }))!.cursor).toBe(last);
    expect(await worker.deliverReady()).toBe(1);
    await worker.stop();
  });

  it("deletes finished deliveries once their retention has ended, and keeps pending ones", async () => {
    await database.collections.leases.deleteMany({});
    const clock = { now: new Date(T0.getTime() + 10 * 86_400_000) };
    const today = dayOf(clock.now);
    const expired = { ...newDelivery("t1", "ep1", message("msg_expired"), T0), status: "delivered" as const, ready: false, purgeDay: today };
    const kept = { ...newDelivery("t1", "ep1", message("msg_kept"), T0), status: "failed" as const, ready: false, purgeDay: today + 1 };
    const pending = { ...newDelivery("t1", "ep1", message("msg_pending"), T0), ready: false };
    await insertDeliveries(deliveryStore(database, new KeyedLock()), [expired, kept, pending]);
    const worker = createWebhookWorker(contextAt(clock), logger, {});
    await worker.coordinate();
    const left = await database.collections.webhookDeliveries.find({ messageId: { $in: ["msg_expired", "msg_kept", "msg_pending"] } }).toArray();
    expect(left.map((d) => d.messageId).sort()).toEqual(["msg_kept", "msg_pending"]);
    await worker.stop();
  });
});
