import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";
import { createdIds } from "../helpers/admin-items.js";

// A leaderboard whose last run was announced final, reopened (made inactive, its end moved later,
// made active again), announces that run again once it is final again: receivers are not left
// with rankings that events changed afterwards.

const clock = { t: new Date("2030-05-05T12:00:00Z") };
let server: TestServer;
let receiver: WebhookReceiver;
let leaderboardId: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({
    now: () => clock.t,
    webhooks: { allowPrivateNetworks: true, retryScheduleMs: [0, 200], timeoutMs: 30_000, pollMs: 100, boostCheckMs: 200 },
  });
  const [laps] = await createdIds(server, "/admin/v1/metrics", [{ key: "laps", name: "Laps" }]);
  await createdIds(server, "/admin/v1/webhooks", [{ url: receiver.url("/finished"), eventTypes: ["leaderboard.finished"] }]);
  [leaderboardId = ""] = await createdIds(server, "/admin/v1/leaderboards", [
    { key: "sprint", name: "Sprint", rankBy: "metric", metricId: laps, status: "active", start: "2030-05-01", end: "2030-05-06" },
  ]);
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

async function laps(userId: string, value: number): Promise<void> {
  const sent = await server.rest("POST", "/v1/metrics/laps/event", { body: { user: { id: userId }, value } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
}

async function patch(item: Record<string, unknown>): Promise<void> {
  const updated = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: leaderboardId, ...item }] });
  expect(updated.body.issues, JSON.stringify(updated.body)).toEqual([]);
}

const finished = () =>
  receiver.at("/finished").map((r) => ({
    id: r.json.id,
    end: r.json.leaderboard.end,
    timestamp: r.json.timestamp,
    rankings: r.json.leaderboard.rankings.map((row: { userId: string; value: number }) => [row.userId, row.value]),
  }));

describe("a reopened leaderboard", () => {
  it("announces its last run as finished again, with the rankings it ended with", async () => {
    await laps("ann", 10);
    await laps("bob", 20);
    clock.t = new Date("2030-05-07T12:03:00Z"); // final since 12:00 (the end day is over everywhere)
    await receiver.waitFor("/finished", (got) => got.length >= 1, 60_000);
    expect(finished()).toEqual([
      {
        id: expect.any(String),
        end: "2030-05-06",
        timestamp: "2030-05-07T12:00:00Z",
        rankings: [
          ["bob", 20],
          ["ann", 10],
        ],
      },
    ]);

    await patch({ status: "inactive" });
    await patch({ end: "2030-05-20" });
    await patch({ status: "active" });
    await laps("ann", 1000);

    clock.t = new Date("2030-05-21T12:03:00Z");
    await receiver.waitFor("/finished", (got) => got.length >= 2, 60_000);
    const [first, second] = finished();
    expect(second).toEqual({
      id: expect.any(String),
      end: "2030-05-20",
      timestamp: "2030-05-21T12:00:00Z",
      rankings: [
        ["ann", 1010],
        ["bob", 20],
      ],
    });
    expect(second!.id).not.toBe(first!.id);
  }, 180_000);
});
