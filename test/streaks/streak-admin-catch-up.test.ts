import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";

// Admin freeze and pause calls act on the streak caught up to now: a period that ended before the
// call is judged with the pauses and freezes in force at its end, as a read would show it, before
// the call changes anything.

let now = Date.parse("2030-05-20T11:00:30Z");
const setNow = (iso: string) => (now = Date.parse(iso));
let server: TestServer;

async function tenantWithStreak(tenantId: string, freezes: { initialGrant: number; maxFreezes: number }) {
  expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenantId, name: tenantId }] })).status).toBe(201);
  const metricId = (await server.rest("POST", "/admin/v1/metrics", { tenantId, body: [{ key: "m", name: "m" }] })).body.created[0].id;
  const settings = await server.rest("PUT", "/admin/v1/streaks/settings", {
    tenantId,
    body: { frequency: "daily", metrics: [{ metricId, threshold: 1 }], freezes },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(201);
}
async function event(tenantId: string, userId: string, timestamp: string) {
  const r = await server.rest("POST", "/v1/metrics/m/event", { tenantId, body: { user: { id: userId, tz: "UTC" }, value: 1, timestamp } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}
async function read(tenantId: string, userId: string) {
  const r = await server.rest("GET", `/v1/users/${userId}/streak?historyPeriods=3`, { tenantId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}
const days = (streak: any) => streak.streakHistory.map((p: any) => [p.periodStart, p.length, p.usedPause, p.usedFreeze]);
async function pause(tenantId: string, userId: string, start: string, end: string): Promise<string> {
  const r = await server.rest("POST", "/admin/v1/streaks/pauses", { tenantId, body: { pauses: [{ userId, start, end }] } });
  expect(r.body.issues, JSON.stringify(r.body)).toEqual([]);
  return r.body.created[0].id;
}

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(now) });
  await tenantWithStreak("one-freeze", { initialGrant: 1, maxFreezes: 3 });
  await tenantWithStreak("no-freeze", { initialGrant: 0, maxFreezes: 2 });
});
afterAll(() => server.close());

describe("admin streak calls after a period ended, before anything judged it", () => {
  it("deleting a pause after a day it held has ended keeps that day held: no freeze used", async () => {
    setNow("2030-05-20T11:00:30Z");
    await event("one-freeze", "pd", "2030-05-20T11:00:00Z");
    const id = await pause("one-freeze", "pd", "2030-05-21", "2030-05-22");
    setNow("2030-05-22T00:00:30Z"); // 05-21, paused, ended 30 s ago
    expect((await server.rest("DELETE", `/admin/v1/streaks/pauses?ids=${id}`, { tenantId: "one-freeze" })).body.deleted).toEqual([{ id }]);
    setNow("2030-05-22T12:00:00Z");
    const streak = await read("one-freeze", "pd");
    expect(days(streak)).toEqual([
      ["2030-05-20", 1, false, false],
      ["2030-05-21", 1, true, false],
      ["2030-05-22", 1, false, false],
    ]);
    expect([streak.length, streak.freezes]).toEqual([1, 1]);
  });

  it("deleting a pause after a read showed the day held does not change that day", async () => {
    setNow("2030-05-20T11:00:30Z");
    await event("one-freeze", "pr", "2030-05-20T11:00:00Z");
    const id = await pause("one-freeze", "pr", "2030-05-21", "2030-05-22");
    setNow("2030-05-22T12:00:00Z");
    const before = await read("one-freeze", "pr");
    expect(before.streakHistory[1]).toMatchObject({ periodStart: "2030-05-21", usedPause: true, usedFreeze: false });
    await server.rest("DELETE", `/admin/v1/streaks/pauses?ids=${id}`, { tenantId: "one-freeze" });
    const after = await read("one-freeze", "pr");
    expect(after.streakHistory[1]).toEqual(before.streakHistory[1]);
    expect([after.length, after.freezes]).toEqual([1, 1]);
  });

  it("a freeze granted right after a missed day used one is not refused as over the maximum", async () => {
    setNow("2030-05-20T11:00:30Z");
    await event("one-freeze", "gm", "2030-05-20T11:00:00Z");
    const two = await server.rest("POST", "/admin/v1/streaks/freezes", { tenantId: "one-freeze", body: { freezes: [{ userId: "gm" }, { userId: "gm" }] } });
    expect(two.body.issues).toEqual([]);
    expect((await read("one-freeze", "gm")).freezes).toBe(3);
    setNow("2030-05-22T00:00:30Z"); // 05-21 missed: a freeze was due at 05-22 00:00, leaving 2
    const one = await server.rest("POST", "/admin/v1/streaks/freezes", { tenantId: "one-freeze", body: { freezes: [{ userId: "gm" }] } });
    expect(one.body.issues).toEqual([]);
    const streak = await read("one-freeze", "gm");
    expect([streak.length, streak.freezes]).toEqual([1, 3]);
    expect(days(streak)[1]).toEqual(["2030-05-21", 1, false, true]);
  });

  it("a freeze granted after the streak was lost does not bring it back", async () => {
    setNow("2030-05-20T11:00:30Z");
    await event("no-freeze", "gl", "2030-05-20T11:00:00Z");
    setNow("2030-05-22T00:00:30Z"); // 05-21 missed without a freeze: lost at 05-22 00:00
    const granted = await server.rest("POST", "/admin/v1/streaks/freezes", { tenantId: "no-freeze", body: { freezes: [{ userId: "gl" }] } });
    expect(granted.body.issues).toEqual([]);
    setNow("2030-05-22T12:00:00Z");
    const streak = await read("no-freeze", "gl");
    expect([streak.length, streak.freezes]).toEqual([0, 1]);
  });
});
