import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { until } from "../helpers/until.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// One tenant's endpoint that never answers must not take every attempt slot: another tenant's
// message is delivered while the hanging attempts are still waiting for their timeout.

let server: TestServer;
let receiver: WebhookReceiver;
let tarpit: Server;
/** Requests the hanging endpoint got, and how many of them the service gave up on. */
const hanging = { received: 0, abandoned: 0 };
/** Attempts in flight per instance (the worker's default). */
const CONCURRENCY = 8;

const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  tarpit = createServer((req) => {
    hanging.received += 1; // never answers
    req.socket.on("close", () => (hanging.abandoned += 1));
  });
  await new Promise<void>((resolve) => tarpit.listen(0, "127.0.0.1", resolve));
  server = await startTestServer({
    // A timeout far longer than the test: the hanging attempts hold their slots throughout.
    webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0], timeoutMs: 600_000, pollMs: 100 },
  });
  await created("/admin/v1/tenants", [
    { customerId: "hanging", name: "Hanging" },
    { customerId: "waiting", name: "Waiting" },
  ]);
  const port = (tarpit.address() as AddressInfo).port;
  await created("/admin/v1/webhooks", [{ url: `http://127.0.0.1:${port}/never`, eventTypes: ["achievement.completed"] }], "hanging");
  await created("/admin/v1/webhooks", [{ url: receiver.url("/waiting"), eventTypes: ["achievement.completed"] }], "waiting");
  for (const tenantId of ["hanging", "waiting"]) await created("/admin/v1/achievements", [{ name: "A", key: "a", trigger: "api", status: "active" }], tenantId);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await receiver?.close();
  tarpit?.closeAllConnections();
  await new Promise((resolve) => tarpit?.close(resolve));
});

describe("an endpoint that hangs", () => {
  it("gets half the attempt slots at most; another tenant's message goes through meanwhile", async () => {
    const complete = (tenantId: string, userId: string) => server.rest("POST", "/v1/achievements/a/complete", { tenantId, body: { user: { id: userId } } });
    for (let i = 0; i < 3 * CONCURRENCY; i++) expect((await complete("hanging", `h${i}`)).status).toBe(201);
    await until(
      async () => ({ body: hanging.received }),
      (n) => n >= CONCURRENCY / 2,
    );

    expect((await complete("waiting", "w1")).status).toBe(201);
    const [got] = await receiver.waitFor("/waiting", (g) => g.length >= 1, 90_000);
    expect(got!.json.type).toBe("achievement.completed");
    // Delivered while the hanging endpoint held its share of the slots, and no more of them.
    expect(hanging).toEqual({ received: CONCURRENCY / 2, abandoned: 0 });
  });
});
