import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DateTime } from "luxon";
import { LeaderboardRankBy, LeaderboardRunUnit, LeaderboardStatus } from "../../sdk/src/index.js";
import { CLIENT_PROTOCOLS, startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";

// Leaderboards end to end: the event response's `leaderboards` map and the three LeaderboardService
// reads (REST, Connect JSON, gRPC), over a real server and database. Every scenario ranks its own
// metric, so events of one scenario never touch another's leaderboards.

let server: TestServer;
const ids: Record<string, string | undefined> = {};

/** A calendar day (YYYY-MM-DD, UTC) relative to today, fixed when the file starts. */
const NOW = Date.now();
const day = (offset: number) => new Date(NOW + offset * 86_400_000).toISOString().slice(0, 10);
/** An instant on a UTC day relative to today, for admin timestamps (`time` HH:mm). */
const at = (offset: number, time: string) => `${day(offset)}T${time}:00.000Z`;

/** Creates through the Admin API and returns the new IDs in order. */
const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

/** Sends an event (REST) and returns its `leaderboards` map. */
async function event(metric: string, user: Record<string, unknown>, value: number, timestamp?: string, tenantId?: string): Promise<Record<string, any>> {
  const response = await server.rest("POST", `/api/metrics/${metric}/event`, { body: { user, value, ...(timestamp && { timestamp }) }, tenantId });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.leaderboards;
}

const rankings = async (path: string, tenantId?: string) => {
  const response = await server.rest("GET", path, { tenantId });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.rankings.map((r: { userId: string; rank: number; value: number }) => [r.userId, r.rank, r.value]);
};

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e) => ConnectError.from(e),
  );

/** The fields every REST leaderboard shape shares, for a metric leaderboard created with defaults. */
const metricFields = (key: string, name: string, metricKey: string, metricName: string) => ({
  id: ids[key],
  key,
  name,
  description: null,
  rankBy: "metric",
  breakdownAttribute: null,
  breakdownAttributes: [],
  metricKey,
  metricName,
  startTime: null,
  endTime: null,
  // The reference's participation filters: none on our leaderboards.
  userAttributes: [],
});

