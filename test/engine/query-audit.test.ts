// Query audit: every database command the service sends during a full scenario (every endpoint
// family, the scheduler, the webhook worker, admin batches, leaderboard runs) is recorded with
// driver command monitoring; each distinct query shape is explained on FerretDB, and a shape that
// is not served by the `_id` index fails the test unless its collection cannot grow with users,
// events or participants (ALLOWED_SCANS, each with its reason) or it is a known debt (KNOWN_SCANS,
// issue 14, listed so that the list only shrinks). A new feature's scan therefore fails CI. FerretDB's SQLite backend serves only a plain
// `_id` equality by index; everything else reads the whole collection.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { CommandStartedEvent, Db, Document } from "mongodb";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../../src/server/service.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { ADMIN_KEY } from "../helpers/server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

/** Collections a scan may read: their size is bounded by configuration or by pending work. */
const ALLOWED_SCANS: Record<string, string> = {
  tenants: "configuration: one document per tenant (customer accounts), read through the config cache",
  metrics: "configuration: one document per metric",
  attributes: "configuration: custom attribute definitions",
  achievements: "configuration: achievement definitions",
  streak_settings: "configuration: one document per tenant",
  account_settings: "configuration: one document per tenant (read by _id; deleted with the tenant)",
  points_systems: "configuration: points system definitions",
  points_triggers: "configuration: triggers of points systems",
  points_levels: "configuration: levels of points systems",
  points_boosts: "configuration: boosts of points systems (created by admins)",
  leaderboards: "configuration: leaderboard definitions",
  webhook_endpoints: "configuration: webhook endpoints",
  api_keys: "configuration: keys created by admins; a lookup per authenticated request is cached for the key's hash",
  leases: "one document per background loop (and the instance lease)",
  pending_outboxes: "pending work: only users whose outbox is not empty right now",
  due_users: "pending work: the minutes not processed yet",
  webhook_due: "pending work: deliveries parked for a retry in minutes not walked yet",
  webhook_claims: "pending work: attempts in progress",
  webhook_ready: "pending work: deliveries ready to attempt",
  metric_event_batch_queue: "pending work: batches not completed",
  achievement_stats: "bounded by configuration: a counter per tenant and per achievement (deleted with the tenant)",
  leaderboard_announcements: "bounded by configuration: per leaderboard run and group announced, read per tenant",
  user_erasures: "pending work: user erasures a crash left unfinished (read at start-up)",
};

/**
 * Known scans of growing collections, not fixed yet (issue 14): the list may only shrink. Shapes
 * not seen in a run are printed, so a fixed one is noticed and removed.
 */
const KNOWN_SCANS: Record<string, string> = {};

/**
 * The one operation allowed to scan growing collections, and only with these shapes of `delete`:
 * deleting a tenant (DELETE /admin/v1/tenants) deletes everything it holds with one `deleteMany`
 * per collection (its ranking roots name it in their `_id` only). Each is a scan of the whole
 * collection, all tenants' documents, once per deleted tenant: on MongoDB the `tenantId` indexes
 * serve them. Keyed, it would delete each listed user's documents one by one (about five commands
 * per user, minutes for a 20,000-user tenant on FerretDB, against seconds for the scans); it would
 * pay off for a small tenant beside large ones. See docs/testing.md.
 * And one shape of `find`: the pending-work buckets (purge days) whose keys name the tenant's users
 * (`keys` by prefix), found by the same kind of scan so their keys can be pulled by `_id`.
 */
const TENANT_DELETION_SHAPES = new Map([
  ["delete", new Set(["{tenantId}", "{$or}"])],
  ["find", new Set(["{keys}"])],
]);

let database: TestDatabase;
let service: RunningService;
let receiver: WebhookReceiver;
const commands: CommandStartedEvent[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  receiver = await startWebhookReceiver();
  const uri = `${database.uri}${database.uri.includes("?") ? "&" : "?"}monitorCommands=true`;
  service = await startService({
    mongodbUri: uri,
    mongodbDb: database.dbName,
    port: 0,
    host: "127.0.0.1",
    adminApiKey: ADMIN_KEY,
    logger: pino({ level: "silent" }),
    // Every user read goes to the database, so the audit sees the shapes a cold cache sends.
    userCacheEntries: 0,
    webhooks: { allowPrivateNetworks: true, pollMs: 50, boostCheckMs: 200 },
  });
  service.context.database.client.on("commandStarted", (event) => commands.push(event));
}, 120_000);

