import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PipelinePoint } from "../../src/engine/context.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// Erasing a user whose events wait in a batch (docs/privacy.md): those events are never applied,
// whether the batch is queued or already in progress, and are reported failed.

let server: TestServer;
let receiver: WebhookReceiver;

/** A pipeline point the worker stops at until released; `reached` resolves when it got there. */
function holdAt(point: PipelinePoint) {
  let release!: () => void;
  let reachedSignal!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (reachedSignal = resolve));
  holds.set(point, async () => {
    holds.delete(point);
    reachedSignal();
    await gate;
  });
  return { reached, release };
}
const holds = new Map<PipelinePoint, () => Promise<void>>();

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({ atPipelinePoint: (point) => holds.get(point)?.(), webhooks: { allowPrivateNetworks: true, pollMs: 100 } });
  expect((await server.rest("POST", "/admin/v1/webhooks", { body: [{ url: receiver.url("/deleted"), eventTypes: ["user.deleted"] }] })).status).toBe(201);
  const metric = await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words", name: "Words" }] });
  const board = await server.rest("POST", "/admin/v1/leaderboards", {
    body: [{ key: "top", name: "Top", rankBy: "metric", metricId: metric.body.created[0].id, start: "2025-01-01", status: "active" }],
  });
  expect(board.body.issues).toEqual([]);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function completed(batchId: string) {
  for (;;) {
    const { body } = await server.rest("GET", `/admin/v1/metrics/events/${batchId}`);
    if (body.status === "completed") return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const submit = async (events: unknown[]) => {
  const response = await server.rest("POST", "/admin/v1/metrics/events", { body: events });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  return response.body.batchId as string;
};
const erase = async (userId: string) => (await server.rest("DELETE", `/admin/v1/users/${userId}`)).body;
const userStatus = async (userId: string) => (await server.rest("GET", `/v1/users/${userId}`)).status;
const ERASED = "Not processed: the event's user was erased";

describe("a user erased while their events wait in a batch", () => {
  it("queued: their events are reported failed, never applied (to them or to a user of no ID), and a user known only there is erased", async () => {
    expect((await server.rest("POST", "/v1/metrics/words/event", { body: { user: { id: "e1" }, value: 1 } })).status).toBe(201);
    // The worker held in another batch (at its first save, after 50 events): the next one waits queued.
    const held = holdAt("batch-progress");
    const holder = await submit(Array.from({ length: 60 }, (_, i) => ({ key: "words", user: { id: "holder" }, value: 1, idempotencyKey: `h-${i}` })));
    await held.reached;
    let queued: string;
    try {
      queued = await submit([
        { key: "words", user: { id: "e1" }, value: 2, idempotencyKey: "e-1" },
        { key: "words", user: { id: "e2" }, value: 2, idempotencyKey: "e-2" },
        { key: "words", user: { id: "e3", name: "Erased Person" }, value: 3 },
      ]);
      expect(await erase("e1")).toMatchObject({ erased: true });
      // Known only to the queued batch: erased there (nothing of them is stored any more).
      expect(await erase("e3")).toMatchObject({ erased: true });
      const stored = await server.service.context.database.collections.metricEventBatchEvents.findOne({ _id: queued });
      expect(JSON.stringify(stored)).not.toMatch(/Erased Person|"e3"/);
    } finally {
      held.release(); // a failed assertion must not leave the worker held
    }
    await completed(holder);
    const done = await completed(queued);
    expect([done.applied, done.failed]).toEqual([1, 2]);
    expect(done.errors).toEqual([
      { index: 0, idempotencyKey: "", message: ERASED },
      { index: 2, idempotencyKey: "", message: ERASED },
    ]);
    expect([await userStatus("e1"), await userStatus("e2"), await userStatus("e3")]).toEqual([404, 200, 404]);
    const ranked = (await server.rest("GET", "/v1/leaderboards/top")).body.rankings.map((r: { userId: string }) => r.userId);
    expect(ranked.sort()).toEqual(["e2", "holder"]);
    expect(await server.service.context.database.collections.users.countDocuments({ userId: "" })).toBe(0);
    // Both erasures are announced, the batch-only user's as any other's.
    await receiver.waitFor("/deleted", (got) => got.length >= 2);
    expect(
      receiver
        .at("/deleted")
        .map((r) => r.json?.user.id)
        .sort(),
    ).toEqual(["e1", "e3"]);
  });

  it("in progress: the events the worker still holds of the user are dropped once the erasure is done", async () => {
    // The worker stops in the user's first write, holding the user's lock.
    const held = holdAt("before-user-write");
    const inProgress = await submit([
      { key: "words", user: { id: "x" }, value: 1, idempotencyKey: "x-1" },
      { key: "words", user: { id: "x" }, value: 1, idempotencyKey: "x-2" },
    ]);
    await held.reached;
    // The erasure waits for that lock: known when it asks for it (the worker asks again only after the first event).
    const locks = server.service.context.userLocks;
    const run = locks.run.bind(locks);
    const erasureWaits = new Promise<void>((resolve) => {
      locks.run = (key, task) => {
        if (key.endsWith("/x")) resolve();
        return run(key, task);
      };
    });
    const erasure = erase("x");
    try {
      await erasureWaits;
    } finally {
      locks.run = run;
      held.release();
    }
    expect(await erasure).toMatchObject({ erased: true });
    const done = await completed(inProgress);
    expect([done.applied, done.failed, done.errors]).toEqual([1, 1, [{ index: 1, idempotencyKey: "x-2", message: ERASED }]]);
    expect(await userStatus("x")).toBe(404);
  });
});
