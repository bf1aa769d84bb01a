import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { rankingsOf } from "../../src/features/leaderboards/ranking-updates.js";
import { DEFAULT_SCOPE } from "../../src/features/account/domain/tenant.js";

// A leaderboard redefined while inactive (another metric, points instead, other runs or breakdowns)
// starts over: no ranking or user value of its earlier definition is read, or added to. And a user's
// past runs are read in the breakdown group they were ranked in then.

// Fixed clock: Monday 2030-05-20 12:00 UTC.
const NOW = Date.parse("2030-05-20T12:00:00Z");
let server: TestServer;
const ids: Record<string, string> = {};

const created = (path: string, body: unknown[]) => createdIds(server, path, body);
async function event(metric: string, user: Record<string, unknown>, value: number, timestamp?: string) {
  const r = await server.rest("POST", `/v1/metrics/${metric}/event`, { body: { user, value, ...(timestamp && { timestamp }) } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}
async function rows(path: string) {
  const r = await server.rest("GET", path);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.rankings.map((x: { userId: string; rank: number; value: number }) => [x.userId, x.rank, x.value]);
}
async function patch(body: unknown[]) {
  const r = await server.rest("PATCH", "/admin/v1/leaderboards", { body });
  expect(r.body.issues, JSON.stringify(r.body)).toEqual([]);
  return r.body.updated[0];
}
const standing = async (user: string, key: string, query = "") => (await server.rest("GET", `/v1/users/${user}/leaderboards/${key}${query}`)).body;

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(NOW) });
  const metrics = ["laps", "swims", "reps", "days", "trips", "moves"];
  (
    await created(
      "/admin/v1/metrics",
      metrics.map((key) => ({ key, name: key })),
    )
  ).forEach((id, i) => (ids[metrics[i]!] = id));
  ids.xp = (await created("/admin/v1/points", [{ key: "xp", name: "XP" }]))[0]!;
  await created(`/admin/v1/points/${ids.xp}/triggers`, [{ type: "metric", metricId: ids.reps, points: 10, metricThreshold: 1, status: "active" }]);
  ids.country = (await created("/admin/v1/attributes", [{ key: "country", name: "Country", type: "user" }]))[0]!;
  const board = (key: string, metric: string, extra: Record<string, unknown> = {}) => ({
    key,
    name: key,
    rankBy: "metric",
    metricId: ids[metric],
    status: "active",
    start: "2030-05-01",
    ...extra,
  });
  const boards = [
    board("switch", "laps"),
    board("to-points", "reps"),
    board("made-weekly", "days"),
    board("renamed", "trips"),
    // 7-day runs: 05-01..05-07, 05-08..05-14, 05-15..05-21.
    board("weekly-by-country", "moves", { runUnit: "day", runInterval: 7, breakdownAttributes: [ids.country] }),
  ];
  (await created("/admin/v1/leaderboards", boards)).forEach((id, i) => (ids[boards[i]!.key] = id));
});
afterAll(() => server.close());

