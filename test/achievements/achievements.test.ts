import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_PROTOCOLS, startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  ids.words = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words", name: "Words written" }] })).body.created[0].id;
  await server.rest("POST", "/admin/v1/attributes", {
    body: [
      { key: "source", name: "Source", type: "event" },
      { key: "plan", name: "Plan", type: "user" },
    ],
  });
  const created = await server.rest("POST", "/admin/v1/achievements", {
    body: [
      { name: "Novice", key: "novice", description: "Write 500 words", trigger: "metric", metricId: ids.words, metricValue: 500, status: "active" },
      { name: "Expert", key: "expert", trigger: "metric", metricId: ids.words, metricValue: 1000, status: "active" },
      {
        name: "Mobile writer",
        key: "mobile",
        trigger: "metric",
        metricId: ids.words,
        metricValue: 3,
        eventAttributes: [{ key: "source", value: "mobile" }],
        status: "active",
      },
      { name: "Onboarded", key: "onboarded", trigger: "api", status: "active" },
      { name: "Hidden", key: "hidden", trigger: "metric", metricId: ids.words, metricValue: 1 },
    ],
  });
  expect(created.body.issues).toEqual([]);
  for (const a of created.body.created) ids[a.key] = a.id;
  const composite = await server.rest("POST", "/admin/v1/achievements", {
    body: [{ name: "Master", key: "master", trigger: "achievement", achievementIds: [ids.novice, ids.onboarded], status: "active" }],
  });
  ids.master = composite.body.created[0].id;
});
afterAll(() => server.close());

const send = (user: string, value: number, attributes: Record<string, string> = {}) =>
  server.rest("POST", "/api/metrics/words/event", { body: { user: { id: user }, value, attributes } });

