import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";

let server: TestServer;
const ids: Record<string, string | undefined> = {};
const triggers: Record<string, string | undefined> = {};
let annKey: string;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Creates through the Admin API and returns the new IDs in order. */
const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

const event = (user: Record<string, unknown>, value: number, extra: Record<string, unknown> = {}, tenantId?: string) =>
  server.rest("POST", "/api/metrics/words/event", { body: { user, value, ...extra }, tenantId }).then((r) => {
    expect(r.status).toBe(201);
    return r;
  });

const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e) => ConnectError.from(e),
  );

beforeAll(async () => {
  server = await startTestServer();
  [ids.plan, ids.source] = await created("/admin/v1/attributes", [
    { key: "plan", name: "Plan", type: "user" },
    { key: "source", name: "Source", type: "event" },
  ]);
  [ids.words] = await created("/admin/v1/metrics", [{ key: "words", name: "Words written" }]);
  [ids.onboarded] = await created("/admin/v1/achievements", [{ name: "Onboarded", key: "onboarded", trigger: "api", status: "active" }]);
  [ids.xp, ids.plain, ids.old] = await created("/admin/v1/points", [
    { key: "xp", name: "XP", description: "Experience points", badge: { url: "https://example.com/xp.png" } },
    { key: "plain", name: "Plain", maxPoints: 1000 },
    { key: "old", name: "Old" },
  ]);
  // One call per trigger, so their creation order (the order reads list them in) is certain.
  const trigger = async (name: string, body: Record<string, unknown>) => ([triggers[name]] = await created(`/admin/v1/points/${ids.xp}/triggers`, [body]));
  await trigger("words", { type: "metric", points: 10, metricId: ids.words, metricThreshold: 100, status: "active" });
  await trigger("onboarded", {
    type: "achievement",
    points: 50,
    achievementId: ids.onboarded,
    status: "active",
    userAttributes: [{ attributeId: ids.plan, attributeValue: "pro" }],
  });
  await trigger("streak", { type: "streak", points: 5, streakLength: 7, status: "active" });
  await trigger("mobile", {
    type: "metric",
    points: 1,
    metricId: ids.words,
    metricThreshold: 1,
    status: "active",
    eventAttributes: [{ attributeId: ids.source, attributeValue: "mobile" }],
  });
  await trigger("hourly", { type: "time", points: 1, timeUnit: "hours", timeInterval: 3 }); // inactive: not shown
  [ids.bronze, ids.silver, ids.gold] = await created(`/admin/v1/points/${ids.xp}/levels`, [
    { key: "bronze", name: "Bronze", points: 0, description: "Starting level" },
    { key: "silver", name: "Silver", points: 50, description: "Mid-tier level" },
    { key: "gold", name: "Gold", points: 150, description: "Top level", badge: { url: "https://example.com/gold.png" } },
  ]);
  await created(`/admin/v1/points/${ids.old}/triggers`, [{ type: "metric", points: 1, metricId: ids.words, metricThreshold: 100, status: "active" }]);

  // A user-specific boost needs its user.
  expect((await server.rest("PUT", "/v1/users/dan", { body: {} })).status).toBe(200);
  expect((await server.rest("PUT", "/v1/users/cy", { body: {} })).status).toBe(200);
  [ids.oldBoost] = await created(`/admin/v1/points/${ids.old}/boosts`, [{ name: "Old and running", start: day(-1), multiplier: 2, userId: "dan" }]);
  const boost = async (body: Record<string, unknown>) => (await created(`/admin/v1/points/${ids.xp}/boosts`, [body]))[0]!;
  ids.proBoost = await boost({
    name: "Pro weekend",
    start: day(-1),
    end: day(1),
    multiplier: 2,
    userAttributes: [{ attributeId: ids.plan, attributeValue: "pro" }],
  });
  ids.danBoost = await boost({ name: "Dan only", start: day(0), multiplier: 1.5, rounding: "nearest", userId: "dan" });
  ids.nextBoost = await boost({ name: "Next month", start: day(30), end: day(33), multiplier: 3 });
  ids.pastBoost = await boost({ name: "Holiday bonus", start: "2024-12-25", end: "2024-12-31", multiplier: 1.5, rounding: "nearest" });
  ids.goneBoost = await boost({ name: "Gone", start: day(0), multiplier: 4 });
  const archived = await server.rest("PATCH", `/admin/v1/points/${ids.xp}/boosts`, { body: [{ id: ids.goneBoost, archived: true }] });
  expect(archived.body.issues).toEqual([]);

  // xp totals: dan 15 (10 × 1.5), ann 200 (100 + 100, both doubled), bob 30, eve 0 (99 words), cy 0 (no events), sum 60.
  await event({ id: "dan" }, 100);
  await event({ id: "ann", attributes: { plan: "pro" } }, 550);
  expect((await server.rest("POST", "/v1/achievements/onboarded/complete", { body: { user: { id: "ann" } } })).status).toBe(201);
  await event({ id: "bob" }, 300);
  await event({ id: "bob" }, -300);
  await event({ id: "eve", attributes: { plan: "pro" } }, 99);
  // 03:00 UTC on Nov 2 is still Nov 1 in New York.
  await event({ id: "sum", tz: "America/New_York" }, 100, { timestamp: "2026-11-02T03:00:00Z" });
  await event({ id: "sum" }, 200, { timestamp: "2026-11-02T15:00:00Z" });
  await event({ id: "sum" }, 300, { timestamp: "2026-11-03T15:00:00Z" });

  // Deleting a system archives it.
  expect((await server.rest("DELETE", `/admin/v1/points?ids=${ids.old}`)).body.deleted).toEqual([{ id: ids.old }]);

  annKey = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "ann" }] })).body.created[0].key;
});
afterAll(() => server.close());

