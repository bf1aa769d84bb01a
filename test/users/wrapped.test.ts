import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * The year in review (GET /v1/users/{id}/wrapped, ApplicationService.GetUserWrapped) over the
 * network, with the server's clock fixed in mid-June 2026 so years and days are known.
 */
let server: TestServer;
const NOW = new Date("2026-06-15T12:00:00Z");
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e) => ConnectError.from(e),
  );

beforeAll(async () => {
  server = await startTestServer({ now: () => NOW });
  const admin = async (method: string, path: string, body: unknown) => {
    const response = await server.rest(method, path, { body });
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
    return response.body;
  };
  const [words] = (await admin("POST", "/admin/v1/metrics", [{ key: "words", name: "Words", units: "words" }])).created;
  await admin("POST", "/admin/v1/achievements", [
    { name: "Wordsmith", key: "words-500", trigger: "metric", metricId: words.id, metricValue: 500, status: "active" },
  ]);
  await admin("PUT", "/admin/v1/streaks/settings", { frequency: "daily", metrics: [{ metricId: words.id, threshold: 1 }], evaluationMode: "all" });
  const [xp] = (await admin("POST", "/admin/v1/points", [{ key: "xp", name: "XP", description: "Experience" }])).created;
  await admin("POST", `/admin/v1/points/${xp.id}/triggers`, [{ type: "metric", points: 10, metricId: words.id, metricThreshold: 100, status: "active" }]);
  await admin("POST", "/admin/v1/leaderboards", [
    { key: "words-board", name: "Most words", rankBy: "metric", metricId: words.id, status: "active", start: "2025-12-01" },
  ]);
  const write = (value: number, at: string) =>
    admin("POST", "/api/metrics/words/event", { user: { id: "ana", tz: "America/New_York" }, value, timestamp: new Date(at).toISOString() });
  await write(300, "2025-12-31T23:30:00-05:00"); // Jan 1 in UTC, Dec 31 for ana
  await write(250, "2026-03-10T10:00:00-04:00"); // the achievement (total 550)
  await write(100, "2026-03-10T11:00:00-04:00");
  await write(50, "2026-03-11T10:00:00-04:00");
  await admin("POST", "/v1/users", { id: "quiet", tz: "Europe/Paris" });
}, 120_000);
afterAll(() => server?.close());

