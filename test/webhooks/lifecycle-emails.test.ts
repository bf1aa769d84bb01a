import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIFECYCLE_EVENT_TYPES } from "../../src/features/webhooks/domain/lifecycle.js";
import { WEBHOOK_EVENT_TYPES } from "../../src/features/webhooks/domain/webhooks.js";
import { runDueWork } from "../../src/workers/due-work.js";
import { changeUserState } from "../../src/engine/user-state.js";
import { minuteOf, readStoredUser } from "../../src/engine/store/user-documents.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { expectReceivedBodiesFitPublishedModels } from "../helpers/published-models.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// Lifecycle messages (emails.*) over the real server, its scheduler and webhook worker, with a
// clock that starts on Monday 2030-01-07 07:58 UTC (08:58 in Paris, 17:58 in Brisbane) and that the
// test moves a few minutes on: every scheduled message here is due at 08:00 UTC.
//
// Each kind has a tenant of its own whose one endpoint subscribes to that type only, so each path of
// the receiver sees one kind.

// More than BACKFILL_QUIET_MS before 08:00: the backdated events of the setup do not hold the 08:00 messages back.
const T0 = Date.parse("2030-01-07T07:45:00Z");
const DUE = new Date("2030-01-07T08:00:00Z");
const REAL0 = Date.now();
let offsetMs = 0;
const now = () => new Date(T0 + (Date.now() - REAL0) + offsetMs);

let server: TestServer;
let receiver: WebhookReceiver;
const tenantIds: Record<string, string> = {};

async function created(path: string, body: unknown, tenantId?: string): Promise<string[]> {
  const response = await server.rest(path.includes("settings") ? "PUT" : "POST", path, { body, tenantId });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.created?.map((item: { id: string }) => item.id) ?? [];
}

const send = (tenantId: string, user: Record<string, unknown>, timestamp?: string) =>
  server.rest("POST", "/api/metrics/words/event", { tenantId, body: { user, value: 1, ...(timestamp && { timestamp }) } });