const levelJson = (key: "bronze" | "silver" | "gold") =>
  ({
    bronze: { id: ids.bronze, key: "bronze", name: "Bronze", description: "Starting level", badgeUrl: null, points: 0 },
    silver: { id: ids.silver, key: "silver", name: "Silver", description: "Mid-tier level", badgeUrl: null, points: 50 },
    gold: { id: ids.gold, key: "gold", name: "Gold", description: "Top level", badgeUrl: "https://example.com/gold.png", points: 150 },
  })[key];

describe("a user's points", () => {
  it("read as the reference's GetUserPointsResponse: system fields, total, current level and newest awards first", async () => {
    const proBoost = { id: ids.proBoost, name: "Pro weekend", status: "active", start: day(-1), end: day(1), multiplier: 2, rounding: "down" };
    const response = await server.rest("GET", "/v1/users/ann/points/xp");
    expect(response).toEqual({
      status: 200,
      body: {
        id: ids.xp,
        key: "xp",
        name: "XP",
        description: "Experience points",
        badgeUrl: "https://example.com/xp.png",
        maxPoints: null,
        total: 200,
        level: levelJson("gold"),
        awards: [
          {
            id: expect.any(String),
            awarded: 100,
            date: expect.stringMatching(ISO_TIME),
            total: 200,
            trigger: {
              id: triggers.onboarded,
              type: "achievement",
              points: 50,
              status: "active",
              achievementId: ids.onboarded,
              achievementName: "Onboarded",
              userAttributes: [{ key: "plan", value: "pro" }],
              created: expect.stringMatching(ISO_TIME),
              updated: expect.stringMatching(ISO_TIME),
            },
            boosts: [proBoost],
          },
          {
            id: expect.any(String),
            awarded: 100,
            date: expect.stringMatching(ISO_TIME),
            total: 100,
            trigger: {
              id: triggers.words,
              type: "metric",
              points: 10,
              status: "active",
              metricId: ids.words,
              metricName: "Words written",
              metricThreshold: 100,
              userAttributes: [],
              eventAttributes: [],
              created: expect.stringMatching(ISO_TIME),
              updated: expect.stringMatching(ISO_TIME),
            },
            boosts: [proBoost],
          },
        ],
      },
    });
    const one = await server.rest("GET", "/v1/users/ann/points/xp?awards=1");
    expect(one.body.awards.map((a: { total: number }) => a.total)).toEqual([200]);
  });

  it("show a total of 0 and no level (0 exceeds no threshold, not even 0) for a user the system never awarded anything", async () => {
    const cy = await server.rest("GET", "/v1/users/cy/points/xp");
    expect(cy.body).toMatchObject({ key: "xp", total: 0, level: null, awards: [] });
    const plain = await server.rest("GET", "/v1/users/cy/points/plain");
    expect(plain.body).toEqual({
      id: ids.plain,
      key: "plain",
      name: "Plain",
      description: null,
      badgeUrl: null,
      maxPoints: 1000,
      total: 0,
      level: null,
      awards: [],
    });
  });

  it("read over Connect JSON with the same values", async () => {
    const { points } = await server.client("connect-json").pointsReads.getUserPoints({ id: "dan", key: "xp", awards: 5 });
    expect(points).toMatchObject({ key: "xp", total: 15n, level: { key: "bronze" } });
    expect(points!.awards.map((a) => [a.awarded, a.boosts.map((b) => b.name)])).toEqual([[15n, ["Dan only"]]]);
  });

  it("refuse an awards count outside 1 to 100, or not a number, with 400", async () => {
    for (const awards of ["0", "101", "abc", "1.5"]) {
      const response = await server.rest("GET", `/v1/users/ann/points/xp?awards=${awards}`);
      expect(response.status, awards).toBe(400);
      expect(response.body.error, awards).toMatch(/awards/);
    }
    const error = await errorOf(server.client("connect-json").pointsReads.getUserPoints({ id: "ann", key: "xp", awards: 0 }));
    expect(error?.code).toBe(Code.InvalidArgument);
  });

  it("answer 404 naming an unknown system or user", async () => {
    expect(await server.rest("GET", "/v1/users/ann/points/nope")).toEqual({ status: 404, body: { error: 'Points system with key "nope" not found' } });
    expect(await server.rest("GET", "/v1/users/ghost/points/xp")).toEqual({ status: 404, body: { error: 'User "ghost" not found' } });
    expect((await server.rest("GET", "/v1/users/ghost/points/xp/boosts")).status).toBe(404);
    expect((await server.rest("GET", "/v1/users/ghost/points/xp/event-summary?aggregation=daily&startDate=2026-11-01&endDate=2026-11-03")).status).toBe(404);
  });

  it("stay readable in an archived system, which is gone for the system reads", async () => {
    expect((await server.rest("GET", "/v1/users/ann/points/old")).body).toMatchObject({ key: "old", total: 5 });
    // It boosts nothing: its running boost was archived with it.
    expect(await server.rest("GET", "/v1/users/dan/points/old/boosts")).toEqual({ status: 200, body: [] });
    expect((await server.rest("GET", `/admin/v1/points/${ids.old}/boosts/${ids.oldBoost}`)).body.status).toBe("archived");
    for (const path of ["/v1/points/old", "/v1/points/old/boosts", "/v1/points/old/levels", "/v1/points/old/level-summary", "/v1/points/old/summary"]) {
      expect(await server.rest("GET", path), path).toEqual({ status: 404, body: { error: 'Points system with key "old" not found' } });
    }
  });
});

