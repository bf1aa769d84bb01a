import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LeaderboardConfig } from "../../src/features/leaderboards/domain/leaderboard-config.js";
import { runsAt } from "../../src/features/webhooks/webhook-leaderboards.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { expectReceivedBodiesFitPublishedModels } from "../helpers/published-models.js";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// leaderboard.started, leaderboard.changed and leaderboard.finished, announced by the webhook
// worker's periodic check, over a real server and a real receiver. The service's clock is injected:
// it starts at 09:00 UTC on D and runs with the real one, and the tests move it ahead.

const D = "2030-01-15";
const T0 = Date.parse(`${D}T09:00:00Z`);
const REAL0 = Date.now();
/** How far the tests moved the service's clock ahead. */
let offsetMs = 0;
const MINUTE = 60_000;

let server: TestServer;
let receiver: WebhookReceiver;
let globexId: string | undefined;
const secrets: Record<string, string> = {};
const ids: Record<string, string | undefined> = {};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

async function endpoint(tenantId: string, path: string, eventTypes: string[]): Promise<void> {
  const response = await server.rest("POST", "/admin/v1/webhooks", { tenantId, body: [{ url: receiver.url(path), eventTypes }] });
  expect(response.status).toBe(201);
  secrets[path] = response.body.created[0].secret;
}

