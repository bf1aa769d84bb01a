// Conformance: the same scenario (test/conformance/scenario.json) through the TypeScript, Go and
// Python clients against one server, each client/protocol pair in a tenant of its own configured
// the same way; every runner prints the state it reads back and all must agree, with each other
// and with the expected values.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScenario, scenario, type ConformanceDocument } from "./conformance/scenario.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "./helpers/server.js";

const root = join(import.meta.dirname, "..");
const pathWithGo = [process.env.PATH, "/usr/local/go/bin"].join(delimiter);
const hasGo = pathWithGo.split(delimiter).some((dir) => dir && existsSync(join(dir, "go")));

let server: TestServer;
/** Per tenant: the configuration's IDs, by a stable name (the IDs differ between tenants). */
const configIds: Record<string, Record<string, string>> = {};

/** The scenario's clock: it starts at scenario.now and runs, so events' fixed timestamps make the same streaks. */
const clockOrigin = Date.parse(scenario.now);
const startedAt = Date.now();

/** Creates through the Admin API (REST) and returns the new IDs in order. */
async function created(tenantId: string, path: string, body: unknown[]): Promise<string[]> {
  const response = await server.rest("POST", path, { body, tenantId });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(response.body.issues).toEqual([]);
  return response.body.created.map((item: { id: string }) => item.id);
}

/**
 * One tenant, configured as every run's: the metric, two achievements on it, a points system with a
 * metric trigger and two levels, a leaderboard ranking by the metric and daily streaks.
 */
async function configureTenant(tenantId: string): Promise<void> {
  const ids: Record<string, string> = {};
  [ids.metric] = await created(tenantId, "/admin/v1/metrics", [{ key: scenario.metric, name: "Lessons" }]);
  [ids.achievement50, ids.achievement100] = await created(tenantId, "/admin/v1/achievements", [
    { key: "lessons-50", name: "Fifty lessons", trigger: "metric", metricId: ids.metric, metricValue: 50, status: "active" },
    { key: "lessons-100", name: "A hundred lessons", trigger: "metric", metricId: ids.metric, metricValue: 100, status: "active" },
  ]);
  [ids.points] = await created(tenantId, "/admin/v1/points", [{ key: scenario.pointsSystem, name: "XP" }]);
  [ids.trigger] = await created(tenantId, `/admin/v1/points/${ids.points}/triggers`, [
    { type: "metric", points: 10, metricId: ids.metric, metricThreshold: 25, status: "active" },
  ]);
  [ids.bronze, ids.silver] = await created(tenantId, `/admin/v1/points/${ids.points}/levels`, [
    { key: "bronze", name: "Bronze", points: 0 },
    { key: "silver", name: "Silver", points: 35 },
  ]);
  [ids.leaderboard] = await created(tenantId, "/admin/v1/leaderboards", [
    { key: scenario.leaderboard, name: "Lessons", rankBy: "metric", metricId: ids.metric, status: "active", start: "2026-03-01" },
  ]);
  const streaks = await server.rest("PUT", "/admin/v1/streaks/settings", {
    tenantId,
    body: { frequency: "daily", metrics: [{ metricId: ids.metric, threshold: 10 }], evaluationMode: "all" },
  });
  expect(streaks.status, JSON.stringify(streaks.body)).toBe(201);
  configIds[tenantId] = ids;
}

/**
 * Replaces what legitimately differs between tenants and runs: the configuration's IDs (by their
 * names) and the events' IDs. Everything else each client printed must be the same.
 */
function normalise(tenantId: string, document: ConformanceDocument): ConformanceDocument {
  const names = new Map(Object.entries(configIds[tenantId]!).map(([name, id]) => [id, `<${name}>`]));
  const walk = (value: unknown, key?: string): unknown => {
    if (key === "eventId" && typeof value === "string") return "<event>";
    if (typeof value === "string") return names.get(value) ?? value;
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(document) as ConformanceDocument;
}

const expectedSummary = {
  // 30 + 40 + 50 on three days in a row: both achievements, 4 × 10 points (silver), a 3-day streak.
  alice: { metricTotal: 120, pointsTotal: 40, level: "silver", streakLength: 3, achievements: ["lessons-50", "lessons-100"], rank: 1, value: 120 },
  // 20, a day missed (the streak lost), then 60 and 2.5: 3 × 10 points (bronze), a 1-day streak.
  bob: { metricTotal: 82.5, pointsTotal: 30, level: "bronze", streakLength: 1, achievements: ["lessons-50"], rank: 2, value: 82.5 },
};

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(clockOrigin + (Date.now() - startedAt)) });
});
afterAll(() => server?.close());

describe("conformance of the clients", () => {
  it("the TypeScript client over Connect reads the expected state", async () => {
    const tenant = "conformance-ts-connect";
    expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenant, name: tenant }] })).status).toBe(201);
    await configureTenant(tenant);
    const document = await runScenario({ baseUrl: server.baseUrl, apiKey: ADMIN_KEY, tenantId: tenant, protocol: "connect" });
    console.log(JSON.stringify(normalise(tenant, document), null, 1));
    expect(document.summary).toEqual(expectedSummary);
  });
});
