import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { readStoredUser } from "../../src/engine/store/user-documents.js";

let server: TestServer;

/** Noon UTC `offset` days from today, and that day's date. */
const noon = (offset: number) => {
  const d = new Date();
  d.setUTCHours(12, 0, 0, 0);
  return new Date(d.getTime() + offset * 86_400_000);
};
const date = (offset: number) => noon(offset).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  const metric = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "minutes", name: "Minutes practised" }] })).body.created[0].id;
  const settings = await server.rest("PUT", "/admin/v1/streaks/settings", {
    body: { frequency: "daily", metrics: [{ metricId: metric, threshold: 10 }], evaluationMode: "all", freezes: { initialGrant: 1, maxFreezes: 2 } },
  });
  expect(settings.status).toBe(201);
});
afterAll(() => server.close());

const practise = (user: string, value: number, at: Date, tz = "UTC") =>
  server.rest("POST", "/api/metrics/minutes/event", { body: { user: { id: user, tz }, value, timestamp: at.toISOString() } });

describe("streaks", () => {
  it("extend once per day when the threshold is met, in the event response", async () => {
    const below = await practise("ann", 5, noon(-2));
    expect(below.body.currentStreak).toMatchObject({ length: 0, frequency: "daily", started: null, extended: false });
    const met = await practise("ann", 5, new Date(noon(-2).getTime() + 3_600_000));
    expect(met.body.currentStreak).toMatchObject({
      length: 1,
      started: date(-2),
      periodStart: date(-2),
      periodEnd: date(-2),
      expires: date(-1),
      extended: true,
    });
    const again = await practise("ann", 20, new Date(noon(-2).getTime() + 7_200_000));
    expect(again.body.currentStreak).toMatchObject({ length: 1, extended: false });
    const nextDay = await server.client("connect-json").application.trackMetricEvent({ key: "minutes", user: { id: "ann" }, value: 10 });
    // Yesterday was missed: the freeze held the length at 1, and today extends it to 2.
    expect([nextDay.currentStreak?.length, nextDay.currentStreak?.extended, nextDay.currentStreak?.freezes]).toEqual([2, true, 0]);
  });

  it("an idempotent replay shows the streak as it is now, not extended by the replay", async () => {
    const send = (value: number) => server.rest("POST", "/api/metrics/minutes/event", { body: { user: { id: "rey" }, value, idempotencyKey: "rey-1" } });
    const first = await send(10);
    expect([first.status, first.body.currentStreak]).toEqual([201, expect.objectContaining({ length: 1, extended: true })]);
    const replay = await send(10);
    expect(replay.status).toBe(202);
    expect(replay.body.idempotentReplayed).toBe(true);
    expect(replay.body.currentStreak).toEqual({ ...first.body.currentStreak, extended: false });
    const viaConnect = await server
      .client("connect-binary")
      .application.trackMetricEvent({ key: "minutes", user: { id: "rey" }, value: 10, idempotencyKey: "rey-1" });
    expect([viaConnect.idempotentReplayed, viaConnect.currentStreak?.length, viaConnect.currentStreak?.extended]).toEqual([true, 1, false]);
  });

  it("show a missed day on read: a freeze consumed, then the streak lost", async () => {
    await practise("bob", 10, noon(-4));
    await practise("bob", 10, noon(-3)); // length 2; then days -2 and -1 missed
    const read = await server.rest("GET", "/v1/users/bob/streak?historyPeriods=5");
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ length: 0, frequency: "daily", started: null, extended: null, freezes: 0, maxFreezes: 2, pauses: [] });
    expect(read.body.streakHistory).toEqual([
      { periodStart: date(-4), periodEnd: date(-4), length: 1, usedFreeze: false, usedPause: false },
      { periodStart: date(-3), periodEnd: date(-3), length: 2, usedFreeze: false, usedPause: false },
      { periodStart: date(-2), periodEnd: date(-2), length: 2, usedFreeze: true, usedPause: false },
      { periodStart: date(-1), periodEnd: date(-1), length: 0, usedFreeze: false, usedPause: false },
      { periodStart: date(0), periodEnd: date(0), length: 0, usedFreeze: false, usedPause: false },
    ]);
    // The caught-up state was stored (compute, then persist).
    const stored = (await readStoredUser(server.service.context.database.collections.users, "default", "bob"))!.state;
    expect(stored.streak!.length).toBe(0);
  });

  it("show more periods than the user document keeps, the older ones from their pages; the read that stores a caught-up state still does", async () => {
    // 45 days met in a row, ending 3 days ago; of the two missed days since, the one freeze holds the first: lost on read.
    for (let n = 47; n >= 3; n--) expect((await practise("dee", 10, noon(-n))).status).toBe(201);
    const stored = (await readStoredUser(server.service.context.database.collections.users, "default", "dee"))!;
    expect(stored.state.streak!.history.length).toBeLessThanOrEqual(32);
    expect(stored.pages?.["streak:history"]).toBeDefined();
    const read = await server.rest("GET", "/v1/users/dee/streak?historyPeriods=100");
    expect(read.status).toBe(200);
    const periods = read.body.streakHistory as Array<{ periodStart: string; length: number }>;
    // Every day from the first event to today, oldest first, the current period last.
    expect(periods.map((p) => p.periodStart)).toEqual(Array.from({ length: 48 }, (_, i) => date(-47 + i)));
    expect(periods.slice(0, 45).map((p) => p.length)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
    expect(read.body).toMatchObject({ length: 0 });
    // The read stored the caught-up (lost) streak, and the same periods read again.
    expect((await readStoredUser(server.service.context.database.collections.users, "default", "dee"))!.state.streak!.length).toBe(0);
    expect((await server.rest("GET", "/v1/users/dee/streak?historyPeriods=100")).body.streakHistory).toEqual(periods);
    const few = await server.client("connect-json").application.getUserStreak({ id: "dee", historyPeriods: 40 });
    expect(few.streak!.streakHistory.map((p) => p.periodStart)).toEqual(periods.slice(-40).map((p) => p.periodStart));
  }, 120_000);

  it("count days in the user's own time zone", async () => {
    // 23:30 in Los Angeles is already the next day in UTC: both events fall on one local day.
    // Yesterday in Los Angeles, so the later event is in the past at any hour the test runs.
    const yesterday = DateTime.now().setZone("America/Los_Angeles").minus({ days: 1 }).toISODate();
    const lateEvening = DateTime.fromISO(`${yesterday}T23:30`, { zone: "America/Los_Angeles" }).toJSDate();
    await practise("cal", 10, new Date(lateEvening.getTime() - 86_400_000), "America/Los_Angeles");
    const second = await practise("cal", 10, lateEvening, "America/Los_Angeles");
    expect(second.body.currentStreak).toMatchObject({ length: 2, extended: true });
  });

  it("list several users' lengths, longest first", async () => {
    const list = await server.rest("GET", "/v1/streaks?userIds=bob,ann,cal,nobody");
    expect(list.body.map((r: { userId: string; streakLength: number }) => [r.userId, r.streakLength])).toEqual([
      ["ann", 2], // ties: by user ID
      ["cal", 2],
      ["bob", 0],
      ["nobody", 0],
    ]);
    expect((await server.rest("GET", "/v1/users/nobody/streak")).status).toBe(404);
  });
});