async function event(tenantId: string, user: Record<string, unknown>, value: number, metric = "words"): Promise<void> {
  const response = await server.rest("POST", `/api/metrics/${metric}/event`, { tenantId, body: { user, value } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

/**
 * Checks the Standard Webhooks signature (HMAC-SHA256 of `id.timestamp.body`, as the snippet
 * of docs/webhooks.md does) and returns the parsed body. No timestamp tolerance: the service's clock is not ours.
 */
function verified(path: string, request: ReceivedWebhook): any {
  const id = request.headers["webhook-id"] as string;
  const timestamp = request.headers["webhook-timestamp"] as string;
  const key = Buffer.from(secrets[path]!.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${request.body}`).digest();
  const valid = (request.headers["webhook-signature"] as string).split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    const given = Buffer.from(signature ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
  expect(valid).toBe(true);
  const body = JSON.parse(request.body);
  expect(body.id).toBe(id);
  return body;
}

/** The verified bodies of one type received on a path, in arrival order. */
const bodies = (path: string, type: string) =>
  receiver
    .at(path)
    .map((r) => verified(path, r))
    .filter((b) => b.type === type);
const count = (path: string, type: string) => receiver.at(path).filter((r) => r.json?.type === type).length;
/** Which leaderboard (and group) a body is about. */
const target = (body: any) => [body.leaderboard.key, ...(body.leaderboard.breakdownAttributeValues ?? []).map((v: any) => `${v.key}=${v.value}`)].join(" ");
const rows = (body: any) => body.leaderboard.rankings.map((r: any) => [r.userId, r.userName, r.rank, r.value]);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    now: () => new Date(T0 + (Date.now() - REAL0) + offsetMs),
    webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0, 200, 200, 200], timeoutMs: 30_000, pollMs: 100, boostCheckMs: 300 },
  });
  [, globexId] = await created("/admin/v1/tenants", [
    { customerId: "acme", name: "Acme" },
    { customerId: "globex", name: "Globex" },
  ]);
  for (const tenantId of ["acme", "globex"]) {
    [ids[`${tenantId}:words`]] = await created("/admin/v1/metrics", [{ key: "words", name: "Words" }], tenantId);
  }
  // The breakdown leaderboard ranks a metric of its own, so its groups change independently of the others.
  [ids["acme:sales"]] = await created("/admin/v1/metrics", [{ key: "sales", name: "Sales" }], "acme");
  [ids.city] = await created("/admin/v1/attributes", [{ key: "city", name: "City", type: "user" }], "acme");
  // Endpoints first: the leaderboards start as soon as they are created.
  await endpoint("acme", "/lb", ["leaderboard.started", "leaderboard.changed", "leaderboard.finished"]);
  await endpoint("acme", "/lb-finished", ["leaderboard.finished"]);
  await endpoint("globex", "/globex", ["leaderboard.rank_changed"]);
  const words = (tenantId: string, metric = "words") => ({ rankBy: "metric", metricId: ids[`${tenantId}:${metric}`], status: "active" });
  [ids.daily, ids.cities, ids.sprint] = await created(
    "/admin/v1/leaderboards",
    [
      // Daily runs from two months ago: only the current run (D) is announced as started.
      { key: "daily", name: "Daily words", ...words("acme"), start: "2029-11-16", runUnit: "day", runInterval: 1 },
      { key: "cities", name: "Sales by city", ...words("acme", "sales"), start: D, runUnit: "day", runInterval: 1, breakdownAttributes: [ids.city] },
      // One run, from yesterday to today: its end is the leaderboard's end.
      { key: "sprint", name: "Sprint", ...words("acme"), start: "2030-01-14", end: D },
    ],
    "acme",
  );
  await created(
    "/admin/v1/leaderboards",
    [{ key: "daily", name: "Daily words", ...words("globex"), start: "2029-11-16", runUnit: "day", runInterval: 1 }],
    "globex",
  );
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe("leaderboard run webhooks", () => {
  it("announce the current run's start once per leaderboard", async () => {
    await receiver.waitFor("/lb", (got) => got.length >= 3);
    await sleep(1_200); // several checks later: nothing again
    const started = bodies("/lb", "leaderboard.started");
    expect(started.map(target).sort()).toEqual(["cities", "daily", "sprint"]);
    const daily = started.find((b) => b.leaderboard.key === "daily");
    expect(daily).toEqual({
      type: "leaderboard.started",
      id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
      tenantId: "acme",
      timestamp: expect.stringMatching(new RegExp(`^${D}T09:`)), // created after the run began: the creation
      leaderboard: {
        id: ids.daily,
        name: "Daily words",
        key: "daily",
        rankBy: "metric",
        metricKey: "words",
        metricName: "Words",
        description: null,
        start: D,
        end: D,
        startTime: null,
        endTime: null,
        maxParticipants: 1000,
        breakdownAttribute: null,
        breakdownAttributes: [],
        runUnit: "day",
        runInterval: 1,
        userAttributes: [],
        status: "active",
        rankings: [],
      },
    });
    expect(started.find((b) => b.leaderboard.key === "sprint").leaderboard).toMatchObject({ start: "2030-01-14", end: D, runUnit: null, status: "active" });
    // Nobody ranked yet: one message for the whole breakdown leaderboard, without group values.
    expect(started.find((b) => b.leaderboard.key === "cities").leaderboard).toMatchObject({
      breakdownAttribute: "city",
      breakdownAttributes: ["city"],
      rankings: [],
    });
    expect(receiver.at("/lb")).toHaveLength(3);
    expect(receiver.at("/lb-finished")).toEqual([]);
  });

  it("announce changed rankings at most every 15 minutes per run and group, and only when they changed", async () => {
    await event("acme", { id: "ann", name: "Ann" }, 30);
    await event("acme", { id: "carl", name: "Carl", attributes: { city: "paris" } }, 10, "sales");
    await event("acme", { id: "dora", name: "Dora", attributes: { city: "berlin" } }, 20, "sales");
    await event("globex", { id: "zed", name: "Zed" }, 10);
    await receiver.waitFor("/lb", () => count("/lb", "leaderboard.changed") >= 4);
    await sleep(1_200);
    const first = bodies("/lb", "leaderboard.changed");
    expect(Object.fromEntries(first.map((b) => [target(b), rows(b)]))).toEqual({
      daily: [["ann", "Ann", 1, 30]],
      sprint: [["ann", "Ann", 1, 30]],
      "cities city=paris": [["carl", "Carl", 1, 10]],
      "cities city=berlin": [["dora", "Dora", 1, 20]],
    });
    for (const body of first) expect(body.leaderboard).toMatchObject({ status: "active" });
    expect(first.find((b) => target(b) === "daily").leaderboard).toMatchObject({ start: D, end: D });
    // One message per group, each with its group's values.
    expect(first.filter((b) => b.leaderboard.key === "cities").map((b) => b.leaderboard.breakdownAttributeValues)).toEqual(
      expect.arrayContaining([[{ key: "city", value: "paris" }], [{ key: "city", value: "berlin" }]]),
    );

    // Five minutes later: more changes, but too soon to announce them.
    offsetMs = 5 * MINUTE;
    await event("acme", { id: "bob", name: "Bob" }, 50);
    await event("acme", { id: "erin", name: "Erin", attributes: { city: "paris" } }, 5, "sales");
    await sleep(1_200);
    expect(count("/lb", "leaderboard.changed")).toBe(4);

    // Fifteen minutes after the first announcement: what changed is announced; Berlin did not change.
    offsetMs = 16 * MINUTE;
    await receiver.waitFor("/lb", () => count("/lb", "leaderboard.changed") >= 7);
    await sleep(1_200);
    const second = bodies("/lb", "leaderboard.changed").slice(4);
    expect(Object.fromEntries(second.map((b) => [target(b), rows(b)]))).toEqual({
      daily: [
        ["bob", "Bob", 1, 50],
        ["ann", "Ann", 2, 30],
      ],
      sprint: [
        ["bob", "Bob", 1, 50],
        ["ann", "Ann", 2, 30],
      ],
      "cities city=paris": [
        ["carl", "Carl", 1, 10],
        ["erin", "Erin", 2, 5],
      ],
    });

    // Another fifteen minutes without changes: nothing.
    offsetMs = 32 * MINUTE;
    await sleep(1_500);
    expect(count("/lb", "leaderboard.changed")).toBe(7);
    expect(new Set(receiver.at("/lb").map((r) => r.headers["webhook-id"])).size).toBe(receiver.at("/lb").length);
    expect(receiver.at("/lb-finished")).toEqual([]);
  });

  it("announce the latest final run once, with its final rankings, and the current run's start", async () => {
    // The service was "down" from 09:32 on D to 12:03 on D + 1: runs of D - 1 (final at 12:00 on D)
    // and D (final at 12:00 on D + 1, announced two minutes later) became final, runs of D + 1 and
    // D + 2 began somewhere.
    offsetMs = Date.parse("2030-01-16T12:03:00Z") - T0 - (Date.now() - REAL0);
    await receiver.waitFor("/lb-finished", (got) => got.length >= 4, 180_000);
    await receiver.waitFor("/lb", () => count("/lb", "leaderboard.finished") >= 4 && count("/lb", "leaderboard.started") >= 5);
    await sleep(1_500);

    const finished = bodies("/lb-finished", "leaderboard.finished");
    expect(receiver.at("/lb-finished")).toHaveLength(4); // nothing but finished, once each
    expect(Object.fromEntries(finished.map((b) => [target(b), [b.leaderboard.start, b.leaderboard.end, b.leaderboard.status, rows(b)]]))).toEqual({
      // Only D: D - 1 became final while nobody checked, and D is the latest final run.
      daily: [
        D,
        D,
        "active",
        [
          ["bob", "Bob", 1, 50],
          ["ann", "Ann", 2, 30],
        ],
      ],
      // The leaderboard's last run: finished.
      sprint: [
        "2030-01-14",
        D,
        "finished",
        [
          ["bob", "Bob", 1, 50],
          ["ann", "Ann", 2, 30],
        ],
      ],
      "cities city=paris": [
        D,
        D,
        "active",
        [
          ["carl", "Carl", 1, 10],
          ["erin", "Erin", 2, 5],
        ],
      ],
      "cities city=berlin": [D, D, "active", [["dora", "Dora", 1, 20]]],
    });
    for (const body of finished) expect(body.timestamp).toBe("2030-01-16T12:00:00Z");
    // The same messages (same IDs) went to both endpoints subscribed to finished.
    expect(
      bodies("/lb", "leaderboard.finished")
        .map((b) => b.id)
        .sort(),
    ).toEqual(finished.map((b) => b.id).sort());

    // The run of D + 1 was never announced: D + 2 has begun (in UTC+14) and is the current one.
    const started = bodies("/lb", "leaderboard.started").slice(3);
    expect(started.map((b) => [b.leaderboard.key, b.leaderboard.start])).toEqual(
      expect.arrayContaining([
        ["daily", "2030-01-17"],
        ["cities", "2030-01-17"],
      ]),
    );
    expect(started).toHaveLength(2);
    expect(count("/lb", "leaderboard.changed")).toBe(7);
  }, 300_000); // the worker first walks the 27 hours of minutes the clock skipped

  it("announce nothing to a tenant whose endpoints do not subscribe to the run types", async () => {
    const types = receiver.at("/globex").map((r) => verified("/globex", r).type);
    expect(types).toEqual(["leaderboard.rank_changed"]);
    const state = server.service.context.database.collections.leaderboardAnnouncements;
    expect(await state.countDocuments({ tenantId: globexId })).toBe(0);
    // The announcer's state lives outside the leaderboard documents.
    const acme = await state.find({ tenantId: { $ne: globexId } }).toArray();
    expect(
      acme
        .filter((d) => d.kind === "runs")
        .map((d) => d.leaderboardId)
        .sort(),
    ).toEqual([ids.cities, ids.daily, ids.sprint].sort());
    expect(acme.filter((d) => d.kind === "changed")).toEqual([]); // the changes of final runs are forgotten
    const leaderboards = await server.service.context.database.collections.leaderboards.find({}).toArray();
    for (const doc of leaderboards) expect(Object.keys(doc).filter((k) => /announce|webhook/i.test(k))).toEqual([]);
  });

  it("do not announce as changed the rankings a started message showed", async () => {
    // A leaderboard ranked before anyone listened: its start, announced later, shows the rankings.
    await created("/admin/v1/tenants", [{ customerId: "initech", name: "Initech" }]);
    const [metricId] = await created("/admin/v1/metrics", [{ key: "words", name: "Words" }], "initech");
    await created("/admin/v1/leaderboards", [{ key: "all", name: "All time", rankBy: "metric", metricId, status: "active", start: "2030-01-01" }], "initech");
    await event("initech", { id: "ivy", name: "Ivy" }, 7);
    await endpoint("initech", "/initech", ["leaderboard.started", "leaderboard.changed"]);
    await receiver.waitFor("/initech", (got) => got.length >= 1);
    await sleep(1_500); // several checks later
    const types = () => receiver.at("/initech").map((r) => verified("/initech", r).type);
    expect(types()).toEqual(["leaderboard.started"]);
    expect(rows(bodies("/initech", "leaderboard.started")[0])).toEqual([["ivy", "Ivy", 1, 7]]);

    // A later change is announced, 15 minutes after the start's message.
    await event("initech", { id: "jon", name: "Jon" }, 9);
    offsetMs += 16 * MINUTE;
    await receiver.waitFor("/initech", (got) => got.length >= 2);
    await sleep(1_000);
    expect(types()).toEqual(["leaderboard.started", "leaderboard.changed"]);
    expect(rows(bodies("/initech", "leaderboard.changed")[0])).toEqual([
      ["jon", "Jon", 1, 9],
      ["ivy", "Ivy", 2, 7],
    ]);
  }, 180_000);
});

describe("the runs the announcer looks at", () => {
  const config = (settings: Partial<LeaderboardConfig>) =>
    ({ start: "2030-01-01", end: null, runUnit: null, runInterval: null, startTime: null, endTime: null, ...settings }) as LeaderboardConfig;
  const days = (r: { live: Array<{ runStart: string }>; final: { runStart: string } | null }) => [r.live.map((run) => run.runStart), r.final?.runStart ?? null];
  const daily = config({ runUnit: "day", runInterval: 1 });

  it("are the runs begun somewhere and not final, and the latest final one", () => {
    // 09:00 UTC: D - 1 is not final until 12:00, D + 1 begins (in UTC+14) at 10:00.
    expect(days(runsAt(daily, new Date(`${D}T09:00:00Z`)))).toEqual([["2030-01-14", D], "2030-01-13"]);
    expect(days(runsAt(daily, new Date(`${D}T10:00:00Z`)))).toEqual([["2030-01-14", D, "2030-01-16"], "2030-01-13"]);
    expect(days(runsAt(daily, new Date(`${D}T12:00:00Z`)))).toEqual([[D, "2030-01-16"], "2030-01-14"]);
    // Before the start has begun anywhere: nothing; on the first run: no final run yet.
    expect(days(runsAt(daily, new Date("2029-12-31T09:59:59Z")))).toEqual([[], null]);
    expect(days(runsAt(daily, new Date("2029-12-31T10:00:00Z")))).toEqual([["2030-01-01"], null]);
    // Perpetual: one run, final only after its end.
    expect(days(runsAt(config({}), new Date(`${D}T09:00:00Z`)))).toEqual([["2030-01-01"], null]);
    const ending = config({ end: "2030-01-10" });
    expect(days(runsAt(ending, new Date("2030-01-11T11:59:59Z")))).toEqual([["2030-01-01"], null]);
    expect(days(runsAt(ending, new Date("2030-01-11T12:00:00Z")))).toEqual([[], "2030-01-01"]);
    // Long after the end of a repeating leaderboard: its last run, cut at the end.
    expect(days(runsAt(config({ end: "2030-01-10", runUnit: "day", runInterval: 7 }), new Date("2031-01-01T00:00:00Z")))).toEqual([[], "2030-01-08"]);
  });
});

describe("the published Python client's models", () => {
  it("parse every body this file's receiver got, each with the model of its type", () => expectReceivedBodiesFitPublishedModels(receiver), 120_000);
});
