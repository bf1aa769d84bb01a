import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../helpers/server.js";
import type { WebhookReceiver } from "../helpers/webhook-receiver.js";
import { startDailyStreakServer } from "../helpers/daily-streak-server.js";
import { until } from "../helpers/until.js";
import { readStoredUser } from "../../src/engine/store/user-documents.js";

// A switch of the streak frequency keeps users' streaks (the reference: "Trophy automatically
// computes streak data for every streak frequency, meaning you can switch at any time"): each
// user's streak is computed again for the new frequency from their days, and the scheduler's visit
// within the minute moves the streak leaderboards without a call of theirs. The service's clock is
// injected; the users' past days are sent as backdated events, so the scheduler never walks them.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Noon UTC on day 0, a Wednesday (its ISO week starts on Monday 29 April). */
const D0 = Date.parse("2030-05-01T12:00:00Z");
/** The visits wait this long after a user's last backdated event (BACKFILL_QUIET_MS), and a minute more. */
const AFTER_IMPORT = 11 * MINUTE;
let clock = D0 + 45 * DAY;

let server: TestServer;
let receiver: WebhookReceiver;

/** An event of `user` at noon of `day`, or now. */
const practise = async (user: string, day?: number) => {
  const timestamp = day === undefined ? undefined : new Date(D0 + day * DAY).toISOString();
  const sent = await server.rest("POST", "/api/metrics/minutes/event", { body: { user: { id: user, tz: "UTC" }, value: 1, ...(timestamp && { timestamp }) } });
  expect(sent.status).toBe(201);
  return sent.body;
};
const board = async () =>
  (await server.rest("GET", "/v1/leaderboards/streaks")).body.rankings.map((r: { userId: string; value: number }) => [r.userId, r.value]);
const streakRankings = async () =>
  (await server.rest("GET", "/v1/streaks/rankings?type=active")).body.map((r: { userId: string; streakLength: number }) => [r.userId, r.streakLength]);
const switchTo = async (frequency: string) => expect((await server.rest("PATCH", "/admin/v1/streaks/settings", { body: { frequency } })).status).toBe(200);
const periodsOf = async (user: string) =>
  (await server.rest("GET", `/v1/users/${user}/streak?historyPeriods=100`)).body.streakHistory.map(
    (p: { periodStart: string; periodEnd: string; length: number }) => [p.periodStart, p.periodEnd, p.length],
  );
/** The `leaderboard.rank_changed` messages received for a user, as [previous value, value]. */
const rankMessages = (user: string) =>
  receiver
    .at("/hook")
    .filter((r) => r.json?.type === "leaderboard.rank_changed" && r.json.user.id === user)
    .map((r) => [r.json.leaderboard.previousValue, r.json.leaderboard.value]);
