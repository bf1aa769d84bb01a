import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedStateOf, type UserDocument } from "../../src/engine/store/user-documents.js";
import { findFreePort } from "../../src/server/embedded-db.js";
import { startChildServer, type ChildServer } from "../helpers/child-server.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// The real entry point in child processes that SIGKILL themselves at a pipeline point
// (GAMIFICATION_TEST_CRASH_AT), then a normal restart: a message written with the state change is
// delivered after the crash, once.

let database: TestDatabase;
let receiver: WebhookReceiver;
let secret: string;
// A short coordinator lease: the restarted server takes over the killed one's at once.
const ENV = { WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true", GAMIFICATION_TEST_WEBHOOK_LEASE_MS: "1000" };

beforeAll(async () => {
  database = await openTestDatabase();
  receiver = await startWebhookReceiver();
  const setup = await startChildServer(database, await findFreePort(), ENV);
  try {
    const metric = (await setup.post("/admin/v1/metrics", [{ key: "steps", name: "Steps" }])).body.created[0].id;
    const system = (await setup.post("/admin/v1/points", [{ key: "xp", name: "XP" }])).body.created[0].id;
    await setup.post(`/admin/v1/points/${system}/triggers`, [{ type: "metric", points: 1, metricId: metric, metricThreshold: 1, status: "active" }]);
    const endpoint = await setup.post("/admin/v1/webhooks", [{ url: receiver.url("/hook"), eventTypes: ["points.changed"] }]);
    expect(endpoint.status).toBe(201);
    secret = endpoint.body.created[0].secret;
  } finally {
    await setup.stop();
  }
});
afterAll(async () => {
  await receiver.close();
  await database.close();
});

const step = (server: ChildServer, user: string) => server.post("/api/metrics/steps/event", { user: { id: user }, value: 5 });
const messagesFor = (user: string) => receiver.at("/hook").filter((r) => r.json.user.id === user);

/** A user's outbox as its document holds it. */
async function storedOutbox(userId: string): Promise<Array<{ id: string; type: string }>> {
  const doc = await database.db.collection<UserDocument>("users").findOne({ userId });
  return storedStateOf(doc!).outbox as Array<{ id: string; type: string }>;
}

describe("webhooks survive a crash", () => {
  it("killed right after the state write, before any hand-over: the restarted server delivers the message", async () => {
    const port = await findFreePort();
    const crashing = await startChildServer(database, port, { ...ENV, GAMIFICATION_TEST_CRASH_AT: "after-user-write" });
    await expect(step(crashing, "crash-1")).rejects.toThrow(); // the connection dies with the process
    expect(await crashing.exited).toBe(null); // killed by a signal, no clean-up ran

    const stored = { outbox: await storedOutbox("crash-1") };
    expect(stored.outbox.map((m) => m.type)).toEqual(["points.changed"]);
    // The pending-outbox marker was written before the user write: the worker will find the user.
    expect(await database.db.collection("pending_outboxes").findOne({ userId: "crash-1" })).not.toBeNull();
    expect(await database.db.collection("webhook_deliveries").countDocuments({})).toBe(0);
    expect(messagesFor("crash-1")).toEqual([]);

    const restarted = await startChildServer(database, port, ENV);
    try {
      await receiver.waitFor("/hook", () => messagesFor("crash-1").length >= 1);
      const [message] = messagesFor("crash-1");
      expect(new Webhook(secret).verify(message!.body, message!.headers as Record<string, string>)).toMatchObject({
        type: "points.changed",
        id: stored.outbox[0]!.id,
        points: { key: "xp", total: 5, added: 5 },
      });
      // The hand-over writes the delivery before it empties the outbox: the delivery may come first.
      await expect.poll(() => storedOutbox("crash-1"), { timeout: 60_000 }).toEqual([]);
      await expect.poll(() => database.db.collection("pending_outboxes").findOne({ userId: "crash-1" }), { timeout: 60_000 }).toBeNull();
    } finally {
      await restarted.stop();
    }
  });

  it("killed after handing messages over, before clearing the outbox: delivered once, not twice", async () => {
    const port = await findFreePort();
    const crashing = await startChildServer(database, port, { ...ENV, GAMIFICATION_TEST_CRASH_AT: "after-outbox-handover" });
    expect((await step(crashing, "crash-2")).status).toBe(201);
    expect(await crashing.exited).toBe(null); // its worker died handing the message over

    const stored = { outbox: await storedOutbox("crash-2") };
    expect(stored.outbox).toHaveLength(1);
    expect(await database.db.collection("webhook_deliveries").countDocuments({ messageId: stored.outbox[0]!.id })).toBe(1);

    const restarted = await startChildServer(database, port, ENV);
    try {
      await receiver.waitFor("/hook", () => messagesFor("crash-2").length >= 1);
      await new Promise((r) => setTimeout(r, 1_500)); // the outbox is handed over again: nothing new may follow
      expect(messagesFor("crash-2").map((r) => r.headers["webhook-id"])).toEqual([stored.outbox[0]!.id]);
      expect(await database.db.collection("webhook_deliveries").countDocuments({ messageId: stored.outbox[0]!.id })).toBe(1);
      expect(await storedOutbox("crash-2")).toEqual([]);
    } finally {
      await restarted.stop();
    }
  });
});
