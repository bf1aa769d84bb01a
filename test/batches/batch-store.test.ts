import { describe, expect, it } from "vitest";
import {
  batchStore,
  claimBatch,
  completeBatch,
  insertBatch,
  purgeBatches,
  releaseBatch,
  saveProgress,
  type BatchStore,
  type EventBatchDocument,
} from "../../src/features/batches/store/batch-records.js";
import { KeyedLock } from "../../src/engine/store/keyed-lock.js";
import type { WriteMode } from "../../src/engine/store/user-documents.js";
import { useTestStore } from "../helpers/database.js";

// The batch store by key, in both write modes: the queue of batches not completed, conditional
// claims and holder writes, and retention by day buckets.

const testStore = useTestStore();
const T0 = new Date("2026-06-01T12:00:00Z");

function newBatch(id: string, created: Date): EventBatchDocument {
  return {
    _id: id,
    tenantId: "t1",
    status: "queued",
    total: 1,
    applied: 0,
    replayed: 0,
    failed: 0,
    errors: [],
    outcomes: [null],
    attempts: 0,
    leaseOwner: null,
    leaseUntil: new Date(0),
    lastError: null,
    created,
    updated: created,
    completed: null,
  };
}

describe.each<WriteMode>(["single-instance", "versioned"])("batches by key (%s)", (mode) => {
  const store = (): BatchStore => batchStore({ collections: testStore.database.collections, writeMode: mode }, new KeyedLock());
  const id = (name: string) => `${mode}-${name}`;

  it("claims the oldest batch not completed, once per lease; only the holder writes; completion leaves the queue", async () => {
    const s = store();
    await insertBatch(s, newBatch(id("late"), new Date(T0.getTime() + 1000)), []);
    await insertBatch(s, newBatch(id("early"), T0), []);
    const first = await claimBatch(s, "a", T0, 30_000);
    expect(first?._id).toBe(id("early"));
    const second = await claimBatch(s, "b", T0, 30_000);
    expect(second?._id).toBe(id("late")); // the early one is leased
    // Once the lease has ended another instance takes it over; the earlier holder's writes are refused.
    const later = new Date(T0.getTime() + 31_000);
    const taken = await claimBatch(s, "c", later, 30_000);
    expect(taken?._id).toBe(id("early"));
    expect(await saveProgress(s, first!, { outcomes: ["applied"], errors: [] }, later, 30_000)).toBe(false);
    expect(await completeBatch(s, taken!, { outcomes: ["applied"], errors: [] }, later, 100)).toBe(true);
    expect(await testStore.database.collections.metricEventBatchQueue.findOne({ _id: id("early") })).toBeNull();
    expect(await testStore.database.collections.metricEventBatchEvents.findOne({ _id: id("early") })).toBeNull();
    expect((await testStore.database.collections.metricEventBatches.findOne({ _id: id("early") }))?.status).toBe("completed");
    await completeBatch(s, second!, { outcomes: ["applied"], errors: [] }, later, 101);
  });

  it("deletes a completed batch on the day its retention ends, not before", async () => {
    const s = store();
    expect(await purgeBatches(s, 99)).toBe(0);
    expect(await purgeBatches(s, 100)).toBe(1);
    expect(await testStore.database.collections.metricEventBatches.findOne({ _id: id("early") })).toBeNull();
    expect(await testStore.database.collections.metricEventBatches.findOne({ _id: id("late") })).not.toBeNull();
    expect(await purgeBatches(s, 101)).toBe(1);
    expect(await testStore.database.collections.metricEventBatchPurge.countDocuments({})).toBe(0);
  });

  it("counts claims without progress: saved progress or a clean hand-over clears them, a failed attempt or a crash adds one", async () => {
    const s = store();
    await insertBatch(s, newBatch(id("restarts"), new Date(T0.getTime() - 1000)), []);
    const failed = async () => (await testStore.database.collections.metricEventBatches.findOne({ _id: id("restarts") }))?.failedAttempts;
    let at = T0.getTime() + 100_000;
    const claim = async () => (await claimBatch(s, "w", new Date((at += 1000)), 30_000))!;
    await releaseBatch(s, await claim(), { outcomes: [null], errors: [] }, new Date(at), new Date(at), "Error: boom");
    expect(await failed()).toBe(1);
    await releaseBatch(s, await claim(), { outcomes: [null], errors: [] }, new Date(at), new Date(at), "Error: boom");
    expect(await failed()).toBe(2);
    const saving = await claim();
    expect(await failed()).toBe(3);
    await saveProgress(s, saving, { outcomes: [null], errors: [] }, new Date(at), 30_000);
    expect(await failed()).toBe(0);
    at += 31_000; // the holder crashed: its lease ends unreleased
    await releaseBatch(s, await claim(), { outcomes: [null], errors: [] }, new Date(at), new Date(at), null);
    expect(await failed()).toBe(0); // handed over on shutdown
    const last = await claim();
    expect([last.attempts, last.failedAttempts]).toEqual([5, 1]);
    await completeBatch(s, last, { outcomes: ["applied"], errors: [] }, new Date(at), 102);
    await purgeBatches(s, 102);
  });
});