const dateOf = (day: number) => new Date(D0 + day * DAY).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ server, receiver } = await startDailyStreakServer(() => new Date(clock), ["leaderboard.rank_changed"]));
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe("a switch of the streak frequency", () => {
  it("keeps each user's streak, computed for the new frequency from their days; the boards follow at the scheduler's visit", async () => {
    const created = await server.rest("POST", "/admin/v1/leaderboards", {
      body: [{ name: "Streaks", key: "streaks", rankBy: "streak", status: "active", start: dateOf(0) }],
    });
    expect(created.body.issues).toEqual([]);
    // Day 45. steady: every day, 0 to 45 (a daily streak of 46, more periods than the document
    // keeps); weekly: one day a week, days 10, 17, ..., 45 (a daily streak of 1, six ISO weeks in a row).
    for (let day = 0; day < 45; day++) {
      await practise("steady", day);
      if (day >= 10 && (day - 10) % 7 === 0) await practise("weekly", day);
      if (day >= 36 && day <= 39) await practise("eve", day);
    }
    await practise("steady");
    await practise("weekly");
    // eve's run of 4 ended with day 40, missed (her read judges it and takes her off the board).
    expect((await server.rest("GET", "/v1/users/eve/streak")).body).toMatchObject({ length: 0 });
    expect(await board()).toEqual([
      ["steady", 46],
      ["weekly", 1],
    ]);
    const users = server.service.context.database.collections.users;
    expect((await readStoredUser(users, "default", "steady"))!.pages?.["streak:history"]).toBeDefined();

    // To weekly: steady's days 0-45 are the seven weeks from 29 April; weekly's the six from 6 May.
    await switchTo("weekly");
    // eve's event before any visit: her days 36-39 met the week of 3 June, today's meets this one.
    expect((await practise("eve")).currentStreak).toMatchObject({ length: 2, frequency: "weekly", started: dateOf(36), extended: true });
    clock += AFTER_IMPORT;
    await until(
      () => server.rest("GET", "/v1/streaks/rankings?type=active"),
      (body) => body.some((r: { userId: string; streakLength: number }) => r.userId === "weekly" && r.streakLength === 6),
      180_000,
    );
    await until(
      () => server.rest("GET", "/v1/leaderboards/streaks"),
      (body) => body.rankings.some((r: { userId: string; value: number }) => r.userId === "weekly" && r.value === 6),
      180_000,
    );
    expect(await board()).toEqual([
      ["steady", 7],
      ["weekly", 6],
      ["eve", 2],
    ]);
    expect(await streakRankings()).toEqual([
      ["steady", 7],
      ["weekly", 6],
      ["eve", 2],
    ]);
    // The visit stored the new streak: the daily periods' pages went with the daily history.
    const stored = (await readStoredUser(users, "default", "steady"))!;
    expect([stored.state.streak!.frequency, stored.state.streak!.length, stored.pages?.["streak:history"]]).toEqual(["weekly", 7, undefined]);
    expect((await server.rest("GET", "/v1/users/steady/streak")).body).toMatchObject({
      length: 7,
      frequency: "weekly",
      started: dateOf(0),
      periodStart: dateOf(40), // Monday 10 June
      periodEnd: dateOf(46),
      expires: dateOf(53),
    });
    expect(await periodsOf("steady")).toEqual(Array.from({ length: 7 }, (_, i) => [dateOf(-2 + 7 * i), dateOf(4 + 7 * i), i + 1]));
    expect((await server.rest("GET", "/v1/users/weekly/streak")).body).toMatchObject({ length: 6, started: dateOf(10) });

    // Day 47, next week: weekly's one event extends their streak to 7.
    clock = D0 + 47 * DAY;
    await practise("weekly");
    expect((await server.rest("GET", "/v1/users/weekly/streak")).body).toMatchObject({ length: 7, frequency: "weekly" });

    // Back to daily: steady's run of 46 and eve's of 1 (day 45) ended with day 46, missed; weekly has today's 1.
    await switchTo("daily");
    clock += 2 * MINUTE;
    await until(
      () => server.rest("GET", "/v1/streaks/rankings?type=active"),
      (body) => body.length === 1 && body[0].streakLength === 1,
      180_000,
    );
    expect(await streakRankings()).toEqual([["weekly", 1]]);
    const steady = (await server.rest("GET", "/v1/users/steady/streak?historyPeriods=100")).body;
    expect(steady).toMatchObject({ length: 0, frequency: "daily" });
    expect(steady.streakHistory.map((p: { length: number }) => p.length)).toEqual([...Array.from({ length: 46 }, (_, i) => i + 1), 0, 0]);
    await practise("steady");
    // Moves of the tenant's doing sent no rank webhooks (weekly: 1 to 6, 7 to 1, from rank 2 to
    // rank 1); steady's event, after them, did.
    await receiver.waitFor("/hook", () => rankMessages("steady").some(([, value]) => value === 1));
    expect(rankMessages("weekly").filter(([previous, value]) => value === 6 || (previous === 7 && value === 1))).toEqual([]);
    expect((await board()).sort()).toEqual([
      ["steady", 1],
      ["weekly", 1],
    ]);
  }, 300_000);
});
