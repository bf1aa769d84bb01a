import { describe, expect, it } from "vitest";
import { createMessage } from "../../src/features/webhooks/domain/webhooks.js";
import { newDelivery } from "../../src/features/webhooks/webhook-outbox.js";
import { KeyedLock } from "../../src/engine/store/keyed-lock.js";
import { deleteEndpoint, deliveryStore, insertDeliveries, listDeliveries } from "../../src/features/webhooks/store/webhook-store.js";
import { useTestStore } from "../helpers/database.js";

// An endpoint's deliveries listed newest first through its log of pages, by `_id` only.

const testStore = useTestStore();
const T0 = new Date("2026-06-01T12:00:00Z");

const delivery = (i: number) =>
  newDelivery(
    "t1",
    "ep1",
    createMessage("streak.lost", { user: { id: "u1" } as never, length: 3 }, { id: `msg_${String(i).padStart(4, "0")}`, tenant: null, at: T0 }),
    new Date(T0.getTime() + i * 1000),
  );

describe("an endpoint's delivery log", () => {
  it("lists the newest first across pages, skips repeats, and stops below deliveries that retention removed", async () => {
    const store = deliveryStore(testStore.database, new KeyedLock());
    for (let i = 0; i < 250; i += 50)
      await insertDeliveries(
        store,
        Array.from({ length: 50 }, (_, j) => delivery(i + j)),
      );
    await insertDeliveries(store, [delivery(249)]); // a hand-over repeated after a crash
    const list = (skip: number, limit: number) => listDeliveries(testStore.database.collections, "t1", { endpointId: "ep1" }, { skip, limit });
    expect((await list(0, 3)).map((d) => d.messageId)).toEqual(["msg_0249", "msg_0248", "msg_0247"]);
    expect((await list(95, 10)).map((d) => d.messageId)).toEqual(Array.from({ length: 10 }, (_, i) => `msg_${String(154 - i).padStart(4, "0")}`));
    expect(await list(0, 1000)).toHaveLength(250);
    expect(await listDeliveries(testStore.database.collections, "t2", { endpointId: "ep1" }, { skip: 0, limit: 10 })).toEqual([]);

    // Retention removed the 150 oldest: the listing ends at the first page with none left (page 0),
    // which goes; page 1 keeps its newer half.
    await testStore.database.collections.webhookDeliveries.deleteMany({ messageId: { $lt: "msg_0150" } });
    expect(await list(0, 1000)).toHaveLength(100);
    const pages = await testStore.database.collections.webhookEndpointLog.find({}).toArray();
    expect(pages.map((p) => p._id).sort()).toEqual(["t1/ep1", "t1/ep1/1", "t1/ep1/2"]);
    expect((await testStore.database.collections.webhookEndpointLog.findOne({ _id: "t1/ep1" }))?.floor).toBe(1);
    expect(await list(0, 1000)).toHaveLength(100);
  });

  it("is how deleting the endpoint finds its deliveries: all of them go by `_id`, then the log", async () => {
    const store = deliveryStore(testStore.database, new KeyedLock());
    const { webhookEndpoints, webhookDeliveries, webhookEndpointLog } = testStore.database.collections;
    const other = (i: number) => ({ ...delivery(i), _id: `msg_${i}/ep2`, endpointId: "ep2" });
    await webhookEndpoints.insertOne({ _id: "ep1", tenantId: "t1" } as never);
    await insertDeliveries(store, [...Array.from({ length: 120 }, (_, i) => delivery(1000 + i)), other(1)]);
    expect(await webhookDeliveries.countDocuments({ endpointId: "ep1" })).toBe(220); // with the first test's 100
    expect(await deleteEndpoint(testStore.database.collections, "t1", "ep1")).toBe(true);
    expect(await webhookDeliveries.countDocuments({ endpointId: "ep1" })).toBe(0);
    expect(await webhookDeliveries.countDocuments({ endpointId: "ep2" })).toBe(1);
    expect((await webhookEndpointLog.find({}).toArray()).map((p) => p._id).sort()).toEqual(["t1/ep2", "t1/ep2/0"]);
  });
});
