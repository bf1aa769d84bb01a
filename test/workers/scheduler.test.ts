import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserState } from "../../src/engine/domain/user.js";
import type { ServiceContext } from "../../src/engine/context.js";
import { createScheduler, type DueUserWork } from "../../src/workers/scheduler.js";
import { changeUserState } from "../../src/engine/user-state.js";
import { ConfigCache } from "../../src/engine/store/config-cache.js";
import type { Database } from "../../src/engine/store/database.js";
import { KeyedLock } from "../../src/engine/store/keyed-lock.js";
import { commitUserChange } from "../../src/engine/user-commit.js";
import { openTestStore } from "../helpers/database.js";

let opened: Awaited<ReturnType<typeof openTestStore>>;
let database: Database;
const logger = pino({ level: "silent" });
const T0 = new Date("2026-06-01T12:00:00Z");

beforeAll(async () => {
  opened = await openTestStore();
  database = opened.database;
});
afterAll(() => opened.close());

/** A service context on the test database with a clock the test moves. */
function contextAt(clock: { now: Date }): ServiceContext {
  return { database, config: new ConfigCache(database.collections), userLocks: new KeyedLock(), now: () => clock.now, idempotencyWindowMs: null };
}

/** Work that records each visit and clears the user's due time, as real catch-up work does. */
function recordingWork(visits: string[]): DueUserWork {
  return (ctx, tenantId, userId) =>
    changeUserState(ctx, tenantId, userId, async (stored) => {
      visits.push(userId);
      return { write: { ...stored!.state, dueAt: null }, result: undefined };
    });
}

async function createUserDueAt(tenantId: string, userId: string, dueAt: Date | null) {
  // The one write path: it lists the user in the due bucket of its minute.
  expect(await commitUserChange(contextAt({ now: T0 }), tenantId, null, { ...createUserState(userId, T0), dueAt }, 1)).toBe(true);
}

describe("scheduler", () => {
  it("visits exactly the users due in elapsed minutes, once, across ticks, instances and restarts", async () => {
    await database.collections.leases.deleteMany({});
    const minute = (m: number) => new Date(T0.getTime() + m * 60_000);
    await createUserDueAt("t1", "due-now", minute(0));
    await createUserDueAt("t2", "due-soon", new Date(minute(2).getTime() + 30_000));
    await createUserDueAt("t1", "never", null);
    await createUserDueAt("t1", "due-later", minute(10));

    const clock = { now: minute(1) }; // minute 0 has fully elapsed
    const visits: string[] = [];
    const a = createScheduler(contextAt(clock), logger, { work: recordingWork(visits), lookbackMinutes: 5 });
    const b = createScheduler(contextAt(clock), logger, { work: recordingWork(visits), lookbackMinutes: 5 });
    await Promise.all([a.tick(), b.tick()]);
    expect(visits).toEqual(["due-now"]); // one instance holds the lease; the other does nothing

    clock.now = new Date(minute(2).getTime() + 45_000); // due-soon is due (minute 2, 30 s) but minute 2 has not elapsed
    await a.tick();
    expect(visits).toEqual(["due-now"]);
    clock.now = minute(3);
    await a.tick();
    expect(visits).toEqual(["due-now", "due-soon"]);

    // A restart: the first instance stops (releasing its lease); a new one resumes from the cursor.
    await a.stop();
    const c = createScheduler(contextAt(clock), logger, { work: recordingWork(visits) });
    clock.now = minute(11);
    expect(await c.tick()).toBe(1);
    expect(visits).toEqual(["due-now", "due-soon", "due-later"]);
    await c.stop();
    await b.stop();
  });

  it("waits for a crashed holder's lease to end, then takes over where it left off", async () => {
    await database.collections.leases.deleteMany({});
    const start = new Date(T0.getTime() + 100 * 60_000 + 50_000); // 50 s into a minute
    const clock = { now: start };
    const visits: string[] = [];
    const crashed = createScheduler(contextAt(clock), logger, { work: recordingWork(visits), leaseMs: 30_000, lookbackMinutes: 1 });
    await crashed.tick(); // holds the lease until start + 30 s, then "dies" without releasing it
    await createUserDueAt("t1", "after-crash", start);

    const successor = createScheduler(contextAt(clock), logger, { work: recordingWork(visits), leaseMs: 30_000 });
    clock.now = new Date(start.getTime() + 15_000); // the minute has elapsed, but the lease is still held
    expect(await successor.tick()).toBe(0);
    clock.now = new Date(start.getTime() + 31_000);
    expect(await successor.tick()).toBe(1);
    expect(visits).toEqual(["after-crash"]);
    await successor.stop();
  });

  it("keeps going when one user's work fails", async () => {
    await database.collections.leases.deleteMany({});
    const clock = { now: new Date(T0.getTime() + 1000 * 60_000) };
    await createUserDueAt("t1", "broken", new Date(clock.now.getTime() - 60_000));
    await createUserDueAt("t1", "fine", new Date(clock.now.getTime() - 60_000));
    const visits: string[] = [];
    const work: DueUserWork = async (ctx, tenantId, userId) => {
      if (userId === "broken") throw new Error("boom");
      await recordingWork(visits)(ctx, tenantId, userId);
    };
    const scheduler = createScheduler(contextAt(clock), logger, { work, lookbackMinutes: 2 });
    expect(await scheduler.tick()).toBe(2);
    expect(visits).toEqual(["fine"]);
    await scheduler.stop();
  });
});
