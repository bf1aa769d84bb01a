// The points and level summaries count from standings kept in memory (engine/store/tenant-standings.ts)
// in single-instance mode: read once per tenant, then kept exact by every write, so they must
// always equal what a fresh walk over the stored users counts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserState } from "../../src/engine/domain/user.js";
import { emptyPointsState } from "../../src/features/points/domain/points.js";
import { listTenantUsers } from "../../src/engine/store/tenant-users.js";
import { forgetStandings } from "../../src/engine/store/tenant-standings.js";
import { standingsOf, userDocument } from "../../src/engine/store/user-documents.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";

let single: TestServer;
let versioned: TestServer;

async function configure(server: TestServer): Promise<void> {
  const created = (path: string, body: unknown[]) => createdIds(server, path, body);
  await created("/admin/v1/attributes", [{ key: "plan", name: "Plan", type: "user" }]);
  const [words] = await created("/admin/v1/metrics", [{ key: "words", name: "Words" }]);
  const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP" }]);
  await created(`/admin/v1/points/${xp}/triggers`, [{ type: "metric", points: 10, metricId: words, metricThreshold: 1, status: "active" }]);
  await created(`/admin/v1/points/${xp}/levels`, [
    { key: "bronze", name: "Bronze", points: 0 },
    { key: "silver", name: "Silver", points: 25 },
  ]);
}

beforeAll(async () => {
  // No user cache: the first read's walk reads every user from the database, so events land while it runs.
  [single, versioned] = await Promise.all([
    startTestServer({ userCacheEntries: 0 }),
    startTestServer({ writeMode: "versioned", versionedOnFerretDbForTests: true }),
  ]);
  await Promise.all([configure(single), configure(versioned)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([single?.close(), versioned?.close()]);
});

const event = async (server: TestServer, id: string, value: number, attributes?: Record<string, string>) =>
  expect((await server.rest("POST", "/api/metrics/words/event", { body: { user: { id, ...(attributes && { attributes }) }, value } })).status).toBe(201);

/** Users per range of the summary, and per level. */
async function counts(server: TestServer, filter = "") {
  const summary = await server.rest("GET", `/v1/points/xp/summary${filter ? `?userAttributes=${filter}` : ""}`);
  const levels = await server.rest("GET", "/v1/points/xp/level-summary");
  expect([summary.status, levels.status]).toEqual([200, 200]);
  return {
    ranges: summary.body.map((r: { from: number; to: number; users: number }) => `${r.from}-${r.to}:${r.users}`).join(" "),
    levels: levels.body.map((l: { level: { key: string }; users: number }) => `${l.level.key}:${l.users}`).join(" "),
  };
}

/** The same counts read from the stored users (the standings forgotten, so read again). */
async function countsFromStore(server: TestServer, filter = "") {
  forgetStandings(standingsOf(server.service.context.database.collections.users), "default");
  return counts(server, filter);
}

/** A user written to the database directly, past the service (as another instance would). */
async function writeBehindTheServiceBack(server: TestServer, userId: string) {
  const { collections } = server.service.context.database;
  const xp = String((await collections.pointsSystems.findOne({ key: "xp" }))!._id);
  const state = { ...createUserState(userId, new Date()), points: { [xp]: { ...emptyPointsState(), total: 500 } } };
  await listTenantUsers(collections.tenantUsers, server.service.context.userLocks, "default", [userId]);
  await collections.users.insertOne(userDocument("default", state));
}

describe("points and level summaries", () => {
  it("single-instance: count from memory after the first read, exactly what the stored users hold after every kind of write", async () => {
    await event(single, "ann", 1, { plan: "pro" });
    await event(single, "bob", 1);
    await event(single, "bob", 1);
    const first = await counts(single);
    expect(first.levels).toBe("bronze:2 silver:0");

    // Kept in step: a new user, more points, a changed attribute (PATCH), an erased user.
    await event(single, "cy", 1, { plan: "free" });
    await event(single, "bob", 1);
    await event(single, "ann", 1, { plan: "free" });
    expect((await single.rest("PATCH", "/v1/users/cy", { body: { attributes: { plan: "pro" } } })).status).toBe(200);
    expect((await single.rest("DELETE", "/admin/v1/users/ann")).status).toBe(200);
    const kept = { all: await counts(single), pro: await counts(single, "plan:pro"), free: await counts(single, "plan:free") };
    expect(kept.all.levels).toBe("bronze:1 silver:1"); // cy 10, bob 30
    expect(kept.pro.ranges).not.toBe(kept.free.ranges);
    expect({ all: await countsFromStore(single), pro: await countsFromStore(single, "plan:pro"), free: await countsFromStore(single, "plan:free") }).toEqual(
      kept,
    );

    // Served from memory: a user written past the service is not seen until the standings are read again.
    await writeBehindTheServiceBack(single, "outsider");
    expect(await counts(single)).toEqual(kept.all);
    expect((await countsFromStore(single)).levels).toBe("bronze:1 silver:2");
  }, 120_000);

  it("single-instance: the first read, made while events arrive, counts what the stored users hold once they settle", async () => {
    for (let round = 0; round < 3; round++) {
      forgetStandings(standingsOf(single.service.context.database.collections.users), "default");
      const events = Array.from({ length: 60 }, (_, i) => event(single, `busy-${i % 20}`, 1, { plan: i % 3 === 0 ? "pro" : "free" }));
      const [during] = await Promise.all([counts(single), ...events]);
      expect(during.levels).toMatch(/^bronze:\d+ silver:\d+$/);
      const settled = { all: await counts(single), pro: await counts(single, "plan:pro") };
      expect({ all: await countsFromStore(single), pro: await countsFromStore(single, "plan:pro") }).toEqual(settled);
    }
  }, 120_000);

  it("versioned (other instances write too): read from the stored users on every call", async () => {
    expect(standingsOf(versioned.service.context.database.collections.users)).toBeUndefined();
    await event(versioned, "ann", 1);
    expect((await counts(versioned)).levels).toBe("bronze:1 silver:0");
    await writeBehindTheServiceBack(versioned, "outsider");
    expect((await counts(versioned)).levels).toBe("bronze:1 silver:1");
  }, 120_000);
});