describe("a user's points event summary", () => {
  it("sums changes per local day and ISO week, with the total at the end of each period", async () => {
    const daily = await server.rest("GET", "/v1/users/sum/points/xp/event-summary?aggregation=daily&startDate=2026-11-01&endDate=2026-11-03");
    expect(daily).toEqual({
      status: 200,
      body: [
        { date: "2026-11-01", total: 10, change: 10 },
        { date: "2026-11-02", total: 30, change: 20 },
        { date: "2026-11-03", total: 60, change: 30 },
      ],
    });
    const weekly = await server
      .client("connect-json")
      .pointsReads.getUserPointsEventSummary({ id: "sum", key: "xp", aggregation: 2, startDate: "2026-11-01", endDate: "2026-11-03" });
    expect(weekly.periods.map((p) => [p.date, p.total, p.change])).toEqual([
      ["2026-10-26", 10, 10],
      ["2026-11-02", 60, 50],
    ]);
  });

  it("refuses what the metric summary refuses, with its messages", async () => {
    const path = "/v1/users/sum/points/xp/event-summary";
    expect((await server.rest("GET", `${path}?aggregation=hourly&startDate=2026-11-01&endDate=2026-11-03`)).status).toBe(400);
    expect((await server.rest("GET", `${path}?startDate=2026-11-01&endDate=2026-11-03`)).status).toBe(400);
    expect((await server.rest("GET", `${path}?aggregation=daily&startDate=2025-09-01&endDate=2026-11-03`)).body.error).toMatch(/at most 400 days/);
    expect((await server.rest("GET", `${path}?aggregation=daily&startDate=2026-11-03&endDate=2026-11-01`)).body.error).toMatch(
      /endDate must not be before startDate/,
    );
  });
});