describe("achievements", () => {
  it("complete in the event response when the metric total reaches them, once each", async () => {
    expect((await send("ann", 499)).body.achievements).toEqual([]);
    const crossing = await send("ann", 501);
    expect(crossing.body.achievements).toEqual([
      {
        id: ids.novice,
        name: "Novice",
        trigger: "metric",
        description: "Write 500 words",
        badgeUrl: null,
        key: "novice",
        metricId: ids.words,
        metricValue: 500,
        metricName: "Words written",
        userAttributes: [],
        eventAttributes: [],
        achievedAt: expect.any(String),
      },
      expect.objectContaining({ key: "expert", metricValue: 1000 }),
    ]);
    expect((await send("ann", 1)).body.achievements).toEqual([]);
  });

  it("apply event attribute filters, and never complete inactive achievements", async () => {
    // Only matching events count toward it: the web's 5 do not, the mobile 1 + 2 do.
    expect((await send("bob", 5, { source: "web" })).body.achievements).toEqual([]);
    expect((await send("bob", 1, { source: "mobile" })).body.achievements).toEqual([]);
    const mobile = await server
      .client("connect-json")
      .application.trackMetricEvent({ key: "words", user: { id: "bob" }, value: 2, attributes: { source: "mobile" } });
    expect(mobile.achievements.map((a) => a.key)).toEqual(["mobile"]);
  });

  it("complete API achievements through the Application API, then composites", async () => {
    const done = await server.rest("POST", "/v1/achievements/onboarded/complete", { body: { user: { id: "ann" } } });
    expect(done.status).toBe(201);
    expect(done.body).toEqual({
      completionId: expect.any(String),
      achievement: expect.objectContaining({ id: ids.onboarded, trigger: "api", key: "onboarded", achievedAt: expect.any(String) }),
      points: {},
    });
    const again = await server.rest("POST", "/v1/achievements/onboarded/complete", { body: { user: { id: "ann" } } });
    expect([again.status, again.body.completionId]).toEqual([200, done.body.completionId]);
    const mine = await server.rest("GET", "/v1/users/ann/achievements");
    expect(mine.body.map((a: { key: string }) => a.key)).toEqual(["novice", "expert", "onboarded", "master"]);

    expect((await server.rest("POST", "/v1/achievements/novice/complete", { body: { user: { id: "ann" } } })).status).toBe(422);
    expect((await server.rest("POST", "/v1/achievements/nope/complete", { body: { user: { id: "ann" } } })).status).toBe(404);
    expect((await server.rest("POST", "/v1/achievements/hidden/complete", { body: { user: { id: "ann" } } })).status).toBe(404);
    try {
      await server.client("grpc").application.completeAchievement({ key: "novice", user: { id: "ann" } });
      expect.unreachable();
    } catch (error) {
      expect(ConnectError.from(error).code).toBe(Code.FailedPrecondition);
    }
  });

  it("list a user's achievements with incomplete ones and statistics", async () => {
    const all = await server.rest("GET", "/v1/users/bob/achievements?includeIncomplete=true");
    expect(all.body.map((a: { key: string; achievedAt: string | null }) => [a.key, a.achievedAt !== null])).toEqual([
      ["mobile", true],
      ["novice", false],
      ["expert", false],
      ["onboarded", false],
      ["master", false],
    ]);
    // ann and bob are the tenant's users; ann completed novice.
    expect(all.body.find((a: { key: string }) => a.key === "novice")).toMatchObject({ completions: 1, rarity: 50 });
    const stats = await server.rest("GET", "/v1/achievements");
    expect(stats.body.map((a: { key: string; completions: number; rarity: number }) => [a.key, a.completions, a.rarity])).toEqual([
      ["novice", 1, 50],
      ["expert", 1, 50],
      ["mobile", 1, 50],
      ["onboarded", 1, 50],
      ["master", 1, 50],
    ]);
    const metric = await server.rest("GET", "/v1/users/ann/metrics/words");
    expect(metric.body.achievements.map((a: { key: string; achievedAt: string | null }) => [a.key, a.achievedAt !== null])).toEqual([
      ["novice", true],
      ["expert", true],
      ["mobile", false],
    ]);
  });

  it("list only the achievements open to given user attributes, on every protocol", async () => {
    const tenantId = "filtered";
    await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenantId, name: "Filtered" }] });
    await server.rest("POST", "/admin/v1/attributes", { tenantId, body: [{ key: "plan", name: "Plan", type: "user" }] });
    const created = await server.rest("POST", "/admin/v1/achievements", {
      tenantId,
      body: [
        { name: "Pro only", key: "pro-only", trigger: "api", status: "active", userAttributes: [{ key: "plan", value: "pro" }] },
        { name: "Everyone", key: "everyone", trigger: "api", status: "active" },
      ],
    });
    expect(created.body.issues).toEqual([]);
    const keys = async (query: string) => {
      const response = await server.rest("GET", `/v1/achievements${query}`, { tenantId });
      expect(response.status).toBe(200);
      return response.body.map((a: { key: string }) => a.key);
    };
    expect(await keys("")).toEqual(["pro-only", "everyone"]);
    expect(await keys("?userAttributes=plan:pro")).toEqual(["pro-only", "everyone"]);
    expect(await keys("?userAttributes=plan:free")).toEqual(["everyone"]);
    expect(await server.rest("GET", "/v1/achievements?userAttributes=colour:red", { tenantId })).toEqual({
      status: 400,
      body: { error: "Invalid attribute keys: colour. Please make sure all keys match attributes created in the dashboard." },
    });
    expect((await server.rest("GET", "/v1/achievements?userAttributes=plan", { tenantId })).status).toBe(400);
    // The filter chooses achievements, not users: completions and rarity stay those of all the
    // tenant's users (the reference: "the percentage of all users"), also after a user's plan changes.
    for (const [id, plan, key] of [
      ["pro-user", "pro", "pro-only"],
      ["free-user", "free", "everyone"],
    ] as const) {
      expect((await server.rest("POST", `/v1/achievements/${key}/complete`, { tenantId, body: { user: { id, attributes: { plan } } } })).status).toBe(201);
    }
    const stats = async (query: string) =>
      (await server.rest("GET", `/v1/achievements${query}`, { tenantId })).body.map((a: { key: string; completions: number; rarity: number }) => [
        a.key,
        a.completions,
        a.rarity,
      ]);
    expect(await stats("")).toEqual([
      ["pro-only", 1, 50],
      ["everyone", 1, 50],
    ]);
    expect(await stats("?userAttributes=plan:pro")).toEqual([
      ["pro-only", 1, 50],
      ["everyone", 1, 50],
    ]);
    expect(await stats("?userAttributes=plan:free")).toEqual([["everyone", 1, 50]]);
    expect((await server.rest("PATCH", "/v1/users/pro-user", { tenantId, body: { attributes: { plan: "free" } } })).status).toBe(200);
    expect(await stats("?userAttributes=plan:free")).toEqual([["everyone", 1, 50]]);
    for (const protocol of CLIENT_PROTOCOLS) {
      const client = server.client(protocol, { tenantId });
      const { achievements } = await client.application.listAchievementStats({ userAttributes: "plan:free" });
      expect(achievements.map((a) => [a.key, a.completions, a.rarity])).toEqual([["everyone", 1n, 50]]);
      const refused = await client.application.listAchievementStats({ userAttributes: "colour:red" }).catch((e: unknown) => ConnectError.from(e));
      expect(refused).toMatchObject({ code: Code.InvalidArgument });
    }
  });

  it("complete an API achievement for a first-seen user in one write: the response has the user-creation award too", async () => {
    const tenantId = "first-seen";
    await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenantId, name: "First seen" }] });
    await server.rest("POST", "/admin/v1/attributes", { tenantId, body: [{ key: "plan", name: "Plan", type: "user" }] });
    const achievements = await server.rest("POST", "/admin/v1/achievements", {
      tenantId,
      body: [
        { name: "Profile", key: "profile", trigger: "api", status: "active" },
        { name: "Pro only", key: "pro-only", trigger: "api", status: "active", userAttributes: [{ key: "plan", value: "pro" }] },
      ],
    });
    const xp = (await server.rest("POST", "/admin/v1/points", { tenantId, body: [{ key: "xp", name: "XP" }] })).body.created[0].id;
    const triggers = await server.rest("POST", `/admin/v1/points/${xp}/triggers`, {
      tenantId,
      body: [
        { type: "user_creation", points: 5, status: "active" },
        { type: "achievement", achievementId: achievements.body.created[0].id, points: 50, status: "active" },
      ],
    });
    expect(triggers.body.issues).toEqual([]);
    const done = await server.rest("POST", "/v1/achievements/profile/complete", { tenantId, body: { user: { id: "newbie", attributes: { plan: "free" } } } });
    expect(done.status).toBe(201);
    expect(done.body.points.xp).toMatchObject({ total: 55, added: 55 });
    expect(done.body.points.xp.awards.map((a: { awarded: number; trigger: { type: string } }) => [a.awarded, a.trigger.type]).sort()).toEqual([
      [5, "user_creation"],
      [50, "achievement"],
    ]);
    expect((await server.rest("GET", "/v1/users/newbie", { tenantId })).body).toMatchObject({ id: "newbie", attributes: { plan: "free" } });
    // Repeated with new fields: the original completion, the fields written.
    const again = await server.rest("POST", "/v1/achievements/profile/complete", { tenantId, body: { user: { id: "newbie", attributes: { plan: "pro" } } } });
    expect([again.status, again.body.completionId, again.body.points]).toEqual([200, done.body.completionId, {}]);
    expect((await server.rest("GET", "/v1/users/newbie", { tenantId })).body.attributes).toEqual({ plan: "pro" });
    // A refused completion writes nothing: a first-seen user is not created.
    const refused = await server.rest("POST", "/v1/achievements/pro-only/complete", {
      tenantId,
      body: { user: { id: "stranger", attributes: { plan: "free" } } },
    });
    expect(refused.status).toBe(422);
    expect((await server.rest("GET", "/v1/users/stranger", { tenantId })).status).toBe(404);
  });

  it("are backdated to qualifying users when activated, without appearing in any event response", async () => {
    const activated = await server.rest("PATCH", "/admin/v1/achievements", { body: [{ id: ids.hidden, status: "active" }] });
    expect(activated.body.issues).toEqual([]);
    const ann = await server.rest("GET", "/v1/users/ann/achievements");
    expect(ann.body.map((a: { key: string }) => a.key)).toContain("hidden");
    expect((await send("ann", 1)).body.achievements).toEqual([]);
  });
});
