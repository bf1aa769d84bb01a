import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";

// A threshold lowered during a period applies to what users already did in it: the next event of
// any metric counts the period, and a period left without one counts at its end (a read or the
// scheduler catches it up), so nobody loses a streak the settings in force say they kept.

let now = Date.parse("2030-06-03T10:00:30Z");
const setNow = (iso: string) => (now = Date.parse(iso));
let server: TestServer;
const T = "lowered";
let minutesId = "";

async function event(metric: string, userId: string, value: number, timestamp: string) {
  const r = await server.rest("POST", `/v1/metrics/${metric}/event`, { tenantId: T, body: { user: { id: userId, tz: "UTC" }, value, timestamp } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}
async function threshold(value: number, status: number) {
  const r = await server.rest("PUT", "/admin/v1/streaks/settings", {
    tenantId: T,
    body: { frequency: "daily", metrics: [{ metricId: minutesId, threshold: value }] },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(status); // 201 created, 200 replaced
}

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(now) });
  expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: T, name: T }] })).status).toBe(201);
  const metrics = await server.rest("POST", "/admin/v1/metrics", {
    tenantId: T,
    body: [
      { key: "minutes", name: "Minutes" },
      { key: "logins", name: "Logins" },
    ],
  });
  minutesId = metrics.body.created[0].id;
  await threshold(10, 201);
});
afterAll(() => server.close());

describe("a streak threshold lowered during a period", () => {
  it("counts the period of a user who already did enough, at its end or at their next event", async () => {
    setNow("2030-06-03T10:00:30Z");
    for (const user of ["quiet", "busy"]) {
      expect((await event("minutes", user, 10, "2030-06-03T10:00:00Z")).currentStreak).toMatchObject({ length: 1, extended: true });
    }
    setNow("2030-06-04T09:00:30Z");
    for (const user of ["quiet", "busy"]) {
      expect((await event("minutes", user, 5, "2030-06-04T09:00:00Z")).currentStreak).toMatchObject({ length: 1, extended: false });
    }
    setNow("2030-06-04T12:00:00Z");
    await threshold(3, 200);
    // Any event judges the period again: a metric the streak does not count extends it now.
    setNow("2030-06-04T12:00:30Z");
    expect((await event("logins", "busy", 1, "2030-06-04T12:00:00Z")).currentStreak).toMatchObject({ length: 2, extended: true, expires: "2030-06-05" });
    // The other user sends nothing more that day: the day counts at its end.
    setNow("2030-06-05T08:00:00Z");
    const read = await server.rest("GET", "/v1/users/quiet/streak?historyPeriods=3", { tenantId: T });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body).toMatchObject({ length: 2, started: "2030-06-03", expires: "2030-06-05", extended: "2030-06-04T23:59:59.999Z" });
    expect(read.body.streakHistory.map((p: { periodStart: string; length: number }) => [p.periodStart, p.length])).toEqual([
      ["2030-06-03", 1],
      ["2030-06-04", 2],
      ["2030-06-05", 2],
    ]);
    const rankings = await server.rest("GET", "/v1/streaks/rankings", { tenantId: T });
    expect(rankings.body.map((r: { userId: string; streakLength: number }) => [r.userId, r.streakLength])).toEqual([
      ["busy", 2],
      ["quiet", 2],
    ]);
  });
});