describe("boosts", () => {
  it("that apply to a user now: their cohort's global boosts and their own", async () => {
    expect((await server.rest("GET", "/v1/users/ann/points/xp/boosts")).body).toEqual([
      { id: ids.proBoost, name: "Pro weekend", status: "active", start: day(-1), end: day(1), multiplier: 2, rounding: "down" },
    ]);
    expect((await server.rest("GET", "/v1/users/dan/points/xp/boosts")).body).toEqual([
      { id: ids.danBoost, name: "Dan only", status: "active", start: day(0), end: null, multiplier: 1.5, rounding: "nearest" },
    ]);
    expect((await server.rest("GET", "/v1/users/bob/points/xp/boosts")).body).toEqual([]);
    const overGrpc = await server.client("grpc").pointsReads.listUserPointsBoosts({ id: "dan", key: "xp" });
    expect(overGrpc.boosts.map((b) => [b.name, b.status, b.multiplier])).toEqual([["Dan only", "active", 1.5]]);
  });

  it("of a system: global ones with their status, finished ones on request, never archived or user-specific ones", async () => {
    const pro = { id: ids.proBoost, name: "Pro weekend", status: "active", start: day(-1), end: day(1), multiplier: 2, rounding: "down" };
    const next = { id: ids.nextBoost, name: "Next month", status: "scheduled", start: day(30), end: day(33), multiplier: 3, rounding: "down" };
    const past = { id: ids.pastBoost, name: "Holiday bonus", status: "finished", start: "2024-12-25", end: "2024-12-31", multiplier: 1.5, rounding: "nearest" };
    expect(await server.rest("GET", "/v1/points/xp/boosts")).toEqual({ status: 200, body: [pro, next] });
    expect((await server.rest("GET", "/v1/points/xp/boosts?includeFinished=true")).body).toEqual([past, pro, next]);
    expect((await server.rest("GET", "/v1/points/xp/boosts?includeFinished=yes")).status).toBe(400);
  });
});

