import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import type { PipelinePoint } from "../../src/engine/context.js";
import { DEFAULT_SCOPE } from "../../src/features/account/domain/tenant.js";
import { finishUnfinishedErasures } from "../../src/features/privacy/erase-user.js";
import { forgetCachedTenant } from "../../src/engine/store/user-documents.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { storedText } from "../helpers/stored-text.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// Erasing and exporting a user (PrivacyAdminService, docs/privacy.md) over a real server and
// database: a user with events in two leaderboards, points in two systems, a streak, an achievement,
// idempotency records moved out of their document and delivered webhooks. After the erasure no read
// on any protocol finds them, rankings close up, aggregates stop counting them, and no document in
// any collection names them.

const ERASED = "erase-me-7f3a";
const OTHERS: Array<[string, number]> = [
  ["alice", 8],
  ["bob", 5],
  ["carol", 3],
];

let server: TestServer;
let receiver: WebhookReceiver;
/** A fault to inject at a pipeline point (the crash test), or none. */
let fault: ((point: PipelinePoint, attempt: number) => void) | null = null;
/** An application key acting for the erased user. */
let appKey: string;
/** Yesterday (UTC) when the file started: taken once, so a run that crosses midnight asks for the same run. */
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

async function event(metric: string, userId: string, value: number, idempotencyKey?: string, timestamp?: string): Promise<void> {
  const body = {
    user: { id: userId, name: `Name of ${userId}`, email: `${userId}@example.com` },
    value,
    ...(idempotencyKey && { idempotencyKey }),
    ...(timestamp && { timestamp }),
  };
  const response = await server.rest("POST", `/api/metrics/${metric}/event`, { body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

const ranking = async (key: string) =>
  ((await server.rest("GET", `/v1/leaderboards/${key}`)).body.rankings as Array<{ userId: string; rank: number; value: number }>).map((r) => [
    r.userId,
    r.rank,
    r.value,
  ]);
const errorCode = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e) => ConnectError.from(e).code,
  );

/**
 * Every document of every collection of the database that names `text`, as "collection: _id";
 * compressed content (ranking chunks' `packed` lines, helpers/stored-text.ts) is searched decoded,
 * as test/leaderboards/ranking-erase.test.ts checks on rankings large enough to be compressed.
 */
async function documentsNaming(text: string): Promise<string[]> {
  const db = server.service.context.database.db;
  const found: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      if (storedText(doc).includes(text)) found.push(`${name}: ${String(doc._id)}`);
    }
  }
  return found;
}