async function user(tenantId: string, id: string, fields: Record<string, unknown>, notifications?: Record<string, string[]>) {
  const { id: _id, ...body } = fields;
  const response = await server.rest("PUT", `/v1/users/${id}`, { tenantId, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  if (notifications) expect((await server.rest("PATCH", `/v1/users/${id}/preferences`, { tenantId, body: { notifications } })).status).toBe(200);
}

const bodies = (path: string) => receiver.at(path).map((r) => r.json);

/** Waits until the scheduler has processed `minute`, every outbox was handed over and every delivery attempted. */
async function settled(minute: number): Promise<void> {
  const { db } = server.database;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const lease = await db.collection<{ _id: string; cursor: number | null }>("leases").findOne({ _id: "scheduler:users" });
    const outboxes = await db.collection("pending_outboxes").countDocuments({});
    const pending = await db.collection("webhook_deliveries").countDocuments({ status: "pending" });
    if ((lease?.cursor ?? 0) >= minute && outboxes === 0 && pending === 0) return;
    if (Date.now() > deadline) throw new Error(`not settled: cursor ${lease?.cursor}, outboxes ${outboxes}, pending deliveries ${pending}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    now,
    webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0, 200, 200, 200], timeoutMs: 30_000, pollMs: 100, boostCheckMs: 300 },
  });
  const kinds = {
    recap: "emails.recap_due",
    reactivation: "emails.reactivation_due",
    reminder: "emails.streak_reminder_due",
    achievement: "emails.achievement_due",
  };
  const ids = await created(
    "/admin/v1/tenants",
    Object.keys(kinds).map((k) => ({ customerId: k, name: k })),
  );
  for (const [i, [tenant, type]] of Object.entries(kinds).entries()) {
    tenantIds[tenant] = ids[i]!;
    const [metricId] = await created("/admin/v1/metrics", [{ key: "words", name: "Words" }], tenant);
    await created("/admin/v1/webhooks", [{ url: receiver.url(`/${tenant}`), eventTypes: [type] }], tenant);
    if (tenant === "reminder")
      await created("/admin/v1/streaks/settings", { frequency: "daily", metrics: [{ metricId, threshold: 1 }], evaluationMode: "all" }, tenant);
    if (tenant === "achievement")
      await created(
        "/admin/v1/achievements",
        [{ name: "First words", key: "first-words", trigger: "metric", metricId, metricValue: 1, status: "active" }],
        tenant,
      );
  }

  // Recap: active last week (Wednesday); rob turned recaps off; nora has no e-mail.
  const paris = (id: string) => ({ id, email: `${id}@example.com`, tz: "Europe/Paris" });
  await user("recap", "rob", paris("rob"), { recap: [] });
  for (const u of [paris("rita"), paris("rob"), { id: "nora", tz: "Europe/Paris" }]) expect((await send("recap", u, "2030-01-02T10:00:00Z")).status).toBe(201);

  // Reactivation: last active exactly three days before 08:00 UTC (09:00 in Paris); ray turned it off; nia unsubscribed.
  await user("reactivation", "ray", paris("ray"), { reactivation: [] });
  await user("reactivation", "nia", { ...paris("nia"), subscribeToEmails: false });
  for (const id of ["rex", "ray", "nia"]) expect((await send("reactivation", paris(id), "2030-01-04T08:00:00Z")).status).toBe(201);
  // cal is in the control group, which gets no communications.
  const controlRatio = (ratio: number) =>
    server.rest("PATCH", "/admin/v1/settings", { tenantId: "reactivation", body: { experimentation: { controlRatio: ratio } } });
  expect((await controlRatio(100)).status).toBe(200);
  expect((await send("reactivation", paris("cal"), "2030-01-04T08:00:00Z")).body).toMatchObject({ eventId: expect.any(String) });
  expect((await controlRatio(0)).status).toBe(200);
  expect((await server.rest("GET", "/v1/users/cal", { tenantId: "reactivation" })).body.control).toBe(true);
  // ivy's history is imported in time order: her first event, five days back, would make a
  // reactivation due at once, but her next one, minutes ago, makes her active.
  expect((await send("reactivation", paris("ivy"), "2030-01-02T08:00:00Z")).status).toBe(201);
  expect((await send("reactivation", paris("ivy"), "2030-01-07T07:40:00Z")).status).toBe(201);

  // Streak reminder: in Brisbane 18:00 is 08:00 UTC. All extended their streak yesterday (Sunday
  // evening local); sid extended it again today; sue turned reminders off.
  const brisbane = (id: string) => ({ id, email: `${id}@example.com`, tz: "Australia/Brisbane" });
  await user("reminder", "sue", brisbane("sue"), { streak_reminder: [] });
  for (const id of ["sam", "sid", "sue"]) expect((await send("reminder", brisbane(id), "2030-01-06T10:00:00Z")).status).toBe(201);
  expect((await send("reminder", brisbane("sid"), "2030-01-07T07:00:00Z")).status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe("lifecycle messages (emails.*)", () => {
  it("are event types endpoints subscribe to on every protocol, all 19 types at once included", async () => {
    const lifecycle = [...LIFECYCLE_EVENT_TYPES];
    const all = [...WEBHOOK_EVENT_TYPES];
    expect(all).toHaveLength(19);
    const grpc = await server
      .client("grpc")
      .webhooks.createWebhookEndpoints({ endpoints: [{ url: "https://example.com/grpc", eventTypes: lifecycle, enabled: false }] });
    expect(grpc.created[0]!.eventTypes).toEqual(lifecycle);
    const connect = await server
      .client("connect-json")
      .webhooks.createWebhookEndpoints({ endpoints: [{ url: "https://example.com/all", eventTypes: all, enabled: false }] });
    expect(connect.created[0]!.eventTypes).toEqual(all);
    const rest = await server.rest("POST", "/admin/v1/webhooks", {
      body: [{ url: "https://example.com/rest", eventTypes: ["emails.recap_due", "emails.weekly_digest"] }],
    });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatch(/eventTypes\[1\]/);
  });

  it("emails.achievement_due arrives once with the completion, and not for a user who turned it off or has no e-mail", async () => {
    await user("achievement", "ali", { id: "ali", email: "ali@example.com" }, { achievement_completed: [] });
    for (const u of [{ id: "ada", email: "ada@example.com" }, { id: "ali" }, { id: "ann" }]) expect((await send("achievement", u)).status).toBe(201);
    await receiver.waitFor("/achievement", (got) => got.length >= 1);
    await settled(minuteOf(now()) - 60);
    expect(bodies("/achievement")).toEqual([
      expect.objectContaining({
        type: "emails.achievement_due",
        tenantId: "achievement",
        user: expect.objectContaining({ id: "ada", email: "ada@example.com", subscribeToEmails: true }),
        achievement: expect.objectContaining({ key: "first-words", name: "First words", trigger: "metric", achievedAt: expect.any(String) }),
      }),
    ]);
  });

  it("nothing scheduled is sent before its time", async () => {
    expect(now() < DUE).toBe(true);
    expect([...bodies("/recap"), ...bodies("/reactivation"), ...bodies("/reminder")]).toEqual([]);
  });

  it("at 08:00 UTC the recap, the reactivation and the streak reminder arrive once each, with the reference payloads, only to users who want them", async () => {
    offsetMs = DUE.getTime() + 75_000 - now().getTime(); // 08:01:15: the minute of 08:00 has elapsed
    await Promise.all(["/recap", "/reactivation", "/reminder"].map((path) => receiver.waitFor(path, (got) => got.length >= 1)));
    await settled(minuteOf(DUE));

    expect(bodies("/recap")).toEqual([
      {
        type: "emails.recap_due",
        id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
        tenantId: "recap",
        timestamp: expect.stringMatching(/^2030-01-07T08:0/),
        user: expect.objectContaining({ id: "rita", email: "rita@example.com", tz: "Europe/Paris" }),
        recap: { periodStart: "2029-12-31", periodEnd: "2030-01-06" },
      },
    ]);
    expect(bodies("/reactivation")).toEqual([
      expect.objectContaining({
        type: "emails.reactivation_due",
        user: expect.objectContaining({ id: "rex" }),
        reactivation: { messageNumber: 1, daysSinceLastActive: 3 },
      }),
    ]);
    expect(bodies("/reminder")).toEqual([
      expect.objectContaining({
        type: "emails.streak_reminder_due",
        user: expect.objectContaining({ id: "sam", tz: "Australia/Brisbane" }),
        streak: expect.objectContaining({
          length: 1,
          frequency: "daily",
          started: "2030-01-06",
          periodStart: "2030-01-07",
          periodEnd: "2030-01-07",
          expires: "2030-01-07",
          extended: "2030-01-06T10:00:00Z",
          streakHistory: expect.any(Array),
          pauses: [],
        }),
      }),
    ]);
  });

  it("a second scheduler pass, or the user woken again in the same period, sends nothing twice", async () => {
    const ctx = server.service.context;
    const visits: Array<[string, string]> = [
      ["recap", "rita"],
      ["reactivation", "rex"],
      ["reminder", "sam"],
    ];
    for (const [tenant, id] of visits) {
      await runDueWork(ctx, tenantIds[tenant]!, id); // the same work again: its due time has moved on
      // Woken again with a due time in the past (as after a crash before the bucket was cleared).
      await changeUserState(ctx, tenantIds[tenant]!, id, async (stored) => ({ write: { ...stored!.state, dueAt: DUE }, result: undefined }));
    }
    const wokenAt = minuteOf(now());
    offsetMs += 61_000; // let that minute elapse
    await settled(wokenAt);
    expect([bodies("/recap").length, bodies("/reactivation").length, bodies("/reminder").length]).toEqual([1, 1, 1]);
    // What was sent is marked in the user documents (written with the messages).
    const marks = async (tenant: string, id: string) => (await readStoredUser(ctx.database.collections.users, tenantIds[tenant]!, id))!.state.lifecycle;
    expect(await marks("recap", "rita")).toEqual({ recap: "2029-12-31" });
    expect(await marks("recap", "rob")).toEqual({});
    expect(await marks("reactivation", "rex")).toEqual({ reactivation: { since: new Date("2030-01-04T08:00:00Z"), sent: 1 } });
    expect(await marks("reminder", "sam")).toEqual({ streakReminder: "2030-01-07" });
    expect(await marks("reminder", "sid")).toEqual({});
  });
});

describe("the published Python client's models", () => {
  it("parse every body this file's receiver got, each with the model of its type", () => expectReceivedBodiesFitPublishedModels(receiver), 120_000);
});
