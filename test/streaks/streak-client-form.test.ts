import { fromJson } from "@bufbuild/protobuf";
import { ListValueSchema, ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreakFrequency, StreakRankingType } from "../../sdk/src/index.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * The streak features the reference's published clients call (issue 15): the streak settings in
 * their form (PATCH, metric keys, days off, customization), user preferences, the admin reset,
 * streak rankings, and zero-length streaks where streaks are not configured.
 */
let server: TestServer;
let words: string;
let lessons: string;
const PATH = "/admin/v1/streaks/settings";

const noon = (offset: number) => {
  const d = new Date();
  d.setUTCHours(12, 0, 0, 0);
  return new Date(d.getTime() + offset * 86_400_000);
};
const write = (user: string, value: number, at: Date = new Date(), key = "words") =>
  server.rest("POST", `/v1/metrics/${key}/event`, { body: { user: { id: user, tz: "UTC" }, value, timestamp: at.toISOString() } });
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e) => ConnectError.from(e),
  );
const settingsDocs = () => server.service.context.database.collections.streakSettings.find({}).toArray();

beforeAll(async () => {
  server = await startTestServer();
  [words, lessons] = (
    await server.rest("POST", "/admin/v1/metrics", {
      body: [
        { key: "words", name: "Words" },
        { key: "lessons", name: "Lessons" },
      ],
    })
  ).body.created.map((m: { id: string }) => m.id);
  await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "bare", name: "No streaks" }] });
  await server.rest("POST", "/admin/v1/metrics", { tenantId: "bare", body: [{ key: "words", name: "Words" }] });
});
afterAll(() => server.close());