describe("streak administration", () => {
  it("grants freezes up to the maximum", async () => {
    await practise("fay", 10, new Date(Date.now() - 60_000)); // created with the initial grant of 1 (maximum 2)
    // One granted (201, the reference's "at least one freeze created"), one over the maximum, one unknown user.
    const granted = await server.rest("POST", "/admin/v1/streaks/freezes", { body: { freezes: [{ userId: "fay" }, { userId: "fay" }, { userId: "ghost" }] } });
    expect(granted).toEqual({
      status: 201,
      body: {
        issues: [
          { userId: "fay", severity: "warning", message: "Would exceed maximum freeze limit", level: "warning", reason: "Would exceed maximum freeze limit" },
          { userId: "ghost", severity: "error", message: "User does not exist", level: "error", reason: "User does not exist" },
        ],
      },
    });
    expect((await server.rest("GET", "/v1/users/fay/streak")).body.freezes).toBe(2);
    const none = await server.rest("POST", "/admin/v1/streaks/freezes", { body: { freezes: [{ userId: "fay" }] } });
    expect(none).toMatchObject({ status: 200, body: { issues: [{ userId: "fay", severity: "warning", message: "Would exceed maximum freeze limit" }] } });
  });

  it("pauses hold a streak through missed days; past starts are refused; pauses can be deleted", async () => {
    const past = await server.rest("POST", "/admin/v1/streaks/pauses", { body: { pauses: [{ userId: "fay", start: date(-1), end: date(1) }] } });
    expect(past.status).toBe(200);
    expect(past.body.issues[0]).toMatchObject({ userId: "fay", severity: "error" });
    const created = await server.client("grpc").streaks.createStreakPauses({ pauses: [{ userId: "fay", start: date(1), end: date(3) }] });
    expect(created.created[0]).toMatchObject({ userId: "fay", start: date(1), end: date(3), status: "active" });
    expect((await server.rest("GET", "/v1/users/fay/streak")).body.pauses).toEqual([{ id: created.created[0]!.id, start: date(1), end: date(3) }]);
    const removed = await server.rest("DELETE", `/admin/v1/streaks/pauses?ids=${created.created[0]!.id},nope`);
    expect(removed.body).toEqual({
      deleted: [{ id: created.created[0]!.id }],
      issues: [{ id: "nope", severity: "error", message: "Pause not found by ID", level: "error", reason: "Pause not found by ID" }],
    });
  });

  it("restores a lost streak to its length when lost", async () => {
    const restored = await server.rest("POST", "/admin/v1/streaks/restore", { body: { users: [{ id: "bob" }, { id: "fay" }] } });
    expect(restored.status).toBe(201);
    expect(restored.body).toEqual({
      restoredUsers: ["bob"],
      issues: [{ userId: "fay", severity: "warning", message: "No streak to restore", level: "warning", reason: "No streak to restore" }],
    });
    expect((await server.rest("GET", "/v1/users/bob/streak")).body.length).toBe(2);
  });
});

