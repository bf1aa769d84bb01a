// Points after their configuration changed under existing users: levels edited (the next event
// reports no level change the reads already showed), a lowered maxPoints (every read shows the
// bounded total, the next settling stores it) and the order of triggers created in one call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readStoredUser } from "../../src/engine/store/user-documents.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

const DAY = 86_400_000;
/** The service's clock: fixed (so items created in one call share the instant) and moved by the tests. */
let clockMs = Date.parse("2030-03-10T12:00:00Z");
const today = () => new Date(clockMs).toISOString().slice(0, 10);

let server: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    now: () => new Date(clockMs),
    webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0, 200], timeoutMs: 30_000, pollMs: 100, boostCheckMs: 300 }, // the receiver is on loopback
  });
  const tenants = await server.rest("POST", "/admin/v1/tenants", {
    body: ["levels", "caps", "order"].map((customerId) => ({ customerId, name: customerId })),
  });
  expect(tenants.body.issues).toEqual([]);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

/** Creates through the Admin API in the tenant and returns the new IDs in order. */
const created = (tenantId: string, path: string, body: unknown[]) => createdIds(server, path, body, tenantId);

/** Sends an event and answers its `points` object. */
async function send(tenantId: string, user: string, value: number, metric = "words") {
  const response = await server.rest("POST", `/v1/metrics/${metric}/event`, { tenantId, body: { user: { id: user }, value } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.points;
}

const userPoints = async (tenantId: string, user: string) => (await server.rest("GET", `/v1/users/${user}/points/xp`, { tenantId })).body;

describe("levels changed after users reached them", () => {
  const tenantId = "levels";

  it("report no level change the reads already showed, and announce none; a real change is reported from the current level", async () => {
    const [words] = await created(tenantId, "/admin/v1/metrics", [{ key: "words", name: "Words" }]);
    const [xp] = await created(tenantId, "/admin/v1/points", [{ key: "xp", name: "XP" }]);
    await created(tenantId, `/admin/v1/points/${xp}/triggers`, [{ type: "metric", points: 10, metricId: words, metricThreshold: 1, status: "active" }]);
    await created(tenantId, "/admin/v1/webhooks", [{ url: receiver.url("/levels"), eventTypes: ["points.level_changed"] }]);

    expect(await send(tenantId, "ann", 10)).toMatchObject({ xp: { total: 100 } }); // no levels yet

    // A level added below the user's total: the reads show it at once, so the next event does not report it.
    let [l50] = await created(tenantId, `/admin/v1/points/${xp}/levels`, [{ key: "l50", name: "L50", points: 50 }]);
    expect(await userPoints(tenantId, "ann")).toMatchObject({ total: 100, level: { key: "l50" } });
    const afterAdding = (await send(tenantId, "ann", 1)).xp;
    expect(afterAdding).toMatchObject({ total: 110, added: 10 });
    expect(afterAdding).not.toHaveProperty("level");

    // Every level deleted: the reads show none, and the next event reports nothing (never null → null).
    expect((await server.rest("DELETE", `/admin/v1/points/${xp}/levels?ids=${l50}`, { tenantId })).body.issues).toEqual([]);
    expect(await userPoints(tenantId, "ann")).toMatchObject({ total: 110, level: null });
    const afterDeleting = (await send(tenantId, "ann", 1)).xp;
    expect(afterDeleting).toMatchObject({ total: 120, added: 10 });
    expect(afterDeleting).not.toHaveProperty("level");

    // A real change, from the level the reads showed before the event (l50), not the one last stored (none).
    [l50] = await created(tenantId, `/admin/v1/points/${xp}/levels`, [
      { key: "l50", name: "L50", points: 50 },
      { key: "l125", name: "L125", points: 125 },
    ]);
    expect((await send(tenantId, "ann", 1)).xp).toMatchObject({ total: 130, level: { key: "l125" } });

    // Delivered in order, so once this change has arrived the earlier events would have too.
    const got = await receiver.waitFor("/levels", (requests) => requests.some((r) => r.json.newLevel?.key === "l125"));
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at("/levels").map((r) => [r.json.previousLevel?.key ?? null, r.json.newLevel?.key ?? null, r.json.points.total])).toEqual([
      ["l50", "l125", 130],
    ]);
    expect(got[0]!.json.previousLevel.id).toBe(l50);
  });
});

describe("a lowered maxPoints", () => {
  const tenantId = "caps";

  it("bounds every read of users above it at once, and the next settling stores the bounded total", async () => {
    const [words, spend] = await created(tenantId, "/admin/v1/metrics", [
      { key: "words", name: "Words" },
      { key: "spend", name: "Spend" },
    ]);
    const xp = (await created(tenantId, "/admin/v1/points", [{ key: "xp", name: "XP" }]))[0]!;
    await created(tenantId, `/admin/v1/points/${xp}/triggers`, [
      { type: "metric", points: 10, metricId: words, metricThreshold: 1, status: "active" },
      { type: "metric", points: -1, metricId: spend, metricThreshold: 1, status: "active" },
    ]);
    await created(tenantId, `/admin/v1/points/${xp}/levels`, [
      { key: "l4", name: "L4", points: 4 },
      { key: "l100", name: "L100", points: 100 },
    ]);
    const firstDay = today();
    expect((await send(tenantId, "ann", 53)).xp).toMatchObject({ total: 530 });
    expect((await send(tenantId, "bob", 20)).xp).toMatchObject({ total: 200 });

    clockMs += DAY;
    const patched = await server.rest("PATCH", "/admin/v1/points", { tenantId, body: [{ id: xp, maxPoints: 5 }] });
    expect(patched.body.issues).toEqual([]);

    // Reads: the user's points, the histogram and the users per level all see 5.
    expect(await userPoints(tenantId, "ann")).toMatchObject({ total: 5, maxPoints: 5, level: { key: "l4" } });
    const summary = (await server.rest("GET", "/v1/points/xp/summary", { tenantId })).body;
    expect(summary.at(-1)).toEqual({ from: 10, to: 10, users: 0 }); // the greatest total is 5: ranges up to 10
    expect(summary.find((r: { from: number }) => r.from === 5)).toEqual({ from: 5, to: 5, users: 2 });
    const levels = (await server.rest("GET", "/v1/points/xp/level-summary", { tenantId })).body;
    expect(levels.map((l: { level: { key: string }; users: number }) => [l.level.key, l.users])).toEqual([
      ["l4", 2],
      ["l100", 0],
    ]);
    // The history adds up to the bounded total: the cut counts on the day it is seen.
    const history = await server.rest("GET", `/v1/users/ann/points/xp/event-summary?aggregation=daily&startDate=${firstDay}&endDate=${today()}`, {
      tenantId,
    });
    expect(history.body).toEqual([
      { date: firstDay, total: 530, change: 530 },
      { date: today(), total: 5, change: -525 },
    ]);

    // A grant at the cap pays nothing, but stores the bounded total; a deduction starts from it.
    expect(await send(tenantId, "ann", 1)).toEqual({});
    const stored = await readStoredUser(server.service.context.database.collections.users, (await tenantOf("caps"))!, "ann");
    expect(stored!.state.points[xp]!.total).toBe(5);
    expect((await send(tenantId, "ann", 1, "spend")).xp).toMatchObject({ total: 4, added: -1, awards: [{ awarded: -1, total: 4 }] });

    // Raising the cap again gives nothing back that was cut from a stored total.
    await server.rest("PATCH", "/admin/v1/points", { tenantId, body: [{ id: xp, maxPoints: 1000 }] });
    expect(await userPoints(tenantId, "ann")).toMatchObject({ total: 4, maxPoints: 1000 });
  });
});

describe("items created in one call", () => {
  const tenantId = "order";

  it("keep the order given: triggers apply in it, and triggers and boosts are listed in it", async () => {
    const [words] = await created(tenantId, "/admin/v1/metrics", [{ key: "words", name: "Words" }]);
    const [xp, gems] = await created(tenantId, "/admin/v1/points", [
      { key: "xp", name: "XP" },
      { key: "gems", name: "Gems" },
    ]);
    // Twenty triggers created at one instant: a random order would almost surely differ (1 in 20!).
    const points = Array.from({ length: 20 }, (_, i) => i + 1);
    await created(
      tenantId,
      `/admin/v1/points/${xp}/triggers`,
      points.map((p) => ({ type: "metric", points: p, metricId: words, metricThreshold: 1, status: "active" })),
    );
    const described = (await server.rest("GET", "/v1/points/xp", { tenantId })).body;
    expect(described.triggers.map((t: { points: number }) => t.points)).toEqual(points);
    const listed = (await server.rest("GET", `/admin/v1/points/${xp}/triggers?limit=100`, { tenantId })).body;
    expect(listed.map((t: { points: number }) => t.points)).toEqual(points);
    const awards = (await send(tenantId, "ann", 1)).xp.awards;
    expect(awards.map((a: { awarded: number }) => a.awarded)).toEqual(points);

    // Boosts starting the same day are listed in creation order.
    const names = points.map((p) => `boost-${p}`);
    await created(
      tenantId,
      `/admin/v1/points/${gems}/boosts`,
      names.map((name) => ({ name, start: today(), multiplier: 2 })),
    );
    const boosts = (await server.rest("GET", "/v1/points/gems/boosts", { tenantId })).body;
    expect(boosts.map((b: { name: string }) => b.name)).toEqual(names);
  });
});

/** The internal ID of a tenant (stored users are keyed by it). */
async function tenantOf(customerId: string): Promise<string | undefined> {
  const tenants = (await server.rest("GET", "/admin/v1/tenants?limit=100")).body;
  return tenants.find((t: { customerId: string }) => t.customerId === customerId)?.id;
}

describe("tenants, application keys and webhook endpoints created in one call", () => {
  it("keep the order given", async () => {
    const tenantId = "order";
    const ids = Array.from({ length: 12 }, (_, i) => `ordered-${String(i).padStart(2, "0")}`);
    // Created at one instant: listed by their random IDs, twelve would almost surely differ (1 in 12!).
    const tenants = await created(
      tenantId,
      "/admin/v1/tenants",
      ids.map((customerId) => ({ customerId, name: customerId })),
    );
    const listedTenants = (await server.rest("GET", "/admin/v1/tenants?limit=100")).body.map((t: { id: string }) => t.id);
    expect(listedTenants.filter((id: string) => tenants.includes(id))).toEqual(tenants);

    const keys = await created(
      tenantId,
      "/admin/v1/application-api-keys",
      ids.map((userId) => ({ userId })),
    );
    const listedKeys = (await server.rest("GET", "/admin/v1/application-api-keys?limit=100", { tenantId })).body.map((k: { id: string }) => k.id);
    expect(listedKeys).toEqual(keys);

    const endpoints = await created(
      tenantId,
      "/admin/v1/webhooks",
      ids.map((id) => ({ url: receiver.url(`/${id}`), eventTypes: ["points.changed"] })),
    );
    const listedEndpoints = (await server.rest("GET", "/admin/v1/webhooks?limit=100", { tenantId })).body.map((w: { id: string }) => w.id);
    expect(listedEndpoints).toEqual(endpoints);
  });
});