describe("streak settings in the published clients' form (PATCH)", () => {
  it("sets, partially updates and reads back the settings with both forms in the answer", async () => {
    expect(await server.rest("PATCH", PATH, { body: { metrics: [{ key: "words", threshold: 1 }] } })).toEqual({
      status: 400,
      body: { error: 'frequency is required: "daily", "weekly" or "monthly"' },
    });
    const first = await server.rest("PATCH", PATH, {
      body: {
        frequency: "daily",
        evaluationMode: "OR",
        customizationEnabled: true,
        daysOff: [6, 0],
        metrics: [
          { key: "words", threshold: 100 },
          { key: "lessons", threshold: 1 },
        ],
        freezes: { startCount: 1, maxCount: 3, autoEarnInterval: 7, autoEarnAmount: 1 },
      },
    });
    expect(first).toEqual({
      status: 201,
      body: {
        frequency: "daily",
        evaluationMode: "any",
        customizationEnabled: true,
        daysOff: [0, 6],
        metrics: [
          { metricId: words, key: "words", threshold: 100 },
          { metricId: lessons, key: "lessons", threshold: 1 },
        ],
        freezes: {
          initialGrant: 1,
          maxFreezes: 3,
          autoEarn: { amount: 1, intervalDays: 7 },
          startCount: 1,
          maxCount: 3,
          autoEarnInterval: 7,
          autoEarnAmount: 1,
        },
      },
    });
    expect(await server.rest("GET", PATH)).toEqual({ status: 200, body: first.body });

    // Only what is sent changes; `freezes: null` turns freezes off.
    const partial = await server.rest("PATCH", PATH, { body: { evaluationMode: "AND", freezes: null } });
    expect(partial).toEqual({ status: 200, body: { ...first.body, evaluationMode: "all", freezes: null } });
    // What a read answers can be sent back as it is.
    expect((await server.rest("PATCH", PATH, { body: { evaluationMode: "any" } })).body.evaluationMode).toBe("any");
    expect((await server.rest("PATCH", PATH, { body: { evaluationMode: "all" } })).body.evaluationMode).toBe("all");
    // Leaving daily clears the days off.
    const weekly = await server.rest("PATCH", PATH, { body: { frequency: "weekly", metrics: [{ key: "words", threshold: 10 }] } });
    expect(weekly.body).toMatchObject({
      frequency: "weekly",
      daysOff: [],
      metrics: [{ metricId: words, key: "words", threshold: 10 }],
      customizationEnabled: true,
    });
    // Our PUT form still works beside it, and reads back days off and customization.
    const put = await server.rest("PUT", PATH, {
      body: { frequency: "daily", metrics: [{ metricId: words, threshold: 1 }], customizationEnabled: true, daysOff: [0] },
    });
    expect(put.body).toMatchObject({
      frequency: "daily",
      daysOff: [0],
      customizationEnabled: true,
      metrics: [{ metricId: words, key: "words", threshold: 1 }],
    });
  });

  it.each([
    { name: "an unknown metric key", body: { metrics: [{ key: "nope", threshold: 1 }] }, error: 'metrics[0].key "nope" is not a metric of this tenant' },
    {
      name: "a metric twice",
      body: {
        metrics: [
          { key: "words", threshold: 1 },
          { key: "words", threshold: 2 },
        ],
      },
      error: `metrics[1].metricId "${"WORDS"}" is listed more than once: give each metric one threshold`,
    },
    { name: "an unknown mode", body: { evaluationMode: "ALL" }, error: "Invalid request: evaluationMode: must be in list [AND, OR, all, any]" },
    { name: "a weekday 7", body: { daysOff: [7] }, error: "daysOff[0] must be a weekday from 0 (Sunday) to 6 (Saturday), got 7" },
    { name: "a fractional weekday", body: { daysOff: [1.5] }, error: "Invalid request: daysOff[0] must be a weekday from 0 (Sunday) to 6 (Saturday), got 1.5" },
    {
      name: "days off of a weekly streak",
      body: { frequency: "weekly", daysOff: [1] },
      error: 'daysOff must be empty unless the frequency is "daily" (it is "weekly")',
    },
    { name: "freezes without maxCount", body: { freezes: { startCount: 1 } }, error: "Invalid request: freezes.maxCount is required" },
    {
      name: "half an auto-earn pair",
      body: { freezes: { startCount: 1, maxCount: 2, autoEarnInterval: 3 } },
      error: "Invalid request: freezes.autoEarnInterval and freezes.autoEarnAmount are a pair: give both or neither",
    },
    {
      name: "more freezes to start than the maximum",
      body: { freezes: { startCount: 3, maxCount: 2 } },
      error: "freezes.initialGrant (3) must not exceed freezes.maxFreezes (2)",
    },
    {
      name: "an unknown freezes field",
      body: { freezes: { startCount: 1, maxCount: 2, extra: 1 } },
      error: "Invalid request: freezes.extra is not a field of freezes (startCount, maxCount, autoEarnInterval, autoEarnAmount)",
    },
  ])("refuses $name with 400 and changes nothing", async ({ body, error }) => {
    const before = await settingsDocs();
    const expected = error.replace('"WORDS"', `"${words}"`);
    expect(await server.rest("PATCH", PATH, { body })).toEqual({ status: 400, body: { error: expected } });
    expect(await settingsDocs()).toEqual(before);
  });

  it("works over Connect and gRPC", async () => {
    const connect = server.client("connect-json").streaks;
    const { settings } = await connect.patchStreakSettings({
      frequency: StreakFrequency.DAILY,
      evaluationMode: "OR",
      daysOff: fromJson(ListValueSchema, [3]),
      metrics: [{ key: "lessons", threshold: 2 }],
      freezes: fromJson(ValueSchema, { startCount: 0, maxCount: 1 }),
    });
    expect(settings).toMatchObject({
      daysOff: [3],
      metrics: [{ metricId: lessons, key: "lessons", threshold: 2 }],
      freezes: { startCount: 0, maxCount: 1, initialGrant: 0, maxFreezes: 1 },
    });
    const grpc = server.client("grpc").streaks;
    expect((await grpc.getStreakSettings({})).settings).toEqual(settings);
    const off = await grpc.patchStreakSettings({ freezes: fromJson(ValueSchema, null), daysOff: fromJson(ListValueSchema, []) });
    expect(off.settings).toMatchObject({ daysOff: [], metrics: [{ key: "lessons" }] });
    expect(off.settings?.freezes).toBeUndefined();
    const bad = await errorOf(grpc.patchStreakSettings({ evaluationMode: "XOR" }));
    expect(bad?.code).toBe(Code.InvalidArgument);
    // Back to one daily metric, words >= 1, for the tests below.
    await server.rest("PUT", PATH, { body: { frequency: "daily", metrics: [{ metricId: words, threshold: 1 }] } });
  });

  it("concurrent PATCHes of different fields all take effect (none overwrites another with what it read)", async () => {
    for (let round = 0; round < 5; round++) {
      const mode = round % 2 === 0 ? "any" : "all";
      const customizationEnabled = round % 2 === 0;
      const days = round % 2 === 0 ? [6] : [0];
      const answers = await Promise.all([
        server.rest("PATCH", PATH, { body: { evaluationMode: mode } }),
        server.rest("PATCH", PATH, { body: { customizationEnabled } }),
        server.rest("PATCH", PATH, { body: { daysOff: days } }),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect((await server.rest("GET", PATH)).body).toMatchObject({ evaluationMode: mode, customizationEnabled, daysOff: days });
    }
    await server.rest("PATCH", PATH, { body: { evaluationMode: "all", customizationEnabled: false, daysOff: [] } });
    await server.rest("PUT", PATH, { body: { frequency: "daily", metrics: [{ metricId: words, threshold: 1 }] } });
  });
});

describe("user preferences", () => {
  const PREFS = "/v1/users/pia/preferences";

  it("are read and updated per notification kind; unknown users are 404", async () => {
    expect(await server.rest("GET", "/v1/users/nobody/preferences")).toEqual({ status: 404, body: { error: 'User "nobody" not found' } });
    expect((await server.rest("PATCH", "/v1/users/nobody/preferences", { body: { notifications: { recap: [] } } })).status).toBe(404);
    await write("pia", 1);
    const empty = {
      notifications: { achievement_completed: null, recap: null, reactivation: null, streak_reminder: null },
      streak: null,
      leaderboards: { optOut: false },
    };
    expect(await server.rest("GET", PREFS)).toEqual({ status: 200, body: empty });
    const set = await server.rest("PATCH", PREFS, { body: { notifications: { recap: ["email"], streak_reminder: ["email", "push"] } } });
    expect(set).toEqual({ status: 200, body: { ...empty, notifications: { ...empty.notifications, recap: ["email"], streak_reminder: ["email", "push"] } } });
    // Only the kinds sent change; [] turns a kind off.
    const off = await server.rest("PATCH", PREFS, { body: { notifications: { streak_reminder: [] } } });
    expect(off.body.notifications).toEqual({ achievement_completed: null, recap: ["email"], reactivation: null, streak_reminder: [] });
    expect((await server.rest("GET", PREFS)).body).toEqual(off.body);
  });

  it.each([
    {
      name: "an unknown channel",
      body: { notifications: { recap: ["sms"] } },
      status: 400,
      error: 'notifications.recap[0] must be "email" or "push", got "sms"',
    },
    {
      name: "a channel twice",
      body: { notifications: { recap: ["push", "push"] } },
      status: 400,
      error: 'notifications.recap[1] ("push") is listed more than once',
    },
    { name: "an unknown kind", body: { notifications: { sms: [] } }, status: 400, error: 'Invalid request: unknown field "sms" in NotificationPreferences' },
    {
      name: "streak overrides without customization",
      body: { streak: { evaluationMode: "OR" } },
      status: 403,
      error: "Streak customization is not enabled for this tenant: evaluationMode, metrics and daysOff need customizationEnabled in the streak settings",
    },
  ])("refuse $name and change nothing", async ({ body, status, error }) => {
    const before = (await server.rest("GET", PREFS)).body;
    const answer = await server.rest("PATCH", PREFS, { body });
    expect(answer.status).toBe(status);
    if (!error.startsWith("Invalid request: unknown field")) expect(answer.body).toEqual({ error });
    expect((await server.rest("GET", PREFS)).body).toEqual(before);
  });

  it("with customization, a user's own threshold and days off override the tenant's", async () => {
    await server.rest("PATCH", PATH, { body: { customizationEnabled: true } });
    const unknown = await server.rest("PATCH", PREFS, { body: { streak: { metrics: [{ key: "lessons", threshold: 1 }] } } });
    expect(unknown).toEqual({ status: 400, body: { error: `streak.metrics[0].key "lessons" is not one of the tenant's streak metrics` } });
    await server.rest("PUT", "/v1/users/pat", { body: {} });
    const mine = await server.rest("PATCH", "/v1/users/pat/preferences", {
      body: { streak: { evaluationMode: "AND", metrics: [{ key: "words", threshold: 50 }], daysOff: [] } },
    });
    expect(mine).toMatchObject({
      status: 200,
      body: { streak: { enabled: null, evaluationMode: "AND", metrics: [{ key: "words", threshold: 50 }], daysOff: [] } },
    });
    // pat needs 50 words a day; another user still needs 1.
    expect((await write("pat", 10)).body.currentStreak).toMatchObject({ length: 0, extended: false });
    expect((await write("pat", 40)).body.currentStreak).toMatchObject({ length: 1, extended: true });
    expect((await write("quin", 1)).body.currentStreak).toMatchObject({ length: 1, extended: true });
    // Turning customization off brings the tenant's rules back.
    await server.rest("PATCH", PATH, { body: { customizationEnabled: false } });
    expect((await write("rae", 1)).body.currentStreak).toMatchObject({ extended: true });
  });

  it("work over Connect and gRPC, with the same rules", async () => {
    const connect = server.client("connect-json").application;
    const { preferences } = await connect.updateUserPreferences({
      id: "pia",
      preferences: { notifications: { reactivation: fromJson(ListValueSchema, ["push"]) } },
    });
    expect(preferences?.notifications?.reactivation?.values.map((v) => v.kind.value)).toEqual(["push"]);
    const grpc = server.client("grpc").application;
    expect((await grpc.getUserPreferences({ id: "pia" })).preferences).toEqual(preferences);
    expect((await errorOf(grpc.getUserPreferences({ id: "nobody" })))?.code).toBe(Code.NotFound);
    const denied = await errorOf(grpc.updateUserPreferences({ id: "pia", preferences: { streak: { evaluationMode: "OR" } } }));
    expect(denied?.code).toBe(Code.PermissionDenied);
  });

  it("show the metric overrides in force: one on a metric the tenant's streak no longer counts is not shown", async () => {
    const tenantMetrics = (key: string) => server.rest("PATCH", PATH, { body: { customizationEnabled: true, metrics: [{ key, threshold: 1 }] } });
    expect((await tenantMetrics("words")).status).toBe(200);
    await server.rest("PUT", "/v1/users/sam", { body: {} });
    const set = await server.rest("PATCH", "/v1/users/sam/preferences", { body: { streak: { metrics: [{ key: "words", threshold: 5 }] } } });
    expect(set.body.streak.metrics).toEqual([{ key: "words", threshold: 5 }]);
    try {
      // The tenant's streak counts lessons now: the override on words is not in force (and could not be sent back).
      expect((await tenantMetrics("lessons")).status).toBe(200);
      expect((await server.rest("GET", "/v1/users/sam/preferences")).body.streak.metrics).toEqual([]);
      // Counted again, the stored override is in force again.
      expect((await tenantMetrics("words")).status).toBe(200);
      expect((await server.rest("GET", "/v1/users/sam/preferences")).body.streak.metrics).toEqual([{ key: "words", threshold: 5 }]);
    } finally {
      await server.rest("PATCH", PATH, { body: { customizationEnabled: false, metrics: [{ key: "words", threshold: 1 }] } });
    }
  });
});

describe("a user turning streaks off", () => {
  it("reads 0 at once, leaves the rankings, is not extended; turned on again, extends as before", async () => {
    expect((await write("ned", 1)).body.currentStreak).toMatchObject({ length: 1, extended: true });
    const inRankings = async () =>
      ((await server.rest("GET", "/v1/streaks/rankings?limit=100")).body as Array<{ userId: string }>).some((r) => r.userId === "ned");
    expect(await inRankings()).toBe(true);
    const off = await server.rest("PATCH", "/v1/users/ned/preferences", { body: { streak: { enabled: false } } });
    expect(off.body.streak).toEqual({ enabled: false, evaluationMode: null, metrics: [], daysOff: null });
    expect((await server.rest("GET", "/v1/users/ned/streak")).body).toMatchObject({ length: 0, started: null });
    expect(await inRankings()).toBe(false);
    expect((await write("ned", 5)).body.currentStreak).toMatchObject({ length: 0, extended: false });
    await server.rest("PATCH", "/v1/users/ned/preferences", { body: { streak: { enabled: true } } });
    expect((await write("ned", 1)).body.currentStreak).toMatchObject({ length: 1, extended: true });
  });

  it("is not restored by an admin while it is off", async () => {
    expect((await write("nia", 1, noon(-3))).body.currentStreak).toMatchObject({ length: 1 }); // lost two days ago
    expect((await server.rest("PATCH", "/v1/users/nia/preferences", { body: { streak: { enabled: false } } })).status).toBe(200);
    const restored = await server.rest("POST", "/admin/v1/streaks/restore", { body: { users: [{ id: "nia" }] } });
    expect(restored.body).toMatchObject({
      restoredUsers: [],
      issues: [{ userId: "nia", severity: "error", message: expect.stringMatching(/turned streaks off/) }],
    });
    expect((await server.rest("GET", "/v1/users/nia/streak")).body).toMatchObject({ length: 0 });
  });
});

describe("streak reset and rankings", () => {
  it("reset sets streaks to zero at once, leaving the active ranking and keeping the longest", async () => {
    for (const [user, days] of [
      ["ula", 3],
      ["vic", 2],
      ["wes", 1],
    ] as const) {
      for (let d = days - 1; d >= 0; d--) await write(user, 5, d === 0 ? new Date() : noon(-d));
    }
    const names = await server.rest("PUT", "/v1/users/ula", { body: { name: "Ula" } });
    expect(names.status).toBe(200);
    const active = await server.rest("GET", "/v1/streaks/rankings?limit=3&type=active");
    expect(active).toEqual({
      status: 200,
      body: [
        { userId: "ula", name: "Ula", streakLength: 3 },
        { userId: "vic", name: null, streakLength: 2 },
        { userId: expect.any(String), name: null, streakLength: 1 },
      ],
    });

    const reset = await server.rest("POST", "/admin/v1/streaks/reset", { body: { users: [{ id: "ula" }, { id: "nobody" }, { id: "zed" }] } });
    await server.rest("PUT", "/v1/users/zed", { body: {} });
    expect(reset.status).toBe(201);
    expect(reset.body.resetUsers).toEqual(["ula"]);
    expect(reset.body.issues.map((i: { userId: string; severity: string; message: string }) => [i.userId, i.severity, i.message])).toEqual([
      ["nobody", "error", "User does not exist"],
      ["zed", "error", "User does not exist"],
    ]);
    const read = (await server.rest("GET", "/v1/users/ula/streak")).body;
    expect(read).toMatchObject({ length: 0, started: null });
    expect(read.streakHistory.at(-1).resetAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(read.streakHistory.at(-2)).not.toHaveProperty("resetAt");
    const after = (await server.rest("GET", "/v1/streaks/rankings?limit=2")).body;
    expect(after).toEqual([
      { userId: "vic", name: null, streakLength: 2 },
      { userId: expect.any(String), name: null, streakLength: 1 },
    ]);
    expect((await server.rest("GET", "/v1/streaks/rankings?type=longest&limit=1")).body).toEqual([{ userId: "ula", name: "Ula", streakLength: 3 }]);
    // A user without a streak is a warning; nothing reset answers 200.
    const again = await server.rest("POST", "/admin/v1/streaks/reset", { body: { users: [{ id: "ula" }] } });
    expect(again).toMatchObject({ status: 200, body: { resetUsers: [], issues: [{ userId: "ula", severity: "warning", message: "No streak to reset" }] } });
  });

  it("refuse bad rankings queries and bad reset requests with 400", async () => {
    expect((await server.rest("GET", "/v1/streaks/rankings?limit=0")).status).toBe(400);
    expect((await server.rest("GET", "/v1/streaks/rankings?limit=101")).status).toBe(400);
    expect(await server.rest("GET", "/v1/streaks/rankings?type=best")).toEqual({
      status: 400,
      body: { error: 'type: "best" is not one of "active", "longest"' },
    });
    expect((await server.rest("POST", "/admin/v1/streaks/reset", { body: { users: [] } })).status).toBe(400);
  });

  it("reset and rankings work over Connect and gRPC", async () => {
    const grpc = server.client("grpc");
    const { rankings } = await grpc.application.listStreakRankings({ limit: 1, type: StreakRankingType.ACTIVE });
    expect(rankings.map((r) => [r.userId, r.streakLength])).toEqual([["vic", 2]]);
    const reset = await server.client("connect-json").streaks.resetStreaks({ users: [{ id: "vic" }] });
    expect(reset.resetUsers).toEqual(["vic"]);
    expect((await grpc.application.listStreakRankings({ limit: 1 })).rankings.map((r) => r.userId)).not.toContain("vic");
    const longest = await server.client("connect-json").application.listStreakRankings({ type: StreakRankingType.LONGEST, limit: 2 });
    expect(longest.rankings.map((r) => [r.userId, r.streakLength])).toEqual([
      ["ula", 3],
      ["vic", 2],
    ]);
  });
});

describe("where streaks are not configured", () => {
  it("events answer a zero-length streak object and the streak read answers a zero-length streak", async () => {
    const event = await server.rest("POST", "/v1/metrics/words/event", { tenantId: "bare", body: { user: { id: "sol" }, value: 3 } });
    expect(event.status).toBe(201);
    expect(event.body.currentStreak).toEqual({
      length: 0,
      frequency: "daily",
      started: null,
      periodStart: null,
      periodEnd: null,
      expires: null,
      extended: false,
    });
    expect(await server.rest("GET", "/v1/users/sol/streak", { tenantId: "bare" })).toEqual({
      status: 200,
      body: { length: 0, frequency: "daily", started: null, periodStart: null, periodEnd: null, expires: null, extended: null, streakHistory: [], pauses: [] },
    });
    expect((await server.rest("GET", "/v1/users/nobody/streak", { tenantId: "bare" })).status).toBe(404);
    const viaConnect = await server.client("connect-json", { tenantId: "bare" }).application.getUserStreak({ id: "sol" });
    expect(viaConnect.streak).toMatchObject({ length: 0, frequency: StreakFrequency.DAILY });
    expect((await server.rest("GET", "/v1/streaks/rankings", { tenantId: "bare" })).body).toEqual([]);
  });

  it("a user who has not had a streak yet reads as a zero-length streak", async () => {
    await server.rest("PUT", "/v1/users/tia", { body: {} });
    expect(await server.rest("GET", "/v1/users/tia/streak")).toMatchObject({ status: 200, body: { length: 0, started: null, streakHistory: [] } });
  });
});