describe("weekly and monthly streaks (each in its own tenant)", () => {
  async function tenantWithStreak(customerId: string, frequency: string) {
    await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId, name: customerId }] });
    const metric = (await server.rest("POST", "/admin/v1/metrics", { tenantId: customerId, body: [{ key: "minutes", name: "Minutes" }] })).body.created[0].id;
    const settings = await server.rest("PUT", "/admin/v1/streaks/settings", {
      tenantId: customerId,
      body: { frequency, metrics: [{ metricId: metric, threshold: 1 }] },
    });
    expect(settings.status).toBe(201);
    return (at: Date) =>
      server.rest("POST", "/api/metrics/minutes/event", { tenantId: customerId, body: { user: { id: "u" }, value: 1, timestamp: at.toISOString() } });
  }
  const justNow = () => new Date(Date.now() - 1_000); // a minute back could fall in the previous week or month

  it("weekly: one event in each of three consecutive ISO weeks makes a streak of 3", async () => {
    const send = await tenantWithStreak("weekly-tenant", "weekly");
    await send(noon(-14));
    await send(noon(-7));
    const third = await send(justNow());
    expect(third.body.currentStreak).toMatchObject({ length: 3, frequency: "weekly", extended: true });
    // The current ISO week runs Monday to Sunday.
    const start = new Date(`${third.body.currentStreak.periodStart}T00:00:00Z`);
    expect(start.getUTCDay()).toBe(1);
    expect(third.body.currentStreak.periodEnd).toBe(new Date(start.getTime() + 6 * 86_400_000).toISOString().slice(0, 10));
  });

  it("monthly: one event in each of three consecutive calendar months makes a streak of 3", async () => {
    const send = await tenantWithStreak("monthly-tenant", "monthly");
    const today = new Date();
    const monthStart = (back: number) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1, 12));
    await send(monthStart(2));
    await send(monthStart(1));
    const third = await send(justNow());
    expect(third.body.currentStreak).toMatchObject({ length: 3, frequency: "monthly", extended: true, periodStart: monthStart(0).toISOString().slice(0, 10) });
    const read = await server.rest("GET", "/v1/users/u/streak?historyPeriods=3", { tenantId: "monthly-tenant" });
    expect(read.body.streakHistory.map((p: { periodStart: string; length: number }) => [p.periodStart, p.length])).toEqual([
      [monthStart(2).toISOString().slice(0, 10), 1],
      [monthStart(1).toISOString().slice(0, 10), 2],
      [monthStart(0).toISOString().slice(0, 10), 3],
    ]);
  });
});

