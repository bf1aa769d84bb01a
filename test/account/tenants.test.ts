import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PipelinePoint } from "../../src/engine/context.js";
import { RECENT_IDEMPOTENCY_LIMIT } from "../../src/engine/record-event.js";
import { ADMIN_KEY, startAnotherInstance, startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

let server: TestServer;
let receiver: WebhookReceiver;
/** A test's hook at the pipeline points, if any. */
let fault: ((point: PipelinePoint) => Promise<void>) | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    atPipelinePoint: (point) => fault?.(point),
    // Keyed events and webhook deliveries list their user for a purge day: a deletion must not leave them.
    idempotencyWindowMs: 86_400_000,
    webhooks: { allowPrivateNetworks: true, pollMs: 100 },
  });
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

describe("tenants", () => {
  it("are created, listed, read, updated and deleted in the reference shapes", async () => {
    const created = await server.rest("POST", "/admin/v1/tenants", {
      body: [
        { customerId: "acme", name: "Acme Corp" },
        { customerId: "globex", name: "Globex" },
        { customerId: "acme", name: "Duplicate" },
        { customerId: "has space", name: "Bad" },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.created).toEqual([
      { id: expect.any(String), customerId: "acme", name: "Acme Corp", status: "active", created: expect.any(String), updated: expect.any(String) },
      expect.objectContaining({ customerId: "globex" }),
    ]);
    expect(created.body.issues).toEqual([
      {
        index: 2,
        severity: "error",
        message: 'Customer ID "acme" already exists in this environment',
        level: "error",
        reason: 'Customer ID "acme" already exists in this environment',
      },
      {
        index: 3,
        severity: "error",
        message: expect.stringContaining("customerId must be printable ASCII"),
        level: "error",
        reason: expect.stringContaining("customerId must be printable ASCII"),
      },
    ]);
    const acmeId = created.body.created[0].id;

    const list = await server.rest("GET", "/admin/v1/tenants?limit=1&skip=1");
    expect(list.body.map((t: { customerId: string }) => t.customerId)).toEqual(["globex"]);
    expect((await server.rest("GET", `/admin/v1/tenants/${acmeId}`)).body.name).toBe("Acme Corp");
    expect((await server.rest("GET", "/admin/v1/tenants/missing")).status).toBe(404);

    const updated = await server.rest("PATCH", "/admin/v1/tenants", { body: [{ id: acmeId, name: "Acme Corporation" }, { id: "missing" }, { id: acmeId }] });
    expect(updated.status).toBe(200);
    expect(updated.body.updated.map((t: { name: string }) => t.name)).toEqual(["Acme Corporation"]);
    const nothingToUpdate = "An update must include at least one of customerId or name";
    expect(updated.body.issues).toEqual([
      { id: "missing", severity: "error", message: "Tenant not found by ID", level: "error", reason: "Tenant not found by ID" },
      { id: acmeId, severity: "error", message: nothingToUpdate, level: "error", reason: nothingToUpdate },
    ]);

    const onlyIssues = await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "acme", name: "Again" }] });
    expect(onlyIssues.status).toBe(200);
    expect(onlyIssues.body.created).toEqual([]);
  });

  it("scope every read and write: nothing of tenant A is visible or changeable through tenant B", async () => {
    await server.rest("POST", "/admin/v1/tenants", {
      body: [
        { customerId: "tenant-a", name: "A" },
        { customerId: "tenant-b", name: "B" },
      ],
    });
    const inA = await server.rest("POST", "/admin/v1/metrics", { tenantId: "tenant-a", body: [{ key: "steps", name: "Steps" }] });
    expect(inA.status).toBe(201);
    const metricId = inA.body.created[0].id;

    expect((await server.rest("GET", "/admin/v1/metrics", { tenantId: "tenant-b" })).body).toEqual([]);
    expect((await server.rest("GET", "/admin/v1/metrics")).body).toEqual([]);
    expect((await server.rest("GET", `/admin/v1/metrics/${metricId}`, { tenantId: "tenant-b" })).status).toBe(404);
    const crossDelete = await server.rest("DELETE", `/admin/v1/metrics?ids=${metricId}`, { tenantId: "tenant-b" });
    expect(crossDelete.body).toEqual({
      deleted: [],
      issues: [{ id: metricId, severity: "error", message: "Metric not found by ID", level: "error", reason: "Metric not found by ID" }],
    });

    const eventInB = await server.rest("POST", "/api/metrics/steps/event", { tenantId: "tenant-b", body: { user: { id: "u" }, value: 1 } });
    expect(eventInB.status).toBe(404);

    // The same key and user ID in two tenants are two different metrics and users.
    await server.rest("POST", "/admin/v1/metrics", { tenantId: "tenant-b", body: [{ key: "steps", name: "Steps" }] });
    const a = await server.client("connect-json", { tenantId: "tenant-a" }).application.trackMetricEvent({ key: "steps", user: { id: "u" }, value: 10 });
    const b = await server.client("grpc", { tenantId: "tenant-b" }).application.trackMetricEvent({ key: "steps", user: { id: "u" }, value: 1 });
    expect([a.total, b.total]).toEqual([10, 1]);
    expect((await server.rest("GET", "/v1/users/u", { tenantId: "tenant-a" })).status).toBe(200);
    expect((await server.rest("GET", "/v1/users/u")).status).toBe(404);
  });

  it("answers an unknown Tenant-ID with a clear not-found error on every protocol", async () => {
    const response = await server.rest("GET", "/admin/v1/metrics", { tenantId: "nobody" });
    expect(response).toEqual({ status: 404, body: { error: 'Tenant "nobody" not found' } });
    // A value no tenant can have (longer than an ID may be) is shown cut short, not echoed whole.
    const long = await server.rest("GET", "/admin/v1/metrics", { tenantId: "x".repeat(8000) });
    expect(long).toEqual({ status: 404, body: { error: `Tenant "${"x".repeat(36)}... not found` } });
    // The header twice (Node joins the values): said so.
    const twice = await fetch(`${server.baseUrl}/admin/v1/metrics`, {
      headers: [
        ["x-api-key", ADMIN_KEY],
        ["tenant-id", "nobody"],
        ["tenant-id", "nobody"],
      ],
    });
    expect([twice.status, ((await twice.json()) as { error: string }).error]).toEqual([
      400,
      "The Tenant-ID header was sent more than once: send one tenant's ID",
    ]);
    try {
      await server.client("grpc-web", { tenantId: "nobody" }).application.getUser({ id: "u" });
      expect.unreachable();
    } catch (error) {
      expect(ConnectError.from(error).code).toBe(Code.NotFound);
    }
  });

  it("deleting a tenant deletes its data", async () => {
    const [tenant] = (await server.rest("GET", "/admin/v1/tenants?limit=100")).body.filter((t: { customerId: string }) => t.customerId === "tenant-a");
    // A leaderboard with a ranking: its roots name the tenant in their _id only.
    const [metric] = (await server.rest("GET", "/admin/v1/metrics", { tenantId: "tenant-a" })).body;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const board = { key: "steps-board", name: "Steps", rankBy: "metric", metricId: metric.id, status: "active", start: yesterday };
    expect((await server.rest("POST", "/admin/v1/leaderboards", { tenantId: "tenant-a", body: [board] })).status).toBe(201);
    // A daily streak (the user is due at its end), a webhook (a delivery listed for the user), a keyed event.
    const streak = { frequency: "daily", metrics: [{ metricId: metric.id, threshold: 1 }] };
    expect((await server.rest("PUT", "/admin/v1/streaks/settings", { tenantId: "tenant-a", body: streak })).status).toBe(201);
    const hook = { url: receiver.url("/tenant-a"), eventTypes: ["streak.started"] };
    expect((await server.rest("POST", "/admin/v1/webhooks", { tenantId: "tenant-a", body: [hook] })).status).toBe(201);
    const event = await server.rest("POST", "/api/metrics/steps/event", { tenantId: "tenant-a", body: { user: { id: "w" }, value: 1, idempotencyKey: "k" } });
    expect(event.body.leaderboards["steps-board"].rank).toBe(1);
    // More keyed events than a user document keeps: the older records move out, listed for their purge day.
    for (let i = 0; i < RECENT_IDEMPOTENCY_LIMIT; i++) {
      const more = await server.rest("POST", "/api/metrics/steps/event", {
        tenantId: "tenant-a",
        body: { user: { id: "w" }, value: 1, idempotencyKey: `k-${i}` },
      });
      expect(more.status).toBe(201);
    }
    const { collections } = server.service.context.database;
    // Keys of pending work that name the tenant's users (`<tenantId>/...`, listings with a prefix).
    const bucketKeys = async () =>
      (
        await Promise.all(
          [collections.dueUsers, collections.idempotencyPurge, collections.webhookPurge].map(async (buckets) =>
            (await buckets.find({}).toArray()).flatMap((d) => [...d.keys, ...(d.users ?? [])].map((key) => `${buckets.collectionName} ${key}`)),
          ),
        )
      )
        .flat()
        .filter((key) => key.includes(` ${tenant.id}/`) || key.includes(`:${tenant.id}/`));
    await expect
      .poll(async () => [...new Set((await bucketKeys()).map((key) => key.split(" ")[0]))].sort(), { timeout: 60_000 })
      .toEqual(["due_users", "idempotency_purge", "webhook_purge"]);
    const rankingDocs = async () =>
      [
        ...(await collections.leaderboardRankings.find({}).toArray()),
        ...(await collections.leaderboardRankChunks.find({ tenantId: tenant.id }).toArray()),
        ...(await collections.leaderboardUserChunks.find({ tenantId: tenant.id }).toArray()),
      ].filter((d) => JSON.stringify(d).includes(tenant.id));
    expect((await rankingDocs()).filter((d) => d._id.startsWith("r") && d.tenantId === undefined)).not.toEqual([]);
    // Its users' listing is keyed by the tenant's ID, without a tenantId field.
    const listings = async () => (await collections.tenantUsers.find({}).toArray()).filter((d) => d._id.startsWith(`${tenant.id}/`));
    expect(await listings()).not.toEqual([]);
    // Its metric's usage marker is keyed by the metric's ID alone.
    expect(await collections.metricUsage.findOne({ _id: metric.id })).not.toBeNull();
    const deleted = await server.rest("DELETE", `/admin/v1/tenants?ids=${tenant.id},missing`);
    expect(deleted.body).toEqual({
      deleted: [{ id: tenant.id }],
      issues: [{ id: "missing", severity: "error", message: "Tenant not found by ID", level: "error", reason: "Tenant not found by ID" }],
    });
    const users = server.service.context.database.collections.users;
    expect(await users.countDocuments({ tenantId: tenant.id })).toBe(0);
    expect(await rankingDocs()).toEqual([]);
    expect(await listings()).toEqual([]);
    expect(await collections.metricUsage.findOne({ _id: metric.id })).toBeNull();
    expect(await bucketKeys()).toEqual([]);
  }, 120_000);

  it("an event in progress when the deletion begins finishes first: no user is left behind", async () => {
    const [tenant] = (await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "tenant-late", name: "Late" }] })).body.created;
    expect((await server.rest("POST", "/admin/v1/metrics", { tenantId: "tenant-late", body: [{ key: "steps", name: "Steps" }] })).status).toBe(201);
    const { collections } = server.service.context.database;
    const waitFor = async (condition: () => Promise<boolean>, ms: number) => {
      for (const end = Date.now() + ms; Date.now() < end;) if (await condition()) return true;
      return false;
    };
    let deletion: Promise<{ status: number; body: any }> | undefined;
    // The event has found the tenant and is about to write its user when the deletion begins; it
    // writes once the deletion has marked the tenant and either finished (a user left behind) or waited 1 s.
    fault = async (point) => {
      if (point !== "before-user-write" || deletion) return;
      deletion = server.rest("DELETE", `/admin/v1/tenants?ids=${tenant.id}`);
      expect(await waitFor(async () => (await collections.tenants.findOne({ _id: tenant.id }))?.deleting !== undefined, 30_000)).toBe(true);
      await waitFor(async () => (await collections.tenants.countDocuments({ _id: tenant.id })) === 0, 1000);
    };
    try {
      const event = await server.rest("POST", "/api/metrics/steps/event", { tenantId: "tenant-late", body: { user: { id: "late" }, value: 1 } });
      expect(event.status).toBe(201);
      expect((await deletion!).body).toEqual({ deleted: [{ id: tenant.id }], issues: [] });
    } finally {
      fault = undefined;
    }
    expect(await collections.users.countDocuments({ tenantId: tenant.id })).toBe(0);
    expect(await collections.tenants.countDocuments({ _id: tenant.id })).toBe(0);
  }, 180_000);

  it("with several instances, a call another instance admitted before the mark finishes before the data goes", async () => {
    const first = await startTestServer({ writeMode: "versioned", versionedOnFerretDbForTests: true });
    let releaseWrite!: () => void;
    const writeHeld = new Promise<void>((resolve) => (releaseWrite = resolve));
    let reachedWrite!: () => void;
    const atWrite = new Promise<void>((resolve) => (reachedWrite = resolve));
    const second = await startAnotherInstance(first, {
      atPipelinePoint: async (point) => {
        if (point !== "before-user-write") return;
        reachedWrite();
        await writeHeld;
      },
    });
    try {
      const [tenant] = (await first.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "tenant-far", name: "Far" }] })).body.created;
      expect((await first.rest("POST", "/admin/v1/metrics", { tenantId: "tenant-far", body: [{ key: "steps", name: "Steps" }] })).status).toBe(201);
      // The other instance admits an event and is about to write its user when the deletion begins.
      const event = fetch(`http://127.0.0.1:${second.port}/api/metrics/steps/event`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": ADMIN_KEY, "tenant-id": "tenant-far" },
        body: JSON.stringify({ user: { id: "far" }, value: 1 }),
      });
      await atWrite;
      const deletion = first.rest("DELETE", `/admin/v1/tenants?ids=${tenant.id}`);
      const { collections } = first.service.context.database;
      // It writes once the deletion has finished (the user would be left behind) or a second has passed.
      const finished = deletion.then(() => true);
      await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 1000))]);
      releaseWrite();
      expect((await event).status).toBe(201);
      expect((await deletion).body).toEqual({ deleted: [{ id: tenant.id }], issues: [] });
      expect(await collections.users.countDocuments({ tenantId: tenant.id })).toBe(0);
    } finally {
      releaseWrite();
      await second.close();
      await first.close();
    }
  }, 180_000);

  it("a deletion cut short leaves a tenant that answers to no one, and deleting it again finishes it", async () => {
    const [tenant] = (await server.rest("GET", "/admin/v1/tenants?limit=100")).body.filter((t: { customerId: string }) => t.customerId === "tenant-b");
    const { collections } = server.service.context.database;
    expect(await collections.users.countDocuments({ tenantId: tenant.id })).toBeGreaterThan(0);
    // What a crash right after the deletion began leaves: the mark, and all the data.
    await collections.tenants.updateOne({ _id: tenant.id }, { $set: { deleting: new Date() } });
    server.service.context.config.invalidate();

    expect(await server.rest("POST", "/api/metrics/steps/event", { tenantId: "tenant-b", body: { user: { id: "u" }, value: 1 } })).toEqual({
      status: 404,
      body: { error: 'Tenant "tenant-b" not found' },
    });
    expect((await server.rest("GET", `/admin/v1/tenants/${tenant.id}`)).status).toBe(404);
    expect((await server.rest("GET", "/admin/v1/tenants?limit=100")).body.map((t: { id: string }) => t.id)).not.toContain(tenant.id);
    expect((await server.rest("PATCH", "/admin/v1/tenants", { body: [{ id: tenant.id, name: "Back" }] })).body.issues).toEqual([
      expect.objectContaining({ id: tenant.id, message: "Tenant not found by ID" }),
    ]);
    expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "tenant-b", name: "B again" }] })).body.issues).toEqual([
      expect.objectContaining({ message: 'Customer ID "tenant-b" belongs to a tenant being deleted; create it again once the deletion has finished' }),
    ]);
    // Another tenant renamed to it is told the same (no list shows the tenant that holds it).
    const [other] = await createdIds(server, "/admin/v1/tenants", [{ customerId: "tenant-b-rename", name: "Renamed" }]);
    expect((await server.rest("PATCH", "/admin/v1/tenants", { body: [{ id: other, customerId: "tenant-b" }] })).body.issues).toEqual([
      expect.objectContaining({ id: other, message: 'Customer ID "tenant-b" belongs to a tenant being deleted; use it again once the deletion has finished' }),
    ]);
    expect(await collections.users.countDocuments({ tenantId: tenant.id })).toBeGreaterThan(0);

    expect((await server.rest("DELETE", `/admin/v1/tenants?ids=${tenant.id}`)).body).toEqual({ deleted: [{ id: tenant.id }], issues: [] });
    expect(await collections.users.countDocuments({ tenantId: tenant.id })).toBe(0);
    expect(await collections.tenants.countDocuments({ _id: tenant.id })).toBe(0);
    expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "tenant-b", name: "B again" }] })).body.created).toEqual([
      expect.objectContaining({ customerId: "tenant-b", name: "B again" }),
    ]);
  });
});
