import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { WEBHOOK_EVENT_TYPES } from "../../src/features/webhooks/domain/webhooks.js";
import { Collection } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../helpers/until.js";
import { startAnotherInstance, startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { expectReceivedBodiesFitPublishedModels } from "../helpers/published-models.js";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// Signatures are checked with the `standardwebhooks` package (the Standard Webhooks reference
// library, with its own base64 and SHA-256): independent of the service's signing code.

let server: TestServer;
let receiver: WebhookReceiver;
/** The service's clock runs this far ahead of the real one (the last test moves it). */
let offsetMs = 0;
/** The server key that encrypts signing secrets at rest (every instance of a deployment has the same). */
const SECRETS_KEY = randomBytes(32);
const ids: Record<string, string | undefined> = {};
const ALL_TYPES = [...WEBHOOK_EVENT_TYPES];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates an endpoint on the receiver's `path` and returns its ID and secret. */
async function endpoint(tenantId: string | undefined, path: string, eventTypes: string[]): Promise<{ id: string; secret: string }> {
  const response = await server.rest("POST", "/admin/v1/webhooks", { tenantId, body: [{ url: receiver.url(path), eventTypes }] });
  expect(response.status).toBe(201);
  return { id: response.body.created[0].id, secret: response.body.created[0].secret };
}

const send = (tenantId: string | undefined, user: string, value: number, metric = "words") =>
  server.rest("POST", `/api/metrics/${metric}/event`, { tenantId, body: { user: { id: user }, value } });

/** Verifies a received request with the Standard Webhooks library; returns the parsed body. */
function verify(secret: string, request: ReceivedWebhook): any {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
}

/** The verification snippet of docs/webhooks.md (no dependency), kept here so that it is known to work. */
function verifyWebhook(secret: string, headers: Record<string, string | undefined>, rawBody: string, toleranceSeconds = 300) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) throw new Error("missing webhook headers");
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) throw new Error("webhook timestamp too old or too new");
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${rawBody}`).digest();
  const valid = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    const given = Buffer.from(signature ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new Error("no valid webhook signature");
  return JSON.parse(rawBody);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    now: () => new Date(Date.now() + offsetMs),
    webhooks: {
      allowPrivateNetworks: true, // the receiver is on loopback
      retryScheduleMs: [0, 200, 200, 200],
      timeoutMs: 30_000, // generous: an answer the receiver gave must not count as timed out on a loaded machine
      pollMs: 100,
      boostCheckMs: 300,
      secretsKey: SECRETS_KEY,
    },
  });
  await createdIds(server, "/admin/v1/tenants", [
    { customerId: "acme", name: "Acme" },
    { customerId: "globex", name: "Globex" },
  ]);
  for (const tenantId of ["acme", "globex"]) {
    [ids[`${tenantId}:words`]] = await createdIds(server, "/admin/v1/metrics", [{ key: "words", name: "Words written" }], tenantId);
  }
  [ids.onboarded] = await createdIds(server, "/admin/v1/achievements", [{ name: "Onboarded", key: "onboarded", trigger: "api", status: "active" }], "acme");
  [ids.xp] = await createdIds(server, "/admin/v1/points", [{ key: "xp", name: "XP" }], "acme");
  await createdIds(
    server,
    `/admin/v1/points/${ids.xp}/triggers`,
    [
      { type: "metric", points: 10, metricId: ids["acme:words"], metricThreshold: 100, status: "active" },
      { type: "achievement", points: 60, achievementId: ids.onboarded, status: "active" },
    ],
    "acme",
  );
  await createdIds(
    server,
    `/admin/v1/points/${ids.xp}/levels`,
    [
      { key: "bronze", name: "Bronze", points: 0 },
      { key: "silver", name: "Silver", points: 40 },
      { key: "gold", name: "Gold", points: 90 },
    ],
    "acme",
  );
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe("webhook endpoints (Admin API)", () => {
  it("are created with a secret shown once, stored encrypted, read, updated and deleted within their tenant", async () => {
    const created = await server.rest("POST", "/admin/v1/webhooks", {
      tenantId: "acme",
      body: [
        { url: receiver.url("/admin"), eventTypes: ["points.changed"], description: "CRM" },
        { url: "ftp://example.com/hook", eventTypes: ["points.changed"] },
      ],
    });
    expect(created.status).toBe(201);
    const [first] = created.body.created;
    expect(first).toEqual({
      id: expect.any(String),
      url: receiver.url("/admin"),
      description: "CRM",
      eventTypes: ["points.changed"],
      enabled: true,
      disabledReason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      previousSecretExpires: null,
      created: expect.any(String),
      updated: expect.any(String),
      referenceSignature: false,
    });
    expect(created.body.issues).toEqual([
      { index: 1, severity: "error", message: 'url must use http or https, got "ftp"', level: "error", reason: 'url must use http or https, got "ftp"' },
    ]);

    const read = await server.rest("GET", `/admin/v1/webhooks/${first.id}`, { tenantId: "acme" });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty("secret");
    const stored = await server.service.context.database.collections.webhookEndpoints.findOne({ _id: first.id });
    expect(stored!.secret).toMatch(/^aes256gcm:/);
    expect(JSON.stringify(stored)).not.toContain(first.secret.slice(6));

    const listed = await server.client("connect-json", { tenantId: "acme" }).webhooks.listWebhookEndpoints({});
    expect(listed.endpoints.map((e) => [e.id, e.secret])).toEqual([[first.id, undefined]]);
    expect((await server.rest("GET", `/admin/v1/webhooks/${first.id}`, { tenantId: "globex" })).status).toBe(404);
    expect((await server.rest("GET", "/admin/v1/webhooks", { tenantId: "globex" })).body).toEqual([]);

    const patched = await server.rest("PATCH", "/admin/v1/webhooks", {
      tenantId: "acme",
      body: [
        { id: first.id, eventTypes: ["points.changed", "streak.lost"], enabled: false, description: "" },
        { id: "missing", enabled: true },
      ],
    });
    expect(patched.body.updated).toEqual([expect.objectContaining({ eventTypes: ["points.changed", "streak.lost"], enabled: false, description: null })]);
    expect(patched.body.issues).toEqual([
      { id: "missing", severity: "error", message: "Webhook endpoint not found by ID", level: "error", reason: "Webhook endpoint not found by ID" },
    ]);

    const deleted = await server.rest("DELETE", `/admin/v1/webhooks?ids=${first.id}`, { tenantId: "acme" });
    expect(deleted.body).toEqual({ deleted: [{ id: first.id }], issues: [] });
    expect((await server.rest("GET", `/admin/v1/webhooks/${first.id}`, { tenantId: "acme" })).status).toBe(404);
  });

  it("refuse unknown event types on every protocol", async () => {
    const rest = await server.rest("POST", "/admin/v1/webhooks", { body: [{ url: "https://example.com/h", eventTypes: ["emails.weekly_digest"] }] });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatch(/eventTypes\[0\]/);
    await expect(server.client("grpc").webhooks.createWebhookEndpoints({ endpoints: [{ url: "https://example.com/h", eventTypes: [] }] })).rejects.toThrow(
      /eventTypes/,
    );
  });

  it("refuse loopback and private targets unless the operator allows them", async () => {
    const strict = await startTestServer(); // default settings: private networks refused
    try {
      const refused = await strict.rest("POST", "/admin/v1/webhooks", {
        body: ["http://127.0.0.1:9/x", "http://localhost:9/x", "http://[::1]:9/x", "http://169.254.169.254/latest", "http://10.0.0.8/h"].map((url) => ({
          url,
          eventTypes: ["points.changed"],
        })),
      });
      expect(refused.body.created).toEqual([]);
      expect(refused.body.issues).toHaveLength(5);
      for (const issue of refused.body.issues) expect(issue.message).toMatch(/not a public address.*WEBHOOKS_ALLOW_PRIVATE_NETWORKS/);
      const allowed = await strict.rest("POST", "/admin/v1/webhooks", { body: [{ url: "https://hooks.example.com/h", eventTypes: ["points.changed"] }] });
      expect(allowed.status).toBe(201);
    } finally {
      await strict.close();
    }
  });
});

describe("webhook delivery", () => {
  let levels: { id: string; secret: string };

  it("sends one points.level_changed per level change caused by events, signed per Standard Webhooks, to the right tenant only", async () => {
    levels = await endpoint("acme", "/acme-levels", ["points.level_changed"]);
    await endpoint("globex", "/globex-all", ALL_TYPES);
    expect((await send("acme", "ann", 500)).status).toBe(201); // 50 points: silver
    expect((await send("acme", "ann", 500)).status).toBe(201); // 100 points: gold

    await receiver.waitFor("/acme-levels", (got) => got.length >= 2);
    await sleep(800); // nothing else arrives: points.changed is not subscribed, no duplicates
    const got = receiver.at("/acme-levels");
    expect(got).toHaveLength(2);
    const bodies = got.map((r) => verify(levels.secret, r));
    expect(got.map((r) => verifyWebhook(levels.secret, r.headers as Record<string, string>, r.body))).toEqual(bodies);
    expect(() => verifyWebhook(levels.secret, got[0]!.headers as Record<string, string>, got[0]!.body.replace("ann", "bob"))).toThrow(/no valid/);
    for (const [i, body] of bodies.entries()) {
      expect(got[i]!.headers["webhook-id"]).toBe(body.id);
      expect(got[i]!.headers["content-type"]).toBe("application/json");
      expect(body).toMatchObject({ type: "points.level_changed", tenantId: "acme", user: { id: "ann" }, points: { id: ids.xp, key: "xp", name: "XP" } });
      expect(Number(got[i]!.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -2);
    }
    const changes = bodies.map((b) => [b.previousLevel?.key ?? null, b.newLevel.key, b.points.total]).sort((a, b) => a[2] - b[2]);
    // The previous level is the one the total before had (0 points: none, as 0 exceeds no threshold).
    expect(changes).toEqual([
      [null, "silver", 50],
      ["silver", "gold", 100],
    ]);
    expect(bodies[0].newLevel).toEqual({
      id: expect.any(String),
      key: expect.any(String),
      name: expect.any(String),
      description: "",
      badgeUrl: null,
      points: expect.any(Number),
    });

    expect(receiver.at("/globex-all")).toEqual([]);
    const types = await server.service.context.database.collections.webhookDeliveries.distinct("type", { endpointId: levels.id });
    expect(types).toEqual(["points.level_changed"]);
  });

  it("sends one points.level_changed for a level reached by completing an achievement", async () => {
    const done = await server.rest("POST", "/v1/achievements/onboarded/complete", { tenantId: "acme", body: { user: { id: "cat" } } });
    expect(done.status).toBe(201);
    const mine = (got: ReceivedWebhook[]) => got.filter((r) => r.json.user.id === "cat");
    await receiver.waitFor("/acme-levels", (got) => mine(got).length >= 1);
    await sleep(800);
    const [only, ...others] = mine(receiver.at("/acme-levels"));
    expect(others).toEqual([]);
    expect(verify(levels.secret, only!)).toMatchObject({ previousLevel: null, newLevel: { key: "silver" }, points: { total: 60 } });
  });

  it("retries a failing receiver with the same webhook-id and body, and logs every attempt", async () => {
    const flaky = await endpoint("acme", "/flaky", ["points.changed"]);
    receiver.on("/flaky", (n) => ({ status: n <= 3 ? 500 : 200 }));
    await send("acme", "dan", 100);
    const got = await receiver.waitFor("/flaky", (g) => g.length >= 4);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got)
      expect(verify(flaky.secret, r)).toMatchObject({ type: "points.changed", user: { id: "dan" }, points: { key: "xp", total: 10, added: 10 } });

    const messageId = got[0]!.headers["webhook-id"] as string;
    const deliveries = await until(
      () => server.rest("GET", `/admin/v1/webhooks/${flaky.id}/deliveries`, { tenantId: "acme" }),
      (body) => body[0]?.status === "delivered",
    );
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      messageId,
      endpointId: flaky.id,
      eventType: "points.changed",
      status: "delivered",
      attemptCount: 4,
      nextAttempt: null,
      lastError: null,
    });
    expect(deliveries[0].payload).toEqual(JSON.parse(got[0]!.body));
    expect(deliveries[0].attempts.map((a: any) => [a.responseStatus, a.succeeded])).toEqual([
      [500, false],
      [500, false],
      [500, false],
      [200, true],
    ]);
    for (const a of deliveries[0].attempts) expect(a.durationMs).toEqual(expect.any(Number));
    const byMessage = await server.rest("GET", `/admin/v1/webhook-messages/${messageId}/deliveries`, { tenantId: "acme" });
    expect(byMessage.body.map((d: any) => d.endpointId)).toEqual([flaky.id]);
    expect((await server.rest("GET", `/admin/v1/webhook-messages/${messageId}/deliveries`, { tenantId: "globex" })).body).toEqual([]);
    const single = await server.client("connect-binary", { tenantId: "acme" }).webhooks.getWebhookDelivery({ endpointId: flaky.id, messageId });
    expect(single.delivery?.attempts).toHaveLength(4);
  });

  it("delivers each message once when two instances deliver from one database", async () => {
    const second = await startAnotherInstance(server, {
      webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0, 200, 200, 200], pollMs: 20, secretsKey: SECRETS_KEY },
    });
    try {
      await endpoint("acme", "/shared", ["points.changed"]);
      const users = Array.from({ length: 20 }, (_, i) => `shared-${i}`);
      await Promise.all(users.map((u) => send("acme", u, 100)));
      await receiver.waitFor("/shared", (got) => got.length >= users.length);
      await sleep(800);
      const got = receiver.at("/shared");
      expect(got).toHaveLength(users.length);
      expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(users.length);
      expect(new Set(got.map((r) => r.json.user.id))).toEqual(new Set(users));
    } finally {
      await second.close();
    }
  });

  it("honours Retry-After", async () => {
    await endpoint("acme", "/slow-down", ["points.changed"]);
    receiver.on("/slow-down", (n) => (n === 1 ? { status: 503, headers: { "retry-after": "2" } } : { status: 200 }));
    await send("acme", "eve", 100);
    const [first, second] = await receiver.waitFor("/slow-down", (g) => g.length >= 2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1_900); // the schedule alone says 200 ms
  });

  it("disables an endpoint that answers 410 Gone", async () => {
    const gone = await endpoint("acme", "/gone", ["points.changed"]);
    receiver.on("/gone", () => ({ status: 410 }));
    await send("acme", "fay", 100);
    await receiver.waitFor("/gone", (g) => g.length >= 1);
    const disabled = await until(
      () => server.rest("GET", `/admin/v1/webhooks/${gone.id}`, { tenantId: "acme" }),
      (body) => body.enabled === false,
    );
    expect(disabled.disabledReason).toMatch(/410 Gone/);
    const [delivery] = await until(
      () => server.rest("GET", `/admin/v1/webhooks/${gone.id}/deliveries`, { tenantId: "acme" }),
      (body) => body[0]?.status === "failed",
    );
    expect([delivery.status, delivery.attemptCount, delivery.attempts[0].responseStatus]).toEqual(["failed", 1, 410]);
    await send("acme", "fay", 100);
    await sleep(800);
    expect(receiver.at("/gone")).toHaveLength(1);
    const redeliver = await server.rest("POST", `/admin/v1/webhooks/${gone.id}/deliveries/${delivery.messageId}/redeliver`, { tenantId: "acme" });
    expect([redeliver.status, redeliver.body.error]).toEqual([422, expect.stringMatching(/disabled/)]);
  });

  it("keeps an endpoint enabled when its old URL answers 410 Gone after it was moved", async () => {
    let answerGone: (() => void) | null = null; // set while the old URL holds the attempt
    const old = createServer((_req, res) => {
      answerGone = () => res.writeHead(410).end();
    });
    await new Promise<void>((resolve) => old.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(old.address() as AddressInfo).port}/old`;
      const created = await server.rest("POST", "/admin/v1/webhooks", { tenantId: "acme", body: [{ url, eventTypes: ["points.changed"] }] });
      const moving = created.body.created[0].id as string;
      await send("acme", "mo", 100);
      await until(
        async () => ({ body: answerGone !== null }),
        (held) => held,
      );
      const moved = await server.rest("PATCH", "/admin/v1/webhooks", { tenantId: "acme", body: [{ id: moving, url: receiver.url("/moved") }] });
      expect(moved.body.issues).toEqual([]);
      answerGone!();
      await until(
        () => server.rest("GET", `/admin/v1/webhooks/${moving}/deliveries`, { tenantId: "acme" }),
        (body) => body[0]?.attempts?.[0]?.responseStatus === 410,
      );
      expect((await server.rest("GET", `/admin/v1/webhooks/${moving}`, { tenantId: "acme" })).body).toMatchObject({
        enabled: true,
        url: receiver.url("/moved"),
      });
      await send("acme", "mo", 100);
      const [got] = await receiver.waitFor("/moved", (g) => g.length >= 1);
      expect(got!.json.user.id).toBe("mo");
    } finally {
      old.closeAllConnections();
      await new Promise((resolve) => old.close(resolve));
    }
  });

  it("marks a message failed after the last attempt, and redelivers it through the Admin API", async () => {
    const down = await endpoint("acme", "/down", ["points.changed"]);
    let up = false;
    receiver.on("/down", () => ({ status: up ? 204 : 500 }));
    await send("acme", "gus", 100);
    await receiver.waitFor("/down", (g) => g.length >= 4);
    const [failed] = await until(
      () => server.rest("GET", `/admin/v1/webhooks/${down.id}/deliveries?status=failed`, { tenantId: "acme" }),
      (body) => body.length === 1,
    );
    expect([failed.status, failed.attemptCount, failed.lastError]).toEqual(["failed", 4, "HTTP 500"]);
    await sleep(500);
    expect(receiver.at("/down")).toHaveLength(4); // no fifth attempt on its own

    up = true;
    const redelivered = await server.rest("POST", `/admin/v1/webhooks/${down.id}/deliveries/${failed.messageId}/redeliver`, { tenantId: "acme" });
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.status).toBe("pending");
    const got = await receiver.waitFor("/down", (g) => g.length >= 5);
    expect(got[4]!.headers["webhook-id"]).toBe(failed.messageId);
    verify(down.secret, got[4]!);
    const after = await until(
      () => server.rest("GET", `/admin/v1/webhooks/${down.id}/deliveries/${failed.messageId}`, { tenantId: "acme" }),
      (b) => b.status === "delivered",
    );
    expect(after.attemptCount).toBe(5);
  });

  it("does not retry a message to an endpoint that unsubscribed from its type meanwhile, nor redeliver it", async () => {
    const leaving = await endpoint("acme", "/unsubscribed", ["points.changed"]);
    receiver.on("/unsubscribed", () => ({ status: 503, headers: { "retry-after": "5" } })); // time to unsubscribe before the retry
    await send("acme", "una", 100);
    const [first] = await receiver.waitFor("/unsubscribed", (g) => g.length >= 1);
    const patched = await server.rest("PATCH", "/admin/v1/webhooks", { tenantId: "acme", body: [{ id: leaving.id, eventTypes: ["streak.lost"] }] });
    expect(patched.body.issues).toEqual([]);
    receiver.on("/unsubscribed", () => ({ status: 204 }));
    const messageId = first!.headers["webhook-id"] as string;
    const failed = await until(
      () => server.rest("GET", `/admin/v1/webhooks/${leaving.id}/deliveries/${messageId}`, { tenantId: "acme" }),
      (b) => b.status === "failed",
      60_000,
    );
    expect([failed.attemptCount, failed.lastError]).toEqual([1, "the endpoint no longer subscribes to points.changed"]);
    expect(receiver.at("/unsubscribed")).toHaveLength(1);
    const redeliver = await server.rest("POST", `/admin/v1/webhooks/${leaving.id}/deliveries/${messageId}/redeliver`, { tenantId: "acme" });
    expect([redeliver.status, redeliver.body.error]).toEqual([422, expect.stringMatching(/no longer subscribes to points.changed/)]);
  });

  it("signs with both secrets during a rotation's grace period, then with the new one only", async () => {
    const rotating = await endpoint("acme", "/rotating", ["points.changed"]);
    const rotated = await server.rest("POST", `/admin/v1/webhooks/${rotating.id}/rotate-secret?gracePeriodSeconds=3600`, { tenantId: "acme" });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(rotating.secret);
    expect(Date.parse(rotated.body.previousSecretExpires) - Date.now()).toBeGreaterThan(3_500_000);
    await send("acme", "hal", 100);
    const [during] = await receiver.waitFor("/rotating", (g) => g.length >= 1);
    expect((during!.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    verify(rotated.body.secret, during!);
    verify(rotating.secret, during!);

    const again = await server.client("connect-json", { tenantId: "acme" }).webhooks.rotateWebhookSecret({ id: rotating.id, gracePeriodSeconds: 0 });
    expect(again.endpoint?.previousSecretExpires).toBeUndefined();
    await send("acme", "hal", 100);
    const [, after] = await receiver.waitFor("/rotating", (g) => g.length >= 2);
    expect((after!.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);
    verify(again.endpoint!.secret!, after!);
    expect(() => verify(rotated.body.secret, after!)).toThrow();
  });

  it("also signs the reference's way when the endpoint asks: a receiver written per the reference's docs verifies it", async () => {
    /** The reference's documented check (its docs, webhooks, security): HMAC-SHA256 of the raw body with the secret, base64. */
    const verifyAsReference = (secret: string, request: ReceivedWebhook) => {
      const hmacHeader = request.headers["x-trophy-signature"];
      const hash = createHmac("sha256", secret).update(request.body).digest("base64");
      return hash === hmacHeader;
    };
    const plain = await endpoint("acme", "/plain-signature", ["points.changed"]);
    const created = await server.rest("POST", "/admin/v1/webhooks", {
      tenantId: "acme",
      body: [{ url: receiver.url("/reference-signature"), eventTypes: ["points.changed"], referenceSignature: true }],
    });
    expect([created.status, created.body.created[0].referenceSignature, plain.id === created.body.created[0].id]).toEqual([201, true, false]);
    const reference = { id: created.body.created[0].id as string, secret: created.body.created[0].secret as string };
    await send("acme", "rex", 100);
    const [signed] = await receiver.waitFor("/reference-signature", (g) => g.length >= 1);
    expect(verifyAsReference(reference.secret, signed!)).toBe(true);
    expect(verifyAsReference(plain.secret, signed!)).toBe(false);
    expect(verifyAsReference(reference.secret, { ...signed!, body: signed!.body.replace("rex", "eve") })).toBe(false);
    expect(verify(reference.secret, signed!).user.id).toBe("rex"); // the Standard Webhooks headers are still sent
    const [unsigned] = await receiver.waitFor("/plain-signature", (g) => g.length >= 1);
    expect(unsigned!.headers["x-trophy-signature"]).toBeUndefined();
    expect((await server.rest("GET", `/admin/v1/webhooks/${plain.id}`, { tenantId: "acme" })).body.referenceSignature).toBe(false);

    // Off through Connect: the next delivery carries no reference signature.
    const off = await server
      .client("connect-json", { tenantId: "acme" })
      .webhooks.updateWebhookEndpoints({ endpoints: [{ id: reference.id, referenceSignature: false }] });
    expect(off.updated[0]?.referenceSignature).toBe(false);
    await send("acme", "rex", 100);
    const [, second] = await receiver.waitFor("/reference-signature", (g) => g.length >= 2);
    expect(second!.headers["x-trophy-signature"]).toBeUndefined();
    // On through gRPC for the other endpoint.
    const on = await server.client("grpc", { tenantId: "acme" }).webhooks.updateWebhookEndpoints({ endpoints: [{ id: plain.id, referenceSignature: true }] });
    expect(on.updated[0]?.referenceSignature).toBe(true);
    await send("acme", "rex", 100);
    const got = await receiver.waitFor("/plain-signature", (g) => g.some((r) => r.headers["x-trophy-signature"] !== undefined));
    expect(got.filter((r) => r.headers["x-trophy-signature"] !== undefined).every((r) => verifyAsReference(plain.secret, r))).toBe(true);
  });

  it("announces a boost's start and finish once each, with the reference payload", async () => {
    const boosts = await endpoint("acme", "/boosts", ["points.boost_started", "points.boost_finished"]);
    const today = new Date(Date.now() + offsetMs).toISOString().slice(0, 10); // the service's today, taken as late as possible
    const [boostId] = await createdIds(server, `/admin/v1/points/${ids.xp}/boosts`, [{ name: "Double XP", start: today, end: today, multiplier: 2 }], "acme");
    const [started] = await receiver.waitFor("/boosts", (g) => g.length >= 1);
    expect(verify(boosts.secret, started!)).toMatchObject({
      type: "points.boost_started",
      tenantId: "acme",
      boost: {
        id: boostId,
        name: "Double XP",
        status: "active",
        userId: null,
        pointsSystemId: ids.xp,
        pointsSystemKey: "xp",
        pointsSystemName: "XP",
        start: today,
        end: today,
        multiplier: 2,
        rounding: "down",
      },
    });
    const archived = await server.rest("PATCH", `/admin/v1/points/${ids.xp}/boosts`, { tenantId: "acme", body: [{ id: boostId, archived: true }] });
    expect(archived.body.issues).toEqual([]);
    const [, finished] = await receiver.waitFor("/boosts", (g) => g.length >= 2);
    expect(verify(boosts.secret, finished!)).toMatchObject({ type: "points.boost_finished", boost: { id: boostId, status: "finished" } });
    await sleep(1_000); // several boost checks later: nothing announced twice
    expect(receiver.at("/boosts")).toHaveLength(2);
  });

  it("announces the finish of a running boost that is deleted, once", async () => {
    const boosts = await endpoint("acme", "/boosts-deleted", ["points.boost_started", "points.boost_finished"]);
    const today = new Date(Date.now() + offsetMs).toISOString().slice(0, 10);
    const [boostId] = await createdIds(server, `/admin/v1/points/${ids.xp}/boosts`, [{ name: "Weekend", start: today, end: null, multiplier: 3 }], "acme");
    await receiver.waitFor("/boosts-deleted", (g) => g.length >= 1);
    const deleted = await server.rest("DELETE", `/admin/v1/points/${ids.xp}/boosts?ids=${boostId}`, { tenantId: "acme" });
    expect([deleted.status, deleted.body.issues ?? []]).toEqual([200, []]);
    const [, finished] = await receiver.waitFor("/boosts-deleted", (g) => g.length >= 2);
    expect(verify(boosts.secret, finished!)).toMatchObject({ type: "points.boost_finished", boost: { id: boostId, name: "Weekend", status: "finished" } });
    await sleep(1_000); // several boost checks later: nothing announced twice
    expect(receiver.at("/boosts-deleted").map((r) => r.json.type)).toEqual(["points.boost_started", "points.boost_finished"]);
  });

  it("follows edits of a boost's dates: its finish when it stops applying, a new start each time it goes live again", async () => {
    await endpoint("acme", "/boosts-edited", ["points.boost_started", "points.boost_finished"]);
    const day = (offset: number) => new Date(Date.now() + offsetMs + offset * 86_400_000).toISOString().slice(0, 10);
    const [boostId] = await createdIds(server, `/admin/v1/points/${ids.xp}/boosts`, [{ name: "Movable", start: day(0), end: null, multiplier: 2 }], "acme");
    const edit = async (changes: Record<string, unknown>, announced: number) => {
      const patched = await server.rest("PATCH", `/admin/v1/points/${ids.xp}/boosts`, { tenantId: "acme", body: [{ id: boostId, ...changes }] });
      expect(patched.body.issues).toEqual([]);
      await receiver.waitFor("/boosts-edited", (g) => g.length >= announced);
    };
    await receiver.waitFor("/boosts-edited", (g) => g.length >= 1);
    await edit({ start: day(1) }, 2); // no longer applies today: finished
    await edit({ start: day(0) }, 3); // live again: started again
    await edit({ start: day(-1), end: day(-1) }, 4); // ended: finished
    await edit({ end: null }, 5); // live again
    await sleep(1_000); // several boost checks later: nothing announced twice
    const got = receiver.at("/boosts-edited");
    expect(got.map((r) => [r.json.type, r.json.boost.status])).toEqual([
      ["points.boost_started", "active"],
      ["points.boost_finished", "finished"],
      ["points.boost_started", "active"],
      ["points.boost_finished", "finished"],
      ["points.boost_started", "active"],
    ]);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(5);
  });

  it("an edit whose write comes after the boost check recorded a new round is decided again on it: started once more", async () => {
    await endpoint("acme", "/boosts-raced", ["points.boost_started", "points.boost_finished"]);
    const day = (offset: number) => new Date(Date.now() + offsetMs + offset * 86_400_000).toISOString().slice(0, 10);
    const [boostId] = await createdIds(server, `/admin/v1/points/${ids.xp}/boosts`, [{ name: "Raced", start: day(0), end: null, multiplier: 2 }], "acme");
    const edit = (changes: object) => server.rest("PATCH", `/admin/v1/points/${ids.xp}/boosts`, { tenantId: "acme", body: [{ id: boostId, ...changes }] });
    await receiver.waitFor("/boosts-raced", (g) => g.length >= 1);
    expect((await edit({ start: day(1) })).body.issues).toEqual([]); // no longer live: the check finishes it, in a new round
    // The next edit (back to today) reads the boost at once but writes it 1.5 s later: the check
    // (every 300 ms) has handed over the finish and recorded the new round meanwhile.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its collection below, and put back
    const replaceOne = Collection.prototype.replaceOne;
    Collection.prototype.replaceOne = async function (this: Collection, ...args: Parameters<Collection["replaceOne"]>) {
      if (this.collectionName === "points_boosts") {
        Collection.prototype.replaceOne = replaceOne;
        await sleep(1_500);
      }
      return replaceOne.apply(this, args);
    } as Collection["replaceOne"];
    try {
      expect((await edit({ start: day(0) })).body.issues).toEqual([]);
    } finally {
      Collection.prototype.replaceOne = replaceOne;
    }
    await receiver.waitFor("/boosts-raced", (g) => g.length >= 3);
    await sleep(1_000); // several checks later: nothing more
    expect(receiver.at("/boosts-raced").map((r) => r.json.type)).toEqual(["points.boost_started", "points.boost_finished", "points.boost_started"]);
  });

  it("never notifies achievements backdated on activation, but does notify live completions", async () => {
    await endpoint("acme", "/achievements", ["achievement.completed"]);
    const [wordsmith] = await createdIds(
      server,
      "/admin/v1/achievements",
      [{ name: "Wordsmith", key: "wordsmith", trigger: "metric", metricId: ids["acme:words"], metricValue: 100 }],
      "acme",
    );
    const activated = await server.rest("PATCH", "/admin/v1/achievements", { tenantId: "acme", body: [{ id: wordsmith, status: "active" }] });
    expect(activated.body.issues).toEqual([]);
    const ann = await server.rest("GET", "/v1/users/ann/achievements", { tenantId: "acme" });
    expect(ann.body.map((a: { key: string }) => a.key)).toContain("wordsmith"); // backdated
    await send("acme", "ivy", 150);
    const got = await receiver.waitFor("/achievements", (g) => g.length >= 1);
    await sleep(800);
    expect(receiver.at("/achievements").map((r) => [r.json.user.id, r.json.achievement.key])).toEqual([["ivy", "wordsmith"]]);
    expect(got[0]!.json.achievement).toMatchObject({
      trigger: "metric",
      metricId: ids["acme:words"],
      metricValue: 100,
      metricName: "Words written",
      achievedAt: expect.any(String),
    });
  });

  // Last: moves the service's clock an hour ahead.
  it("sends one points.level_changed for a level reached by a time trigger (the scheduler), in the default scope", async () => {
    await endpoint(undefined, "/time", ["points.level_changed"]);
    const [hours] = await createdIds(server, "/admin/v1/points", [{ key: "hours", name: "Hours" }]);
    await createdIds(server, `/admin/v1/points/${hours}/triggers`, [{ type: "time", points: 10, timeUnit: "hours", timeInterval: 1, status: "active" }]);
    await createdIds(server, `/admin/v1/points/${hours}/levels`, [
      { key: "regular", name: "Regular", points: 9 },
      { key: "veteran", name: "Veteran", points: 19 },
    ]);
    expect((await server.rest("PUT", "/v1/users/tim", { body: {} })).status).toBe(200);
    await sleep(300);
    expect(receiver.at("/time")).toEqual([]);

    offsetMs = 61 * 60_000; // an hour later: the first interval is due
    const [message] = await receiver.waitFor("/time", (g) => g.length >= 1);
    await sleep(1_000);
    expect(receiver.at("/time")).toHaveLength(1);
    expect(message!.json).toMatchObject({
      type: "points.level_changed",
      tenantId: null,
      user: { id: "tim" },
      points: { key: "hours", total: 10 },
      previousLevel: null,
      newLevel: { key: "regular", points: 9 },
    });
  });

  it("sends leaderboard.rank_changed for the acting user when their rank moves, with the reference payload", async () => {
    offsetMs = 0; // back to the real clock: receivers check the signature timestamp against theirs
    await createdIds(server, "/admin/v1/tenants", [{ customerId: "initech", name: "Initech" }]);
    const [metricId] = await createdIds(server, "/admin/v1/metrics", [{ key: "words", name: "Words written" }], "initech");
    const start = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const [boardId] = await createdIds(
      server,
      "/admin/v1/leaderboards",
      [{ key: "top", name: "Top", rankBy: "metric", metricId, status: "active", start }],
      "initech",
    );
    const ranks = await endpoint("initech", "/initech-ranks", ["leaderboard.rank_changed"]);
    expect((await send("initech", "ann", 10)).status).toBe(201); // ann: null -> 1
    expect((await send("initech", "bob", 20)).status).toBe(201); // bob: null -> 1 (ann moves to 2: not her call)
    expect((await send("initech", "bob", 5)).status).toBe(201); // bob stays 1: no message
    expect((await send("initech", "ann", 20)).status).toBe(201); // ann: 2 -> 1 (30 > 25)

    await receiver.waitFor("/initech-ranks", (got) => got.length >= 3);
    await sleep(800);
    const bodies = receiver.at("/initech-ranks").map((r) => verify(ranks.secret, r));
    const moves = bodies.map((b) => [b.user.id, b.leaderboard.previousRank, b.leaderboard.rank, b.leaderboard.previousValue, b.leaderboard.value]);
    expect(moves.sort()).toEqual([
      ["ann", null, 1, null, 10],
      ["ann", 2, 1, 10, 30],
      ["bob", null, 1, null, 20],
    ]);
    expect(bodies[0]).toMatchObject({
      type: "leaderboard.rank_changed",
      tenantId: "initech",
      leaderboard: {
        id: boardId,
        key: "top",
        name: "Top",
        rankBy: "metric",
        metricKey: "words",
        metricName: "Words written",
        status: "active",
        start,
        end: null,
        maxParticipants: 1000,
        runUnit: null,
        runInterval: null,
        breakdownAttribute: null,
      },
    });
  });
});

describe("the published Python client's models", () => {
  it("parse every body this file's receiver got, each with the model of its type", () => expectReceivedBodiesFitPublishedModels(receiver), 120_000);
});