/** A user of the scenario: events on both ranked metrics (two leaderboards, two points systems, a streak). */
async function play(userId: string, lessons: number): Promise<void> {
  await event("lessons", userId, lessons);
  await event("steps", userId, 1);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0, 200], timeoutMs: 30_000, pollMs: 100 },
    atPipelinePoint: (point, attempt) => fault?.(point, attempt),
    // With a window, moved idempotency records are also listed in the purge's day buckets (by `_id`).
    idempotencyWindowMs: 30 * 86_400_000,
  });
  const [lessons, steps] = await created("/admin/v1/metrics", [
    { key: "lessons", name: "Lessons" },
    { key: "steps", name: "Steps" },
  ]);
  const [xp, coins] = await created("/admin/v1/points", [
    { key: "xp", name: "XP" },
    { key: "coins", name: "Coins" },
  ]);
  await created(`/admin/v1/points/${xp}/triggers`, [{ type: "metric", points: 10, metricId: lessons, metricThreshold: 1, status: "active" }]);
  await created(`/admin/v1/points/${coins}/triggers`, [{ type: "metric", points: 1, metricId: steps, metricThreshold: 1, status: "active" }]);
  await created("/admin/v1/achievements", [
    { name: "First lesson", key: "first-lesson", trigger: "metric", metricId: lessons, metricValue: 1, status: "active" },
  ]);
  const streak = await server.rest("PUT", "/admin/v1/streaks/settings", {
    body: { frequency: "daily", metrics: [{ metricId: lessons, threshold: 1 }], freezes: { initialGrant: 0, maxFreezes: 5 } },
  });
  expect(streak.status, JSON.stringify(streak.body)).toBe(201);
  const start = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  await created("/admin/v1/leaderboards", [
    { key: "lessons-board", name: "Lessons", rankBy: "metric", metricId: lessons, status: "active", start },
    { key: "xp-board", name: "XP", rankBy: "points", pointsSystemId: xp, status: "active", start },
    // Daily runs: the erased user also took part in yesterday's run.
    { key: "daily-steps", name: "Daily steps", rankBy: "metric", metricId: steps, status: "active", start, runUnit: "day", runInterval: 1 },
  ]);
  await created("/admin/v1/webhooks", [{ url: receiver.url("/hooks"), eventTypes: ["points.changed", "achievement.completed", "streak.started"] }]);

  await event("steps", ERASED, 3, undefined, `${yesterday}T12:00:00.000Z`);
  await event("steps", "alice", 2, undefined, `${yesterday}T12:00:00.000Z`);
  expect(await ranking(`daily-steps?run=${yesterday}`)).toEqual([
    [ERASED, 1, 3],
    ["alice", 2, 2],
  ]);
  appKey = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: ERASED }] })).body.created[0].key;
  await play(ERASED, 10);
  for (const [userId, lessonsDone] of OTHERS) await play(userId, lessonsDone);
  // A boost made for them alone (after their XP, so the values above stay), starting tomorrow.
  const inDay = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await created(`/admin/v1/points/${xp}/boosts`, [{ userId: ERASED, name: "VIP", start: inDay, multiplier: 3 }]);
  // More idempotency keys than a user document keeps: the older ones move to their collection. Each
  // awards a coin: more awards than the document keeps, the older ones in pages of their own.
  for (let i = 0; i < 52; i++) await event("steps", ERASED, 1, `key-${i}`);
  // The user's webhooks were delivered (and their bodies are stored with the deliveries).
  await receiver.waitFor("/hooks", (got) => got.some((r) => r.json?.user?.id === ERASED && r.json?.type === "achievement.completed"));
  // ... up to the last coin (3 + 1 + 52), so no delivery naming them is still being handed over.
  await receiver.waitFor("/hooks", (got) => got.some((r) => r.json?.user?.id === ERASED && r.json?.type === "points.changed" && r.json?.points?.total === 56));
  // Two streak pauses; the first leaves the state as an ended pause does (its owner document stays).
  const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const paused = await server.rest("POST", "/admin/v1/streaks/pauses", {
    body: { pauses: [ERASED, ERASED].map((userId, i) => ({ userId, start: inDays(2 + 3 * i), end: inDays(3 + 3 * i) })) },
  });
  expect(paused.body.created, JSON.stringify(paused.body)).toHaveLength(2);
  const { users } = server.service.context.database.collections;
  const _id = `${DEFAULT_SCOPE}/${ERASED}`;
  const stored = JSON.parse((await users.findOne({ _id }))!.s!) as { streak: { pauses: Array<{ id: string }> } };
  stored.streak.pauses = stored.streak.pauses.filter((p) => p.id !== paused.body.created[0].id);
  await users.updateOne({ _id }, { $set: { s: JSON.stringify(stored) } });
  forgetCachedTenant(users, DEFAULT_SCOPE);
});

afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe("exporting a user", () => {
  it("returns what every read returns, the stored state, moved idempotency records and the webhook payloads naming them", async () => {
    const exported = await server.rest("GET", `/admin/v1/users/${ERASED}/export`);
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    const read = async (path: string) => {
      const response = await server.rest("GET", path);
      expect(response.status, path).toBe(200);
      return response.body;
    };
    const base = `/v1/users/${ERASED}`;
    const body = exported.body;
    expect(body.user).toEqual(await read(base));
    expect(body.metrics).toEqual(await read(`${base}/metrics`));
    expect(body.achievements).toEqual(await read(`${base}/achievements`));
    expect(body.streak).toEqual(await read(`${base}/streak?historyPeriods=100`));
    expect(body.preferences).toEqual(await read(`${base}/preferences`));
    expect(body.points).toEqual([await read(`${base}/points/xp?awards=100`), await read(`${base}/points/coins?awards=100`)]);
    // Every coin award (yesterday's, play's, the 52 keyed events'), the older ones read from their pages.
    expect(body.points[1].awards).toHaveLength(54);
    expect(
      Object.values(body.state.points as Record<string, { awards: unknown[] }>)
        .map((p) => p.awards.length)
        .sort((a, b) => a - b),
    ).toEqual([1, 54]);
    expect(body.leaderboards).toEqual(
      await Promise.all(["lessons-board", "xp-board", "daily-steps"].map((key) => read(`${base}/leaderboards/${key}?numEvents=100`))),
    );
    expect(body.leaderboards.map((b: { rank: number }) => b.rank)).toEqual([1, 1, 1]);
    expect(body.state).toMatchObject({ userId: ERASED, name: `Name of ${ERASED}`, email: `${ERASED}@example.com` });
    expect(Object.keys(body.state.leaderboards)).toHaveLength(3);
    // The 52 keyed events: the first 50 moved out of the document (read from their listings), two still in it.
    expect(body.idempotencyRecords).toHaveLength(50);
    expect(body.webhookDeliveries.map((d: { type: string }) => d.type)).toEqual(expect.arrayContaining(["points.changed", "achievement.completed"]));
    for (const d of body.webhookDeliveries) expect(JSON.parse(d.body).user.id).toBe(ERASED);
    expect(body.boosts).toEqual([
      {
        pointsSystemId: expect.any(String),
        pointsSystemKey: "xp",
        boost: expect.objectContaining({ name: "VIP", userId: ERASED, multiplier: 3, status: "scheduled" }),
      },
    ]);

    // The same document over Connect and gRPC.
    for (const protocol of ["connect-json", "grpc"] as const) {
      const overRpc = await server.client(protocol).privacy.exportUser({ id: ERASED });
      expect(overRpc.user?.id).toBe(ERASED);
      expect(overRpc.points.map((p) => p.key)).toEqual(["xp", "coins"]);
      expect(overRpc.webhookDeliveries).toHaveLength(body.webhookDeliveries.length);
    }
  });

  it("answers 404 / NOT_FOUND for a user the tenant does not hold", async () => {
    expect(await server.rest("GET", "/admin/v1/users/nobody/export")).toEqual({ status: 404, body: { error: 'User "nobody" not found' } });
    expect(await errorCode(server.client("connect-json").privacy.exportUser({ id: "nobody" }))).toBe(Code.NotFound);
  });
});

