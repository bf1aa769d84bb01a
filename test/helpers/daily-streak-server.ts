import { expect } from "vitest";
import { startTestServer, type TestServer } from "./server.js";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";

/**
 * A server on a clock the test moves (`now`), with a metric `minutes` counted by a daily streak
 * (threshold 1) and a webhook endpoint on the receiver's `/hook` for `eventTypes`: the set-up of the
 * tests that build users' streaks day by day and watch what a later admin change does to them.
 */
export async function startDailyStreakServer(now: () => Date, eventTypes: string[]): Promise<{ server: TestServer; receiver: WebhookReceiver }> {
  const receiver = await startWebhookReceiver();
  const server = await startTestServer({ now, webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0, 200], timeoutMs: 30_000, pollMs: 100 } });
  const metric = await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "minutes", name: "Minutes practised" }] });
  expect(metric.body.issues).toEqual([]);
  const settings = await server.rest("PUT", "/admin/v1/streaks/settings", {
    body: { frequency: "daily", metrics: [{ metricId: metric.body.created[0].id, threshold: 1 }], evaluationMode: "all" },
  });
  expect(settings.status).toBe(201);
  const hook = await server.rest("POST", "/admin/v1/webhooks", { body: [{ url: receiver.url("/hook"), eventTypes }] });
  expect(hook.status).toBe(201);
  return { server, receiver };
}
