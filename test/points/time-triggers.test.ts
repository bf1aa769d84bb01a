import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { findDueUsers } from "../../src/workers/store/due-users.js";
import { minuteOf, readStoredUser } from "../../src/engine/store/user-documents.js";

let server: TestServer;
/** The service's clock runs this far ahead of the real one; the background scheduler follows it. */
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);

const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

/**
 * Identifies a user a second into a minute, so that their first due time falls early in its minute
 * (the scheduler visits a minute only once it has fully elapsed, which leaves what follows in that
 * minute to the calls themselves), and returns that due time.
 */
async function identifyEarlyInMinute(customerId: string, userId: string, body: object = {}): Promise<Date> {
  offsetMs += 61_000 - (now().getTime() % 60_000);
  expect((await server.rest("PUT", `/v1/users/${userId}`, { tenantId: customerId, body })).status).toBe(200);
  return storedDueAt(customerId, userId);
}

async function storedDueAt(customerId: string, userId: string): Promise<Date> {
  const tenantId = (await server.service.context.config.tenantByCustomerId(customerId))!.id;
  return (await readStoredUser(server.service.context.database.collections.users, tenantId, userId))!.state.dueAt!;
}

/** Moves the clock just past `dueAt`, within its minute (checked by `expectUnvisited`). */
function justAfter(dueAt: Date): void {
  offsetMs += dueAt.getTime() - now().getTime() + 100;
}

function expectUnvisited(dueAt: Date): void {
  expect(minuteOf(now()), "the scheduler could not have visited: the due minute had not elapsed").toBe(minuteOf(dueAt));
}

beforeAll(async () => {
  server = await startTestServer({ now });
});
afterAll(() => server.close());

describe("configuration that brings time-driven work earlier reaches users who exist already", () => {
  it("a time trigger made active pays users whose stored due time predates it, without an event of theirs", async () => {
    await created("/admin/v1/metrics", [{ key: "words", name: "Words" }]);
    const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP" }]);
    // Before any time trigger: no due time at all.
    expect((await server.rest("PUT", "/v1/users/before", { body: {} })).status).toBe(200);
    await created(`/admin/v1/points/${xp}/triggers`, [{ type: "time", points: 10, timeUnit: "days", timeInterval: 1, status: "active" }]);
    // Under the daily trigger: due a day after creation.
    expect((await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "daily" }, value: 1 } })).status).toBe(201);
    const [hourly] = await created(`/admin/v1/points/${xp}/triggers`, [{ type: "time", points: 1, timeUnit: "hours", timeInterval: 1, status: "inactive" }]);
    // Made active by an update (as a creation would): both users are due within the hour now.
    expect((await server.rest("PATCH", `/admin/v1/points/${xp}/triggers`, { body: [{ id: hourly, status: "active" }] })).body.issues).toEqual([]);

    offsetMs = 61 * 60_000; // an hour on: the hourly trigger's first interval has passed, the daily one's not
    for (const userId of ["before", "daily"]) {
      const points = await until(
        () => server.rest("GET", `/v1/users/${userId}/points/xp`),
        (body) => body.total > 0,
        60_000,
      );
      expect(points.total, userId).toBe(1);
      expect(points.awards.map((award: { trigger: { type: string; points: number } }) => award.trigger.points)).toEqual([1]);
    }
  }, 120_000);

  it("freeze earning switched on lists the tenant's users for the scheduler's next minute", async () => {
    await created("/admin/v1/tenants", [{ customerId: "frosty", name: "Frosty" }]);
    const [metricId] = await created("/admin/v1/metrics", [{ key: "steps", name: "Steps" }], "frosty");
    const settings = (autoEarn: unknown) => ({
      frequency: "daily",
      metrics: [{ metricId, threshold: 1 }],
      freezes: { initialGrant: 0, maxFreezes: 3, autoEarn },
    });
    expect((await server.rest("PUT", "/admin/v1/streaks/settings", { tenantId: "frosty", body: settings(null) })).status).toBeLessThan(300);
    const sent = await server.rest("POST", "/api/metrics/steps/event", { tenantId: "frosty", body: { user: { id: "skater" }, value: 1 } });
    expect(sent.status).toBe(201);
    // The call lists them for the minute after its own (the minute may turn while it runs).
    const listedSoon = async (from: number) => {
      const { dueUsers } = server.service.context.database.collections;
      const minutes = await Promise.all([from + 1, from + 2].map((minute) => findDueUsers(dueUsers, minute)));
      return minutes.flatMap((minute) => minute.users.map((user) => user.userId));
    };
    const unchanged = minuteOf(now());
    expect((await server.rest("PUT", "/admin/v1/streaks/settings", { tenantId: "frosty", body: settings(null) })).status).toBeLessThan(300);
    expect(await listedSoon(unchanged)).not.toContain("skater");

    const switchedOn = minuteOf(now());
    const changed = await server.rest("PUT", "/admin/v1/streaks/settings", { tenantId: "frosty", body: settings({ amount: 1, intervalDays: 1 }) });
    expect(changed.status).toBeLessThan(300);
    expect(await listedSoon(switchedOn)).toContain("skater");
  });
});