describe("erasing a user", () => {
  it("leaves no read, ranking, aggregate or document naming them", async () => {
    expect(await ranking("lessons-board")).toEqual([[ERASED, 1, 10], ...OTHERS.map(([id, v], i) => [id, i + 2, v])]);
    const achievementsBefore = (await server.rest("GET", "/v1/achievements")).body;
    expect(achievementsBefore.map((a: { completions: number; rarity: number }) => [a.completions, a.rarity])).toEqual([[4, 100]]);
    const summaryBefore = (await server.rest("GET", "/v1/points/coins/summary")).body as Array<{ users: number }>;
    expect(summaryBefore.reduce((sum, r) => sum + r.users, 0)).toBe(4);
    // Before: the search finds them in, among others, both kinds of ranking chunk (so finding none after means something).
    const namingBefore = new Set((await documentsNaming(ERASED)).map((d) => d.split(":")[0]));
    expect(namingBefore).toContain("leaderboard_rank_chunks");
    expect(namingBefore).toContain("leaderboard_user_chunks");
    expect(namingBefore).toContain("user_pages");
    expect((await documentsNaming(ERASED)).filter((d) => d.startsWith("streak_pause_owners:"))).toHaveLength(2);
    expect((await server.rest("GET", `/v1/users/${ERASED}`, { apiKey: appKey })).status).toBe(200);

    expect(await server.rest("DELETE", `/admin/v1/users/${ERASED}`)).toEqual({ status: 200, body: { id: ERASED, erased: true } });

    // No read on any protocol.
    for (const path of [
      "",
      "/metrics",
      "/achievements",
      "/streak",
      "/preferences",
      "/points/xp",
      "/points/coins",
      "/leaderboards/lessons-board",
      "/leaderboards/xp-board",
    ]) {
      expect((await server.rest("GET", `/v1/users/${ERASED}${path}`)).status, path).toBe(404);
    }
    for (const protocol of ["connect-json", "connect-binary", "grpc", "grpc-web"] as const) {
      const client = server.client(protocol);
      expect(await errorCode(client.application.getUser({ id: ERASED })), protocol).toBe(Code.NotFound);
      expect(await errorCode(client.pointsReads.getUserPoints({ id: ERASED, key: "xp" })), protocol).toBe(Code.NotFound);
      expect(await errorCode(client.privacy.exportUser({ id: ERASED })), protocol).toBe(Code.NotFound);
    }
    // Rankings close up exactly: everyone else moves up by one.
    expect(await ranking("lessons-board")).toEqual(OTHERS.map(([id, v], i) => [id, i + 1, v]));
    expect(await ranking("xp-board")).toEqual(OTHERS.map(([id, v], i) => [id, i + 1, v * 10]));
    expect(await ranking(`daily-steps?run=${yesterday}`)).toEqual([["alice", 1, 2]]);
    expect((await server.rest("GET", "/v1/leaderboards/lessons-board")).body.totalParticipants ?? 3).toBe(3);
    expect((await server.rest("GET", "/v1/users/alice/leaderboards/lessons-board")).body.rank).toBe(1);
    const streakRankings = (await server.rest("GET", "/v1/streaks/rankings?limit=100")).body as Array<{ userId: string }>;
    expect(streakRankings.map((r) => r.userId).sort()).toEqual(["alice", "bob", "carol"]);
    // Aggregates no longer count them.
    expect((await server.rest("GET", "/v1/achievements")).body.map((a: { completions: number; rarity: number }) => [a.completions, a.rarity])).toEqual([
      [3, 100],
    ]);
    const summaryAfter = (await server.rest("GET", "/v1/points/coins/summary")).body as Array<{ users: number }>;
    expect(summaryAfter.reduce((sum, r) => sum + r.users, 0)).toBe(3);
    // No document in any collection names them; their application key acts for no one.
    expect(await documentsNaming(ERASED)).toEqual([]);
    await expect.poll(async () => (await server.rest("GET", `/v1/users/${ERASED}`, { apiKey: appKey })).status, { timeout: 30_000 }).toBe(401);
  }, 180_000);

  it("deletes the boosts made for the user alone: a new user of the same ID is not boosted", async () => {
    const xp = (await server.rest("GET", "/admin/v1/points")).body.find((p: { key: string }) => p.key === "xp").id;
    const today = new Date().toISOString().slice(0, 10);
    expect((await server.rest("POST", "/v1/users", { body: { id: "boosted" } })).status).toBe(201);
    await created(`/admin/v1/points/${xp}/boosts`, [
      { userId: "boosted", name: "Boosted VIP", start: today, multiplier: 3 },
      { userId: "alice", name: "Alice VIP", start: today, multiplier: 2 },
    ]);
    const boosted = await server.rest("POST", "/api/metrics/lessons/event", { body: { user: { id: "boosted" }, value: 1 } });
    expect(boosted.body.points.xp.added).toBe(30);
    expect((await server.rest("DELETE", "/admin/v1/users/boosted")).body).toEqual({ id: "boosted", erased: true });
    const names = async () => ((await server.rest("GET", `/admin/v1/points/${xp}/boosts`)).body as Array<{ name: string }>).map((b) => b.name);
    expect(await names()).toEqual(["Alice VIP"]);
    const fresh = await server.rest("POST", "/api/metrics/lessons/event", { body: { user: { id: "boosted" }, value: 1 } });
    expect(fresh.body.points.xp.added).toBe(10);
    await server.rest("DELETE", "/admin/v1/users/boosted");
  });

  it("is idempotent: erasing again, or a user never seen, succeeds with erased false", async () => {
    expect(await server.rest("DELETE", `/admin/v1/users/${ERASED}`)).toEqual({ status: 200, body: { id: ERASED, erased: false } });
    // A user never seen holds nothing; a key made for the ID goes.
    const keyOfUnseen = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "never-seen" }] })).body.created[0].key;
    expect(await server.client("grpc").privacy.eraseUser({ id: "never-seen" })).toMatchObject({ id: "never-seen", erased: false });
    expect(await documentsNaming("never-seen")).toEqual([]);
    await expect.poll(async () => (await server.rest("GET", "/v1/users/never-seen", { apiKey: keyOfUnseen })).status, { timeout: 30_000 }).toBe(401);
    expect((await ranking("lessons-board")).length).toBe(3);
  });

  it("empties the user's events in batches not processed yet, keeping the others in place", async () => {
    await play("batched", 1);
    const c = server.service.context.database.collections;
    // A batch as stored just before its batch document (a marker younger than the worker's grace is left alone).
    const events = [
      { key: "lessons", user: { id: "alice" }, value: 1, attributes: [] },
      { key: "lessons", user: { id: "batched", name: "B" }, value: 2, attributes: [{ key: "k", value: "v" }], idempotencyKey: "b-1" },
    ];
    await c.metricEventBatchEvents.insertOne({ _id: "batch-erase", tenantId: DEFAULT_SCOPE, events, created: new Date() });
    await c.metricEventBatchQueue.insertOne({ _id: "batch-erase", created: new Date(), at: new Date() });
    try {
      expect((await server.rest("DELETE", "/admin/v1/users/batched")).body.erased).toBe(true);
      expect((await c.metricEventBatchEvents.findOne({ _id: "batch-erase" }))?.events).toEqual([
        events[0],
        { key: "lessons", user: { id: "" }, value: 0, attributes: [] },
      ]);
    } finally {
      await c.metricEventBatchQueue.deleteOne({ _id: "batch-erase" });
      await c.metricEventBatchEvents.deleteOne({ _id: "batch-erase" });
    }
  });

  it("erases in bulk, reporting users there was nothing to erase", async () => {
    await play("bulk-1", 1);
    await play("bulk-2", 2);
    const response = await server.rest("DELETE", "/admin/v1/users?ids=bulk-1,bulk-2,bulk-ghost");
    expect(response.status).toBe(200);
    expect(response.body.deleted).toEqual([{ id: "bulk-1" }, { id: "bulk-2" }]);
    expect(response.body.issues).toMatchObject([{ userId: "bulk-ghost", severity: "warning", message: 'User "bulk-ghost" not found: nothing to erase' }]);
    expect((await ranking("lessons-board")).map(([id]) => id)).toEqual(["alice", "bob", "carol"]);
    const overConnect = await server.client("connect-json").privacy.eraseUsers({ ids: ["bulk-1"] });
    expect(overConnect.deleted).toEqual([]);
    expect(overConnect.issues.map((i) => i.userId)).toEqual(["bulk-1"]);
    expect((await server.rest("DELETE", "/admin/v1/users")).status).toBe(400); // no IDs
  });

  it("against a concurrent event ends either with the user erased or with a fresh user holding only that event", async () => {
    for (let round = 0; round < 4; round++) {
      const userId = `racer-${round}`;
      await play(userId, 4);
      const [erased] = await Promise.all([server.rest("DELETE", `/admin/v1/users/${userId}`), event("lessons", userId, 1)]);
      expect(erased.body.erased).toBe(true);
      const read = await server.rest("GET", `/v1/users/${userId}/metrics/lessons`);
      const rank = await server.rest("GET", `/v1/users/${userId}/leaderboards/lessons-board`);
      if (read.status === 404) {
        // The event landed first and was erased with the rest.
        expect((await ranking("lessons-board")).map(([id]) => id)).not.toContain(userId);
      } else {
        // The event came after: a fresh user with that event only, ranked by it.
        expect(read.body.current).toBe(1);
        expect(rank.body.value).toBe(1);
      }
      await server.rest("DELETE", `/admin/v1/users/${userId}`);
    }
    expect((await ranking("lessons-board")).map(([id]) => id)).toEqual(["alice", "bob", "carol"]);
  }, 180_000);

  it("finds the lines of events cut short between their ranking and user writes: of a user never written, and on boards the document never knew", async () => {
    // The rankings are written before the user: a crash between the two, never retried, leaves the line.
    const cutShort = async (userId: string, metric: string, value: number) => {
      fault = (point) => {
        if (point === "before-user-write") throw new Error("simulated crash");
      };
      const response = await server.rest("POST", `/api/metrics/${metric}/event`, { body: { user: { id: userId }, value } });
      fault = null;
      expect(response.status).toBe(500);
    };
    // A first event: no user, but ranked, listed and due.
    await cutShort("ghost-1", "steps", 1000);
    expect((await server.rest("GET", "/v1/users/ghost-1")).status).toBe(404);
    expect((await ranking("daily-steps"))[0]).toEqual(["ghost-1", 1, 1000]);
    // A user with a document: the cut-short event is their first on daily-steps.
    await event("lessons", "partly", 1);
    await cutShort("partly", "steps", 999);
    expect((await ranking("daily-steps")).slice(0, 2)).toEqual([
      ["ghost-1", 1, 1000],
      ["partly", 2, 999],
    ]);
    expect(await server.rest("DELETE", "/admin/v1/users/ghost-1")).toEqual({ status: 200, body: { id: "ghost-1", erased: true } });
    expect(await server.rest("DELETE", "/admin/v1/users/partly")).toEqual({ status: 200, body: { id: "partly", erased: true } });
    const daily = (await ranking("daily-steps")).map(([id]) => id);
    expect(daily).not.toContain("ghost-1");
    expect(daily).not.toContain("partly");
    expect(await documentsNaming("ghost-1")).toEqual([]);
    expect(await documentsNaming("partly")).toEqual([]);
  }, 180_000);

  it("cut short by a crash midway, is finished by a retry", async () => {
    await play("crashy", 20);
    expect((await ranking("lessons-board"))[0]).toEqual(["crashy", 1, 20]);
    fault = (point, step) => {
      if (point === "erase-step" && step === 2) throw new Error("simulated crash");
    };
    const failed = await server.rest("DELETE", "/admin/v1/users/crashy");
    fault = null;
    expect(failed.status).toBe(500);
    // Midway: the user's document is gone, the rankings still list them, the erasure is recorded.
    expect((await server.rest("GET", "/v1/users/crashy")).status).toBe(404);
    expect((await ranking("lessons-board"))[0]).toEqual(["crashy", 1, 20]);
    expect(await server.service.context.database.collections.userErasures.countDocuments({ userId: "crashy" })).toBe(1);
    expect(await server.rest("GET", "/admin/v1/users/crashy/export")).toMatchObject({ status: 404 });

    expect(await server.rest("DELETE", "/admin/v1/users/crashy")).toEqual({ status: 200, body: { id: "crashy", erased: true } });
    expect((await ranking("lessons-board")).map(([id]) => id)).toEqual(["alice", "bob", "carol"]);
    expect(await documentsNaming("crashy")).toEqual([]);
  }, 180_000);

  it("cut short before anything was deleted, is finished by the start-up's pass over unfinished erasures", async () => {
    await play("stopped", 30);
    fault = (point, step) => {
      if (point === "erase-step" && step === 1) throw new Error("simulated crash");
    };
    expect((await server.rest("DELETE", "/admin/v1/users/stopped")).status).toBe(500);
    fault = null;
    // Nothing deleted yet, but the user is being erased: the export refuses them.
    expect((await ranking("lessons-board"))[0]).toEqual(["stopped", 1, 30]);
    expect((await server.rest("GET", "/admin/v1/users/stopped/export")).status).toBe(404);
    await finishUnfinishedErasures(server.service.context, pino({ level: "silent" }));
    expect((await server.rest("GET", "/v1/users/stopped")).status).toBe(404);
    expect((await ranking("lessons-board")).map(([id]) => id)).toEqual(["alice", "bob", "carol"]);
    expect(await documentsNaming("stopped")).toEqual([]);
  }, 180_000);

  it("sends user.deleted to the endpoints subscribed to it, once", async () => {
    await created("/admin/v1/webhooks", [{ url: receiver.url("/deleted"), eventTypes: ["user.deleted"] }]);
    await play("leaver", 1);
    fault = (point, step) => {
      if (point === "erase-step" && step === 3) throw new Error("simulated crash");
    };
    expect((await server.rest("DELETE", "/admin/v1/users/leaver")).status).toBe(500);
    fault = null;
    expect((await server.rest("DELETE", "/admin/v1/users/leaver")).body).toEqual({ id: "leaver", erased: true });
    const [got] = await receiver.waitFor("/deleted", (all) => all.length > 0);
    expect(got!.json).toMatchObject({ type: "user.deleted", tenantId: null, user: { id: "leaver" } });
    expect(Object.keys(got!.json.user)).toEqual(["id"]);
    // The user's other traces are gone; the announcement is the one delivery naming them.
    expect((await documentsNaming("leaver")).map((d) => d.split(":")[0])).toEqual(["webhook_deliveries"]);
    await new Promise((resolve) => setTimeout(resolve, 500)); // no second message follows (retry delays are 200 ms)
    expect(receiver.at("/deleted")).toHaveLength(1);
  }, 180_000);

  it("finds the moved idempotency records and pause owners of a document stored before they were counted (by a query)", async () => {
    const legacy = "listed-never";
    for (let i = 0; i < 52; i++) await event("steps", legacy, 1, `legacy-${i}`);
    const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    expect((await server.rest("POST", "/admin/v1/streaks/pauses", { body: { pauses: [{ userId: legacy, start: inDays(2), end: inDays(3) }] } })).status).toBe(
      201,
    );
    // As an earlier version stored it: no count of moves or pauses in the state, no listing (once the webhook
    // worker's hand-over of the user's outbox has written the document, and out of the user cache).
    const { users, userPages, pendingOutboxes, idempotencyPurge } = server.service.context.database.collections;
    const _id = `${DEFAULT_SCOPE}/${legacy}`;
    await expect.poll(async () => pendingOutboxes.findOne({ _id }), { timeout: 60_000 }).toBeNull();
    const doc = await users.findOne({ _id });
    const { idempotencyMoves, pausesCreated, ...rest } = JSON.parse(doc!.s!) as Record<string, unknown>;
    expect([idempotencyMoves, pausesCreated]).toEqual([1, 1]);
    await users.updateOne({ _id }, { $set: { s: JSON.stringify(rest) } });
    forgetCachedTenant(users, DEFAULT_SCOPE);
    const listing = `${_id}/idempotency-moves/0`;
    expect((await userPages.deleteOne({ _id: listing })).deletedCount).toBe(1);
    expect((await idempotencyPurge.updateMany({ keys: listing }, { $pull: { keys: listing } })).modifiedCount).toBe(1);

    const exported = await server.rest("GET", `/admin/v1/users/${legacy}/export`);
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    expect(exported.body.idempotencyRecords).toHaveLength(50);
    expect(await server.rest("DELETE", `/admin/v1/users/${legacy}`)).toEqual({ status: 200, body: { id: legacy, erased: true } });
    // (The `user.deleted` message an earlier test subscribed to is the one delivery that names them.)
    expect((await documentsNaming(legacy)).filter((d) => !d.startsWith("webhook_deliveries:"))).toEqual([]);
  }, 180_000);

  it("finds runs older than the kept rank history", async () => {
    const [metricId] = await created("/admin/v1/metrics", [{ key: "visits", name: "Visits" }]);
    const dayAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    await created("/admin/v1/leaderboards", [
      { key: "daily-visits", name: "Daily visits", rankBy: "metric", metricId, status: "active", start: dayAgo(110), runUnit: "day", runInterval: 1 },
    ]);
    // 102 days with a visit: the rank history keeps the latest 100, so the first two runs drop out of it.
    await event("visits", "other", 1, undefined, `${dayAgo(105)}T12:00:00.000Z`);
    for (let n = 105; n >= 4; n--) await event("visits", "veteran", 2, undefined, `${dayAgo(n)}T12:00:00.000Z`);
    const history = (await server.rest("GET", "/admin/v1/users/veteran/export")).body.state.leaderboards;
    const kept = (Object.values(history)[0] as { history: Array<{ run: string }> }).history.map((h) => h.run);
    expect(kept).not.toContain(dayAgo(105));
    // All 100 kept, most of them read from the history's pages (the document keeps the recent ones).
    expect(kept).toHaveLength(100);
    expect(kept.at(0)).toBe(dayAgo(103));
    expect((await documentsNaming("veteran")).filter((d) => d.startsWith("user_pages:")).length).toBeGreaterThan(3);
    expect(await ranking(`daily-visits?run=${dayAgo(105)}`)).toEqual([
      ["veteran", 1, 2],
      ["other", 2, 1],
    ]);

    expect((await server.rest("DELETE", "/admin/v1/users/veteran")).body.erased).toBe(true);
    expect(await ranking(`daily-visits?run=${dayAgo(105)}`)).toEqual([["other", 1, 1]]);
    expect(await ranking(`daily-visits?run=${dayAgo(4)}`)).toEqual([]);
    // Only the user.deleted announcement (the endpoint of the test before subscribes to it).
    const left = await documentsNaming("veteran");
    expect(left).toHaveLength(1);
    const deliveries = server.service.context.database.collections.webhookDeliveries;
    expect((await deliveries.findOne({ _id: left[0]!.slice("webhook_deliveries: ".length) }))?.type).toBe("user.deleted");
  }, 120_000);
});
