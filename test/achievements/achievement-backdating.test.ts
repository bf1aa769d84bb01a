import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import type { WebhookReceiver } from "../helpers/webhook-receiver.js";
import { startDailyStreakServer } from "../helpers/daily-streak-server.js";

// Streak achievements are backdated like metric ones: created active, activated, or with a lower
// streakLength, they complete for every user whose streak (as of now, in their zone) already
// reaches them, silently and without points. The service's clock is injected and moved by hand.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Noon UTC on day 0. */
const D0 = Date.parse("2030-03-01T12:00:00Z");
let clock = D0;

let server: TestServer;
let receiver: WebhookReceiver;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

const practise = (user: string) => server.rest("POST", "/api/metrics/minutes/event", { body: { user: { id: user, tz: "UTC" }, value: 1 } });
/** A user's completed achievements: key and moment (ms). */
const held = async (user: string) =>
  (await server.rest("GET", `/v1/users/${user}/achievements`)).body.map((a: { key: string; achievedAt: string }) => [a.key, Date.parse(a.achievedAt)]);

beforeAll(async () => {
  ({ server, receiver } = await startDailyStreakServer(() => new Date(clock), ["achievement.completed"]));
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe("streak achievements are backdated", () => {
  it("to users whose streak reaches them now, when created active or when their length is lowered: silently, without points", async () => {
    // lee: days 0 and 1, then day 2 missed (lapsed, though the stored streak still says 2);
    // sam: days 1, 2 and 3 (3 today); amy: days 1 and 2 (2, today not yet met but not lost).
    for (const [day, users] of [
      [0, ["lee"]],
      [1, ["lee", "sam", "amy"]],
      [2, ["sam", "amy"]],
      [3, ["sam"]],
    ] as const) {
      clock = D0 + day * DAY;
      for (const user of users) expect((await practise(user)).status).toBe(201);
    }
    expect((await server.rest("GET", "/v1/users/sam/streak")).body.length).toBe(3);

    const createdAt = clock;
    const [, five] = await created("/admin/v1/achievements", [
      { name: "Two days", key: "two", trigger: "streak", streakLength: 2, status: "active" },
      { name: "Five days", key: "five", trigger: "streak", streakLength: 5, status: "active" },
    ]);
    expect(await held("sam")).toEqual([["two", createdAt]]);
    expect(await held("amy")).toEqual([["two", createdAt]]);
    expect(await held("lee")).toEqual([]);

    // An achievement trigger pays for "five"; lowering its length to 3 backdates it to sam alone, unpaid.
    const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP" }]);
    await created(`/admin/v1/points/${xp}/triggers`, [{ type: "achievement", achievementId: five, points: 500, status: "active" }]);
    clock += HOUR;
    const lowered = await server.rest("PATCH", "/admin/v1/achievements", { body: [{ id: five, streakLength: 3 }] });
    expect(lowered.body.issues).toEqual([]);
    expect(await held("sam")).toEqual([
      ["two", createdAt],
      ["five", clock],
    ]);
    expect(await held("amy")).toEqual([["two", createdAt]]);
    expect((await server.rest("GET", "/v1/users/sam/points/xp")).body).toMatchObject({ total: 0, awards: [] });
    const stats = (await server.rest("GET", "/v1/achievements")).body.map((a: { key: string; completions: number }) => [a.key, a.completions]);
    expect(stats).toEqual([
      ["two", 2],
      ["five", 1],
    ]);

    // The next events: sam's completes nothing again; amy's third day completes "five" live, notified and paid.
    clock += HOUR;
    const samNext = await practise("sam");
    expect([samNext.body.achievements, samNext.body.points]).toEqual([[], {}]);
    const amyNext = await practise("amy");
    expect(amyNext.body.achievements.map((a: { key: string }) => a.key)).toEqual(["five"]);
    expect(amyNext.body.points.xp).toMatchObject({ total: 500, added: 500 });
    await receiver.waitFor("/hook", (got) => got.length >= 1);
    await sleep(800); // any backdated completion would have been announced before amy's
    expect(receiver.at("/hook").map((r) => [r.json.type, r.json.user.id, r.json.achievement.key])).toEqual([["achievement.completed", "amy", "five"]]);
  });
});