describe("reads never wait for the scheduler", () => {
  it("an interval due before its trigger was made inactive, not paid yet, is still paid; none after", async () => {
    await created("/admin/v1/tenants", [{ customerId: "switched-off", name: "Switched off" }]);
    const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP" }], "switched-off");
    const [hourly] = await created(
      `/admin/v1/points/${xp}/triggers`,
      [{ type: "time", points: 5, timeUnit: "hours", timeInterval: 1, status: "active" }],
      "switched-off",
    );
    const dueAt = await identifyEarlyInMinute("switched-off", "owed");
    justAfter(dueAt); // due, and the scheduler has not visited
    const paused = await server.rest("PATCH", `/admin/v1/points/${xp}/triggers`, { tenantId: "switched-off", body: [{ id: hourly, status: "inactive" }] });
    expect(paused.body.issues).toEqual([]);
    expectUnvisited(dueAt);
    expect((await server.rest("GET", "/v1/users/owed/points/xp", { tenantId: "switched-off" })).body.total).toBe(5);
    offsetMs += 3 * 3_600_000;
    expect((await server.rest("GET", "/v1/users/owed/points/xp", { tenantId: "switched-off" })).body.total).toBe(5);
  });

  it("nor for its visit after a time trigger made active: an event's deduction is covered by the refill due before it", async () => {
    await created("/admin/v1/tenants", [{ customerId: "latecomer", name: "Latecomer" }]);
    const [uses] = await created("/admin/v1/metrics", [{ key: "uses", name: "Uses" }], "latecomer");
    const [energy] = await created("/admin/v1/points", [{ key: "energy", name: "Energy" }], "latecomer");
    const cost = { type: "metric", points: -3, metricId: uses, metricThreshold: 1, blockIfOutOfPoints: true, status: "active" };
    await created(`/admin/v1/points/${energy}/triggers`, [cost], "latecomer");
    await identifyEarlyInMinute("latecomer", "early-bird"); // no time trigger yet: no due time
    const tenantId = (await server.service.context.config.tenantByCustomerId("latecomer"))!.id;
    const createdAt = (await readStoredUser(server.service.context.database.collections.users, tenantId, "early-bird"))!.state.created;
    const firstRefill = new Date(createdAt.getTime() + 3_600_000);

    // Made active in the minute before the first refill: the scheduler's visit is listed for the
    // refill's minute, which it walks only once that minute has ended.
    offsetMs += firstRefill.getTime() - 30_000 - now().getTime();
    await created(`/admin/v1/points/${energy}/triggers`, [{ type: "time", points: 5, timeUnit: "hours", timeInterval: 1, status: "active" }], "latecomer");
    justAfter(firstRefill);
    const sent = await server.rest("POST", "/api/metrics/uses/event", { tenantId: "latecomer", body: { user: { id: "early-bird" }, value: 1 } });
    expectUnvisited(firstRefill);
    expect([sent.status, sent.body.points?.energy?.total]).toEqual([201, 2]);
  });

  it("a user's points read pays the time-triggered points due by now before answering", async () => {
    await created("/admin/v1/tenants", [{ customerId: "punctual", name: "Punctual" }]);
    const [energy] = await created("/admin/v1/points", [{ key: "energy", name: "Energy" }], "punctual");
    await created(`/admin/v1/points/${energy}/triggers`, [{ type: "time", points: 5, timeUnit: "hours", timeInterval: 1, status: "active" }], "punctual");
    const dueAt = await identifyEarlyInMinute("punctual", "early");
    expect((await server.rest("GET", "/v1/users/early/points/energy", { tenantId: "punctual" })).body.total).toBe(0);

    justAfter(dueAt);
    const read = await server.rest("GET", "/v1/users/early/points/energy", { tenantId: "punctual" });
    expectUnvisited(dueAt);
    expect(read.body.total).toBe(5);
    expect(read.body.awards).toHaveLength(1);
    // Paid once: the scheduler's visit of that minute finds nothing left to do.
    offsetMs += 60_000;
    await until(
      async () => ({ body: await findDueUsers(server.service.context.database.collections.dueUsers, minuteOf(dueAt)) }),
      (minute) => minute.users.length === 0,
    );
    expect((await server.rest("GET", "/v1/users/early/points/energy", { tenantId: "punctual" })).body.total).toBe(5);
  }, 120_000);

  it("an edit of a time trigger's points keeps the interval that came due before it owed (the scheduler had not visited yet)", async () => {
    await created("/admin/v1/tenants", [{ customerId: "edited", name: "Edited" }]);
    const [coins] = await created("/admin/v1/points", [{ key: "coins", name: "Coins" }], "edited");
    const [hourly] = await created(
      `/admin/v1/points/${coins}/triggers`,
      [{ type: "time", points: 10, timeUnit: "hours", timeInterval: 1, status: "active" }],
      "edited",
    );
    const dueAt = await identifyEarlyInMinute("edited", "owed");
    justAfter(dueAt);
    const edit = await server.rest("PATCH", `/admin/v1/points/${coins}/triggers`, { tenantId: "edited", body: [{ id: hourly, points: 20 }] });
    expect(edit.body.issues).toEqual([]);
    const read = await server.rest("GET", "/v1/users/owed/points/coins", { tenantId: "edited" });
    expectUnvisited(dueAt);
    expect(read.body.total).toBe(20); // the interval due before the edit, paid at the trigger's points now
  }, 120_000);
});