describe("a leaderboard redefined while inactive", () => {
  it("switched to another metric ranks only that metric's values; the old rankings are deleted", async () => {
    await event("laps", { id: "s1" }, 100);
    await event("laps", { id: "s2" }, 50);
    await patch([{ id: ids.switch, status: "inactive" }]);
    await patch([{ id: ids.switch, metricId: ids.swims }]);
    await patch([{ id: ids.switch, status: "active" }]);
    expect(await rows("/v1/leaderboards/switch")).toEqual([]);
    // s2's 50 laps are not added to: 1 swim is 1.
    expect((await event("swims", { id: "s2" }, 1)).leaderboards.switch).toMatchObject({ rank: 1, previousRank: null });
    expect(await rows("/v1/leaderboards/switch")).toEqual([["s2", 1, 1]]);
    // s1 has no standing in it, and their history of the earlier definition is not shown.
    expect(await standing("s1", "switch")).toMatchObject({ rank: null, value: null, history: [] });
    expect((await standing("s2", "switch")).history).toEqual([expect.objectContaining({ previousValue: null, value: 1 })]);
    // The earlier definition's ranking is gone from the store.
    expect(await rankingsOf(server.service.context).groupsOfRun(DEFAULT_SCOPE, ids.switch!, "2030-05-01")).toEqual([]);
  });

  it("changed to points shows no metric values, and ranks the points from then on (Connect and gRPC read the same)", async () => {
    await event("reps", { id: "r1" }, 500);
    expect(await rows("/v1/leaderboards/to-points")).toEqual([["r1", 1, 500]]);
    await patch([{ id: ids["to-points"], status: "inactive" }]);
    const changed = await patch([{ id: ids["to-points"], rankBy: "points", pointsSystemId: ids.xp, status: "active" }]);
    expect(changed).toMatchObject({ rankBy: "points", pointsSystemId: ids.xp, status: "active" });
    const read = await server.rest("GET", "/v1/leaderboards/to-points");
    expect(read.body).toMatchObject({ rankBy: "points", pointsSystemKey: "xp", metricKey: null, rankings: [] });
    await event("reps", { id: "r1" }, 1); // 10 XP
    expect(await rows("/v1/leaderboards/to-points")).toEqual([["r1", 1, 10]]);
    for (const protocol of ["connect-json", "grpc"] as const) {
      const reads = server.client(protocol).leaderboardReads;
      const { leaderboard } = await reads.getUserLeaderboard({ id: "r1", key: "to-points" });
      expect({ protocol, rank: leaderboard?.rank, value: leaderboard?.value }).toEqual({ protocol, rank: 1, value: 10 });
    }
  });

  it("made repeating: its first run holds only what its own days counted", async () => {
    await event("days", { id: "q1" }, 7, "2030-05-19T10:00:00Z"); // the perpetual run from 05-01
    await patch([{ id: ids["made-weekly"], status: "inactive" }]);
    await patch([{ id: ids["made-weekly"], runUnit: "day", runInterval: 7, status: "active" }]);
    expect(await rows("/v1/leaderboards/made-weekly?run=2030-05-01")).toEqual([]);
    expect(await rows("/v1/leaderboards/made-weekly")).toEqual([]);
    await event("days", { id: "q1" }, 2);
    expect(await rows("/v1/leaderboards/made-weekly")).toEqual([["q1", 1, 2]]);
  });

  it("a user who opted out before does not bring the earlier definition's value back when opting in", async () => {
    await event("trips", { id: "o1" }, 30);
    expect((await server.rest("PATCH", "/v1/users/o1/preferences", { body: { leaderboards: { optOut: true } } })).status).toBe(200);
    await patch([{ id: ids.renamed, status: "inactive" }]);
    await patch([{ id: ids.renamed, metricId: ids.laps, status: "active" }]);
    expect((await server.rest("PATCH", "/v1/users/o1/preferences", { body: { leaderboards: { optOut: false } } })).status).toBe(200);
    expect(await rows("/v1/leaderboards/renamed")).toEqual([]);
  });

  it("a new key alone is no redefinition: the rankings and values stay", async () => {
    await event("laps", { id: "k1" }, 4);
    await patch([{ id: ids.renamed, status: "inactive" }]);
    await patch([{ id: ids.renamed, key: "renamed-again", status: "active" }]);
    expect(await rows("/v1/leaderboards/renamed-again")).toEqual([["k1", 1, 4]]);
    await event("laps", { id: "k1" }, 1);
    expect(await rows("/v1/leaderboards/renamed-again")).toEqual([["k1", 1, 5]]);
  });
});

describe("breakdown groups across runs", () => {
  it("a past run is read in the group the user was ranked in then, though it changed since", async () => {
    await event("moves", { id: "g1", attributes: { country: "NZ" } }, 5, "2030-05-09T12:00:00Z");
    await event("moves", { id: "g2", attributes: { country: "NZ" } }, 3, "2030-05-09T13:00:00Z");
    // The current run (05-15..05-21): g1 is in AU now.
    await event("moves", { id: "g1", attributes: { country: "AU" } }, 1);
    expect(await rows("/v1/leaderboards/weekly-by-country?run=2030-05-08&userAttributes=country:NZ")).toEqual([
      ["g1", 1, 5],
      ["g2", 2, 3],
    ]);
    expect(await standing("g1", "weekly-by-country", "?run=2030-05-08")).toMatchObject({
      rank: 1,
      value: 5,
      breakdownAttributeValues: [{ key: "country", value: "NZ" }],
    });
    expect(await rows("/v1/leaderboards/weekly-by-country?run=2030-05-08&userId=g1")).toEqual([
      ["g1", 1, 5],
      ["g2", 2, 3],
    ]);
    // The current run: AU.
    expect(await standing("g1", "weekly-by-country")).toMatchObject({ rank: 1, value: 1, breakdownAttributeValues: [{ key: "country", value: "AU" }] });
  });

  it("a backdated change to an earlier run in another group moves the user's value there: one group per run", async () => {
    // The run 05-08..05-14 in NZ (zone UTC): 5.
    await event("moves", { id: "p1", tz: "UTC", attributes: { country: "NZ" } }, 5, "2030-05-09T12:00:00Z");
    // 2030-05-14T16:00Z is 05-15 in Tokyo: the run from 05-15, still NZ.
    await event("moves", { id: "p1", tz: "Asia/Tokyo" }, 1, "2030-05-14T16:00:00Z");
    // An hour later it is still 05-14 in Los Angeles: the earlier run, now in AU.
    await event("moves", { id: "p1", tz: "America/Los_Angeles", attributes: { country: "AU" } }, 2, "2030-05-14T17:00:00Z");
    const nz = await rows("/v1/leaderboards/weekly-by-country?run=2030-05-08&userAttributes=country:NZ");
    const au = await rows("/v1/leaderboards/weekly-by-country?run=2030-05-08&userAttributes=country:AU");
    expect(nz.filter((r: unknown[]) => r[0] === "p1")).toEqual([]);
    expect(au.filter((r: unknown[]) => r[0] === "p1")).toEqual([["p1", 1, 7]]);
    expect(await standing("p1", "weekly-by-country", "?run=2030-05-08")).toMatchObject({
      value: 7,
      breakdownAttributeValues: [{ key: "country", value: "AU" }],
    });
  });
});