describe("GET /v1/users/{id}/wrapped", () => {
  it("reviews the current year by default, in the user's zone", async () => {
    const { status, body } = await server.rest("GET", "/v1/users/ana/wrapped");
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ id: "ana", tz: "America/New_York", control: false });
    const a = body.activity;
    expect([a.daysActive, a.weeksActive, a.monthsActive]).toEqual([2, 1, 1]);
    expect(a.mostActiveDay.date).toBe("2026-03-10");
    expect(a.mostActiveDay.metrics).toEqual({
      words: { name: "Words", units: "words", currentTotal: 650, changeThisPeriod: 350, percentChange: 116.67, byAttribute: {} },
    });
    expect(a.mostActiveDay.points).toEqual({ xp: { name: "XP", description: "Experience", currentTotal: 60, changeThisPeriod: 30, percentChange: 100 } });
    expect(a.mostActiveDay.achievements.map((x: { key: string; achievedAt: string }) => [x.key, x.achievedAt])).toEqual([
      ["words-500", "2026-03-10T14:00:00Z"],
    ]);
    expect(a.mostActiveDay.leaderboards["words-board"]).toMatchObject({ key: "words-board", rank: 1, value: 650, runStart: "2025-12-01", runEnd: null });
    expect([a.mostActiveWeek.start, a.mostActiveWeek.end, a.mostActiveMonth.month]).toEqual(["2026-03-09", "2026-03-15", 2]);
    expect(a.entireYear.metrics.words).toMatchObject({ currentTotal: 700, changeThisPeriod: 400, percentChange: 133.33 });
    expect(a.entireYear.longestStreak).toEqual({ length: 2, frequency: "daily", periodStart: "2026-03-11", periodEnd: "2026-03-11", started: "2026-03-10" });
    expect("percentileThisPeriod" in a.entireYear.metrics.words).toBe(false);
  });

  it("reviews the year before: an event late on Dec 31 in New York belongs to it", async () => {
    const { status, body } = await server.rest("GET", "/v1/users/ana/wrapped?year=2025");
    expect(status).toBe(200);
    expect([body.activity.daysActive, body.activity.mostActiveDay.date, body.activity.mostActiveMonth.month]).toEqual([1, "2025-12-31", 11]);
    expect(body.activity.entireYear.metrics.words).toMatchObject({ currentTotal: 300, changeThisPeriod: 300, percentChange: 100 });
    expect(body.activity.entireYear.achievements).toEqual([]);
  });

  it("keeps a streak's peak reached on the day an admin reset it, or the user turned streaks off", async () => {
    for (const [user, cut] of [
      ["rex", () => server.rest("POST", "/admin/v1/streaks/reset", { body: { users: [{ id: "rex" }] } })],
      ["ola", () => server.rest("PATCH", "/v1/users/ola/preferences", { body: { streak: { enabled: false } } })],
    ] as const) {
      for (const day of ["11", "12", "13", "14", "15"]) {
        const event = await server.rest("POST", "/api/metrics/words/event", {
          body: { user: { id: user, tz: "UTC" }, value: 1, timestamp: `2026-06-${day}T10:00:00Z` },
        });
        expect(event.status).toBe(201);
      }
      expect((await server.rest("GET", `/v1/users/${user}/streak`)).body.length).toBe(5);
      expect((await cut()).status).toBeLessThan(300);
      const streak = await server.rest("GET", `/v1/users/${user}/streak?historyPeriods=1`);
      expect(streak.body.length).toBe(0);
      // The peak is ours: the streak read's history shows the period as the reference does.
      expect(Object.keys(streak.body.streakHistory[0]).sort()).toEqual(
        ["length", "periodEnd", "periodStart", "usedFreeze", "usedPause", ...(user === "rex" ? ["resetAt"] : [])].sort(),
      );
      const { body } = await server.rest("GET", `/v1/users/${user}/wrapped?year=2026`);
      expect(body.activity.entireYear.longestStreak, user).toEqual({
        length: 5,
        frequency: "daily",
        periodStart: "2026-06-15",
        periodEnd: "2026-06-15",
        started: "2026-06-11",
      });
    }
  });

  it("answers a user without activity with empty periods", async () => {
    const { status, body } = await server.rest("GET", "/v1/users/quiet/wrapped?year=2026");
    expect(status).toBe(200);
    expect(body.activity).toMatchObject({
      daysActive: 0,
      weeksActive: 0,
      monthsActive: 0,
      mostActiveDay: { date: "2026-01-01", metrics: {}, points: {}, achievements: [], leaderboards: {} },
    });
    expect(body.activity.entireYear.longestStreak).toEqual({ length: 0, frequency: "daily", periodStart: null, periodEnd: null, started: null });
  });

  it("refuses years outside the supported range (400) and unknown users (404), changing nothing", async () => {
    for (const year of ["2024", "2027", "0", "abc"]) {
      const { status, body } = await server.rest("GET", `/v1/users/ana/wrapped?year=${year}`);
      expect([year, status]).toEqual([year, 400]);
      expect(typeof body.error).toBe("string");
    }
    expect((await server.rest("GET", "/v1/users/ana/wrapped?year=2024")).body.error).toMatch(/year must be 2025 or 2026/);
    const missing = await server.rest("GET", "/v1/users/nobody/wrapped");
    expect([missing.status, missing.body.error]).toEqual([404, 'User "nobody" not found']);
  });

  it("is readable by the user's own application key only", async () => {
    const anaKey = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "ana" }] })).body.created[0].key;
    expect((await server.rest("GET", "/v1/users/ana/wrapped", { apiKey: anaKey })).status).toBe(200);
    expect(await server.rest("GET", "/v1/users/quiet/wrapped", { apiKey: anaKey })).toEqual({
      status: 403,
      body: { error: "This API key may only act for its own user" },
    });
    expect((await errorOf(server.client("grpc", { apiKey: anaKey }).application.getUserWrapped({ id: "quiet" })))?.code).toBe(Code.PermissionDenied);
  });

  it("answers the same on Connect and gRPC, with the matching codes", async () => {
    const rest = (await server.rest("GET", "/v1/users/ana/wrapped?year=2026")).body;
    for (const protocol of ["connect-json", "connect-binary", "grpc"] as const) {
      const client = server.client(protocol).application;
      const reply = await client.getUserWrapped({ id: "ana", year: 2026 });
      expect([protocol, reply.activity?.daysActive, reply.activity?.mostActiveDay?.date]).toEqual([protocol, 2, "2026-03-10"]);
      expect(reply.activity?.entireYear?.metrics.words?.changeThisPeriod).toBe(rest.activity.entireYear.metrics.words.changeThisPeriod);
      expect(reply.activity?.entireYear?.longestStreak?.length).toBe(2);
      expect((await errorOf(client.getUserWrapped({ id: "ana", year: 2024 })))?.code).toBe(Code.InvalidArgument);
      expect((await errorOf(client.getUserWrapped({ id: "nobody" })))?.code).toBe(Code.NotFound);
    }
  });
});