afterAll(async () => {
  await service?.close();
  await receiver?.close();
  await database?.close();
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method,
    headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function ok(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const result = await call(method, path, body, headers);
  expect(result.status, `${method} ${path}: ${JSON.stringify(result.body)}`).toBeLessThan(300);
  return result.body;
}

/** The command's target collection and its filters (a command may carry several). */
function filtersOf(event: CommandStartedEvent): { collection: string; filters: Document[] } | null {
  const command = event.command;
  const collection = command[event.commandName];
  if (typeof collection !== "string") return null;
  switch (event.commandName) {
    case "find":
    case "count":
      return { collection, filters: [command.filter ?? command.query ?? {}] };
    case "findAndModify":
      return { collection, filters: [command.query ?? {}] };
    case "update":
      return { collection, filters: (command.updates as Document[]).map((u) => u.q) };
    case "delete":
      return { collection, filters: (command.deletes as Document[]).map((d) => d.q) };
    case "aggregate": {
      const match = (command.pipeline as Document[]).find((stage) => "$match" in stage);
      return { collection, filters: [match?.$match ?? {}] };
    }
    default:
      return null; // inserts, index creation, pings: no filter
  }
}

/** A filter's shape: field names with operators, values left out; map keys (UUIDs) become `*`. */
export function shapeOf(filter: Document): string {
  const fields = Object.entries(filter).map(([key, value]) => {
    const name = key.replace(/\.[0-9a-f]{8}-[0-9a-f-]{27}(?=\.|$)/g, ".*").replace(/^attributes\.[^.]+/, "attributes.*");
    if (value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date)) {
      const operators = Object.keys(value).filter((k) => k.startsWith("$"));
      if (operators.length > 0) return `${name}:{${operators.join(",")}}`;
    }
    return name;
  });
  return `{${fields.join(",")}}`;
}

/**
 * True when FerretDB serves the filter by the `_id` index. Explained as a `find`: FerretDB's
 * update, delete, findAndModify and count select documents through the same query path as find,
 * while its explain of those commands ignores the filter (it always reports a scan).
 */
async function isKeyed(db: Db, collection: string, filter: Document): Promise<boolean> {
  // A plain string `_id` equality is what FerretDB serves by index (the audit's own check below
  // confirms it with explain); explaining it on a collection not created yet would say "scan".
  const keys = Object.keys(filter);
  if (keys.length === 1 && keys[0] === "_id" && typeof filter._id === "string") return true;
  try {
    const plan = await db.command({ explain: { find: collection, filter } });
    return plan.filterPushdown === true;
  } catch {
    return false;
  }
}

describe("query audit", () => {
  it("sends no query that scans a collection growing with users, events or participants", async () => {
    // A webhook endpoint first, so every change also goes through the outbox and delivery.
    await ok("POST", "/admin/v1/webhooks", [
      { url: receiver.url("/hook"), eventTypes: ["points.changed", "achievement.completed", "streak.extended", "leaderboard.changed", "leaderboard.started"] },
    ]);
    // Configuration and traffic of every feature, through the Admin and Application APIs (the fuzzing seed).
    const seed = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/fuzz-seed.ts"], {
      env: { ...process.env, BASE_URL: `http://127.0.0.1:${service.port}`, ADMIN_API_KEY: ADMIN_KEY },
    });
    const ids = Object.fromEntries(
      seed.stdout
        .trim()
        .split("\n")
        .map((line) => line.split("=") as [string, string]),
    );
    const systemId = ids.FUZZ_POINTS_SYSTEM_ID!;

    // Every Application API read.
    for (const path of [
      "/v1/achievements",
      "/v1/users/u1",
      "/v1/users/u1/preferences",
      "/v1/users/u1/metrics",
      "/v1/users/u1/metrics/words",
      "/v1/users/u1/metrics/words/event-summary?aggregation=daily&startDate=2026-01-01&endDate=2026-12-31",
      "/v1/users/u1/achievements?includeIncomplete=true",
      "/v1/users/u1/streak?historyPeriods=5",
      "/v1/streaks?userIds=u1,u2",
      "/v1/users/u1/points/xp",
      "/v1/users/u1/points/xp/boosts",
      "/v1/users/u1/points/xp/event-summary?aggregation=daily&startDate=2026-01-01&endDate=2026-12-31",
      "/v1/users/u1/leaderboards/words-board",
      "/v1/points/xp/summary",
      "/v1/points/xp/summary?userAttributes=plan:pro",
      "/v1/points/xp",
      "/v1/points/xp/boosts",
      "/v1/points/xp/levels",
      "/v1/points/xp/level-summary",
      "/v1/leaderboards",
      "/v1/leaderboards/words-board",
      "/v1/leaderboards/by-plan?userAttributes=plan:pro",
      // The parameters the reference's published clients send.
      "/v1/achievements?userAttributes=plan:pro",
      "/v1/leaderboards/words-board?userId=u1&offset=1&limit=5",
      "/v1/leaderboards/by-plan?userId=u1",
      "/v1/leaderboards/by-plan?userAttributes=plan:free&userId=u2",
      "/v1/users/u1/leaderboards/words-board?numEvents=3",
      "/v1/users/u1/leaderboards/by-plan?numEvents=0",
      "/v1/users/u1/wrapped",
    ]) {
      const result = await call("GET", path);
      expect(result.status, `GET ${path}: ${JSON.stringify(result.body)}`).toBeLessThan(500);
    }
    await ok("PATCH", "/v1/users/u2", { name: "User Two" });

    // Admin API: reads, updates and bulk calls of every resource.
    for (const path of [
      "/admin/v1/attributes",
      "/admin/v1/metrics",
      "/admin/v1/points",
      `/admin/v1/points/${systemId}/boosts`,
      `/admin/v1/points/${systemId}/levels`,
      `/admin/v1/points/${systemId}/triggers`,
      "/admin/v1/leaderboards",
      "/admin/v1/tenants",
      "/admin/v1/webhooks",
      "/admin/v1/application-api-keys",
      "/admin/v1/settings",
      "/admin/v1/environments",
    ]) {
      await ok("GET", path);
    }
    await ok("PATCH", "/admin/v1/settings", { branding: { appName: "Audit" }, experimentation: { controlRatio: 0 } });
    await ok("POST", "/admin/v1/streaks/freezes", { freezes: [{ userId: "u1" }] });
    const today = new Date().toISOString().slice(0, 10);
    const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const pauses = await ok("POST", "/admin/v1/streaks/pauses", { pauses: [{ userId: "u2", start: inDays(2), end: inDays(3) }] });
    expect(pauses.created).toHaveLength(1);
    await ok("DELETE", `/admin/v1/streaks/pauses?ids=${pauses.created[0].id}`);
    await ok("POST", "/admin/v1/streaks/restore", { users: [{ id: "u2" }] });
    await ok("POST", `/admin/v1/points/${systemId}/boosts`, [{ userId: "u2", name: "Audit boost", start: today, multiplier: 2 }]);
    const [metric] = await ok("GET", "/admin/v1/metrics");
    await call("PATCH", "/admin/v1/metrics", [{ id: metric.id, key: "renamed-words" }]);
    await ok("POST", "/admin/v1/achievements", [
      { name: "Backdated", key: "backdated", trigger: "metric", metricId: ids.FUZZ_METRIC_ID, metricValue: 10, status: "active" },
    ]);

    // An admin batch, processed in the background until completed.
    // More keyed events for u3 than a user document keeps: the older records move out (listed for the export and erasure below).
    const batch = await ok("POST", "/admin/v1/metrics/events", [
      ...Array.from({ length: 52 }, (_, i) => ({ key: "words", user: { id: "u3" }, value: 5, idempotencyKey: `audit-u3-${i}` })),
      { key: "words", user: { id: "u1" }, value: 5, idempotencyKey: "audit-2" },
    ]);
    await expect.poll(async () => (await call("GET", `/admin/v1/metrics/events/${batch.batchId}`)).body.status, { timeout: 60_000 }).toBe("completed");

    // The webhook worker delivers; the admin reads of deliveries.
    const [endpoint] = await ok("GET", "/admin/v1/webhooks");
    await receiver.waitFor("/hook", (got) => got.length > 0, 60_000);
    const deliveries = await ok("GET", `/admin/v1/webhooks/${endpoint.id}/deliveries`);
    if (deliveries.length > 0) {
      await ok("GET", `/admin/v1/webhooks/${endpoint.id}/deliveries/${deliveries[0].messageId}`);
      await ok("GET", `/admin/v1/webhook-messages/${deliveries[0].messageId}/deliveries`);
    }
    // Privacy operations: export and erase a user.
    await ok("GET", "/admin/v1/users/u3/export");
    await ok("DELETE", "/admin/v1/users/u3");
    // Deleting the endpoint deletes its deliveries (through its log).
    await ok("DELETE", `/admin/v1/webhooks?ids=${endpoint.id}`);
    // Deleting a leaderboard deletes its rankings (every run and group) by key.
    const byPlan = (await ok("GET", "/admin/v1/leaderboards")).find((l: { key: string }) => l.key === "by-plan");
    await ok("DELETE", `/admin/v1/leaderboards?ids=${byPlan.id}`);
    // A tenant with a metric, a leaderboard and a user, deleted (the commands it sends are told apart below).
    const [tenant] = (await ok("POST", "/admin/v1/tenants", [{ customerId: "audit-deleted", name: "Deleted" }])).created;
    const inTenant = { "tenant-id": tenant.customerId };
    const [tenantMetric] = (await ok("POST", "/admin/v1/metrics", [{ key: "steps", name: "Steps" }], inTenant)).created;
    await ok(
      "POST",
      "/admin/v1/leaderboards",
      [{ key: "steps-board", name: "Steps", rankBy: "metric", metricId: tenantMetric.id, status: "active", start: today }],
      inTenant,
    );
    await ok("POST", "/api/metrics/steps/event", { user: { id: "t1" }, value: 3 }, inTenant);
    const tenantDeletion = { from: commands.length, to: 0 };
    expect((await ok("DELETE", `/admin/v1/tenants?ids=${tenant.id}`)).deleted).toEqual([{ id: tenant.id }]);
    tenantDeletion.to = commands.length;
    // The scheduler and the other background loops run on their own timers: let a few rounds pass.
    await service.context.database.collections.leases.findOne({ _id: "scheduler:users" });
    await expect.poll(() => commands.some((c) => filtersOf(c)?.collection === "due_users"), { timeout: 30_000 }).toBe(true);

    // Every distinct shape, explained on FerretDB with its first concrete filter.
    const shapes = new Map<string, { commandName: string; collection: string; filter: Document }>();
    const tenantDeletionScans = new Set<string>();
    for (const [index, event] of commands.entries()) {
      const target = filtersOf(event);
      if (!target) continue;
      for (const filter of target.filters) {
        if (index >= tenantDeletion.from && index < tenantDeletion.to && TENANT_DELETION_SHAPES.get(event.commandName)?.has(shapeOf(filter))) {
          tenantDeletionScans.add(target.collection);
          continue;
        }
        const name = event.commandName === "findAndModify" ? "findAndModify" : event.commandName;
        const key = `${target.collection} ${name} ${shapeOf(filter)}`;
        if (!shapes.has(key)) shapes.set(key, { commandName: name, collection: target.collection, filter });
      }
    }
    // The scenario reached the collections it is meant to audit.
    const seen = new Set(commands.map((c) => c.command[c.commandName]).filter((name) => typeof name === "string"));
    for (const collection of [
      "users",
      "idempotency_keys",
      "leaderboard_rankings",
      "leaderboard_rank_chunks",
      "pending_outboxes",
      "due_users",
      "webhook_deliveries",
      "metric_event_batches",
      "leases",
    ]) {
      expect(seen, `no query reached ${collection}`).toContain(collection);
    }

    // The tenant deletion reached the growing collections with its one allowed shape.
    for (const collection of ["users", "leaderboard_rankings", "leaderboard_rank_chunks", "webhook_deliveries"])
      expect(tenantDeletionScans).toContain(collection);

    const db = service.context.database.db;
    const scans: string[] = [];
    const known = new Set<string>();
    for (const [key, { collection, filter }] of shapes) {
      if (await isKeyed(db, collection, filter)) continue;
      if (collection in ALLOWED_SCANS) continue;
      if (key in KNOWN_SCANS) {
        known.add(key);
        continue;
      }
      scans.push(`${key}   e.g. ${JSON.stringify(filter)}`);
    }
    expect(scans, `scans of collections that grow with users, events or participants:\n${scans.join("\n")}`).toEqual([]);
    // A known scan the scenario did not send: fixed, or a background loop's timer did not come
    // round in this run (retention, retries). Reported, not failed, so timing cannot fail the run.
    const unseen = Object.keys(KNOWN_SCANS).filter((key) => !known.has(key));
    if (unseen.length > 0) console.warn(`query audit: known scans not seen in this run (remove them once fixed):\n${unseen.join("\n")}`);
  }, 600_000);

  it("tells a keyed lookup from a scan (the audit's own check)", async () => {
    const db = service.context.database.db;
    expect(await isKeyed(db, "users", { _id: "default/u1" })).toBe(true);
    expect(await isKeyed(db, "users", { _id: "default/u1", version: 3 })).toBe(false);
    expect(await isKeyed(db, "users", { tenantId: "default" })).toBe(false);
    expect(await isKeyed(db, "users", { _id: { $in: ["default/u1"] } })).toBe(false);
    expect(shapeOf({ tenantId: "t", "achievements.0b5c9a52-1a4e-4c55-9f7e-2a1b3c4d5e6f": { $exists: true } })).toBe("{tenantId,achievements.*:{$exists}}");
  });
});
