import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

/**
 * Leaderboard opt-out (issue 18, part 3): the `leaderboards.optOut` user preference takes a user
 * off every leaderboard ranking and the streak rankings at once, keeps their game state, answers
 * their own reads as unranked, and puts them back with their current values when cleared. Two
 * leaderboards, three users; REST and Connect.
 */
let server: TestServer;
let receiver: WebhookReceiver;
/** The service's clock runs with real time, moved on by this much (to pass `leaderboard.changed`'s 15 minutes). */
let offsetMs = 0;

const NOW = Date.now();
const day = (offset: number) => new Date(NOW + offset * 86_400_000).toISOString().slice(0, 10);

const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

async function event(metric: string, user: string, value: number) {
  const response = await server.rest("POST", `/v1/metrics/${metric}/event`, { body: { user: { id: user, tz: "UTC", name: user.toUpperCase() }, value } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

/** A leaderboard's rankings over REST as [user, rank, value], and its participant count. */
async function board(key: string, query = "") {
  const response = await server.rest("GET", `/v1/leaderboards/${key}${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return {
    rows: response.body.rankings.map((r: { userId: string; rank: number; value: number }) => [r.userId, r.rank, r.value]),
    participants: response.body.participants,
  };
}

/** The same over Connect JSON. */
async function boardOverConnect(key: string) {
  const { leaderboard } = await server.client("connect-json").leaderboardReads.getLeaderboardRankings({ key });
  return leaderboard!.rankings.map((r) => [r.userId, r.rank, r.value]);
}

const streakUsers = async () => ((await server.rest("GET", "/v1/streaks/rankings?limit=100")).body as Array<{ userId: string }>).map((r) => r.userId).sort();

const optOut = (user: string, value: boolean) => server.rest("PATCH", `/v1/users/${user}/preferences`, { body: { leaderboards: { optOut: value } } });

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({ now: () => new Date(Date.now() + offsetMs), webhooks: { allowPrivateNetworks: true, pollMs: 100, boostCheckMs: 200 } });
  expect(
    (await server.rest("POST", "/admin/v1/webhooks", { body: [{ url: receiver.url("/lb"), eventTypes: ["leaderboard.rank_changed", "leaderboard.changed"] }] }))
      .status,
  ).toBe(201);
  const [words, lessons] = await created("/admin/v1/metrics", [
    { key: "words", name: "Words" },
    { key: "lessons", name: "Lessons" },
  ]);
  await created("/admin/v1/leaderboards", [
    { key: "words-board", name: "Words", rankBy: "metric", metricId: words, status: "active", start: day(-30) },
    { key: "lessons-board", name: "Lessons", rankBy: "metric", metricId: lessons, status: "active", start: day(-30) },
  ]);
  await server.rest("PATCH", "/admin/v1/streaks/settings", { body: { frequency: "daily", metrics: [{ key: "words", threshold: 1 }] } });
  // words: ann 30, bob 20, cat 10; lessons: cat 15, bob 10, ann 5.
  for (const [user, w, l] of [
    ["ann", 30, 5],
    ["bob", 20, 10],
    ["cat", 10, 15],
  ] as const) {
    await event("words", user, w);
    await event("lessons", user, l);
  }
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

/** The webhook bodies received of a type. */
const received = (type: string) =>
  receiver
    .at("/lb")
    .map((r) => r.json)
    .filter((b) => b?.type === type);

/** bob's `leaderboard.rank_changed` messages from a moment on (the service's clock), by leaderboard key. */
const bobsMoves = (since = "") =>
  received("leaderboard.rank_changed")
    .filter((b) => b.user.id === "bob" && b.timestamp >= since)
    .map(({ leaderboard: l }) => ({ key: l.key, previousRank: l.previousRank, rank: l.rank, previousValue: l.previousValue, value: l.value, status: l.status }))
    .sort((a, b) => a.key.localeCompare(b.key));

describe("leaderboard opt-out", () => {
  it("starts off: the preference reads false and every user is ranked", async () => {
    expect((await server.rest("GET", "/v1/users/bob/preferences")).body.leaderboards).toEqual({ optOut: false });
    expect(await board("words-board")).toEqual({
      rows: [
        ["ann", 1, 30],
        ["bob", 2, 20],
        ["cat", 3, 10],
      ],
      participants: 3,
    });
    expect(await board("lessons-board")).toEqual({
      rows: [
        ["cat", 1, 15],
        ["bob", 2, 10],
        ["ann", 3, 5],
      ],
      participants: 3,
    });
    expect(await streakUsers()).toEqual(["ann", "bob", "cat"]);
  });

  it("takes the user off every ranking at once; the others close up exactly", async () => {
    const answer = await optOut("bob", true);
    expect(answer.status).toBe(200);
    expect(answer.body.leaderboards).toEqual({ optOut: true });
    // The other preferences are untouched.
    expect(answer.body.notifications).toEqual({ achievement_completed: null, recap: null, reactivation: null, streak_reminder: null });

    expect(await board("words-board")).toEqual({
      rows: [
        ["ann", 1, 30],
        ["cat", 2, 10],
      ],
      participants: 2,
    });
    expect(await board("lessons-board")).toEqual({
      rows: [
        ["cat", 1, 15],
        ["ann", 2, 5],
      ],
      participants: 2,
    });
    expect(await boardOverConnect("words-board")).toEqual([
      ["ann", 1, 30],
      ["cat", 2, 10],
    ]);
    expect(await streakUsers()).toEqual(["ann", "cat"]);
    // A page around the user: none (as for any user not ranked).
    expect((await board("words-board", "?userId=bob")).rows).toEqual([]);
    expect((await board("words-board", "?userId=cat")).rows).toEqual([["cat", 2, 10]]);
  });

  it("tells webhooks the user's rank went, their value kept (as an event's move is told)", async () => {
    const moves = () => bobsMoves().filter((m) => m.rank === null);
    await receiver.waitFor("/lb", () => moves().length === 2);
    expect(moves()).toEqual([
      { key: "lessons-board", previousRank: 2, rank: null, previousValue: 10, value: 10, status: "active" },
      { key: "words-board", previousRank: 2, rank: null, previousValue: 20, value: 20, status: "active" },
    ]);
  });

  it("answers the user's own read as unranked, keeping their game state", async () => {
    const own = await server.rest("GET", "/v1/users/bob/leaderboards/words-board");
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ key: "words-board", rank: null, value: 20 });
    const overConnect = await server.client("connect-json").leaderboardReads.getUserLeaderboard({ id: "bob", key: "lessons-board" });
    expect(overConnect.leaderboard!.rank).toBeUndefined();
    expect(overConnect.leaderboard!.value).toBe(10);
    expect((await server.rest("GET", "/v1/users/bob/metrics/words")).body).toMatchObject({ current: 20 });
    expect((await server.rest("GET", "/v1/users/bob/streak")).body).toMatchObject({ length: 1 });
  });

  it("ranks none of the user's later events, and names them in no event response", async () => {
    const answer = await event("words", "bob", 25); // 45 in all: would be first
    expect(answer.leaderboards).toEqual({});
    expect(await board("words-board")).toEqual({
      rows: [
        ["ann", 1, 30],
        ["cat", 2, 10],
      ],
      participants: 2,
    });
    expect((await server.rest("GET", "/v1/users/bob/leaderboards/words-board")).body).toMatchObject({ rank: null, value: 45 });
    // Others' events rank as before, around the gap.
    expect((await event("words", "cat", 25)).leaderboards["words-board"]).toMatchObject({ rank: 1, previousRank: 2 });
    expect(await board("words-board")).toEqual({
      rows: [
        ["cat", 1, 35],
        ["ann", 2, 30],
      ],
      participants: 2,
    });
  });

  it("names the user in no leaderboard webhook while opted out", async () => {
    // Before opting out, bob's changes were announced (so the check below can fail).
    await receiver.waitFor("/lb", () => received("leaderboard.rank_changed").some((b) => b.user.id === "bob" && b.leaderboard.value === 20));
    offsetMs += 16 * 60_000;
    const isCurrent = (b: any) => b.leaderboard.key === "words-board" && b.leaderboard.rankings.some((r: any) => r.userId === "cat" && r.value === 35);
    await receiver.waitFor("/lb", () => received("leaderboard.changed").some(isCurrent));
    expect(
      received("leaderboard.changed")
        .filter(isCurrent)
        .map((b) => b.leaderboard.rankings.map((r: any) => [r.userId, r.rank, r.value])),
    ).toContainEqual([
      ["cat", 1, 35],
      ["ann", 2, 30],
    ]);
    // cat's change was announced; bob's (to 45, while out) was not.
    await receiver.waitFor("/lb", () => received("leaderboard.rank_changed").some((b) => b.user.id === "cat" && b.leaderboard.value === 35));
    expect(received("leaderboard.rank_changed").filter((b) => b.user.id === "bob" && b.leaderboard.value === 45)).toEqual([]);
  });

  it("cleared (over Connect), puts the user back at the rank of their current values", async () => {
    const since = new Date(Date.now() + offsetMs).toISOString();
    const { preferences } = await server
      .client("connect-json")
      .application.updateUserPreferences({ id: "bob", preferences: { leaderboards: { optOut: false } } });
    expect(preferences!.leaderboards!.optOut).toBe(false);
    expect(await board("words-board")).toEqual({
      rows: [
        ["bob", 1, 45],
        ["cat", 2, 35],
        ["ann", 3, 30],
      ],
      participants: 3,
    });
    expect(await board("lessons-board")).toEqual({
      rows: [
        ["cat", 1, 15],
        ["bob", 2, 10],
        ["ann", 3, 5],
      ],
      participants: 3,
    });
    expect(await streakUsers()).toEqual(["ann", "bob", "cat"]);
    expect((await server.rest("GET", "/v1/users/bob/leaderboards/words-board")).body).toMatchObject({ rank: 1, value: 45 });
    // Webhooks are told of the rank's return, the value as it was.
    await receiver.waitFor("/lb", () => bobsMoves(since).length === 2);
    expect(bobsMoves(since)).toEqual([
      { key: "lessons-board", previousRank: null, rank: 2, previousValue: 10, value: 10, status: "active" },
      { key: "words-board", previousRank: null, rank: 1, previousValue: 45, value: 45, status: "active" },
    ]);
    // And later events rank again.
    expect((await event("lessons", "bob", 10)).leaderboards["lessons-board"]).toMatchObject({ rank: 1, previousRank: 2 });
  });

  it("an update without `leaderboards` leaves the opt-out as it is", async () => {
    await optOut("ann", true);
    const other = await server.rest("PATCH", "/v1/users/ann/preferences", { body: { notifications: { recap: ["email"] } } });
    expect(other.body.leaderboards).toEqual({ optOut: true });
    const again = await optOut("ann", true); // repeating it changes nothing
    expect(again.status).toBe(200);
    expect((await board("words-board")).rows).toEqual([
      ["bob", 1, 45],
      ["cat", 2, 35],
    ]);
    const refused = await server.rest("PATCH", "/v1/users/ann/preferences", { body: { leaderboards: { optOut: "yes" } } });
    expect(refused.status).toBe(400);
    expect((await server.rest("GET", "/v1/users/ann/preferences")).body.leaderboards).toEqual({ optOut: true });
    await optOut("ann", false);
    expect((await board("words-board")).rows).toEqual([
      ["bob", 1, 45],
      ["cat", 2, 35],
      ["ann", 3, 30],
    ]);
  });

  it("shows no page around an opted-out user in a run that ended before they opted out (it would tell their rank)", async () => {
    const [steps] = await created("/admin/v1/metrics", [{ key: "steps", name: "Steps" }]);
    await created("/admin/v1/leaderboards", [
      { key: "daily-steps", name: "Daily steps", rankBy: "metric", metricId: steps, status: "active", start: day(-30), runUnit: "day", runInterval: 1 },
    ]);
    // Final everywhere (12:00 UTC the day after it has passed): no event can change it any more.
    const yesterday = day(-2);
    for (const [user, value] of [
      ["dan", 9],
      ["eve", 8],
      ["fay", 7],
    ] as const) {
      const sent = await server.rest("POST", "/v1/metrics/steps/event", {
        body: { user: { id: user, tz: "UTC" }, value, timestamp: `${yesterday}T12:00:00.000Z` },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }
    expect((await board("daily-steps", `?run=${yesterday}&userId=eve`)).rows).toEqual([
      ["eve", 2, 8],
      ["fay", 3, 7],
    ]);
    // Today's run is eve's entry now: the opt-out takes her out of it, yesterday's keeps her line, unread.
    expect((await server.rest("POST", "/v1/metrics/steps/event", { body: { user: { id: "eve" }, value: 1 } })).status).toBe(201);
    await optOut("eve", true);
    expect((await board("daily-steps", `?run=${yesterday}`)).rows).toEqual([
      ["dan", 1, 9],
      ["fay", 3, 7],
    ]);
    expect((await board("daily-steps", `?run=${yesterday}&userId=eve`)).rows).toEqual([]);
    await optOut("eve", false);
    expect((await board("daily-steps", `?run=${yesterday}&userId=eve`)).rows).toEqual([
      ["eve", 2, 8],
      ["fay", 3, 7],
    ]);
  });
  it("takes the user out of an earlier run other users still play (a zone moved west), and back in", async () => {
    const [hops] = await created("/admin/v1/metrics", [{ key: "hops", name: "Hops" }]);
    await created("/admin/v1/leaderboards", [
      { key: "daily-hops", name: "Daily hops", rankBy: "metric", metricId: hops, status: "active", start: day(-30), runUnit: "day", runInterval: 1 },
    ]);
    const date = day(3);
    const at = (time: string) => (offsetMs = Date.parse(`${date}T${time}Z`) - Date.now());
    const hop = async (user: { id: string; tz: string }, value: number) =>
      expect((await server.rest("POST", "/v1/metrics/hops/event", { body: { user, value } })).status).toBe(201);
    try {
      at("10:30:00");
      await hop({ id: "west", tz: "Pacific/Kiritimati" }, 5); // 00:30 the next day there: the next day's run
      at("12:00:00");
      await hop({ id: "west", tz: "Pacific/Pago_Pago" }, 9); // 01:00 there: this date's run, before the entry's
      await hop({ id: "home", tz: "UTC" }, 3);
      expect(await board("daily-hops", `?run=${date}`)).toEqual({
        rows: [
          ["west", 1, 9],
          ["home", 2, 3],
        ],
        participants: 2,
      });
      await optOut("west", true);
      expect(await board("daily-hops", `?run=${date}`)).toEqual({ rows: [["home", 1, 3]], participants: 1 });
      await optOut("west", false);
      expect(await board("daily-hops", `?run=${date}`)).toEqual({
        rows: [
          ["west", 1, 9],
          ["home", 2, 3],
        ],
        participants: 2,
      });
    } finally {
      offsetMs = 0;
    }
  });

  it("opted back in after their own midnight, the user goes back into the run they left while others still play it", async () => {
    const [naps] = await created("/admin/v1/metrics", [{ key: "naps", name: "Naps" }]);
    await created("/admin/v1/leaderboards", [
      { key: "daily-naps", name: "Daily naps", rankBy: "metric", metricId: naps, status: "active", start: day(-30), runUnit: "day", runInterval: 1 },
    ]);
    const date = day(5);
    const at = (iso: string) => (offsetMs = Date.parse(iso) - Date.now());
    const nap = async (user: { id: string; tz: string }, value: number) =>
      expect((await server.rest("POST", "/v1/metrics/naps/event", { body: { user, value } })).status).toBe(201);
    try {
      at(`${date}T20:00:00Z`);
      await nap({ id: "early-bird", tz: "UTC" }, 10);
      await nap({ id: "sleeper", tz: "UTC" }, 4);
      at(`${date}T23:30:00Z`);
      await optOut("early-bird", true);
      at(`${day(6)}T00:30:00Z`); // the run has ended in UTC, not yet in Los Angeles
      await optOut("early-bird", false);
      await nap({ id: "night-owl", tz: "America/Los_Angeles" }, 20); // 17:30 there: the same run
      expect(await board("daily-naps", `?run=${date}`)).toEqual({
        rows: [
          ["night-owl", 1, 20],
          ["early-bird", 2, 10],
          ["sleeper", 3, 4],
        ],
        participants: 3,
      });
    } finally {
      offsetMs = 0;
    }
  });
});