beforeAll(async () => {
  server = await startTestServer();
  [ids.country] = await created("/admin/v1/attributes", [{ key: "country", name: "Country", type: "user" }]);
  const metrics = ["answers", "other", "ties", "capped", "lessons", "runs", "daily", "window", "sales", "paged", "burst"];
  const metricIds = await created(
    "/admin/v1/metrics",
    metrics.map((key) => ({ key, name: key[0]!.toUpperCase() + key.slice(1) })),
  );
  metrics.forEach((key, i) => (ids[`m:${key}`] = metricIds[i]!));

  [ids.xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP" }]);
  await created(`/admin/v1/points/${ids.xp}/triggers`, [{ type: "metric", points: 10, metricId: ids["m:lessons"], metricThreshold: 1, status: "active" }]);
  [ids.helper] = await created("/admin/v1/achievements", [{ name: "Helper", key: "helper", trigger: "api", status: "active" }]);
  await created(`/admin/v1/points/${ids.xp}/triggers`, [{ type: "achievement", points: 25, achievementId: ids.helper, status: "active" }]);

  const board = (key: string, name: string, metric: string, extra: Record<string, unknown> = {}) => ({
    key,
    name,
    rankBy: "metric",
    metricId: ids[`m:${metric}`],
    status: "active",
    start: day(-30),
    ...extra,
  });
  const boards = [
    // Runs of 7 days from 10 days ago: the current run is day(-3)..day(3).
    board("weekly", "Weekly answers", "answers", { start: day(-10), runUnit: "day", runInterval: 7, maxParticipants: 2 }),
    board("ties", "Ties", "ties"),
    board("capped", "Top two", "capped", { maxParticipants: 2 }),
    { key: "xp-board", name: "XP board", rankBy: "points", pointsSystemId: ids.xp, status: "active", start: day(-30) },
    // Runs of 7 days from 20 days ago: day(-20)..day(-14), day(-13)..day(-7), day(-6)..day(0).
    board("runs", "Runs", "runs", { start: day(-20), runUnit: "day", runInterval: 7 }),
    board("daily", "Daily", "daily", { start: day(-5), runUnit: "day", runInterval: 1 }),
    board("window", "Office hours", "window", { startTime: "09:00", endTime: "17:00" }),
    board("by-country", "Sales by country", "sales", { breakdownAttributes: [ids.country], maxParticipants: 2 }),
    board("paged", "Paged", "paged"),
    board("burst", "Burst", "burst"),
  ];
  const boardIds = await created("/admin/v1/leaderboards", boards);
  boards.forEach((b, i) => (ids[b.key] = boardIds[i]!));
});
afterAll(() => server.close());

describe("the event response's leaderboards map", () => {
  it("carries the changed leaderboard with the current run's dates, ranks and threshold (REST)", async () => {
    const first = await event("answers", { id: "ann", name: "Ann" }, 5);
    expect(first).toEqual({
      weekly: {
        ...metricFields("weekly", "Weekly answers", "answers", "Answers"),
        pointsSystemKey: null,
        pointsSystemName: null,
        // The current run's first and last day, not the leaderboard's.
        start: day(-3),
        end: day(3),
        maxParticipants: 2,
        runUnit: "day",
        runInterval: 7,
        threshold: 0,
        rank: 1,
        previousRank: null,
        status: "active",
      },
    });
    // Full now: the value to beat is the lowest ranked value.
    const second = await event("answers", { id: "bea" }, 3);
    expect(second.weekly).toMatchObject({ rank: 2, previousRank: null, threshold: 3 });
    const again = await event("answers", { id: "bea" }, 4);
    expect(again.weekly).toMatchObject({ rank: 1, previousRank: 2, threshold: 5 });
  });

  it("leaves out leaderboards whose value did not change: another metric, or a zero value", async () => {
    expect(await event("other", { id: "ann" }, 7)).toEqual({});
    expect(await event("answers", { id: "ann" }, 0)).toEqual({});
    expect((await server.rest("GET", "/v1/leaderboards/weekly")).body.rankings.map((r: { userId: string }) => r.userId)).toEqual(["bea", "ann"]);
  });

  it("carries the same entry over Connect JSON, typed", async () => {
    const response = await server.client("connect-json").application.trackMetricEvent({ key: "answers", user: { id: "cal" }, value: 10 });
    const change = response.leaderboards.weekly!;
    expect(change).toMatchObject({
      id: ids.weekly,
      key: "weekly",
      name: "Weekly answers",
      rankBy: LeaderboardRankBy.METRIC,
      metricKey: "answers",
      metricName: "Answers",
      start: day(-3),
      end: day(3),
      maxParticipants: 2,
      runUnit: LeaderboardRunUnit.DAY,
      runInterval: 7,
      rank: 1,
      // cal (10) pushed ann (5) out: bea's 7 is the lowest ranked value.
      threshold: 7,
      breakdownAttributeValues: [],
    });
    expect(change.previousRank).toBeUndefined();
    expect(Object.keys(response.leaderboards)).toEqual(["weekly"]);
    expect((await server.rest("GET", "/v1/users/ann/leaderboards/weekly")).body).toMatchObject({ rank: null, value: 5 });
  });
});

describe("ties", () => {
  // bob takes part first, but reaches 5 last; zed reaches 5 before amy.
  beforeAll(async () => {
    expect((await event("ties", { id: "bob", name: "Bob" }, 3, at(-1, "10:00"))).ties).toMatchObject({ rank: 1, previousRank: null });
    expect((await event("ties", { id: "zed", name: "Zed" }, 5, at(-1, "10:01"))).ties).toMatchObject({ rank: 1, previousRank: null });
    expect((await event("ties", { id: "amy", name: "Amy" }, 5, at(-1, "10:02"))).ties).toMatchObject({ rank: 2, previousRank: null });
    expect((await event("ties", { id: "bob" }, 2, at(-1, "10:03"))).ties).toMatchObject({ rank: 3, previousRank: 3 });
  });

  it("rank whoever reached the value first higher, on every read and protocol", async () => {
    const order = [
      ["zed", 1, 5],
      ["amy", 2, 5],
      ["bob", 3, 5],
    ];
    expect(await rankings("/v1/leaderboards/ties")).toEqual(order);
    expect(await rankings("/v1/leaderboards/ties?offset=1&limit=1")).toEqual([order[1]]);
    expect(await rankings("/v1/leaderboards/ties?userId=amy")).toEqual(order.slice(1));
    for (const protocol of ["connect-json", "grpc"] as const) {
      const { leaderboard } = await server.client(protocol).leaderboardReads.getLeaderboardRankings({ key: "ties" });
      expect(
        leaderboard!.rankings.map((r) => [r.userId, r.rank, r.value]),
        protocol,
      ).toEqual(order);
    }
    for (const [userId, rank] of order) {
      expect((await server.rest("GET", `/v1/users/${userId}/leaderboards/ties`)).body, String(userId)).toMatchObject({ rank, value: 5 });
    }
  });
});

describe("maxParticipants", () => {
  it("keeps out a newcomer not beating the lowest ranked value; one beating it enters and pushes the last out", async () => {
    expect((await event("capped", { id: "p1" }, 10)).capped).toMatchObject({ rank: 1, previousRank: null, threshold: 0 });
    expect((await event("capped", { id: "p2" }, 8)).capped).toMatchObject({ rank: 2, previousRank: null, threshold: 8 });
    // Equal to the lowest ranked value: p2 reached it first.
    expect((await event("capped", { id: "p3" }, 8)).capped).toMatchObject({ rank: null, previousRank: null, threshold: 8 });
    expect((await event("capped", { id: "p4" }, 9)).capped).toMatchObject({ rank: 2, previousRank: null, threshold: 9 });

    expect(await rankings("/v1/leaderboards/capped")).toEqual([
      ["p1", 1, 10],
      ["p4", 2, 9],
    ]);
    expect((await server.rest("GET", "/v1/leaderboards/capped")).body.participants).toBe(2);
    expect((await server.rest("GET", "/v1/users/p2/leaderboards/capped")).body).toMatchObject({ rank: null, value: 8 });
    const p3 = await server.rest("GET", "/v1/users/p3/leaderboards/capped");
    expect(p3.body).toMatchObject({ rank: null, value: 8 });
    expect(p3.body.history).toEqual([{ date: day(0), timestamp: `${day(0)}T00:00:00.000Z`, previousRank: null, rank: null, previousValue: null, value: 8 }]);
    // A user who is not ranked has no page around them.
    expect(await rankings("/v1/leaderboards/capped?userId=p2")).toEqual([]);

    const p2 = await server.client("connect-json").leaderboardReads.getUserLeaderboard({ id: "p2", key: "capped" });
    expect([p2.leaderboard!.rank, p2.leaderboard!.value]).toEqual([undefined, 8]);
  });
});

describe("a points leaderboard", () => {
  it("ranks the points system's changes: in the event response and the rankings", async () => {
    const first = await event("lessons", { id: "px1" }, 3);
    expect(first).toEqual({
      "xp-board": {
        id: ids["xp-board"],
        key: "xp-board",
        name: "XP board",
        description: null,
        rankBy: "points",
        breakdownAttribute: null,
        breakdownAttributes: [],
        metricKey: null,
        metricName: null,
        pointsSystemKey: "xp",
        pointsSystemName: "XP",
        start: day(-30),
        end: null,
        startTime: null,
        endTime: null,
        maxParticipants: 1000,
        runUnit: null,
        runInterval: 0,
        userAttributes: [],
        threshold: 0,
        rank: 1,
        previousRank: null,
        status: "active",
      },
    });
    expect((await event("lessons", { id: "px2" }, 5))["xp-board"]).toMatchObject({ rank: 1, previousRank: null });
    expect((await event("lessons", { id: "px1" }, 3))["xp-board"]).toMatchObject({ rank: 1, previousRank: 2 });
    expect(await rankings("/v1/leaderboards/xp-board")).toEqual([
      ["px1", 1, 60],
      ["px2", 2, 50],
    ]);
    const { leaderboard } = await server.client("connect-json").leaderboardReads.getLeaderboardRankings({ key: "xp-board" });
    expect(leaderboard).toMatchObject({ rankBy: LeaderboardRankBy.POINTS, pointsSystemKey: "xp", pointsSystemName: "XP", participants: 2 });
    expect(leaderboard!.metricKey).toBeUndefined();
  });

  it("counts points from any cause: an achievement completed through the API", async () => {
    expect((await server.rest("POST", "/v1/achievements/helper/complete", { body: { user: { id: "px2" } } })).status).toBe(201);
    expect(await rankings("/v1/leaderboards/xp-board")).toEqual([
      ["px2", 1, 75],
      ["px1", 2, 60],
    ]);
    expect((await server.rest("GET", "/v1/users/px2/leaderboards/xp-board")).body).toMatchObject({
      rank: 1,
      value: 75,
      history: [{ date: day(0), previousRank: null, rank: 1, previousValue: null, value: 75 }],
    });
  });
});

describe("a streak leaderboard (own tenant, with streak settings)", () => {
  const tenantId = "streaky";
  beforeAll(async () => {
    await created("/admin/v1/tenants", [{ customerId: tenantId, name: "Streaky" }]);
    const [metric] = await created("/admin/v1/metrics", [{ key: "practice", name: "Practice" }], tenantId);
    const settings = await server.rest("PUT", "/admin/v1/streaks/settings", {
      tenantId,
      body: { frequency: "daily", metrics: [{ metricId: metric, threshold: 1 }] },
    });
    expect(settings.status).toBe(201);
    [ids.streaky] = await created(
      "/admin/v1/leaderboards",
      [{ key: "streaky", name: "Streaky", rankBy: "streak", status: "active", start: day(-10) }],
      tenantId,
    );
  });

  it("ranks current streak lengths: in the event response and the rankings", async () => {
    // `offset` null: now (a timestamp later today could be in the future).
    const practise = (user: string, offset: number | null) => event("practice", { id: user }, 1, offset === null ? undefined : at(offset, "12:00"), tenantId);
    const first = await practise("s1", -2);
    expect(first).toEqual({
      streaky: {
        id: ids.streaky,
        key: "streaky",
        name: "Streaky",
        description: null,
        rankBy: "streak",
        breakdownAttribute: null,
        breakdownAttributes: [],
        metricKey: null,
        metricName: null,
        pointsSystemKey: null,
        pointsSystemName: null,
        start: day(-10),
        end: null,
        startTime: null,
        endTime: null,
        maxParticipants: 1000,
        runUnit: null,
        runInterval: 0,
        userAttributes: [],
        threshold: 0,
        rank: 1,
        previousRank: null,
        status: "active",
      },
    });
    expect((await practise("s2", -1)).streaky).toMatchObject({ rank: 2, previousRank: null }); // 1, reached after s1
    expect((await practise("s1", -1)).streaky).toMatchObject({ rank: 1, previousRank: 1 }); // 2
    expect((await practise("s2", null)).streaky).toMatchObject({ rank: 2, previousRank: 2 }); // 2 as well, but later
    // A second event on the same day does not lengthen the streak: no change.
    expect(await practise("s2", null)).toEqual({});
    expect((await practise("s1", null)).streaky).toMatchObject({ rank: 1, previousRank: 1 }); // 3
    expect(await rankings("/v1/leaderboards/streaky", tenantId)).toEqual([
      ["s1", 1, 3],
      ["s2", 2, 2],
    ]);
    const { leaderboard } = await server.client("grpc", { tenantId }).leaderboardReads.getLeaderboardRankings({ key: "streaky" });
    expect(leaderboard!.rankings.map((r) => [r.userId, r.rank, r.value])).toEqual([
      ["s1", 1, 3],
      ["s2", 2, 2],
    ]);
  });

  it("a lost streak leaves the ranking", async () => {
    expect((await event("practice", { id: "s3" }, 1, at(-5, "12:00"), tenantId)).streaky).toMatchObject({ rank: 3, previousRank: null });
    // Days missed without a freeze: the streak is lost, and a value below the threshold starts none.
    expect((await event("practice", { id: "s3" }, 0, undefined, tenantId)).streaky).toMatchObject({ rank: null, previousRank: 3 });
    expect(await rankings("/v1/leaderboards/streaky", tenantId)).toEqual([
      ["s1", 1, 3],
      ["s2", 2, 2],
    ]);
    expect((await server.rest("GET", "/v1/users/s3/leaderboards/streaky", { tenantId })).body).toMatchObject({ rank: null, value: null });
  });

  it("a streak that lapses leaves the ranking at once: on a streak read and on the scheduler's visit; a restore brings it back", async () => {
    const ranked = async () => (await rankings("/v1/leaderboards/streaky", tenantId)).map(([userId, , value]: [string, number, number]) => [userId, value]);
    // Two-day streaks that ended days ago: ranked with 2 since their last event, lapsed since.
    for (const user of ["s5", "s6"]) {
      await event("practice", { id: user }, 1, at(-6, "12:00"), tenantId);
      await event("practice", { id: user }, 1, at(-5, "12:00"), tenantId);
    }
    expect(await ranked()).toEqual(
      expect.arrayContaining([
        ["s5", 2],
        ["s6", 2],
      ]),
    );

    // The streak read catches up (length 0) and the board follows in the same change.
    const read = await server.rest("GET", "/v1/users/s5/streak", { tenantId });
    expect(read.body).toMatchObject({ length: 0 });
    expect((await ranked()).map(([userId]: [string]) => userId)).not.toContain("s5");
    expect((await server.rest("GET", "/v1/users/s5/leaderboards/streaky", { tenantId })).body).toMatchObject({ rank: null, value: null });

    // The scheduler's visit, once the wait after backdated events is over (BACKFILL_QUIET_MS).
    const { runDueWork } = await import("../../src/workers/due-work.js");
    const { BACKFILL_QUIET_MS } = await import("../../src/engine/domain/event.js");
    const context = server.service.context;
    const tenant = (await context.config.tenantByCustomerId(tenantId))!;
    await runDueWork({ ...context, now: () => new Date(context.now().getTime() + BACKFILL_QUIET_MS + 1000) }, tenant.id, "s6");
    expect((await ranked()).map(([userId]: [string]) => userId)).not.toContain("s6");

    // An admin restore brings the lost length back, and the board with it.
    const restored = await server.rest("POST", "/admin/v1/streaks/restore", { tenantId, body: { users: [{ id: "s5" }] } });
    expect(restored.body).toEqual({ restoredUsers: ["s5"], issues: [] });
    expect(await ranked()).toContainEqual(["s5", 2]);
  });
});

describe("runs", () => {
  beforeAll(async () => {
    // The run of day(-13)..day(-7).
    expect((await event("runs", { id: "r2", name: "Rita" }, 10, at(-12, "12:00"))).runs).toMatchObject({ start: day(-13), end: day(-7), rank: 1 });
    expect((await event("runs", { id: "r1", name: "Rolf" }, 4, at(-10, "12:00"))).runs).toMatchObject({
      start: day(-13),
      end: day(-7),
      rank: 2,
      previousRank: null,
    });
    expect((await event("runs", { id: "r1" }, 2, at(-10, "13:00"))).runs).toMatchObject({ rank: 2, previousRank: 2 });
    expect((await event("runs", { id: "r1" }, 5, at(-9, "12:00"))).runs).toMatchObject({ rank: 1, previousRank: 2 });
    // The current run, day(-6)..day(0): everyone starts again at 0.
    expect((await event("runs", { id: "r1" }, 3)).runs).toMatchObject({ start: day(-6), end: day(0), rank: 1, previousRank: null, threshold: 0 });
  });

  it("rankings: the current run by default, an earlier one by any of its days", async () => {
    const current = await server.rest("GET", "/v1/leaderboards/runs");
    expect(current.body).toMatchObject({ runStart: day(-6), runEnd: day(0), start: day(-20), end: null, status: "active", participants: 1 });
    expect(current.body.rankings).toEqual([{ userId: "r1", userName: "Rolf", rank: 1, value: 3 }]);
    for (const run of [day(-13), day(-10), day(-7)]) {
      const earlier = await server.rest("GET", `/v1/leaderboards/runs?run=${run}`);
      expect(earlier.body, run).toMatchObject({ runStart: day(-13), runEnd: day(-7), participants: 2 });
      expect(earlier.body.rankings, run).toEqual([
        { userId: "r1", userName: "Rolf", rank: 1, value: 11 },
        { userId: "r2", userName: "Rita", rank: 2, value: 10 },
      ]);
    }
    expect(await rankings(`/v1/leaderboards/runs?run=${day(-20)}`)).toEqual([]);
    const { leaderboard } = await server.client("connect-json").leaderboardReads.getLeaderboardRankings({ key: "runs", run: day(-8) });
    expect([leaderboard!.runStart, leaderboard!.runEnd, leaderboard!.rankings.map((r) => r.userId)]).toEqual([day(-13), day(-7), ["r1", "r2"]]);
  });

  it("a user's read: that run's rank, value and daily history (same-day changes merged), numEvents limiting it", async () => {
    const earlier = await server.rest("GET", `/v1/users/r1/leaderboards/runs?run=${day(-10)}`);
    expect(earlier).toEqual({
      status: 200,
      body: {
        ...metricFields("runs", "Runs", "runs", "Runs"),
        pointsSystemKey: null,
        pointsSystemName: null,
        start: day(-20),
        end: null,
        maxParticipants: 1000,
        runUnit: "day",
        runInterval: 7,
        runStart: day(-13),
        runEnd: day(-7),
        rank: 1,
        value: 11,
        history: [
          { date: day(-10), timestamp: `${day(-10)}T00:00:00.000Z`, previousRank: null, rank: 2, previousValue: null, value: 6 },
          { date: day(-9), timestamp: `${day(-9)}T00:00:00.000Z`, previousRank: 2, rank: 1, previousValue: 6, value: 11 },
        ],
      },
    });
    const limited = await server.rest("GET", `/v1/users/r1/leaderboards/runs?run=${day(-13)}&numEvents=1`);
    expect(limited.body.history.map((h: { date: string }) => h.date)).toEqual([day(-9)]);
    expect((await server.rest("GET", `/v1/users/r1/leaderboards/runs?run=${day(-13)}&numEvents=0`)).body).toMatchObject({ rank: 1, value: 11, history: [] });
    expect((await server.rest("GET", "/v1/users/r1/leaderboards/runs?numEvents=101")).status).toBe(400);
    // Ranks moved by others are live, not history: r2 lost rank 1 to r1.
    const r2 = await server.rest("GET", `/v1/users/r2/leaderboards/runs?run=${day(-12)}`);
    expect(r2.body).toMatchObject({ rank: 2, value: 10, history: [{ date: day(-12), previousRank: null, rank: 1, previousValue: null, value: 10 }] });

    const current = await server.rest("GET", "/v1/users/r1/leaderboards/runs");
    expect(current.body).toMatchObject({ runStart: day(-6), runEnd: day(0), rank: 1, value: 3 });
    expect(current.body.history).toEqual([{ date: day(0), timestamp: `${day(0)}T00:00:00.000Z`, previousRank: null, rank: 1, previousValue: null, value: 3 }]);
    // r2 took no part in the current run.
    expect((await server.rest("GET", "/v1/users/r2/leaderboards/runs")).body).toMatchObject({ rank: null, value: null, history: [] });

    const overConnect = await server.client("connect-json").leaderboardReads.getUserLeaderboard({ id: "r1", key: "runs", run: day(-7), numEvents: 5 });
    expect(overConnect.leaderboard).toMatchObject({ runStart: day(-13), runEnd: day(-7), rank: 1, value: 11, runUnit: LeaderboardRunUnit.DAY, runInterval: 7 });
    expect(overConnect.leaderboard!.history.map((h) => [h.date, h.previousRank, h.rank, h.previousValue, h.value])).toEqual([
      [day(-10), undefined, 2, undefined, 6],
      [day(-9), 2, 1, 6, 11],
    ]);
  });

  it("refuses a run outside the leaderboard's dates with 400 (REST) and InvalidArgument (Connect)", async () => {
    for (const path of [`/v1/leaderboards/runs?run=${day(-21)}`, `/v1/users/r1/leaderboards/runs?run=${day(-21)}`]) {
      const response = await server.rest("GET", path);
      expect(response.status, path).toBe(400);
      expect(response.body, path).toEqual({ error: expect.stringContaining(day(-21)) });
    }
    expect((await server.rest("GET", "/v1/leaderboards/runs?run=yesterday")).status).toBe(400);
    // Days that do not exist, which a perpetual run would otherwise hold.
    for (const path of ["/v1/leaderboards/runs?run=2025-02-30", "/v1/users/r1/leaderboards/runs?run=9999-99-99"]) {
      expect(await server.rest("GET", path), path).toEqual({ status: 400, body: { error: expect.stringMatching(/^run must be a date \(YYYY-MM-DD\)/) } });
    }
    const error = await errorOf(server.client("connect-json").leaderboardReads.getLeaderboardRankings({ key: "runs", run: day(-21) }));
    expect(error?.code).toBe(Code.InvalidArgument);
  });
});

describe("a rank history longer than the user document keeps (own tenant)", () => {
  const tenantId = "long-history";
  it("reads its older days from their pages: numEvents up to 100, oldest first, the same on every protocol", async () => {
    await created("/admin/v1/tenants", [{ customerId: tenantId, name: "Long history" }]);
    const [metricId] = await created("/admin/v1/metrics", [{ key: "visits", name: "Visits" }], tenantId);
    await created("/admin/v1/leaderboards", [{ key: "long", name: "Long", rankBy: "metric", metricId, status: "active", start: day(-60) }], tenantId);
    // One change a day for 50 days (the document keeps at most 32 items; the rest go to pages).
    for (let n = 55; n >= 6; n--) await event("visits", { id: "hist" }, 1, at(-n, "12:00"), tenantId);
    const dates = (body: { history: Array<{ date: string }> }) => body.history.map((h) => h.date);
    const all = Array.from({ length: 50 }, (_, i) => day(-55 + i));
    const read = async (numEvents: number) => (await server.rest("GET", `/v1/users/hist/leaderboards/long?numEvents=${numEvents}`, { tenantId })).body;
    expect(dates(await read(100))).toEqual(all);
    expect((await read(100)).history.at(-1)).toMatchObject({ rank: 1, previousValue: 49, value: 50 });
    expect(dates(await read(40))).toEqual(all.slice(-40));
    expect(dates(await read(3))).toEqual(all.slice(-3));
    const overConnect = await server.client("connect-json", { tenantId }).leaderboardReads.getUserLeaderboard({ id: "hist", key: "long", numEvents: 45 });
    expect(overConnect.leaderboard!.history.map((h) => h.date)).toEqual(all.slice(-45));
  }, 120_000);
});

describe("time zones", () => {
  it("the same instant near midnight UTC falls in different runs of a daily leaderboard for users in Kiritimati and UTC", async () => {
    const instant = at(-1, "23:30"); // day(0) 13:30 in Pacific/Kiritimati (UTC+14)
    const kiri = await event("daily", { id: "kiri", tz: "Pacific/Kiritimati" }, 5, instant);
    expect(kiri.daily).toMatchObject({ start: day(0), end: day(0), rank: 1, previousRank: null });
    const utc = await event("daily", { id: "utc", tz: "UTC" }, 7, instant);
    expect(utc.daily).toMatchObject({ start: day(-1), end: day(-1), rank: 1, previousRank: null });

    expect(await rankings(`/v1/leaderboards/daily?run=${day(-1)}`)).toEqual([["utc", 1, 7]]);
    expect(await rankings(`/v1/leaderboards/daily?run=${day(0)}`)).toEqual([["kiri", 1, 5]]);
    expect(await rankings("/v1/leaderboards/daily")).toEqual([["kiri", 1, 5]]);
    const kiriRead = await server.rest("GET", `/v1/users/kiri/leaderboards/daily?run=${day(0)}`);
    expect(kiriRead.body).toMatchObject({ runStart: day(0), runEnd: day(0), rank: 1, value: 5, history: [{ date: day(0), rank: 1, value: 5 }] });
    expect((await server.rest("GET", `/v1/users/kiri/leaderboards/daily?run=${day(-1)}`)).body).toMatchObject({ rank: null, value: null, history: [] });
  });

  it("a zone moved west across a run boundary adds to the earlier run's value; the later run keeps its own", async () => {
    // Kiritimati (UTC+14) on day(-3) and day(-2), then Pago Pago (UTC−11), a day behind, on day(-3) and day(-2) again.
    expect((await event("daily", { id: "west", tz: "Pacific/Kiritimati" }, 5, at(-4, "12:00"))).daily).toMatchObject({ start: day(-3), rank: 1 });
    expect((await event("daily", { id: "west" }, 1, at(-3, "12:00"))).daily).toMatchObject({ start: day(-2), rank: 1 });
    const back = await event("daily", { id: "west", tz: "Pacific/Pago_Pago" }, 2, at(-3, "13:00")); // day(-3) 02:00 there
    expect(back.daily).toMatchObject({ start: day(-3), end: day(-3), rank: 1, previousRank: 1 });
    expect((await event("daily", { id: "west" }, 3, at(-2, "12:00"))).daily).toMatchObject({ start: day(-2), rank: 1, previousRank: 1 });

    expect(await rankings(`/v1/leaderboards/daily?run=${day(-3)}`)).toEqual([["west", 1, 7]]);
    expect(await rankings(`/v1/leaderboards/daily?run=${day(-2)}`)).toEqual([["west", 1, 4]]);
    const earlier = await server.rest("GET", `/v1/users/west/leaderboards/daily?run=${day(-3)}`);
    expect(earlier.body).toMatchObject({ rank: 1, value: 7, history: [{ date: day(-3), previousRank: null, rank: 1, previousValue: null, value: 7 }] });
    const later = await server.rest("GET", `/v1/users/west/leaderboards/daily?run=${day(-2)}`);
    expect(later.body).toMatchObject({ rank: 1, value: 4, history: [{ date: day(-2), previousRank: null, rank: 1, previousValue: null, value: 4 }] });
  });

  it("a user's own read without a run shows the run holding today in their zone (the one their events count toward)", async () => {
    // A zone whose date differs from UTC's now: Kiritimati (UTC+14) from 10:00 UTC, Pago Pago (UTC−11) before 11:00.
    const tz = new Date().getUTCHours() >= 10 ? "Pacific/Kiritimati" : "Pacific/Pago_Pago";
    const localDay = DateTime.now().setZone(tz).toISODate(); // now, not when the file started: a run may cross midnight
    expect((await event("daily", { id: "local-today", tz }, 100)).daily).toMatchObject({ start: localDay, rank: 1 }); // above the others there
    const own = await server.rest("GET", "/v1/users/local-today/leaderboards/daily");
    expect(own.body).toMatchObject({ runStart: localDay, runEnd: localDay, rank: 1, value: 100 });
  });

  it("the start date is read on the user's calendar: Kiritimati takes part 14 hours before UTC does", async () => {
    const instant = at(-6, "11:00"); // day(-5) 01:00 in Kiritimati; the leaderboard starts on day(-5)
    expect(await event("daily", { id: "early-utc" }, 3, instant)).toEqual({});
    expect((await event("daily", { id: "early-kiri", tz: "Pacific/Kiritimati" }, 3, instant)).daily).toMatchObject({ start: day(-5), end: day(-5), rank: 1 });
    // Pacific/Pago_Pago (UTC−11) is still on day(-6) at 05:00 UTC on day(-5): before the start there.
    expect(await event("daily", { id: "late-pago", tz: "Pacific/Pago_Pago" }, 3, at(-5, "05:00"))).toEqual({});
    expect(await rankings(`/v1/leaderboards/daily?run=${day(-5)}`)).toEqual([["early-kiri", 1, 3]]);
  });
});

describe("the daily window", () => {
  it("counts only events inside it on the user's clock (start included, end excluded)", async () => {
    const user = { id: "bogota", tz: "America/Bogota" }; // UTC−5, no daylight saving time
    expect(await event("window", user, 100, at(-2, "10:00"))).toEqual({}); // 05:00 there
    expect((await event("window", user, 5, at(-2, "20:00"))).window).toMatchObject({ startTime: "09:00", endTime: "17:00", rank: 1, previousRank: null }); // 15:00
    expect(await event("window", user, 100, at(-2, "22:00"))).toEqual({}); // 17:00: the end is excluded
    expect((await event("window", user, 1, at(-1, "14:00"))).window).toMatchObject({ rank: 1, previousRank: 1 }); // 09:00: the start is included
    expect(await rankings("/v1/leaderboards/window")).toEqual([["bogota", 1, 6]]);
    // 10:00 UTC is inside the window on a UTC clock.
    expect((await event("window", { id: "london", tz: "UTC" }, 2, at(-1, "10:00"))).window).toMatchObject({ rank: 2 });
    expect(await rankings("/v1/leaderboards/window")).toEqual([
      ["bogota", 1, 6],
      ["london", 2, 2],
    ]);
  });
});

describe("breakdowns", () => {
  const nz = [{ key: "country", value: "NZ" }];
  beforeAll(async () => {
    const sell = (id: string, country: string | null, value: number) =>
      event("sales", { id, name: id.toUpperCase(), ...(country && { attributes: { country } }) }, value);
    const first = await sell("nz1", "NZ", 5);
    expect(first["by-country"]).toMatchObject({
      breakdownAttribute: "country",
      breakdownAttributes: ["country"],
      breakdownAttributeValues: nz,
      rank: 1,
      threshold: 0,
    });
    expect((await sell("nz2", "NZ", 3))["by-country"]).toMatchObject({ rank: 2, threshold: 3 });
    // The AU group has room of its own.
    expect((await sell("au1", "AU", 1))["by-country"]).toMatchObject({
      rank: 1,
      threshold: 0,
      breakdownAttributeValues: [{ key: "country", value: "AU" }],
      breakdownAttributeValue: "AU",
    });
    expect((await sell("nz3", "NZ", 4))["by-country"]).toMatchObject({ rank: 2, previousRank: null, threshold: 4 });
    // Without a country a user takes no part.
    expect(await sell("none", null, 50)).toEqual({});
  });

  it("rank per group: userAttributes names the group, maxParticipants applies per group", async () => {
    const response = await server.rest("GET", "/v1/leaderboards/by-country?userAttributes=country:NZ");
    expect(response.body).toMatchObject({
      breakdownAttribute: "country",
      breakdownAttributes: ["country"],
      breakdownAttributeValues: nz,
      participants: 2,
      maxParticipants: 2,
    });
    expect(response.body.rankings).toEqual([
      { userId: "nz1", userName: "NZ1", rank: 1, value: 5 },
      { userId: "nz3", userName: "NZ3", rank: 2, value: 4 },
    ]);
    expect(await rankings("/v1/leaderboards/by-country?userAttributes=country:AU")).toEqual([["au1", 1, 1]]);
    expect(await rankings("/v1/leaderboards/by-country?userAttributes=country:FR")).toEqual([]);
    expect((await server.rest("GET", "/v1/users/nz2/leaderboards/by-country")).body).toMatchObject({ rank: null, value: 3, breakdownAttributeValues: nz });
    expect((await server.rest("GET", "/v1/users/au1/leaderboards/by-country")).body).toMatchObject({
      rank: 1,
      value: 1,
      breakdownAttributeValues: [{ key: "country", value: "AU" }],
    });
    const { leaderboard } = await server.client("connect-json").leaderboardReads.getLeaderboardRankings({ key: "by-country", userAttributes: "country:NZ" });
    expect([leaderboard!.breakdownAttributeValues.map(({ key, value }) => ({ key, value })), leaderboard!.rankings.map((r) => r.userId)]).toEqual([
      nz,
      ["nz1", "nz3"],
    ]);
  });

  it("a user without a breakdown value has no rank or value", async () => {
    expect((await server.rest("GET", "/v1/users/none/leaderboards/by-country")).body).toMatchObject({ rank: null, value: null, history: [] });
  });

  it("userId alone reads that user's group, from their position", async () => {
    const response = await server.rest("GET", "/v1/leaderboards/by-country?userId=nz3");
    expect(response.body).toMatchObject({ breakdownAttributeValues: nz, participants: 2 });
    expect(response.body.rankings.map((r: { userId: string }) => r.userId)).toEqual(["nz3"]);
    expect(await rankings("/v1/leaderboards/by-country?userId=au1")).toEqual([["au1", 1, 1]]);
    expect(await rankings("/v1/leaderboards/by-country?userId=none")).toEqual([]);
  });

  it("refuses a read without the group or naming an attribute it is not broken down by, with 400", async () => {
    for (const query of ["", "?userAttributes=city:NZ", "?userAttributes=NZ"]) {
      const response = await server.rest("GET", `/v1/leaderboards/by-country${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body, query).toEqual({ error: expect.any(String) });
    }
    expect((await server.rest("GET", "/v1/leaderboards/paged?userAttributes=country:NZ")).status).toBe(400);
    const error = await errorOf(server.client("connect-json").leaderboardReads.getLeaderboardRankings({ key: "by-country" }));
    expect(error?.code).toBe(Code.InvalidArgument);
  });

  it("a user whose group changes moves to the new group with their run value; the old group closes up", async () => {
    const moved = await event("sales", { id: "nz1", attributes: { country: "AU" } }, 1);
    expect(moved["by-country"]).toMatchObject({ breakdownAttributeValues: [{ key: "country", value: "AU" }], rank: 1, threshold: 1 });
    expect(await rankings("/v1/leaderboards/by-country?userAttributes=country:AU")).toEqual([
      ["nz1", 1, 6],
      ["au1", 2, 1],
    ]);
    expect(await rankings("/v1/leaderboards/by-country?userAttributes=country:NZ")).toEqual([
      ["nz3", 1, 4],
      ["nz2", 2, 3],
    ]);
    expect((await server.rest("GET", "/v1/users/nz1/leaderboards/by-country")).body).toMatchObject({
      rank: 1,
      value: 6,
      breakdownAttributeValues: [{ key: "country", value: "AU" }],
    });
    expect((await server.rest("GET", "/v1/users/nz2/leaderboards/by-country")).body).toMatchObject({ rank: 2, value: 3 });
  });

  it("a group change on a later day: the event response and history carry the rank and value before the move", async () => {
    // g1 reached 5 on day(-2), before nz3 (4, now) and nz2: first in NZ.
    expect((await event("sales", { id: "g1", attributes: { country: "NZ" } }, 5, at(-2, "12:00")))["by-country"]).toMatchObject({
      rank: 1,
      previousRank: null,
    });
    const moved = await event("sales", { id: "g1", attributes: { country: "AU" } }, 10, at(-1, "12:00"));
    // Ranked 1st (in NZ) before the event, 1st (in AU) after it.
    expect(moved["by-country"]).toMatchObject({ breakdownAttributeValues: [{ key: "country", value: "AU" }], rank: 1, previousRank: 1 });
    expect((await server.rest("GET", "/v1/users/g1/leaderboards/by-country")).body).toMatchObject({
      rank: 1,
      value: 15,
      history: [
        { date: day(-2), previousRank: null, rank: 1, previousValue: null, value: 5 },
        { date: day(-1), previousRank: 1, rank: 1, previousValue: 5, value: 15 },
      ],
    });
  });
});

describe("paging", () => {
  beforeAll(async () => {
    for (let i = 1; i <= 6; i++) {
      // u6 has no name.
      await event("paged", { id: `u${i}`, ...(i < 6 && { name: `User ${i}` }) }, 70 - i * 10, at(-1, `10:0${i}`));
    }
  });

  it("offset and limit page the rankings from the top; userName is the user's name", async () => {
    const page = await server.rest("GET", "/v1/leaderboards/paged?offset=2&limit=2");
    expect(page.body).toMatchObject({ participants: 6, status: "active" });
    expect(page.body.rankings).toEqual([
      { userId: "u3", userName: "User 3", rank: 3, value: 40 },
      { userId: "u4", userName: "User 4", rank: 4, value: 30 },
    ]);
    expect((await server.rest("GET", "/v1/leaderboards/paged?offset=5")).body.rankings).toEqual([{ userId: "u6", userName: null, rank: 6, value: 10 }]);
    expect((await rankings("/v1/leaderboards/paged")).map((r: unknown[]) => r[0])).toEqual(["u1", "u2", "u3", "u4", "u5", "u6"]);
    expect(await rankings("/v1/leaderboards/paged?limit=0")).toEqual([]);
    expect(await rankings("/v1/leaderboards/paged?offset=6")).toEqual([]);
    const { leaderboard } = await server.client("connect-json").leaderboardReads.getLeaderboardRankings({ key: "paged", offset: 4, limit: 5 });
    expect(leaderboard!.rankings.map((r) => [r.userId, r.userName, r.rank])).toEqual([
      ["u5", "User 5", 5],
      ["u6", undefined, 6],
    ]);
  });

  it("userId makes the offset relative to the user's position; a user not ranked gets an empty page", async () => {
    expect(await rankings("/v1/leaderboards/paged?userId=u3&limit=2")).toEqual([
      ["u3", 3, 40],
      ["u4", 4, 30],
    ]);
    expect(await rankings("/v1/leaderboards/paged?userId=u3&offset=1&limit=2")).toEqual([
      ["u4", 4, 30],
      ["u5", 5, 20],
    ]);
    expect(await rankings("/v1/leaderboards/paged?userId=nobody")).toEqual([]);
    expect(await rankings("/v1/leaderboards/paged?userId=ann")).toEqual([]); // a user with no value here
  });

  it("participants counts the run's ranked participants also when the page around an unranked user is empty", async () => {
    expect((await server.rest("GET", "/v1/leaderboards/paged?userId=u2")).body.participants).toBe(6);
    expect((await server.rest("GET", "/v1/leaderboards/paged?userId=nobody")).body).toMatchObject({ rankings: [], participants: 6 });
    expect((await server.rest("GET", "/v1/leaderboards/capped?userId=p2")).body).toMatchObject({ rankings: [], participants: 2 });
  });

  it("an unknown leaderboard is not found", async () => {
    expect(await server.rest("GET", "/v1/leaderboards/nope")).toEqual({ status: 404, body: { error: 'Leaderboard with key "nope" not found' } });
    expect((await server.rest("GET", "/v1/users/u1/leaderboards/nope")).status).toBe(404);
    const error = await errorOf(server.client("grpc").leaderboardReads.getLeaderboardRankings({ key: "nope" }));
    expect(error?.code).toBe(Code.NotFound);
  });
});

describe("concurrent events", () => {
  it("rank every participant exactly once", async () => {
    const changes = await Promise.all(Array.from({ length: 12 }, (_, i) => event("burst", { id: `b${String(i).padStart(2, "0")}` }, i + 1)));
    expect(changes.every((c) => typeof c.burst.rank === "number")).toBe(true);
    const response = await server.rest("GET", "/v1/leaderboards/burst?limit=20");
    expect(response.body.participants).toBe(12);
    expect(response.body.rankings.map((r: { userId: string; rank: number; value: number }) => [r.userId, r.rank, r.value])).toEqual(
      Array.from({ length: 12 }, (_, k) => [`b${String(11 - k).padStart(2, "0")}`, k + 1, 12 - k]),
    );
  });
});

describe("a user's standing", () => {
  it("is not found for an unknown user", async () => {
    expect(await server.rest("GET", "/v1/users/ghost/leaderboards/paged")).toEqual({ status: 404, body: { error: 'User "ghost" not found' } });
    const error = await errorOf(server.client("connect-json").leaderboardReads.getUserLeaderboard({ id: "ghost", key: "paged" }));
    expect(error?.code).toBe(Code.NotFound);
  });

  it("is readable with the user's own application key only; rankings are open to every key", async () => {
    const key = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "u1" }] })).body.created[0].key;
    expect((await server.rest("GET", "/v1/users/u1/leaderboards/paged", { apiKey: key })).body).toMatchObject({ rank: 1, value: 60 });
    expect((await server.rest("GET", "/v1/users/u2/leaderboards/paged", { apiKey: key })).status).toBe(403);
    const error = await errorOf(server.client("connect-json", { apiKey: key }).leaderboardReads.getUserLeaderboard({ id: "u2", key: "paged" }));
    expect(error?.code).toBe(Code.PermissionDenied);
    expect((await server.rest("GET", "/v1/leaderboards/paged?limit=1", { apiKey: key })).body.rankings).toEqual([
      { userId: "u1", userName: "User 1", rank: 1, value: 60 },
    ]);
    expect((await server.rest("GET", "/v1/leaderboards", { apiKey: key })).status).toBe(200);
  });
});

describe("listing (own tenant)", () => {
  const tenantId = "listing";
  const listed: Record<string, string> = {};
  beforeAll(async () => {
    await created("/admin/v1/tenants", [{ customerId: tenantId, name: "Listing" }]);
    const [metric] = await created("/admin/v1/metrics", [{ key: "steps", name: "Steps" }], tenantId);
    const boards = [
      // Runs of 7 days from day(-3); the first, day(-3)..day(3), is cut short at the end, day(2).
      { key: "live", name: "Live", rankBy: "metric", metricId: metric, status: "active", start: day(-3), end: day(2), runUnit: "day", runInterval: 7 },
      { key: "off", name: "Off", rankBy: "metric", metricId: metric, status: "inactive", start: day(-3) },
      { key: "soon", name: "Soon", rankBy: "metric", metricId: metric, status: "scheduled", start: day(5), description: "Starts soon" },
      { key: "done", name: "Done", rankBy: "metric", metricId: metric, status: "finished", start: day(-20), end: day(-10) },
    ];
    (await created("/admin/v1/leaderboards", boards, tenantId)).forEach((id, i) => (listed[boards[i]!.key] = id));
  });

  it("lists scheduled and active leaderboards, finished ones on request, never inactive ones", async () => {
    const common = {
      rankBy: "metric",
      breakdownAttribute: null,
      breakdownAttributes: [],
      metricKey: "steps",
      metricName: "Steps",
      pointsSystemKey: null,
      pointsSystemName: null,
      startTime: null,
      endTime: null,
      maxParticipants: 1000,
      userAttributes: [],
    };
    const live = {
      id: listed.live,
      key: "live",
      name: "Live",
      description: null,
      ...common,
      start: day(-3),
      end: day(2),
      runUnit: "day",
      runInterval: 7,
      status: "active",
    };
    const soon = {
      id: listed.soon,
      key: "soon",
      name: "Soon",
      description: "Starts soon",
      ...common,
      start: day(5),
      end: null,
      runUnit: null,
      runInterval: 0,
      status: "scheduled",
    };
    const done = {
      id: listed.done,
      key: "done",
      name: "Done",
      description: null,
      ...common,
      start: day(-20),
      end: day(-10),
      runUnit: null,
      runInterval: 0,
      status: "finished",
    };
    expect(await server.rest("GET", "/v1/leaderboards", { tenantId })).toEqual({ status: 200, body: [live, soon] });
    expect(await server.rest("GET", "/v1/leaderboards?includeFinished=true", { tenantId })).toEqual({ status: 200, body: [live, soon, done] });
    const overConnect = await server.client("connect-json", { tenantId }).leaderboardReads.listPublicLeaderboards({ includeFinished: true });
    expect(overConnect.leaderboards.map((l) => [l.key, l.status])).toEqual([
      ["live", LeaderboardStatus.ACTIVE],
      ["soon", LeaderboardStatus.SCHEDULED],
      ["done", LeaderboardStatus.FINISHED],
    ]);
  });

  it("answers 404 for an inactive leaderboard; a scheduled or finished one is readable", async () => {
    expect(await server.rest("GET", "/v1/leaderboards/off", { tenantId })).toEqual({ status: 404, body: { error: 'Leaderboard with key "off" not found' } });
    expect((await server.rest("GET", "/v1/leaderboards/soon", { tenantId })).body).toMatchObject({ status: "scheduled", rankings: [], runStart: day(5) });
    expect((await server.rest("GET", "/v1/leaderboards/done", { tenantId })).body).toMatchObject({
      status: "finished",
      rankings: [],
      runStart: day(-20),
      runEnd: day(-10),
    });
    // After the end is outside the leaderboard's dates too.
    expect((await server.rest("GET", `/v1/leaderboards/done?run=${day(-5)}`, { tenantId })).status).toBe(400);
  });

  it("an event does not rank users in an inactive, scheduled or finished leaderboard", async () => {
    const changes = await event("steps", { id: "walker" }, 3, undefined, tenantId);
    expect(Object.keys(changes)).toEqual(["live"]);
    // The run's last day is the leaderboard's end, which cuts it short.
    expect(changes.live).toMatchObject({ start: day(-3), end: day(2), rank: 1 });
    expect((await server.rest("GET", "/v1/leaderboards/live", { tenantId })).body).toMatchObject({
      start: day(-3),
      end: day(2),
      runStart: day(-3),
      runEnd: day(2),
    });
  });

  it("keeps tenants apart: one tenant's leaderboards are invisible to another", async () => {
    const defaults = (await server.rest("GET", "/v1/leaderboards?includeFinished=true")).body.map((l: { key: string }) => l.key);
    expect(defaults).toEqual(["weekly", "ties", "capped", "xp-board", "runs", "daily", "window", "by-country", "paged", "burst"]);
    expect((await server.rest("GET", "/v1/leaderboards/live")).status).toBe(404);
    expect((await server.rest("GET", "/v1/leaderboards/paged", { tenantId })).status).toBe(404);
    expect((await server.rest("GET", "/v1/users/walker/leaderboards/live")).status).toBe(404);
    const error = await errorOf(server.client("grpc", { tenantId }).leaderboardReads.getLeaderboardRankings({ key: "weekly" }));
    expect(error?.code).toBe(Code.NotFound);
    expect(await rankings("/v1/leaderboards/live", tenantId)).toEqual([["walker", 1, 3]]);
  });
});

describe("the reference clients' read parameters on every protocol (own tenant)", () => {
  // userId (the page around a user), userAttributes (a breakdown group), numEvents (a user's
  // history) and the userAttributes list every leaderboard shape carries, over Connect JSON and
  // binary, gRPC and gRPC-web, as the published clients send and parse them over REST.
  const tenantId = "client-params";
  beforeAll(async () => {
    await created("/admin/v1/tenants", [{ customerId: tenantId, name: "Client parameters" }]);
    const [country] = await created("/admin/v1/attributes", [{ key: "country", name: "Country", type: "user" }], tenantId);
    const [metric] = await created("/admin/v1/metrics", [{ key: "goals", name: "Goals" }], tenantId);
    await created(
      "/admin/v1/leaderboards",
      [
        { key: "goals", name: "Goals", rankBy: "metric", metricId: metric, status: "active", start: day(-30) },
        {
          key: "goals-by-country",
          name: "Goals by country",
          rankBy: "metric",
          metricId: metric,
          status: "active",
          start: day(-30),
          breakdownAttributes: [country],
        },
      ],
      tenantId,
    );
    // Ranks in "goals": g1 50, g2 40, g3 30, g4 20, g5 10; NZ: g1, g3, g5; AU: g2, g4.
    for (let i = 1; i <= 5; i++) {
      await event("goals", { id: `g${i}`, name: `Player ${i}`, attributes: { country: i % 2 === 1 ? "NZ" : "AU" } }, 30 - i * 5, at(-3, `10:0${i}`), tenantId);
      await event("goals", { id: `g${i}` }, 30 - i * 5, at(-1, `10:0${i}`), tenantId);
    }
  });

  it("userId pages from the user's position (empty for a user not ranked); userAttributes reads a group; bad input is InvalidArgument", async () => {
    for (const protocol of CLIENT_PROTOCOLS) {
      const reads = server.client(protocol, { tenantId }).leaderboardReads;
      const page = async (request: { key: string; userId?: string; userAttributes?: string; offset?: number; limit?: number }) => {
        const { leaderboard } = await reads.getLeaderboardRankings(request);
        return [leaderboard!.rankings.map((r) => [r.userId, r.rank, r.value]), leaderboard!.participants];
      };
      expect(await page({ key: "goals", userId: "g3", limit: 2 }), protocol).toEqual([
        [
          ["g3", 3, 30],
          ["g4", 4, 20],
        ],
        5,
      ]);
      expect(await page({ key: "goals", userId: "g3", offset: 1, limit: 10 }), protocol).toEqual([
        [
          ["g4", 4, 20],
          ["g5", 5, 10],
        ],
        5,
      ]);
      expect(await page({ key: "goals", userId: "stranger" }), protocol).toEqual([[], 5]);
      expect(await page({ key: "goals-by-country", userAttributes: "country:AU" }), protocol).toEqual([
        [
          ["g2", 1, 40],
          ["g4", 2, 20],
        ],
        2,
      ]);
      // userId alone reads that user's group; with userAttributes too, the group named.
      expect(await page({ key: "goals-by-country", userId: "g3" }), protocol).toEqual([
        [
          ["g3", 2, 30],
          ["g5", 3, 10],
        ],
        3,
      ]);
      expect(await page({ key: "goals-by-country", userAttributes: "country:NZ", userId: "g5" }), protocol).toEqual([[["g5", 3, 10]], 3]);
      expect(await page({ key: "goals-by-country", userAttributes: "country:FR" }), protocol).toEqual([[], 0]);
      for (const request of [
        { key: "goals-by-country" },
        { key: "goals-by-country", userAttributes: "city:NZ" },
        { key: "goals", userAttributes: "country:NZ" },
      ]) {
        expect((await errorOf(reads.getLeaderboardRankings(request)))?.code, `${protocol} ${JSON.stringify(request)}`).toBe(Code.InvalidArgument);
      }
    }
  });

  it("numEvents limits a user's history to the latest days; out of range is InvalidArgument", async () => {
    for (const protocol of CLIENT_PROTOCOLS) {
      const reads = server.client(protocol, { tenantId }).leaderboardReads;
      const history = async (numEvents?: number) => {
        const { leaderboard } = await reads.getUserLeaderboard({ id: "g2", key: "goals", numEvents });
        expect([leaderboard!.rank, leaderboard!.value], protocol).toEqual([2, 40]);
        return leaderboard!.history.map((h) => [h.date, h.previousRank, h.rank, h.previousValue, h.value]);
      };
      expect(await history(), protocol).toEqual([
        [day(-3), undefined, 2, undefined, 20],
        [day(-1), 2, 2, 20, 40],
      ]);
      expect(await history(1), protocol).toEqual([[day(-1), 2, 2, 20, 40]]);
      expect(await history(0), protocol).toEqual([]);
      for (const numEvents of [-1, 101]) {
        expect((await errorOf(reads.getUserLeaderboard({ id: "g2", key: "goals", numEvents })))?.code, `${protocol} ${numEvents}`).toBe(Code.InvalidArgument);
      }
    }
    expect((await server.rest("GET", "/v1/users/g2/leaderboards/goals?numEvents=1", { tenantId })).body.history).toEqual([
      { date: day(-1), timestamp: `${day(-1)}T00:00:00.000Z`, previousRank: 2, rank: 2, previousValue: 20, value: 40 },
    ]);
  });

  it("a user whose breakdown attribute changes moves to the other group's rankings on every protocol", async () => {
    await event("goals", { id: "g5", attributes: { country: "AU" } }, 1, undefined, tenantId);
    for (const protocol of CLIENT_PROTOCOLS) {
      const reads = server.client(protocol, { tenantId }).leaderboardReads;
      const ids = async (userAttributes: string) =>
        (await reads.getLeaderboardRankings({ key: "goals-by-country", userAttributes })).leaderboard!.rankings.map((r) => [r.userId, r.value]);
      expect(await ids("country:AU"), protocol).toEqual([
        ["g2", 40],
        ["g4", 20],
        ["g5", 11],
      ]);
      expect(await ids("country:NZ"), protocol).toEqual([
        ["g1", 50],
        ["g3", 30],
      ]);
    }
  });

  it("every leaderboard shape carries userAttributes: REST as an empty list, the typed clients too", async () => {
    const rest = async (path: string) => (await server.rest("GET", path, { tenantId })).body;
    expect((await rest("/v1/leaderboards")).map((l: { userAttributes: unknown }) => l.userAttributes)).toEqual([[], []]);
    expect((await rest("/v1/leaderboards/goals")).userAttributes).toEqual([]);
    expect((await rest("/v1/users/g1/leaderboards/goals")).userAttributes).toEqual([]);
    expect((await event("goals", { id: "g1" }, 1, undefined, tenantId)).goals).toMatchObject({ rank: 1, userAttributes: [] });
    for (const protocol of CLIENT_PROTOCOLS) {
      const client = server.client(protocol, { tenantId });
      const { leaderboards } = await client.leaderboardReads.listPublicLeaderboards({});
      expect(
        leaderboards.map((l) => [l.key, l.userAttributes]),
        protocol,
      ).toEqual([
        ["goals", []],
        ["goals-by-country", []],
      ]);
      expect((await client.leaderboardReads.getLeaderboardRankings({ key: "goals" })).leaderboard!.userAttributes, protocol).toEqual([]);
      expect((await client.leaderboardReads.getUserLeaderboard({ id: "g1", key: "goals" })).leaderboard!.userAttributes, protocol).toEqual([]);
      const response = await client.application.trackMetricEvent({ key: "goals", user: { id: "g1" }, value: 1 });
      expect(response.leaderboards.goals!.userAttributes, protocol).toEqual([]);
    }
  });
});
