import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";

// Lengths a streak reaches without an event extending it (a restore joined with the run since, a
// period a catch-up counts at its end) are rewarded as an event's extension is.

const DAY = 86_400_000;
const T0 = Date.parse("2026-03-02T12:00:00Z");
/** Noon UTC `day` days after T0, plus `hours`. */
const at = (day: number, hours = 0) => new Date(T0 + day * DAY + hours * 3_600_000);
const clock = { t: at(0) };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: () => clock.t });
});
afterAll(() => server.close());

const created = (path: string, body: unknown[], tenantId: string) => createdIds(server, path, body, tenantId);

/** A tenant with a daily streak on `words` (no freezes), streak achievements at 7 and 14, and XP paid at streak milestones. */
async function streakTenant(
  customerId: string,
  threshold: number,
  triggers: object[] = [
    { type: "streak", points: 50, streakLength: 7, status: "active" },
    { type: "streak", points: 1, streakLength: 2, status: "active" },
  ],
): Promise<{ setThreshold: (threshold: number) => Promise<void> }> {
  await createdIds(server, "/admin/v1/tenants", [{ customerId, name: customerId }]);
  const [words] = await created("/admin/v1/metrics", [{ key: "words", name: "Words" }], customerId);
  await created(
    "/admin/v1/achievements",
    [
      { name: "Week", key: "s7", trigger: "streak", streakLength: 7, status: "active" },
      { name: "Fortnight", key: "s14", trigger: "streak", streakLength: 14, status: "active" },
    ],
    customerId,
  );
  const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP" }], customerId);
  await created(`/admin/v1/points/${xp}/triggers`, triggers, customerId);
  const setThreshold = async (value: number) => {
    const body = { frequency: "daily", metrics: [{ metricId: words, threshold: value }], freezes: { initialGrant: 0, maxFreezes: 0 } };
    expect((await server.rest("PUT", "/admin/v1/streaks/settings", { tenantId: customerId, body })).status).toBeLessThan(300);
  };
  await setThreshold(threshold);
  return { setThreshold };
}