describe("a points system", () => {
  it("reads as the reference's PointsSystemResponse, with its active triggers only", async () => {
    const times = { created: expect.stringMatching(ISO_TIME), updated: expect.stringMatching(ISO_TIME) };
    expect(await server.rest("GET", "/v1/points/xp")).toEqual({
      status: 200,
      body: {
        id: ids.xp,
        name: "XP",
        description: "Experience points",
        badgeUrl: "https://example.com/xp.png",
        maxPoints: null,
        triggers: [
          {
            id: triggers.words,
            type: "metric",
            points: 10,
            status: "active",
            metricId: ids.words,
            metricName: "Words written",
            metricThreshold: 100,
            userAttributes: [],
            eventAttributes: [],
            ...times,
          },
          {
            id: triggers.onboarded,
            type: "achievement",
            points: 50,
            status: "active",
            achievementId: ids.onboarded,
            achievementName: "Onboarded",
            userAttributes: [{ key: "plan", value: "pro" }],
            ...times,
          },
          { id: triggers.streak, type: "streak", points: 5, status: "active", streakLengthThreshold: 7, userAttributes: [], ...times },
          {
            id: triggers.mobile,
            type: "metric",
            points: 1,
            status: "active",
            metricId: ids.words,
            metricName: "Words written",
            metricThreshold: 1,
            userAttributes: [],
            eventAttributes: [{ key: "source", value: "mobile" }],
            ...times,
          },
        ],
      },
    });
    const overGrpc = await server.client("grpc").pointsReads.describePointsSystem({ key: "xp" });
    expect(overGrpc.system?.triggers.map((t) => t.id)).toEqual([triggers.words, triggers.onboarded, triggers.streak, triggers.mobile]);
    expect(await server.rest("GET", "/v1/points/nope")).toEqual({ status: 404, body: { error: 'Points system with key "nope" not found' } });
  });

  it("lists its levels by threshold", async () => {
    expect(await server.rest("GET", "/v1/points/xp/levels")).toEqual({ status: 200, body: [levelJson("bronze"), levelJson("silver"), levelJson("gold")] });
    expect((await server.rest("GET", "/v1/points/plain/levels")).body).toEqual([]);
  });

  it("counts every user of the tenant at the level their total exceeds", async () => {
    // bronze: dan 15, bob 30 (cy and eve, at 0, at no level); silver: sum 60; gold: ann 200.
    expect(await server.rest("GET", "/v1/points/xp/level-summary")).toEqual({
      status: 200,
      body: [
        { level: levelJson("bronze"), users: 2 },
        { level: levelJson("silver"), users: 1 },
        { level: levelJson("gold"), users: 1 },
      ],
    });
    const plain = await server.rest("GET", "/v1/points/plain/level-summary");
    expect(plain).toEqual({ status: 422, body: { error: 'Points system "plain" has no levels' } });
  });

  it("summarizes users by points in the reference's eleven ranges, optionally for users with given attributes", async () => {
    const ranges = (users: number[], width: number) =>
      users.map((n, i) => ({ from: i === 0 ? 0 : (i - 1) * width + 1, to: i === 0 ? 0 : i * width, users: n }));
    // Greatest total 200, rounded up to 1000: ranges of 100.
    expect(await server.rest("GET", "/v1/points/xp/summary")).toEqual({ status: 200, body: ranges([2, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0], 100) });
    expect((await server.rest("GET", "/v1/points/xp/summary?userAttributes=plan:pro")).body).toEqual(ranges([1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], 100));
    expect((await server.rest("GET", "/v1/points/xp/summary?userAttributes=plan:none")).body).toEqual(ranges([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1));
    const overConnect = await server.client("connect-json").pointsReads.getPointsSummary({ key: "plain" });
    expect(overConnect.ranges.map((r) => r.users)).toEqual([6n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n, 0n]);

    const unknown = await server.rest("GET", "/v1/points/xp/summary?userAttributes=plan:pro,colour:red");
    expect(unknown).toEqual({
      status: 400,
      body: { error: "Invalid attribute keys: colour. Please make sure all keys match attributes created in the dashboard." },
    });
    expect((await server.rest("GET", "/v1/points/xp/summary?userAttributes=plan")).status).toBe(400);
  });
});

describe("access", () => {
  it("lets an application key read its own user's points and the system reads, not another user's points", async () => {
    expect((await server.rest("GET", "/v1/users/ann/points/xp", { apiKey: annKey })).body.total).toBe(200);
    expect((await server.rest("GET", "/v1/points/xp/summary", { apiKey: annKey })).status).toBe(200);
    for (const path of [
      "/v1/users/bob/points/xp",
      "/v1/users/bob/points/xp/boosts",
      "/v1/users/bob/points/xp/event-summary?aggregation=daily&startDate=2026-11-01&endDate=2026-11-02",
    ]) {
      expect(await server.rest("GET", path, { apiKey: annKey }), path).toEqual({ status: 403, body: { error: "This API key may only act for its own user" } });
    }
    const error = await errorOf(server.client("grpc", { apiKey: annKey }).pointsReads.getUserPoints({ id: "bob", key: "xp" }));
    expect(error?.code).toBe(Code.PermissionDenied);
  });

  it("keeps tenants apart", async () => {
    await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "other", name: "Other" }] });
    const [words] = await created("/admin/v1/metrics", [{ key: "words", name: "Words" }], "other");
    const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "Other XP" }], "other");
    await created(`/admin/v1/points/${xp}/triggers`, [{ type: "metric", points: 1, metricId: words, metricThreshold: 1, status: "active" }], "other");
    await event({ id: "ann" }, 5000, {}, "other");

    expect((await server.rest("GET", "/v1/users/ann/points/xp", { tenantId: "other" })).body).toMatchObject({
      id: xp,
      name: "Other XP",
      total: 5000,
      level: null,
    });
    expect((await server.rest("GET", "/v1/users/ann/points/xp")).body.total).toBe(200);
    expect((await server.rest("GET", "/v1/points/plain", { tenantId: "other" })).status).toBe(404);
    expect((await server.rest("GET", "/v1/users/bob/points/xp", { tenantId: "other" })).status).toBe(404);
    // Only the other tenant's one user: 5000 rounds up to 10000, ranges of 1000.
    const summary = await server.rest("GET", "/v1/points/xp/summary", { tenantId: "other" });
    expect(summary.body.map((r: { users: number }) => r.users)).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    expect(summary.body[5]).toEqual({ from: 4001, to: 5000, users: 1 });
    expect((await server.rest("GET", "/v1/points/xp/summary")).body.map((r: { users: number }) => r.users)).toEqual([2, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect((await server.rest("GET", "/v1/points/xp/level-summary", { tenantId: "other" })).status).toBe(422);
    // An application key of the default scope cannot read another tenant.
    expect((await server.rest("GET", "/v1/users/ann/points/xp", { apiKey: annKey, tenantId: "other" })).status).toBe(403);
  });

  // Last: a new user would change the summaries above.
  it("show a filtered metric trigger's event attribute filters in its awards (response, read, gRPC)", async () => {
    const sent = await event({ id: "mo" }, 2, { attributes: { source: "mobile" } });
    const mobile = { key: "source", value: "mobile" };
    const fromEvent = sent.body.points.xp.awards.find((a: { trigger: { id: string } }) => a.trigger.id === triggers.mobile);
    expect(fromEvent.trigger.eventAttributes).toEqual([mobile]);
    const read = await server.rest("GET", "/v1/users/mo/points/xp");
    const awards = read.body.awards as Array<{ trigger: { id: string; eventAttributes: unknown } }>;
    expect(awards.find((a) => a.trigger.id === triggers.mobile)!.trigger.eventAttributes).toEqual([mobile]);
    expect(awards.find((a) => a.trigger.id === triggers.words)).toBeUndefined();
    const overGrpc = await server.client("grpc").pointsReads.getUserPoints({ id: "mo", key: "xp" });
    expect(overGrpc.points!.awards.find((a) => a.trigger?.id === triggers.mobile)!.trigger!.eventAttributes).toMatchObject([mobile]);
  });
});
