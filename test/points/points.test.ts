import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { readStoredUser } from "../../src/engine/store/user-documents.js";

let server: TestServer;
const ids: Record<string, string | undefined> = {};
const today = new Date().toISOString().slice(0, 10);

/** Creates through the Admin API and returns the new IDs in order. */
const created = (path: string, body: unknown[], tenantId?: string) => createdIds(server, path, body, tenantId);

beforeAll(async () => {
  server = await startTestServer();
  [ids.words, ids.requests] = await created("/admin/v1/metrics", [
    { key: "words", name: "Words written" },
    { key: "requests", name: "API requests" },
  ]);
  [ids.onboarded] = await created("/admin/v1/achievements", [{ name: "Onboarded", key: "onboarded", trigger: "api", status: "active" }]);
  [ids.xp, ids.energy] = await created("/admin/v1/points", [
    { key: "xp", name: "XP" },
    { key: "energy", name: "Energy", maxPoints: 3 },
  ]);
  await created(`/admin/v1/points/${ids.xp}/triggers`, [
    { type: "metric", points: 10, metricId: ids.words, metricThreshold: 100, status: "active" },
    { type: "achievement", points: 25, achievementId: ids.onboarded, status: "active" },
  ]);
  await created(`/admin/v1/points/${ids.xp}/levels`, [
    { key: "bronze", name: "Bronze", points: 0 },
    { key: "silver", name: "Silver", points: 40 },
  ]);
  await created(`/admin/v1/points/${ids.energy}/triggers`, [
    { type: "user_creation", points: 2, status: "active" },
    { type: "metric", points: -1, metricId: ids.requests, metricThreshold: 1, blockIfOutOfPoints: true, status: "active" },
  ]);
  await created(`/admin/v1/points/${ids.energy}/levels`, [{ key: "charged", name: "Charged", points: 0 }]);
});
afterAll(() => server.close());

const send = (metric: string, user: string, value: number) => server.rest("POST", `/api/metrics/${metric}/event`, { body: { user: { id: user }, value } });

describe("points on events", () => {
  it("award metric triggers per threshold, with the level only when it changes", async () => {
    const first = await send("words", "ann", 250);
    // A first event also identifies the user: energy's user-creation trigger fires too.
    expect(first.body.points.energy).toMatchObject({ total: 2, added: 2, awards: [{ awarded: 2, trigger: { type: "user_creation", points: 2 } }] });
    expect(first.body.points).toEqual({
      energy: expect.any(Object),
      xp: {
        id: ids.xp,
        key: "xp",
        name: "XP",
        description: null,
        badgeUrl: null,
        maxPoints: null,
        total: 20,
        // The first points exceed bronze's 0 (a total of 0 is at no level), as in the reference's example.
        level: { id: expect.any(String), key: "bronze", name: "Bronze", description: "", badgeUrl: null, points: 0 },
        added: 20,
        awards: [
          {
            id: expect.any(String),
            awarded: 20,
            date: expect.any(String),
            total: 20,
            trigger: {
              id: expect.any(String),
              type: "metric",
              points: 10,
              status: "active",
              metricId: ids.words,
              metricName: "Words written",
              metricThreshold: 100,
              userAttributes: [],
              eventAttributes: [],
              created: expect.stringMatching(/Z$/),
              updated: expect.stringMatching(/Z$/),
            },
          },
        ],
      },
    });
    const same = await send("words", "ann", 40); // 290: no new multiple of 100
    expect(same.body.points).toEqual({});
    const silver = await send("words", "ann", 260); // 550: three more multiples → 50 points, level silver
    expect(silver.body.points.xp).toMatchObject({ total: 50, added: 30, level: { key: "silver" } });
    const noLevelChange = await send("words", "ann", 100);
    expect(noLevelChange.body.points.xp).toMatchObject({ total: 60, added: 10 });
    expect(noLevelChange.body.points.xp).not.toHaveProperty("level");
  });

  it("do not pay again for going down and up", async () => {
    await send("words", "ann", -300);
    expect((await send("words", "ann", 300)).body.points).toEqual({});
  });

  it("multiply earned points by active boosts", async () => {
    await created(`/admin/v1/points/${ids.xp}/boosts`, [{ name: "Double", start: today, multiplier: 2 }]);
    await new Promise((r) => setTimeout(r, 1100)); // configuration reaches the event path within a second at most
    // 650 words so far (high-water mark); 750 crosses one new multiple: 10 points, doubled.
    const boosted = await server.client("connect-json").application.trackMetricEvent({ key: "words", user: { id: "ann" }, value: 100 });
    expect(boosted.points.xp?.added).toBe(20n);
    expect(boosted.points.xp?.awards[0]?.boosts.map((b) => b.multiplier)).toEqual([2]);
  });

  it("award achievement triggers when the achievement is completed through the API", async () => {
    const done = await server.rest("POST", "/v1/achievements/onboarded/complete", { body: { user: { id: "bob" } } });
    expect(done.body.points.xp).toMatchObject({ added: 50, awards: [{ awarded: 50, trigger: { type: "achievement", achievementId: ids.onboarded } }] });
  });
});

describe("energy", () => {
  it("is granted on creation, spent by events, and refuses an event that would go below zero, changing nothing", async () => {
    const first = await send("requests", "eve", 1);
    expect(first.body.points.energy).toMatchObject({ total: 1, added: 1, level: { key: "charged" } }); // +2 on creation, -1 for the request
    // Below every level: the level changed to none, which the reference's JSON says with `level: null`.
    const spent = await send("requests", "eve", 1);
    expect(spent.body.points.energy).toMatchObject({ total: 0, added: -1, level: null });
    const refused = await send("requests", "eve", 1);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatch(/energy/i);
    const metric = await server.rest("GET", "/v1/users/eve/metrics/requests");
    expect(metric.body.current).toBe(2);
  });

  it("caps the total at maxPoints", async () => {
    const user = await server.rest("PUT", "/v1/users/cap", { body: {} });
    expect(user.status).toBe(200);
    const stored = await readStoredUser(server.service.context.database.collections.users, "default", "cap");
    expect(stored!.state.points[ids.energy!]!.total).toBe(2);
  });
});
