import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import type { WebhookReceiver } from "../helpers/webhook-receiver.js";
import { startDailyStreakServer } from "../helpers/daily-streak-server.js";
import { until } from "../helpers/until.js";

// A streak leaderboard that becomes active after users have streaks ranks them: the Admin call lists
// the tenant's users for the scheduler's next minute, whose visit enters each live streak, silently.
// The service's clock is injected and moved by hand; the background scheduler follows it.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Noon UTC on day 0. */
const D0 = Date.parse("2030-05-01T12:00:00Z");
let clock = D0;

let server: TestServer;
let receiver: WebhookReceiver;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

/** The date of day `day` (UTC). */
const dateOf = (day: number) => new Date(D0 + day * DAY).toISOString().slice(0, 10);

const practise = async (user: string) =>
  expect((await server.rest("POST", "/api/metrics/minutes/event", { body: { user: { id: user, tz: "UTC" }, value: 1 } })).status).toBe(201);
const rankings = async (key: string) =>
  (await server.rest("GET", `/v1/leaderboards/${key}`)).body.rankings.map((r: { userId: string; rank: number; value: number }) => [r.userId, r.rank, r.value]);
const rankChanges = () => receiver.at("/hook").filter((r) => r.json?.type === "leaderboard.rank_changed");

beforeAll(async () => {
  ({ server, receiver } = await startDailyStreakServer(() => new Date(clock), ["leaderboard.rank_changed"]));
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe("a streak leaderboard made active after users have streaks", () => {
  it("ranks every live streak after the scheduler's visit, without an event of theirs: not a lapsed one, and silently", async () => {
    // idle: days 0 and 1, then day 2 missed (lapsed); live: days 1, 2 and 3 (3 today).
    for (const [day, users] of [
      [0, ["idle"]],
      [1, ["idle", "live"]],
      [2, ["live"]],
      [3, ["live"]],
    ] as const) {
      clock = D0 + day * DAY;
      for (const user of users) await practise(user);
    }
    expect((await server.rest("GET", "/v1/users/live/streak")).body.length).toBe(3);
    expect((await server.rest("GET", "/v1/users/idle/streak")).body.length).toBe(0);

    // Day 3, 12:05: created active (today's start), and a second one created inactive, then made active.
    clock = D0 + 3 * DAY + 5 * MINUTE;
    await created("/admin/v1/leaderboards", [{ name: "Streaks", key: "streaks", rankBy: "streak", status: "active" }]);
    const [later] = await created("/admin/v1/leaderboards", [{ name: "Later", key: "later", rankBy: "streak", status: "inactive" }]);
    const activated = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: later, status: "active" }] });
    expect(activated.body.issues).toEqual([]);

    // The users were listed for the next minute; once it has elapsed, the scheduler visits them.
    clock += 3 * MINUTE;
    for (const key of ["streaks", "later"]) {
      await until(
        () => server.rest("GET", `/v1/leaderboards/${key}`),
        (body) => body.rankings.length > 0,
        180_000, // the scheduler first walks the three days of minutes the clock skipped
      );
      expect(await rankings(key), key).toEqual([["live", 1, 3]]);
      expect((await server.rest("GET", `/v1/users/live/leaderboards/${key}`)).body).toMatchObject({ rank: 1, value: 3 });
      expect((await server.rest("GET", `/v1/users/idle/leaderboards/${key}`)).body).toMatchObject({ rank: null, value: null });
    }

    // A user's own change still notifies (which also shows the receiver gets the type); the entries
    // the visits made did not.
    await practise("fresh");
    await receiver.waitFor("/hook", () => rankChanges().length >= 2);
    await sleep(500);
    expect(
      rankChanges()
        .map((r) => [r.json.user.id, r.json.leaderboard.key, r.json.leaderboard.rank])
        .sort(),
    ).toEqual([
      ["fresh", "later", 2],
      ["fresh", "streaks", 2],
    ]);
    expect(await rankings("streaks")).toEqual([
      ["live", 1, 3],
      ["fresh", 2, 1],
    ]);
  }, 300_000);

  it("ranks them once its start date begins for them, when it is scheduled or its start has not begun in their zone", async () => {
    // Day 3 (UTC), 12:10: `tomorrow` starts on day 4, which has begun in UTC+14 (it is active) but not
    // in UTC; `after` starts on day 5 (still scheduled). The scheduler walks the half days between.
    clock = D0 + 3 * DAY + 10 * MINUTE;
    await created("/admin/v1/leaderboards", [
      { name: "Tomorrow", key: "tomorrow", rankBy: "streak", status: "scheduled", start: dateOf(4) },
      { name: "After", key: "after", rankBy: "streak", status: "scheduled", start: dateOf(5) },
    ]);
    clock += 3 * MINUTE;
    await sleep(1_000);
    expect(await rankings("tomorrow")).toEqual([]);

    // Day 4 begins in UTC: the visits that end the users' streak periods enter the live streaks (fresh: 1).
    clock = D0 + 4 * DAY - 12 * HOUR + 3 * MINUTE;
    await until(
      () => server.rest("GET", "/v1/leaderboards/tomorrow"),
      (body) => body.rankings.length >= 2,
      180_000,
    );
    expect(await rankings("tomorrow")).toEqual([
      ["live", 1, 3],
      ["fresh", 2, 1],
    ]);
    clock = D0 + 4 * DAY;
    await practise("live");

    // Day 5 begins in UTC: live (4) enters `after`; fresh missed day 4 and is not entered.
    clock = D0 + 5 * DAY - 12 * HOUR + 3 * MINUTE;
    const after = await until(
      () => server.rest("GET", "/v1/leaderboards/after"),
      (body) => body.rankings.length > 0,
      180_000,
    );
    expect(after.status).toBe("active");
    await sleep(500);
    expect(await rankings("after")).toEqual([["live", 1, 4]]);
    expect(rankChanges().filter((r) => r.json.user.id === "live")).toEqual([]);
  }, 600_000);
});
