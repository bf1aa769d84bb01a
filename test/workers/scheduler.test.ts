import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUserState } from "../../src/engine/domain/user.js";
import type { ServiceContext } from "../../src/engine/context.js";
import { createScheduler, type DueUserWork } from "../../src/workers/scheduler.js";
import { changeUserState } from "../../src/engine/user-state.js";
import { ConfigCache } from "../../src/engine/store/config-cache.js";
import type { Database } from "../../src/engine/store/database.js";
import { TenantCalls } from "../../src/engine/tenant-calls.js";
import { KeyedLock } from "../../src/engine/store/keyed-lock.js";
import { commitUserChange } from "../../src/engine/user-commit.js";
import { minuteOf, readStoredUser } from "../../src/engine/store/user-documents.js";
import { findDueUsers } from "../../src/workers/store/due-users.js";
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
  return {
    database,
    config: new ConfigCache(database.collections),
    userLocks: new KeyedLock(),
    tenantCalls: new TenantCalls(),
    now: () => clock.now,
    idempotencyWindowMs: null,
  };
}

/** Work that records each visit and clears the user's due time, as real catch-up work does. */
function recordingWork(visits: string[]): DueUserWork {
  return (ctx, tenantId, userId) =>
    changeUserState(ctx, tenantId, userId, async (stored) => {
      visits.push(userId);
      return { write: { ...stored!.state, dueAt: null }, result: null };
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

  it("on a database whose scheduler never ran, visits users listed before its lookback too (a crash before the first pass)", async () => {
    await Promise.all([database.collections.leases.deleteMany({}), database.collections.dueUsers.deleteMany({})]);
    await createUserDueAt("t3", "listed-hours-ago", T0);
    const clock = { now: new Date(T0.getTime() + 5 * 3_600_000) }; // five hours later, lookback one
    const visits: string[] = [];
    const scheduler = createScheduler(contextAt(clock), logger, { work: recordingWork(visits), lookbackMinutes: 60 });
    expect(await scheduler.tick()).toBe(1);
    expect(visits).toEqual(["listed-hours-ago"]);
    expect(await database.collections.dueUsers.countDocuments({})).toBe(0);
    await scheduler.stop();
  });

  it("after a day down, one tick visits the users due meanwhile without reading every minute, and stands at the clock", async () => {
    await Promise.all([database.collections.leases.deleteMany({}), database.collections.dueUsers.deleteMany({})]);
    const clock = { now: new Date(T0.getTime() + 30 * 86_400_000) };
    const last = minuteOf(clock.now) - 1;
    await database.collections.leases.insertOne({ _id: "scheduler:users", owner: "gone", leaseUntil: T0, version: 1, cursor: last - 24 * 60 });
    await createUserDueAt("t1", "due-in-the-morning", new Date((last - 900) * 60_000));
    await createUserDueAt("t2", "due-in-the-evening", new Date((last - 60) * 60_000 + 59_000));
    await createUserDueAt("t1", "due-after-the-restart", new Date((last + 1) * 60_000));
    const reads = vi.spyOn(database.collections.dueUsers, "findOne");
    const visits: string[] = [];
    const scheduler = createScheduler(contextAt(clock), logger, { work: recordingWork(visits) });
    expect(await scheduler.tick()).toBe(2);
    expect(visits).toEqual(["due-in-the-morning", "due-in-the-evening"]);
    expect(reads.mock.calls.length).toBeLessThan(2 * 16 * 2); // two minutes' shards (and their next pages), not 1,440 minutes'
    reads.mockRestore();
    expect((await database.collections.leases.findOne({ _id: "scheduler:users" }))!.cursor).toBe(last);
    await scheduler.stop();
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
    let fails = true;
    const work: DueUserWork = async (ctx, tenantId, userId) => {
      if (userId === "broken" && fails) throw new Error("boom");
      return recordingWork(visits)(ctx, tenantId, userId);
    };
    const scheduler = createScheduler(contextAt(clock), logger, { work, lookbackMinutes: 2 });
    expect(await scheduler.tick()).toBe(2);
    expect(visits).toEqual(["fine"]);
    // The failed user is tried again in the next minute.
    fails = false;
    clock.now = new Date(clock.now.getTime() + 2 * 60_000);
    expect(await scheduler.tick()).toBe(1);
    expect(visits).toEqual(["fine", "broken"]);
    await scheduler.stop();
  });

  it("a due time moved later keeps the user's entry; met early there, the user is listed at the new time and visited then", async () => {
    await database.collections.leases.deleteMany({});
    const minute = (m: number) => new Date(T0.getTime() + (2000 + m) * 60_000);
    const listed = async (m: number) => (await findDueUsers(database.collections.dueUsers, Math.floor(minute(m).getTime() / 60_000))).users;
    await createUserDueAt("t3", "mover", minute(10));
    expect(await listed(10)).toContainEqual({ tenantId: "t3", userId: "mover" });
    // A later write moves the due time an hour on: no entry at the new minute (the one at minute 10 covers it)...
    const stored = (await readStoredUser(database.collections.users, "t3", "mover"))!;
    expect(await commitUserChange(contextAt({ now: minute(1) }), "t3", stored, { ...stored.state, dueAt: minute(70) }, 1)).toBe(true);
    expect(await listed(70)).toEqual([]);
    // ...an earlier one is listed at once.
    const moved = (await readStoredUser(database.collections.users, "t3", "mover"))!;
    expect(await commitUserChange(contextAt({ now: minute(2) }), "t3", moved, { ...moved.state, dueAt: minute(65) }, 1)).toBe(true);
    expect(await listed(65)).toContainEqual({ tenantId: "t3", userId: "mover" });
    // Back to 70 (later again: no entry); the scheduler meets the user early at 10 and lists them at 70.
    const back = (await readStoredUser(database.collections.users, "t3", "mover"))!;
    expect(await commitUserChange(contextAt({ now: minute(3) }), "t3", back, { ...back.state, dueAt: minute(70) }, 1)).toBe(true);

    const clock = { now: minute(5) };
    const visits: string[] = [];
    // As runDueWork does: nothing before the due time (which it returns), the work once it is due.
    const work: DueUserWork = (ctx, tenantId, userId) =>
      changeUserState(ctx, tenantId, userId, async (current, now) => {
        if (!current?.state.dueAt) return { write: null, result: null };
        if (current.state.dueAt > now) return { write: null, result: current.state.dueAt };
        visits.push(`${userId} at ${Math.round((now.getTime() - minute(0).getTime()) / 60_000)}`);
        return { write: { ...current.state, dueAt: null }, result: null };
      });
    const scheduler = createScheduler(contextAt(clock), logger, { work, lookbackMinutes: 1 });
    await scheduler.tick(); // starts its cursor here
    clock.now = minute(11);
    expect(await scheduler.tick()).toBe(1); // met at 10, nothing due
    expect(visits).toEqual([]);
    expect(await listed(10)).toEqual([]);
    expect(await listed(70)).toContainEqual({ tenantId: "t3", userId: "mover" });
    clock.now = minute(66);
    expect(await scheduler.tick()).toBe(1); // met at 65 (its entry from the earlier move), still nothing due
    clock.now = minute(71);
    expect(await scheduler.tick()).toBe(1);
    expect(visits).toEqual(["mover at 71"]);
    await scheduler.stop();
  });
});
