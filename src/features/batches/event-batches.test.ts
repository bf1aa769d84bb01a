import { describe, expect, it } from "vitest";
import { recordingLogger } from "../../../test/helpers/memory-leases.js";
import { DomainError, invalidArgument } from "../../engine/domain/errors.js";
import type { BatchProgress, EventBatchDocument } from "./store/batch-records.js";
import { batchEventKey, batchRetryDelayMs, EVENT_USER_PLACEHOLDER, processBatch, type BatchEventInput, type BatchRun } from "./event-batches.js";

const T0 = new Date("2026-06-01T12:00:00Z");

function event(userId: string, value: number, idempotencyKey?: string): BatchEventInput {
  return { metricKey: "steps", user: { id: userId }, value, attributes: {}, ...(idempotencyKey !== undefined && { idempotencyKey }) };
}

function batchOf(events: BatchEventInput[], extra: Partial<EventBatchDocument> = {}): EventBatchDocument {
  return {
    _id: "b1",
    tenantId: "t1",
    status: "processing",
    total: events.length,
    applied: 0,
    replayed: 0,
    failed: 0,
    errors: [],
    outcomes: events.map(() => null),
    attempts: 1,
    leaseOwner: "me",
    leaseUntil: T0,
    lastError: null,
    created: T0,
    updated: T0,
    completed: null,
    ...extra,
  };
}

/** A batch run in memory: records what was applied, saved, released and completed. */
function memoryRun(
  events: BatchEventInput[] | null,
  behaviour: { record?: (e: BatchEventInput) => Promise<"applied" | "replayed">; save?: (p: BatchProgress) => boolean } = {},
) {
  const clock = { now: T0 };
  const recorded: BatchEventInput[] = [];
  const saves: BatchProgress[] = [];
  const released: Array<{ progress: BatchProgress; retryAt: Date; lastError: string | null }> = [];
  const completed: BatchProgress[] = [];
  const run: BatchRun = {
    now: () => clock.now,
    leaseMs: 30_000,
    events: async () => events,
    async record(e) {
      recorded.push(e);
      return behaviour.record ? behaviour.record(e) : "applied";
    },
    async save(progress) {
      saves.push(progress);
      return behaviour.save ? behaviour.save(progress) : true;
    },
    release: async (progress, retryAt, lastError) => void released.push({ progress, retryAt, lastError }),
    complete: async (progress) => void completed.push(progress),
  };
  return { run, clock, recorded, saves, released, completed };
}

const notStopping = () => false;