describe("calls that change a user never wait for the scheduler either", () => {
  it("an energy refill that came due covers the event's deduction; the refill is paid first, on its own", async () => {
    await created("/admin/v1/tenants", [{ customerId: "metered", name: "Metered" }]);
    const [uses] = await created("/admin/v1/metrics", [{ key: "uses", name: "Uses" }], "metered");
    const [energy] = await created("/admin/v1/points", [{ key: "energy", name: "Energy" }], "metered");
    await created(
      `/admin/v1/points/${energy}/triggers`,
      [
        { type: "time", points: 5, timeUnit: "hours", timeInterval: 1, status: "active" },
        { type: "metric", points: -5, metricId: uses, metricThreshold: 1, blockIfOutOfPoints: true, status: "active" },
      ],
      "metered",
    );
    const dueAt = await identifyEarlyInMinute("metered", "runner");
    const tooSoon = await server.rest("POST", "/api/metrics/uses/event", { tenantId: "metered", body: { user: { id: "runner" }, value: 1 } });
    expect(tooSoon.status).toBe(422); // no energy yet

    justAfter(dueAt);
    const used = await server.rest("POST", "/api/metrics/uses/event", { tenantId: "metered", body: { user: { id: "runner" }, value: 1 } });
    expectUnvisited(dueAt);
    expect(used.status).toBe(201);
    expect(used.body.points.energy).toMatchObject({ total: 0, added: -5 });
    const awards = (await server.rest("GET", "/v1/users/runner/points/energy", { tenantId: "metered" })).body.awards;
    expect(awards.map((award: { awarded: number; trigger: { type: string } }) => [award.trigger.type, award.awarded])).toEqual([
      ["metric", -5],
      ["time", 5],
    ]);
  }, 120_000);

  it("a preferences update, a streak admin call and a streak read pay what came due first too", async () => {
    await created("/admin/v1/tenants", [{ customerId: "busy", name: "Busy" }]);
    const [steps] = await created("/admin/v1/metrics", [{ key: "steps", name: "Steps" }], "busy");
    const streak = { frequency: "daily", metrics: [{ metricId: steps, threshold: 1 }], freezes: { initialGrant: 0, maxFreezes: 2, autoEarn: null } };
    expect((await server.rest("PUT", "/admin/v1/streaks/settings", { tenantId: "busy", body: streak })).status).toBeLessThan(300);
    const [coins] = await created("/admin/v1/points", [{ key: "coins", name: "Coins" }], "busy");
    await created(`/admin/v1/points/${coins}/triggers`, [{ type: "time", points: 3, timeUnit: "hours", timeInterval: 1, status: "active" }], "busy");
    const calls: Array<[string, () => Promise<{ status: number }>]> = [
      ["prefs", () => server.rest("PATCH", "/v1/users/prefs/preferences", { tenantId: "busy", body: { leaderboards: { optOut: true } } })],
      ["frozen", () => server.rest("POST", "/admin/v1/streaks/freezes", { tenantId: "busy", body: { freezes: [{ userId: "frozen" }] } })],
      ["reader", () => server.rest("GET", "/v1/users/reader/streak", { tenantId: "busy" })],
    ];
    const firstDue = await identifyEarlyInMinute("busy", "prefs");
    for (const [userId] of calls.slice(1)) expect((await server.rest("PUT", `/v1/users/${userId}`, { tenantId: "busy", body: {} })).status).toBe(200);
    const dueAt = await storedDueAt("busy", "reader");
    expect(minuteOf(dueAt)).toBe(minuteOf(firstDue));

    justAfter(dueAt);
    const tenantId = (await server.service.context.config.tenantByCustomerId("busy"))!.id;
    for (const [userId, call] of calls) {
      expect((await call()).status, userId).toBeLessThan(300);
      // Stored by the call itself (no points read in between, which would pay it too).
      const stored = await readStoredUser(server.service.context.database.collections.users, tenantId, userId);
      expect(stored!.state.points[coins!]?.total, userId).toBe(3);
    }
    expectUnvisited(dueAt);
  }, 120_000);

  it("an interval that came due is judged under the attributes it came due under, not those a user write brings", async () => {
    await created("/admin/v1/tenants", [{ customerId: "tiered", name: "Tiered" }]);
    const [plan] = await created("/admin/v1/attributes", [{ key: "plan", name: "Plan", type: "user" }], "tiered");
    const [coins] = await created("/admin/v1/points", [{ key: "coins", name: "Coins" }], "tiered");
    const proOnly = [{ attributeId: plan, attributeValue: "pro" }];
    await created(
      `/admin/v1/points/${coins}/triggers`,
      [{ type: "time", points: 10, timeUnit: "hours", timeInterval: 1, status: "active", userAttributes: proOnly }],
      "tiered",
    );
    const firstDue = await identifyEarlyInMinute("tiered", "downgraded", { attributes: { plan: "pro" } });
    expect((await server.rest("PUT", "/v1/users/upgraded", { tenantId: "tiered", body: { attributes: { plan: "free" } } })).status).toBe(200);
    const dueAt = await storedDueAt("tiered", "upgraded"); // both users' first intervals are due by then
    expect(minuteOf(dueAt)).toBe(minuteOf(firstDue));

    justAfter(dueAt);
    for (const [userId, value] of [
      ["downgraded", "free"],
      ["upgraded", "pro"],
    ]) {
      expect((await server.rest("PATCH", `/v1/users/${userId}`, { tenantId: "tiered", body: { attributes: { plan: value } } })).status).toBe(200);
    }
    expectUnvisited(dueAt);
    expect((await server.rest("GET", "/v1/users/downgraded/points/coins", { tenantId: "tiered" })).body.total).toBe(10);
    expect((await server.rest("GET", "/v1/users/upgraded/points/coins", { tenantId: "tiered" })).body.total).toBe(0);
  }, 120_000);
});