describe("time-driven work", () => {
  it("waits while an import sends a user's history: a scheduler visit between its parts judges nothing", async () => {
    const { runDueWork } = await import("../../src/workers/due-work.js");
    const { BACKFILL_QUIET_MS } = await import("../../src/engine/domain/event.js");
    const users = server.service.context.database.collections.users;
    // The judging below happens about 11 minutes on: should that cross UTC midnight, the user lives
    // at UTC−6, where those minutes and every noon UTC fall on the same dates as in UTC before it.
    const crossesMidnight = new Date(Date.now() + BACKFILL_QUIET_MS + 5 * 60_000).getUTCDate() !== new Date().getUTCDate();
    const tz = crossesMidnight ? "Etc/GMT+6" : "UTC";
    // Days -6 to -4 now; the scheduler's visit a minute later (the user's due time, a period end, is past).
    for (const day of [-6, -5, -4]) expect((await practise("importer", 10, noon(day), tz)).status).toBe(201);
    const stored = (await readStoredUser(users, "default", "importer"))!.state;
    expect(stored.dueAt!.getTime()).toBeGreaterThan(Date.now() + BACKFILL_QUIET_MS - 60_000);
    const minuteLater = new Date(Date.now() + 60_000);
    await runDueWork({ ...server.service.context, now: () => minuteLater }, "default", "importer");
    // Then days -3 to -1: they extend the streak they belong to.
    for (const day of [-3, -2, -1]) expect((await practise("importer", 10, noon(day), tz)).status).toBe(201);
    const streak = await server.rest("GET", "/v1/users/importer/streak");
    expect(streak.body).toMatchObject({ length: 6, started: date(-6) });
    // Once the wait is over, the scheduler judges as usual: the streak still holds today (expires today).
    const quietOver = new Date(Date.now() + BACKFILL_QUIET_MS + 60_000);
    await runDueWork({ ...server.service.context, now: () => quietOver }, "default", "importer");
    expect((await readStoredUser(users, "default", "importer"))!.state.streak!.length).toBe(6);
  });

  it("consumes a freeze and then loses the streak without any read, and stores the next due minute", async () => {
    const { runDueWork } = await import("../../src/workers/due-work.js");
    await practise("sam", 10, noon(-1)); // length 1, one freeze; then days 0 and +1 are missed
    const users = server.service.context.database.collections.users;
    const before = (await readStoredUser(users, "default", "sam"))!.state;
    const dueMinute = Math.floor(before.dueAt!.getTime() / 60_000);
    expect(dueMinute).toBeGreaterThan(Math.floor(Date.now() / 60_000) - 1);
    // The scheduler finds the user in that minute's due bucket, by key.
    const { findDueUsers } = await import("../../src/workers/store/due-users.js");
    expect((await findDueUsers(server.service.context.database.collections.dueUsers, dueMinute)).users).toContainEqual({ tenantId: "default", userId: "sam" });

    const later = new Date(noon(2).getTime() + 60_000);
    await runDueWork({ ...server.service.context, now: () => later }, "default", "sam");
    const after = (await readStoredUser(users, "default", "sam"))!.state;
    expect(after.streak!.length).toBe(0);
    expect(after.streak!.freezes).toBe(0);
    expect(after.dueAt).toBeNull(); // no streak left and no freeze earning configured: nothing is due
    // Running it again with the same clock changes nothing (idempotent).
    await runDueWork({ ...server.service.context, now: () => later }, "default", "sam");
    expect((await readStoredUser(users, "default", "sam"))!.state.streak).toEqual(after.streak);
  });
});