describe("processing a claimed batch", () => {
  it("applies each user's events in submission order, under the caller's key or the batch's own, and completes", async () => {
    const events = [event("ann", 1, "k1"), event("bob", 2), event("ann", 3), event("bob", 4, "k4")];
    const m = memoryRun(events);
    await processBatch(m.run, recordingLogger(), batchOf(events), notStopping);
    const byUser = (id: string) => m.recorded.filter((e) => e.user.id === id).map((e) => [e.value, e.idempotencyKey]);
    expect(byUser("ann")).toEqual([
      [1, "k1"],
      [3, batchEventKey("b1", 2)],
    ]);
    expect(byUser("bob")).toEqual([
      [2, batchEventKey("b1", 1)],
      [4, "k4"],
    ]);
    expect(m.completed).toEqual([{ outcomes: ["applied", "applied", "applied", "applied"], errors: [] }]);
    expect(m.released).toEqual([]);
  });

  it("an event refused by the rules is that event's outcome (message cut, the caller's key or none); the others go on", async () => {
    const events = [event("ann", 1, "bad-key"), event("ann", 2), event("bob", -1)];
    const m = memoryRun(events, {
      async record(e) {
        if (e.value === 1) throw invalidArgument("x".repeat(5_000));
        if (e.value === -1) throw new DomainError("unprocessable", "negative");
        return "replayed";
      },
    });
    await processBatch(m.run, recordingLogger(), batchOf(events), notStopping);
    expect(m.completed).toHaveLength(1);
    expect(m.completed[0]!.outcomes).toEqual(["failed", "replayed", "failed"]);
    expect(m.completed[0]!.errors).toEqual([
      { index: 0, idempotencyKey: "bad-key", message: "x".repeat(1_000) },
      { index: 2, idempotencyKey: "", message: "negative" },
    ]);
  });

  it("stores no message quoting the event's user ID: the caller knows the user by the event's index", async () => {
    const events = [event("ann", 1), event("bob", 2)];
    const m = memoryRun(events, {
      async record(e) {
        throw new DomainError("unprocessable", `User "${e.user.id}" and "${e.user.id}" again, but not ann or "ann2"`);
      },
    });
    await processBatch(m.run, recordingLogger(), batchOf(events), notStopping);
    expect(m.completed[0]!.errors.map((e) => e.message)).toEqual([
      `User ${EVENT_USER_PLACEHOLDER} and ${EVENT_USER_PLACEHOLDER} again, but not ann or "ann2"`,
      `User ${EVENT_USER_PLACEHOLDER} and ${EVENT_USER_PLACEHOLDER} again, but not ann or "ann2"`,
    ]);
  });

  it("resumes an interrupted attempt: events with an outcome are not applied again", async () => {
    const events = [event("ann", 1), event("ann", 2), event("bob", 3)];
    const m = memoryRun(events);
    await processBatch(
      m.run,
      recordingLogger(),
      batchOf(events, { outcomes: ["applied", null, "failed"], errors: [{ index: 2, idempotencyKey: "", message: "no" }] }),
      notStopping,
    );
    expect(m.recorded.map((e) => e.value)).toEqual([2]);
    expect(m.completed).toEqual([{ outcomes: ["applied", "applied", "failed"], errors: [{ index: 2, idempotencyKey: "", message: "no" }] }]);
  });

  it("saves progress (renewing the claim) every 50 events, and when a third of the lease has run", async () => {
    const events = Array.from({ length: 120 }, (_, i) => event("ann", i));
    const m = memoryRun(events);
    await processBatch(m.run, recordingLogger(), batchOf(events), notStopping);
    expect(m.saves.map((p) => p.outcomes.filter((o) => o !== null).length)).toEqual([50, 100]);

    const slow = memoryRun(events.slice(0, 5), {
      async record() {
        slow.clock.now = new Date(slow.clock.now.getTime() + 4_000); // 4 s per event: a third of 30 s after the 3rd
        return "applied";
      },
    });
    await processBatch(slow.run, recordingLogger(), batchOf(events.slice(0, 5)), notStopping);
    expect(slow.saves.map((p) => p.outcomes.filter((o) => o !== null).length)).toEqual([3]);
  });

  it("a lost claim ends the attempt without writing anything more (the new holder resumes it)", async () => {
    const events = Array.from({ length: 80 }, (_, i) => event("ann", i));
    const logger = recordingLogger();
    const m = memoryRun(events, { save: () => false });
    await processBatch(m.run, logger, batchOf(events), notStopping);
    expect(m.recorded).toHaveLength(50);
    expect(m.released).toEqual([]);
    expect(m.completed).toEqual([]);
    expect(logger.warn).toHaveBeenCalled();
  });

  it("an infrastructure failure stops the attempt and releases the batch for a retry after a growing pause, progress kept", async () => {
    const events = [event("ann", 1), event("ann", 2), event("ann", 3)];
    const m = memoryRun(events, {
      async record(e) {
        if (e.value === 2) throw new Error("database down");
        return "applied";
      },
    });
    await processBatch(m.run, recordingLogger(), batchOf(events, { attempts: 3 }), notStopping);
    expect(m.recorded.map((e) => e.value)).toEqual([1, 2]); // the user's later events wait for the retry
    expect(m.completed).toEqual([]);
    expect(m.released).toEqual([
      { progress: { outcomes: ["applied", null, null], errors: [] }, retryAt: new Date(T0.getTime() + 8_000), lastError: "Error: database down" },
    ]);
  });

  it("a conflict is not the event's fault: the attempt is retried", async () => {
    const events = [event("ann", 1)];
    const m = memoryRun(events, {
      async record() {
        throw new DomainError("conflict", "modified concurrently");
      },
    });
    await processBatch(m.run, recordingLogger(), batchOf(events), notStopping);
    expect(m.released).toHaveLength(1);
    expect(m.released[0]!.progress.outcomes).toEqual([null]);
  });

  it("stopping releases the batch at once, with what is done", async () => {
    const events = [event("ann", 1), event("ann", 2)];
    let stopping = false;
    const m = memoryRun(events, {
      async record() {
        stopping = true;
        return "applied";
      },
    });
    await processBatch(m.run, recordingLogger(), batchOf(events), () => stopping);
    expect(m.released).toEqual([{ progress: { outcomes: ["applied", null], errors: [] }, retryAt: T0, lastError: null }]);
  });

  it("gives up after too many attempts, or when the events are gone: the remaining events are marked failed", async () => {
    const events = [event("ann", 1), event("bob", 2)];
    const tooMany = memoryRun(events);
    await processBatch(tooMany.run, recordingLogger(), batchOf(events, { attempts: 11, outcomes: ["applied", null] }), notStopping);
    expect(tooMany.recorded).toEqual([]);
    expect(tooMany.completed).toEqual([
      { outcomes: ["applied", "failed"], errors: [{ index: 1, idempotencyKey: "", message: "Not processed: processing of the batch failed 10 times" }] },
    ]);

    // Many claims, but few without progress (instances restarted while it went on): it goes on.
    const restarted = memoryRun(events);
    await processBatch(restarted.run, recordingLogger(), batchOf(events, { attempts: 25, failedAttempts: 1 }), notStopping);
    expect(restarted.recorded).toHaveLength(2);

    const tenth = memoryRun(events);
    await processBatch(tenth.run, recordingLogger(), batchOf(events, { attempts: 10 }), notStopping);
    expect(tenth.recorded).toHaveLength(2); // the tenth attempt still runs

    const gone = memoryRun(null);
    await processBatch(gone.run, recordingLogger(), batchOf(events), notStopping);
    expect(gone.completed[0]!.outcomes).toEqual(["failed", "failed"]);
    expect(gone.completed[0]!.errors[0]!.message).toBe("Not processed: its events are missing");
  });
});

describe("batch retry pauses", () => {
  it("start at 2 s and double, up to 2 minutes", () => {
    expect([1, 2, 3, 6, 7, 10].map(batchRetryDelayMs)).toEqual([2_000, 4_000, 8_000, 64_000, 120_000, 120_000]);
  });
});