describe("time-triggered points are dated when they came due, not when paid", () => {
  const HOUR = 3_600_000;
  /** Moves the clock on to the next UTC `hour` o'clock (a second past it). */
  function toNextUtcHour(hour: number): void {
    const at = now();
    let target = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), hour, 0, 1);
    if (target <= at.getTime()) target += 24 * HOUR;
    offsetMs += target - at.getTime();
  }
  const utcDate = (at: Date) => at.toISOString().slice(0, 10);
  const rankings = async (customerId: string, key: string, run: string) =>
    (await server.rest("GET", `/v1/leaderboards/${key}?run=${run}`, { tenantId: customerId })).body.rankings;

  async function configure(customerId: string, trigger: object): Promise<void> {
    await created("/admin/v1/tenants", [{ customerId, name: customerId }]);
    const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP" }], customerId);
    await created(`/admin/v1/points/${xp}/triggers`, [{ type: "time", status: "active", ...trigger }], customerId);
    const board = {
      key: "daily-xp",
      name: "Daily XP",
      rankBy: "points",
      pointsSystemId: xp,
      status: "active",
      start: utcDate(new Date(now().getTime() - 2 * 24 * HOUR)), // days before: a zone west of UTC is a day behind
      runUnit: "day",
      runInterval: 1,
    };
    await created("/admin/v1/leaderboards", [board], customerId);
  }

  it("after ten hours without a visit across midnight, each day's intervals count in that day's run", async () => {
    toNextUtcHour(20);
    await configure("dated", { points: 1, timeUnit: "hours", timeInterval: 1 });
    const firstDue = await identifyEarlyInMinute("dated", "night-owl");
    const evening = utcDate(firstDue);

    offsetMs += 10 * HOUR; // 06:01 the next morning, no call of the user's meanwhile
    const points = await until(
      () => server.rest("GET", "/v1/users/night-owl/points/xp", { tenantId: "dated" }),
      (body) => body.total === 10,
      60_000,
    );
    // Due at 21, 22 and 23 o'clock, then at 0 to 6: an award each, dated when it came due (newest first).
    expect(points.awards.map((award: { awarded: number; date: string }) => [award.awarded, award.date])).toEqual(
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((hours) => [1, new Date(firstDue.getTime() + hours * HOUR).toISOString()]),
    );
    const morning = utcDate(new Date(firstDue.getTime() + 9 * HOUR));
    expect(await rankings("dated", "daily-xp", evening)).toEqual([{ userId: "night-owl", userName: null, rank: 1, value: 3 }]);
    expect(await rankings("dated", "daily-xp", morning)).toEqual([{ userId: "night-owl", userName: null, rank: 1, value: 7 }]);
  }, 120_000);

  it("after an outage, an interval counts on a leaderboard with a daily window only if it came due inside the window", async () => {
    toNextUtcHour(6);
    await configure("windowed", { points: 1, timeUnit: "hours", timeInterval: 1 });
    const xp = (await server.rest("GET", "/v1/points/xp", { tenantId: "windowed" })).body.id;
    const office = {
      key: "office-xp",
      name: "Office XP",
      rankBy: "points",
      pointsSystemId: xp,
      status: "active",
      start: utcDate(now()),
      startTime: "09:00",
      endTime: "17:00",
    };
    await created("/admin/v1/leaderboards", [office], "windowed");
    const firstDue = await identifyEarlyInMinute("windowed", "clerk"); // 07:01

    offsetMs += 13.5 * HOUR; // 19:31, no call of the user's meanwhile: 13 intervals, from 07:01 to 19:01
    await until(
      () => server.rest("GET", "/v1/users/clerk/points/xp", { tenantId: "windowed" }),
      (body) => body.total === 13,
      60_000,
    );
    const day = utcDate(firstDue);
    expect(await rankings("windowed", "daily-xp", day)).toEqual([{ userId: "clerk", userName: null, rank: 1, value: 13 }]);
    // 09:01 to 16:01: eight intervals inside the window.
    expect(await rankings("windowed", "office-xp", day)).toEqual([{ userId: "clerk", userName: null, rank: 1, value: 8 }]);
  }, 120_000);

  it("an interval due in the last minute of a UTC−12 day, paid by the scheduler just after 12:00 UTC, counts in its run", async () => {
    toNextUtcHour(10);
    offsetMs += 59 * 60_000 + 29_000; // 10:59:30
    await configure("baker", { points: 1, timeUnit: "hours", timeInterval: 1 });
    expect((await server.rest("PUT", "/v1/users/islander", { tenantId: "baker", body: { tz: "Etc/GMT+12" } })).status).toBe(200);
    const dueAt = await storedDueAt("baker", "islander"); // 11:59:3x UTC: 23:59:3x the day before in UTC−12
    justAfter(new Date(dueAt.getTime() + 60_000)); // the scheduler visits the minute once it has passed
    const points = await until(
      () => server.rest("GET", "/v1/users/islander/points/xp", { tenantId: "baker" }),
      (body) => body.total === 1,
      60_000,
    );
    expect(points.awards).toHaveLength(1);
    const localDay = utcDate(new Date(dueAt.getTime() - 12 * HOUR));
    expect(await rankings("baker", "daily-xp", localDay)).toEqual([{ userId: "islander", userName: null, rank: 1, value: 1 }]);
  }, 120_000);

  it("an import's backdated events come after the intervals due before them: an energy refill covers each day's use", async () => {
    await created("/admin/v1/tenants", [{ customerId: "imported", name: "Imported" }]);
    const [uses] = await created("/admin/v1/metrics", [{ key: "uses", name: "Uses" }], "imported");
    const [energy] = await created("/admin/v1/points", [{ key: "energy", name: "Energy", maxPoints: 50 }], "imported");
    await created(
      `/admin/v1/points/${energy}/triggers`,
      [
        { type: "user_creation", points: 50, status: "active" },
        { type: "time", points: 5, timeUnit: "hours", timeInterval: 1, status: "active" },
        { type: "metric", points: -20, metricId: uses, metricThreshold: 1, blockIfOutOfPoints: true, status: "active" },
      ],
      "imported",
    );
    // Six days on (the triggers active all along), one use a day for the last five days, sent now
    // with the admin key's timestamps.
    offsetMs += 6 * 24 * HOUR;
    const first = now().getTime() - 5 * 24 * HOUR;
    for (let day = 0; day < 5; day++) {
      const timestamp = new Date(first + day * 24 * HOUR).toISOString();
      const sent = await server.rest("POST", "/api/metrics/uses/event", { tenantId: "imported", body: { user: { id: "importer" }, value: 1, timestamp } });
      expect([day, sent.status]).toEqual([day, 201]);
      expect(sent.body.points.energy.total).toBe(30); // refilled to 50 since the day before, less 20
    }
  }, 120_000);

  it("the intervals from an import's last event to its arrival count in the runs of their moments, final ones too, as its events do", async () => {
    toNextUtcHour(14);
    await configure("import-runs", { points: 1, timeUnit: "hours", timeInterval: 1 });
    await created("/admin/v1/metrics", [{ key: "steps", name: "Steps" }], "import-runs");
    offsetMs += 2 * 24 * HOUR; // the trigger active since the day before yesterday
    const today = utcDate(now());
    const yesterday = utcDate(new Date(now().getTime() - 24 * HOUR));
    // One event imported from 02:30 yesterday: its run has been final since 12:00 today.
    const timestamp = `${yesterday}T02:30:00.000Z`;
    const sent = await server.rest("POST", "/api/metrics/steps/event", { tenantId: "import-runs", body: { user: { id: "migrant" }, value: 1, timestamp } });
    expect(sent.status).toBe(201);

    // The wait after the import ends: 03:30 to 23:30 yesterday, 00:30 to 13:30 today.
    offsetMs += 11 * 60_000;
    await until(
      () => server.rest("GET", "/v1/users/migrant/points/xp", { tenantId: "import-runs" }),
      (body) => body.total === 35,
      60_000,
    );
    expect(await rankings("import-runs", "daily-xp", yesterday)).toEqual([{ userId: "migrant", userName: null, rank: 1, value: 21 }]);
    expect(await rankings("import-runs", "daily-xp", today)).toEqual([{ userId: "migrant", userName: null, rank: 1, value: 14 }]);
  }, 120_000);

  it("an interval paid after its run became final (12:00 UTC the next day) counts in no run; its points do", async () => {
    toNextUtcHour(6);
    await configure("late", { points: 10, timeUnit: "days", timeInterval: 1 });
    const firstDue = await identifyEarlyInMinute("late", "sleeper");
    const secondDue = new Date(firstDue.getTime() + 24 * HOUR);
    // 14:00 after the second interval: its day's run is live, the first's is final (since 12:00).
    while (now() < secondDue) toNextUtcHour(14);
    const points = await until(
      () => server.rest("GET", "/v1/users/sleeper/points/xp", { tenantId: "late" }),
      (body) => body.total === 20,
      60_000,
    );
    expect(points.awards).toHaveLength(2);
    expect(await rankings("late", "daily-xp", utcDate(firstDue))).toEqual([]);
    expect(await rankings("late", "daily-xp", utcDate(secondDue))).toEqual([{ userId: "sleeper", userName: null, rank: 1, value: 10 }]);
  }, 120_000);
});
