import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";

// Reads never depend on the scheduler: with it held back (its lease taken by an instance that never
// comes), a user's own leaderboard read shows a streak that lapsed by now as gone from the board.

let server: TestServer;
let clock = Date.parse("2025-03-01T10:00:00Z");

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(clock) });
  // The scheduler's lease, held far into the future by someone else: no visit happens in this file.
  await server.service.context.database.collections.leases.insertOne({
    _id: "scheduler:users",
    owner: "elsewhere",
    leaseUntil: new Date("2100-01-01T00:00:00Z"),
    version: 1,
    cursor: null,
  });
  const metric = await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "lessons", name: "Lessons" }] });
  const lessons = metric.body.created[0].id;
  const settings = await server.rest("PUT", "/admin/v1/streaks/settings", {
    body: { frequency: "daily", metrics: [{ metricId: lessons, threshold: 1 }], evaluationMode: "all" },
  });
  expect(settings.status).toBeLessThan(300);
  const board = await server.rest("POST", "/admin/v1/leaderboards", {
    body: [{ key: "streak", name: "Streak", rankBy: "streak", status: "active", start: "2025-03-01" }],
  });
  expect(board.body.issues).toEqual([]);
});
afterAll(() => server?.close());

const lesson = async (user: string) =>
  expect((await server.rest("POST", "/api/metrics/lessons/event", { body: { user: { id: user, tz: "UTC" }, value: 1 } })).status).toBe(201);
const board = async () =>
  (await server.rest("GET", "/v1/leaderboards/streak")).body.rankings.map((r: { userId: string; value: number }) => [r.userId, r.value]);

describe("a streak lapsed while the scheduler is behind", () => {
  it("is gone from the user's own leaderboard read, and from the board once read", async () => {
    await lesson("a");
    await lesson("b");
    clock = Date.parse("2025-03-02T09:00:00Z");
    await lesson("b");
    expect(await board()).toEqual([
      ["b", 2],
      ["a", 1],
    ]);
    // b missed 03-03 and 03-04; a missed 03-02 on.
    clock = Date.parse("2025-03-05T02:00:00Z");
    const own = await server.rest("GET", "/v1/users/b/leaderboards/streak");
    expect([own.status, own.body.rank, own.body.value]).toEqual([200, null, null]);
    expect(await board()).toEqual([["a", 1]]); // a's lapse waits for the scheduler or a read of theirs
    const a = await server.rest("GET", "/v1/users/a/leaderboards/streak");
    expect([a.body.rank, a.body.value]).toEqual([null, null]);
    expect(await board()).toEqual([]);
    expect((await server.rest("GET", "/v1/users/b/streak")).body.length).toBe(0);
  });
});