async function write(customerId: string, userId: string, value: number): Promise<void> {
  const sent = await server.rest("POST", "/v1/metrics/words/event", { tenantId: customerId, body: { user: { id: userId, tz: "UTC" }, value } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
}

const achievementKeys = async (customerId: string, userId: string) =>
  (await server.rest("GET", `/v1/users/${userId}/achievements`, { tenantId: customerId })).body.map((a: { key: string }) => a.key);
const xpTotal = async (customerId: string, userId: string) => (await server.rest("GET", `/v1/users/${userId}/points/xp`, { tenantId: customerId })).body.total;

describe("streak lengths reached without an event of their own", () => {
  it("a restore joined with the run since completes the achievements and pays the milestones it newly reaches, not those the run since paid", async () => {
    clock.t = at(0);
    await streakTenant("restored", 1);
    for (let day = 0; day <= 12; day++) {
      clock.t = at(day);
      await write("restored", "jo", 1); // 13 days: s7, 50 at 7, 1 at 2, 4, ... 12
    }
    for (const day of [15, 16]) {
      clock.t = at(day);
      await write("restored", "jo", 1); // lost at 13, then a run of 2 (1 more at 2)
    }
    expect(await xpTotal("restored", "jo")).toBe(57);
    clock.t = at(16, 1);
    const restored = await server.rest("POST", "/admin/v1/streaks/restore", { tenantId: "restored", body: { users: [{ id: "jo" }] } });
    expect(restored.body).toMatchObject({ restoredUsers: ["jo"], issues: [] });

    expect((await server.rest("GET", "/v1/users/jo/streak", { tenantId: "restored" })).body.length).toBe(15);
    expect(await achievementKeys("restored", "jo")).toEqual(["s7", "s14"]);
    // 14 reached now: 50 more. At 2 the joined run's lengths 14 and 15 hold one milestone (14), which the
    // run since paid as its own length 2: nothing more.
    expect(await xpTotal("restored", "jo")).toBe(107);
  }, 120_000);

  it("a period a catch-up counts at its end completes the achievements it reaches, though the streak lapses before the next event", async () => {
    clock.t = at(30);
    const tenant = await streakTenant("caught", 5);
    for (let day = 30; day <= 35; day++) {
      clock.t = at(day);
      await write("caught", "cat", 5); // six days
    }
    clock.t = at(36, -2);
    await write("caught", "cat", 3); // below the threshold
    await tenant.setThreshold(1); // the seventh day counts at its end

    clock.t = at(38); // the eighth day missed: the streak is lost
    const achievements = await until(
      () => server.rest("GET", "/v1/users/cat/achievements", { tenantId: "caught" }),
      (body) => body.length === 1,
      60_000,
    );
    expect(achievements[0]).toMatchObject({ key: "s7", achievedAt: new Date(at(37, -12).getTime() - 1).toISOString() });
    expect((await server.rest("GET", "/v1/users/cat/streak", { tenantId: "caught" })).body.length).toBe(0);
    expect(await xpTotal("caught", "cat")).toBe(53); // 1 at 2, 4 and 6; 50 at 7
  }, 120_000);

  it("a period an event's own catch-up counts at its end is rewarded too: a user without a live streak has no visit due then", async () => {
    clock.t = at(50);
    const tenant = await streakTenant("own-catch-up", 5, [{ type: "streak", points: 10, streakLength: 1, status: "active" }]);
    await write("own-catch-up", "owl", 3); // below the threshold: no streak, nothing due at the day's end
    await tenant.setThreshold(1);

    clock.t = at(51);
    const sent = await server.rest("POST", "/v1/metrics/words/event", { tenantId: "own-catch-up", body: { user: { id: "owl", tz: "UTC" }, value: 1 } });
    expect(sent.body.currentStreak).toMatchObject({ length: 2, extended: true });
    // The day before counted at its last millisecond, then this one: ten points each, in one change.
    const dayBeforeEnd = new Date(at(51, -12).getTime() - 1).toISOString();
    expect(sent.body.points.xp).toMatchObject({ added: 20, total: 20 });
    expect(sent.body.points.xp.awards.map((award: { awarded: number; date: string }) => [award.awarded, award.date])).toEqual([
      [10, dayBeforeEnd],
      [10, at(51).toISOString().replace(".000Z", "Z")], // protobuf JSON drops zero milliseconds
    ]);
  }, 120_000);

  it("a late event's extension is rewarded when it counted, at the streak's last catch-up, not at the event's own moment", async () => {
    clock.t = at(70);
    await streakTenant("late", 1);
    for (let day = 70; day <= 75; day++) {
      clock.t = at(day);
      await write("late", "lou", 1); // six days
    }
    const caughtUpAt = at(76, -12 + 1 / 120); // 00:00:30 the next day: a read catches the streak up
    clock.t = caughtUpAt;
    expect((await server.rest("GET", "/v1/users/lou/streak", { tenantId: "late" })).body.length).toBe(6);
    const timestamp = new Date(at(76, -12).getTime() - 60_000).toISOString(); // 23:59 the day before
    const sent = await server.rest("POST", "/v1/metrics/words/event", { tenantId: "late", body: { user: { id: "lou" }, value: 1, timestamp } });
    expect(sent.body.currentStreak).toMatchObject({ length: 7, extended: true });
    const when = caughtUpAt.toISOString().replace(".000Z", "Z");
    expect(sent.body.achievements.map((a: { key: string; achievedAt: string }) => [a.key, a.achievedAt])).toEqual([["s7", when]]);
    expect(sent.body.points.xp.awards.map((award: { awarded: number; date: string }) => [award.awarded, award.date])).toEqual([[50, when]]);
  }, 120_000);

  it("so does a preferences update's catch-up", async () => {
    clock.t = at(60);
    const tenant = await streakTenant("prefs-catch-up", 5, [{ type: "streak", points: 10, streakLength: 1, status: "active" }]);
    await write("prefs-catch-up", "pip", 3);
    await tenant.setThreshold(1);

    clock.t = at(61);
    const updated = await server.rest("PATCH", "/v1/users/pip/preferences", { tenantId: "prefs-catch-up", body: { notifications: { recap: [] } } });
    expect(updated.status).toBe(200);
    const points = (await server.rest("GET", "/v1/users/pip/points/xp", { tenantId: "prefs-catch-up" })).body;
    expect([points.total, points.awards.map((award: { date: string }) => award.date)]).toEqual([10, [new Date(at(61, -12).getTime() - 1).toISOString()]]);
  }, 120_000);
});
