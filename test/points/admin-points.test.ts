import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BoostRounding, PointsBoostStatus, PointsTriggerStatus, PointsTriggerTimeUnit, PointsTriggerType } from "../../sdk/src/index.js";
import { DEFAULT_SCOPE } from "../../src/features/account/domain/tenant.js";
import { createApiKey } from "../../src/features/account/store/api-keys.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
/** IDs of configuration in the default scope and in the tenant "other". */
const ids = { metric: "", planAttr: "", sourceAttr: "", otherMetric: "", otherPlanAttr: "", otherAchievement: "achievement-of-other" };

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "other", name: "Other" }] });
  ids.metric = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words", name: "Words" }] })).body.created[0].id;
  const attributes = await server.rest("POST", "/admin/v1/attributes", {
    body: [
      { key: "plan", name: "Plan", type: "user" },
      { key: "source", name: "Source", type: "event" },
    ],
  });
  [ids.planAttr, ids.sourceAttr] = attributes.body.created.map((a: { id: string }) => a.id);
  ids.otherMetric = (await server.rest("POST", "/admin/v1/metrics", { tenantId: "other", body: [{ key: "words", name: "Words" }] })).body.created[0].id;
  ids.otherPlanAttr = (
    await server.rest("POST", "/admin/v1/attributes", { tenantId: "other", body: [{ key: "plan", name: "Plan", type: "user" }] })
  ).body.created[0].id;
  const otherTenant = (await server.rest("GET", "/admin/v1/tenants?limit=100")).body.find((t: { customerId: string }) => t.customerId === "other");
  await server.service.context.database.collections.achievements.insertOne({
    _id: ids.otherAchievement as never,
    tenantId: otherTenant.id,
    key: "a",
    name: "A",
  });
  await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "u1" }, value: 1 } });
});
afterAll(() => server.close());

/** Creates a points system in the default scope and returns its ID. */
async function newSystem(key: string, tenantId?: string): Promise<string> {
  const response = await server.rest("POST", "/admin/v1/points", { tenantId, body: [{ key, name: key.toUpperCase() }] });
  expect(response.status).toBe(201);
  return response.body.created[0].id;
}

/** The documents of a collection, to prove that a refused request changed nothing. */
function snapshot(collection: "pointsSystems" | "pointsTriggers" | "pointsLevels" | "pointsBoosts") {
  return server.service.context.database.collections[collection].find({}).sort({ _id: 1 }).toArray();
}

describe("points systems", () => {
  it("are created with nested levels, listed, read, updated and archived in the reference shapes", async () => {
    const created = await server.rest("POST", "/admin/v1/points", {
      body: [
        {
          name: "XP",
          key: "xp",
          description: "Experience points",
          levels: [
            { name: "Bronze", key: "bronze", points: 100 },
            { name: "Silver", key: "silver", points: 500, description: "Intermediate level", badge: { url: "https://example.com/silver.png" } },
          ],
        },
        { name: "Bad", key: "bad key" },
        { name: "Energy", key: "energy", maxPoints: 100, badge: { url: "https://example.com/energy.png" } },
        { name: "Again", key: "xp" },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      created: [
        {
          id: expect.any(String),
          name: "XP",
          key: "xp",
          description: "Experience points",
          status: "active",
          badge: null,
          maxPoints: null,
          levels: [
            { id: expect.any(String), name: "Bronze", key: "bronze", points: 100, description: "", badge: null },
            {
              id: expect.any(String),
              name: "Silver",
              key: "silver",
              points: 500,
              description: "Intermediate level",
              badge: { url: "https://example.com/silver.png" },
            },
          ],
        },
        // Without nested items, the create response has no nested arrays.
        {
          id: expect.any(String),
          name: "Energy",
          key: "energy",
          description: "",
          status: "active",
          badge: { url: "https://example.com/energy.png" },
          maxPoints: 100,
        },
      ],
      issues: [
        {
          index: 1,
          severity: "error",
          message: 'key "bad key" is invalid: use letters, digits, hyphens and underscores, at most 100 characters',
          level: "error",
          reason: 'key "bad key" is invalid: use letters, digits, hyphens and underscores, at most 100 characters',
        },
        {
          index: 3,
          severity: "error",
          message: 'Key "xp" is already in use by another points system',
          level: "error",
          reason: 'Key "xp" is already in use by another points system',
        },
      ],
    });
    const [xp, energy] = created.body.created;
    const { levels: _levels, ...xpSystem } = xp;

    const list = await server.rest("GET", "/admin/v1/points?limit=2");
    expect(list).toEqual({ status: 200, body: [xpSystem, energy] });
    expect((await server.rest("GET", "/admin/v1/points?limit=1&skip=1")).body).toEqual([energy]);
    expect(await server.rest("GET", `/admin/v1/points/${xp.id}`)).toEqual({ status: 200, body: xpSystem });
    expect(await server.rest("GET", "/admin/v1/points/nope")).toEqual({ status: 404, body: { error: 'Points system "nope" not found' } });

    const patched = await server.rest("PATCH", "/admin/v1/points", {
      body: [
        { id: xp.id, name: "Experience", maxPoints: 1000, badge: { url: "https://example.com/xp.png" } },
        { id: "missing", name: "X" },
        { id: energy.id, maxPoints: 0 },
      ],
    });
    expect(patched).toEqual({
      status: 200,
      body: {
        updated: [{ ...xpSystem, name: "Experience", maxPoints: 1000, badge: { url: "https://example.com/xp.png" } }],
        issues: [
          { id: "missing", severity: "error", message: "Points system not found by ID", level: "error", reason: "Points system not found by ID" },
          {
            id: energy.id,
            severity: "error",
            message: "maxPoints must be null or an integer >= 1, got 0",
            level: "error",
            reason: "maxPoints must be null or an integer >= 1, got 0",
          },
        ],
      },
    });
    // null removes a value; leaving a field out keeps it.
    const cleared = await server.rest("PATCH", "/admin/v1/points", { body: [{ id: xp.id, maxPoints: null, badge: null }] });
    expect(cleared.body.updated).toEqual([{ ...xpSystem, name: "Experience" }]);
    const wrongShape = await server.rest("PATCH", "/admin/v1/points", { body: [{ id: xp.id, maxPoints: "lots" }] });
    expect(wrongShape).toEqual({ status: 400, body: { error: "Invalid request: systems[0].maxPoints must be an integer or null" } });

    const removed = await server.rest("DELETE", `/admin/v1/points?ids=${energy.id},missing`);
    expect(removed.body).toEqual({
      deleted: [{ id: energy.id }],
      issues: [{ id: "missing", severity: "error", message: "Points system not found by ID", level: "error", reason: "Points system not found by ID" }],
    });
    expect((await server.rest("GET", `/admin/v1/points/${energy.id}`)).body).toEqual({ ...energy, status: "archived" });
    expect((await server.rest("DELETE", `/admin/v1/points?ids=${energy.id}`)).body.issues).toEqual([
      { id: energy.id, severity: "error", message: "Points system is already archived", level: "error", reason: "Points system is already archived" },
    ]);
  });

  it("are not archived while a leaderboard ranks by them", async () => {
    const systemId = await newSystem("ranked");
    const leaderboards = server.service.context.database.collections.leaderboards;
    await leaderboards.insertOne({
      _id: "board-1" as never,
      tenantId: DEFAULT_SCOPE,
      key: "ranked",
      name: "Ranked",
      rankBy: "points",
      pointsSystemId: systemId,
    });
    const refused = await server.rest("DELETE", `/admin/v1/points?ids=${systemId}`);
    expect(refused.body).toEqual({
      deleted: [],
      issues: [
        {
          id: systemId,
          severity: "error",
          message: 'Cannot delete: still used by leaderboard "Ranked" (board-1); remove that reference first',
          level: "error",
          reason: 'Cannot delete: still used by leaderboard "Ranked" (board-1); remove that reference first',
        },
      ],
    });
    expect((await server.rest("GET", `/admin/v1/points/${systemId}`)).body.status).toBe("active");
    await leaderboards.deleteOne({ _id: "board-1" as never });
    expect((await server.rest("DELETE", `/admin/v1/points?ids=${systemId}`)).body.deleted).toEqual([{ id: systemId }]);
  });

  it("once archived, take no new configuration (nothing would act): no triggers, levels, boosts, edits or leaderboards", async () => {
    const systemId = await newSystem("retired");
    const trigger = await server.rest("POST", `/admin/v1/points/${systemId}/triggers`, {
      body: [{ type: "metric", points: 1, metricId: ids.metric, metricThreshold: 1 }],
    });
    const triggerId = trigger.body.created[0].id as string;
    expect((await server.rest("DELETE", `/admin/v1/points?ids=${systemId}`)).body.deleted).toEqual([{ id: systemId }]);
    const archived = `Points system "${systemId}" is archived`;
    for (const [path, method, body] of [
      ["triggers", "POST", [{ type: "metric", points: 1, metricId: ids.metric, metricThreshold: 1 }]],
      ["triggers", "PATCH", [{ id: triggerId, points: 5 }]],
      ["levels", "POST", [{ key: "one", name: "One", points: 10 }]],
      ["boosts", "POST", [{ name: "Double", start: "2030-01-01", multiplier: 2 }]],
    ] as const) {
      expect(await server.rest(method, `/admin/v1/points/${systemId}/${path}`, { body }), path).toEqual({
        status: 422,
        body: { error: `${archived}: its triggers, levels and boosts no longer change` },
      });
    }
    await expect(server.client("grpc").points.createPointsLevels({ systemId, levels: [{ key: "one", name: "One", points: 10n }] })).rejects.toMatchObject({
      code: Code.FailedPrecondition,
    });
    expect((await server.rest("PATCH", "/admin/v1/points", { body: [{ id: systemId, name: "Renamed" }] })).body.issues).toMatchObject([
      { id: systemId, message: `${archived}: it no longer changes` },
    ]);
    const board = await server.rest("POST", "/admin/v1/leaderboards", {
      body: [{ key: "retired", name: "Retired", rankBy: "points", pointsSystemId: systemId }],
    });
    expect(board.body.issues).toMatchObject([{ message: `${archived}: nothing ranks by it` }]);
    // What it holds stays readable, and can be deleted.
    expect((await server.rest("GET", `/admin/v1/points/${systemId}/triggers`)).body.map((t: { id: string }) => t.id)).toEqual([triggerId]);
    expect((await server.rest("DELETE", `/admin/v1/points/${systemId}/triggers?ids=${triggerId}`)).body.deleted).toEqual([{ id: triggerId }]);
  });

  it("answer 200 with only issues when nothing was created", async () => {
    const before = await snapshot("pointsSystems");
    const response = await server.rest("POST", "/admin/v1/points", {
      body: [
        { key: "xp", name: "Again" },
        { key: "no-name", name: " " },
        { key: "cap", name: "Cap", maxPoints: 0 },
      ],
    });
    expect(response).toEqual({
      status: 200,
      body: {
        created: [],
        issues: [
          {
            index: 0,
            severity: "error",
            message: 'Key "xp" is already in use by another points system',
            level: "error",
            reason: 'Key "xp" is already in use by another points system',
          },
          { index: 1, severity: "error", message: "name is required", level: "error", reason: "name is required" },
          {
            index: 2,
            severity: "error",
            message: "maxPoints must be null or an integer >= 1, got 0",
            level: "error",
            reason: "maxPoints must be null or an integer >= 1, got 0",
          },
        ],
      },
    });
    expect(await snapshot("pointsSystems")).toEqual(before);
  });

  it("are created with all their nested items or not at all", async () => {
    const before = await Promise.all([snapshot("pointsSystems"), snapshot("pointsLevels"), snapshot("pointsTriggers"), snapshot("pointsBoosts")]);
    const refused = await server.rest("POST", "/admin/v1/points", {
      body: [
        {
          key: "dup-levels",
          name: "D",
          levels: [
            { key: "a", name: "A", points: 10 },
            { key: "b", name: "B", points: 10 },
          ],
        },
        {
          key: "bad-trigger",
          name: "T",
          levels: [{ key: "a", name: "A", points: 10 }],
          triggers: [{ type: "metric", points: 5, metricId: ids.otherMetric, metricThreshold: 1 }],
        },
        { key: "bad-boost", name: "B", boosts: [{ name: "Double", start: "2026-01-01", multiplier: 2, userId: "nobody" }] },
      ],
    });
    expect(refused).toEqual({
      status: 200,
      body: {
        created: [],
        issues: [
          {
            index: 0,
            severity: "error",
            message: "levels[1]: points 10 is already the threshold of another level of this points system; thresholds must be unique",
            level: "error",
            reason: "levels[1]: points 10 is already the threshold of another level of this points system; thresholds must be unique",
          },
          {
            index: 1,
            severity: "error",
            message: `triggers[0]: metricId "${ids.otherMetric}" is not a metric of this tenant`,
            level: "error",
            reason: `triggers[0]: metricId "${ids.otherMetric}" is not a metric of this tenant`,
          },
          {
            index: 2,
            severity: "error",
            message: 'boosts[0]: User "nobody" does not exist',
            level: "error",
            reason: 'boosts[0]: User "nobody" does not exist',
          },
        ],
      },
    });
    expect(await Promise.all([snapshot("pointsSystems"), snapshot("pointsLevels"), snapshot("pointsTriggers"), snapshot("pointsBoosts")])).toEqual(before);

    const made = await server.client("connect-json").points.createPointsSystems({
      systems: [
        {
          key: "gems",
          name: "Gems",
          levels: [{ key: "one", name: "One", points: 1n }],
          boosts: [{ name: "Launch", start: "2026-01-01", end: "2026-01-02", multiplier: 3 }],
          triggers: [{ type: PointsTriggerType.USER_CREATION, points: 100n }],
        },
      ],
    });
    expect(made.issues).toEqual([]);
    const [gems] = made.created;
    expect([gems?.levels.length, gems?.boosts[0]?.status, gems?.triggers[0]?.status]).toEqual([1, PointsBoostStatus.FINISHED, PointsTriggerStatus.INACTIVE]);
    expect((await server.rest("GET", `/admin/v1/points/${gems?.id}/triggers`)).body).toHaveLength(1);
  });
});

describe("points triggers", () => {
  it("are created, listed, read, updated and deleted over REST, Connect and gRPC in the reference shapes", async () => {
    const systemId = await newSystem("trig");
    const path = `/admin/v1/points/${systemId}/triggers`;
    const created = await server.rest("POST", path, {
      body: [
        { type: "metric", points: 10, metricId: ids.metric, metricThreshold: 5, blockIfOutOfPoints: true },
        {
          type: "time",
          points: 3,
          status: "active",
          timeUnit: "hours",
          timeInterval: 3,
          userAttributes: [{ attributeId: ids.planAttr, attributeValue: "pro" }],
        },
        { type: "streak", points: -2, streakLength: 7 },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      created: [
        {
          id: expect.any(String),
          type: "metric",
          points: 10,
          status: "inactive",
          userAttributes: [],
          metricId: ids.metric,
          metricThreshold: 5,
          eventAttributes: [],
          blockIfOutOfPoints: true,
        },
        {
          id: expect.any(String),
          type: "time",
          points: 3,
          status: "active",
          userAttributes: [{ attributeId: ids.planAttr, attributeValue: "pro" }],
          timeUnit: "hours",
          timeInterval: 3,
          blockIfOutOfPoints: false,
        },
        {
          id: expect.any(String),
          type: "streak",
          points: -2,
          status: "inactive",
          userAttributes: [],
          streakLength: 7,
          blockIfOutOfPoints: false,
        },
      ],
      issues: [],
    });
    const [metricTrigger, timeTrigger, streakTrigger] = created.body.created;

    expect(await server.rest("GET", `${path}/${metricTrigger.id}`)).toEqual({ status: 200, body: metricTrigger });
    expect((await server.rest("GET", `${path}?limit=2&skip=1`)).body).toEqual([timeTrigger, streakTrigger]);
    expect(await server.rest("GET", `${path}/nope`)).toEqual({ status: 404, body: { error: 'Points trigger "nope" not found' } });

    const connect = server.client("connect-json").points;
    const activated = await connect.updatePointsTriggers({ systemId, triggers: [{ id: metricTrigger.id, points: 20n, status: PointsTriggerStatus.ACTIVE }] });
    expect(activated.issues).toEqual([]);
    expect(activated.updated[0]).toMatchObject({ points: 20n, status: PointsTriggerStatus.ACTIVE, metricId: ids.metric, metricThreshold: 5 });

    // The type changes only while inactive, and the new type's settings replace the old ones.
    const retyped = await server.rest("PATCH", path, {
      body: [
        { id: metricTrigger.id, type: "streak", streakLength: 3 },
        { id: streakTrigger.id, type: "time", timeUnit: "days", timeInterval: 1 },
        { id: timeTrigger.id, metricThreshold: 4 },
      ],
    });
    const { streakLength: _dropped, ...streakCommon } = streakTrigger;
    expect(retyped.body).toEqual({
      updated: [{ ...streakCommon, type: "time", timeUnit: "days", timeInterval: 1 }],
      issues: [
        {
          id: metricTrigger.id,
          severity: "error",
          message: "type can only be changed while the trigger is inactive",
          level: "error",
          reason: "type can only be changed while the trigger is inactive",
        },
        {
          id: timeTrigger.id,
          severity: "error",
          message: "metricThreshold is only allowed on metric triggers, not on time triggers",
          level: "error",
          reason: "metricThreshold is only allowed on metric triggers, not on time triggers",
        },
      ],
    });
    const cleared = await server.rest("PATCH", path, { body: [{ id: timeTrigger.id, userAttributes: null }] });
    expect(cleared.body.updated[0].userAttributes).toEqual([]);

    const overGrpc = await server.client("grpc").points.listPointsTriggers({ systemId, limit: 100 });
    expect(overGrpc.triggers.map((t) => t.type)).toEqual([PointsTriggerType.METRIC, PointsTriggerType.TIME, PointsTriggerType.TIME]);
    expect(overGrpc.triggers[1]?.timeUnit).toBe(PointsTriggerTimeUnit.HOURS);

    const removed = await server.rest("DELETE", `${path}?ids=${streakTrigger.id}&ids=missing`);
    expect(removed.body).toEqual({
      deleted: [{ id: streakTrigger.id }],
      issues: [{ id: "missing", severity: "error", message: "Points trigger not found by ID", level: "error", reason: "Points trigger not found by ID" }],
    });
    expect((await server.rest("GET", path)).body).toHaveLength(2);
  });

  const metric = () => ({ type: "metric", points: 10, metricId: ids.metric, metricThreshold: 5 });
  const CASES: Array<{ name: string; item: () => Record<string, unknown>; message: () => string }> = [
    { name: "zero points", item: () => ({ ...metric(), points: 0 }), message: () => "points must be a non-zero integer (negative values deduct), got 0" },
    { name: "no type", item: () => ({ points: 5 }), message: () => 'type is required: "metric", "achievement", "streak", "time" or "user_creation"' },
    { name: "an archived status", item: () => ({ ...metric(), status: "archived" }), message: () => 'status must be "active" or "inactive", got "archived"' },
    {
      name: "a metric trigger without metric",
      item: () => ({ type: "metric", points: 1, metricThreshold: 2 }),
      message: () => "metricId is required for metric triggers",
    },
    { name: "a metric threshold of 0", item: () => ({ ...metric(), metricThreshold: 0 }), message: () => "metricThreshold must be an integer >= 1, got 0" },
    {
      name: "a user creation trigger that would block",
      item: () => ({ type: "user_creation", points: -5, blockIfOutOfPoints: true }),
      message: () => "blockIfOutOfPoints is only allowed on metric triggers, not on user_creation triggers",
    },
    { name: "a streak trigger without length", item: () => ({ type: "streak", points: 1 }), message: () => "streakLength is required for streak triggers" },
    {
      name: "a streak length of 0",
      item: () => ({ type: "streak", points: 1, streakLength: 0 }),
      message: () => "streakLength must be an integer >= 1, got 0",
    },
    {
      name: "an achievement trigger without achievement",
      item: () => ({ type: "achievement", points: 1 }),
      message: () => "achievementId is required for achievement triggers",
    },
    {
      name: "a time trigger without unit",
      item: () => ({ type: "time", points: 1, timeInterval: 1 }),
      message: () => "timeUnit is required for time triggers",
    },
    {
      name: "a time interval of 0",
      item: () => ({ type: "time", points: 1, timeUnit: "days", timeInterval: 0 }),
      message: () => "timeInterval must be an integer >= 1, got 0",
    },
    {
      name: "a setting of another type",
      item: () => ({ type: "user_creation", points: 1, streakLength: 3 }),
      message: () => "streakLength is only allowed on streak triggers, not on user_creation triggers",
    },
    {
      name: "event filters on a streak trigger",
      item: () => ({ type: "streak", points: 1, streakLength: 2, eventAttributes: [{ attributeId: ids.sourceAttr, attributeValue: "web" }] }),
      message: () => "eventAttributes are only allowed on metric triggers",
    },
    {
      name: "another tenant's metric",
      item: () => ({ ...metric(), metricId: ids.otherMetric }),
      message: () => `metricId "${ids.otherMetric}" is not a metric of this tenant`,
    },
    {
      name: "another tenant's achievement",
      item: () => ({ type: "achievement", points: 1, achievementId: ids.otherAchievement }),
      message: () => `achievementId "${ids.otherAchievement}" is not an achievement of this tenant`,
    },
    {
      name: "another tenant's attribute",
      item: () => ({ ...metric(), userAttributes: [{ attributeId: ids.otherPlanAttr, attributeValue: "pro" }] }),
      message: () => `userAttributes[0].attributeId "${ids.otherPlanAttr}" is not an attribute of this tenant`,
    },
    {
      name: "an event attribute as a user filter",
      item: () => ({ ...metric(), userAttributes: [{ attributeId: ids.sourceAttr, attributeValue: "web" }] }),
      message: () => `userAttributes[0].attributeId "${ids.sourceAttr}" is the event attribute "source"; userAttributes take user attributes`,
    },
    {
      name: "a user attribute as an event filter",
      item: () => ({ ...metric(), eventAttributes: [{ attributeId: ids.planAttr, attributeValue: "pro" }] }),
      message: () => `eventAttributes[0].attributeId "${ids.planAttr}" is the user attribute "plan"; eventAttributes take event attributes`,
    },
  ];
  it.each(CASES)("refuse $name with a specific issue and change nothing", async ({ item, message }) => {
    const systemId = await newSystem(`t-${Math.random().toString(36).slice(2, 10)}`);
    const before = await snapshot("pointsTriggers");
    const response = await server.rest("POST", `/admin/v1/points/${systemId}/triggers`, { body: [item()] });
    expect(response).toEqual({
      status: 200,
      body: { created: [], issues: [{ index: 0, severity: "error", message: message(), level: "error", reason: message() }] },
    });
    expect(await snapshot("pointsTriggers")).toEqual(before);
  });

  it("keep the metrics, achievements and attributes they use from being deleted", async () => {
    const systemId = await newSystem("refs");
    await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "steps", name: "Steps" }] });
    const steps = (await server.rest("GET", "/admin/v1/metrics?limit=100")).body.find((m: { key: string }) => m.key === "steps").id;
    const trigger = (
      await server.rest("POST", `/admin/v1/points/${systemId}/triggers`, {
        body: [{ type: "metric", points: 1, metricId: steps, metricThreshold: 1, eventAttributes: [{ attributeId: ids.sourceAttr, attributeValue: "web" }] }],
      })
    ).body.created[0];

    const refused = await server.rest("DELETE", `/admin/v1/metrics?ids=${steps}`);
    expect(refused.body).toEqual({
      deleted: [],
      issues: [
        {
          id: steps,
          severity: "error",
          message: `Cannot delete: still used by points trigger "${trigger.id}"; remove that reference first`,
          level: "error",
          reason: `Cannot delete: still used by points trigger "${trigger.id}"; remove that reference first`,
        },
      ],
    });
    expect((await server.rest("DELETE", `/admin/v1/attributes?ids=${ids.sourceAttr}`)).body.issues[0].message).toContain(`points trigger "${trigger.id}"`);

    await server.rest("DELETE", `/admin/v1/points/${systemId}/triggers?ids=${trigger.id}`);
    expect((await server.rest("DELETE", `/admin/v1/metrics?ids=${steps}`)).body.deleted).toEqual([{ id: steps }]);
  });
});

describe("points levels", () => {
  it("are created, listed by threshold, read, updated and deleted with unique keys and thresholds", async () => {
    const systemId = await newSystem("lv");
    const path = `/admin/v1/points/${systemId}/levels`;
    const created = await server.rest("POST", path, {
      body: [
        { name: "Silver", key: "silver", points: 500 },
        { name: "Bronze", key: "bronze", points: 100, description: "Starting level", badge: { url: "https://example.com/bronze.png" } },
        { name: "Copper", key: "bronze", points: 50 },
        { name: "Tin", key: "tin", points: 500 },
        { name: "Minus", key: "minus", points: -1 },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.created[1]).toEqual({
      id: expect.any(String),
      name: "Bronze",
      key: "bronze",
      points: 100,
      description: "Starting level",
      badge: { url: "https://example.com/bronze.png" },
    });
    expect(created.body.issues).toEqual([
      {
        index: 2,
        severity: "error",
        message: 'Key "bronze" is already in use by another level of this points system',
        level: "error",
        reason: 'Key "bronze" is already in use by another level of this points system',
      },
      {
        index: 3,
        severity: "error",
        message: "points 500 is already the threshold of another level of this points system; thresholds must be unique",
        level: "error",
        reason: "points 500 is already the threshold of another level of this points system; thresholds must be unique",
      },
      { index: 4, severity: "error", message: "points must be an integer >= 0, got -1", level: "error", reason: "points must be an integer >= 0, got -1" },
    ]);
    const [silver, bronze] = created.body.created;
    expect((await server.rest("GET", path)).body.map((l: { key: string }) => l.key)).toEqual(["bronze", "silver"]);
    expect(await server.rest("GET", `${path}/${bronze.id}`)).toEqual({ status: 200, body: bronze });

    const before = await snapshot("pointsLevels");
    const clash = await server.rest("PATCH", path, { body: [{ id: silver.id, points: 100 }] });
    expect(clash.body.issues).toEqual([
      {
        id: silver.id,
        severity: "error",
        message: "points 100 is already the threshold of another level of this points system; thresholds must be unique",
        level: "error",
        reason: "points 100 is already the threshold of another level of this points system; thresholds must be unique",
      },
    ]);
    expect(await snapshot("pointsLevels")).toEqual(before);

    const updated = await server.client("grpc").points.updatePointsLevels({ systemId, levels: [{ id: bronze.id, name: "Bronze Tier", points: 150n }] });
    expect(updated.updated[0]).toMatchObject({ name: "Bronze Tier", points: 150n, key: "bronze", badge: { url: "https://example.com/bronze.png" } });
    expect((await server.rest("PATCH", path, { body: [{ id: bronze.id, badge: null }] })).body.updated[0].badge).toBeNull();

    const removed = await server.rest("DELETE", `${path}?ids=${silver.id},missing`);
    expect(removed.body).toEqual({
      deleted: [{ id: silver.id }],
      issues: [{ id: "missing", severity: "error", message: "Level not found by ID", level: "error", reason: "Level not found by ID" }],
    });
  });
});

describe("points boosts", () => {
  it("are global, cohort or user-specific, with a status derived from UTC dates and the archive flag", async () => {
    const systemId = await newSystem("bo");
    const path = `/admin/v1/points/${systemId}/boosts`;
    const created = await server.rest("POST", path, {
      body: [
        { userId: "u1", name: "Double XP Weekend", start: day(-1), end: day(1), multiplier: 2 },
        { name: "Global Holiday Bonus", start: day(30), multiplier: 1.5, rounding: "up" },
        {
          name: "Premium User Boost",
          start: day(-10),
          end: day(-5),
          multiplier: 2,
          userAttributes: [{ attributeId: ids.planAttr, attributeValue: "premium" }],
        },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      created: [
        {
          id: expect.any(String),
          name: "Double XP Weekend",
          status: "active",
          start: day(-1),
          end: day(1),
          multiplier: 2,
          rounding: "down",
          userId: "u1",
          userAttributes: [],
        },
        {
          id: expect.any(String),
          name: "Global Holiday Bonus",
          status: "scheduled",
          start: day(30),
          end: null,
          multiplier: 1.5,
          rounding: "up",
          userId: null,
          userAttributes: [],
        },
        {
          id: expect.any(String),
          name: "Premium User Boost",
          status: "finished",
          start: day(-10),
          end: day(-5),
          multiplier: 2,
          rounding: "down",
          userId: null,
          userAttributes: [{ attributeId: ids.planAttr, attributeValue: "premium" }],
        },
      ],
      issues: [],
    });
    const [userBoost, globalBoost, cohortBoost] = created.body.created;
    expect(await server.rest("GET", `${path}/${globalBoost.id}`)).toEqual({ status: 200, body: globalBoost });

    const connect = server.client("connect-json").points;
    const archived = await connect.updatePointsBoosts({ systemId, boosts: [{ id: globalBoost.id, archived: true, rounding: BoostRounding.NEAREST }] });
    expect(archived.updated[0]).toMatchObject({ status: PointsBoostStatus.ARCHIVED, rounding: BoostRounding.NEAREST });

    const patched = await server.rest("PATCH", path, {
      body: [
        { id: userBoost.id, end: null, multiplier: 3 },
        { id: cohortBoost.id, userAttributes: null },
        { id: userBoost.id, userAttributes: [{ attributeId: ids.planAttr, attributeValue: "pro" }] },
      ],
    });
    expect(patched.body).toEqual({
      updated: [
        { ...userBoost, end: null, multiplier: 3 },
        { ...cohortBoost, userAttributes: [] },
      ],
      issues: [
        {
          id: userBoost.id,
          severity: "error",
          message: "userAttributes cannot be set on a user-specific boost",
          level: "error",
          reason: "userAttributes cannot be set on a user-specific boost",
        },
      ],
    });
    const badShape = await server.rest("PATCH", path, { body: [{ id: userBoost.id, end: 5 }] });
    expect(badShape).toEqual({ status: 400, body: { error: "Invalid request: boosts[0].end must be a date (YYYY-MM-DD) or null" } });

    expect((await server.rest("GET", path)).body.map((b: { status: string }) => b.status)).toEqual(["active", "archived", "finished"]);
    const removed = await server.rest("DELETE", `${path}?ids=${cohortBoost.id},missing`);
    expect(removed.body).toEqual({
      deleted: [{ id: cohortBoost.id }],
      issues: [{ id: "missing", severity: "error", message: "Points boost not found by ID", level: "error", reason: "Points boost not found by ID" }],
    });
  });

  const boost = { name: "Boost", start: "2026-01-01", multiplier: 2 };
  const CASES: Array<{ name: string; item: () => Record<string, unknown>; message: () => string }> = [
    { name: "an unknown user", item: () => ({ ...boost, userId: "ghost" }), message: () => 'User "ghost" does not exist' },
    {
      name: "a user and a cohort",
      item: () => ({ ...boost, userId: "u1", userAttributes: [{ attributeId: ids.planAttr, attributeValue: "pro" }] }),
      message: () => "userAttributes cannot be set on a user-specific boost (userId is set)",
    },
    {
      name: "a multiplier of 1",
      item: () => ({ ...boost, multiplier: 1 }),
      message: () => "multiplier must be greater than 0, less than 100 and not 1, got 1",
    },
    {
      name: "a negative multiplier",
      item: () => ({ ...boost, multiplier: -2 }),
      message: () => "multiplier must be greater than 0, less than 100 and not 1, got -2",
    },
    { name: "a missing name", item: () => ({ ...boost, name: "" }), message: () => "name is required" },
    { name: "a name of 256 characters", item: () => ({ ...boost, name: "n".repeat(256) }), message: () => "name must be at most 255 characters" },
    { name: "a missing start", item: () => ({ name: "B", multiplier: 2 }), message: () => "start is required (YYYY-MM-DD)" },
    { name: "an invalid start", item: () => ({ ...boost, start: "2026-02-30" }), message: () => 'start must be a date (YYYY-MM-DD), got "2026-02-30"' },
    { name: "an end before the start", item: () => ({ ...boost, end: "2025-12-31" }), message: () => "end (2025-12-31) must not be before start (2026-01-01)" },
    {
      name: "another tenant's attribute",
      item: () => ({ ...boost, userAttributes: [{ attributeId: ids.otherPlanAttr, attributeValue: "pro" }] }),
      message: () => `userAttributes[0].attributeId "${ids.otherPlanAttr}" is not an attribute of this tenant`,
    },
  ];
  it.each(CASES)("refuse $name with a specific issue and change nothing", async ({ item, message }) => {
    const systemId = await newSystem(`b-${Math.random().toString(36).slice(2, 10)}`);
    const before = await snapshot("pointsBoosts");
    const response = await server.rest("POST", `/admin/v1/points/${systemId}/boosts`, { body: [item()] });
    expect(response).toEqual({
      status: 200,
      body: { created: [], issues: [{ index: 0, severity: "error", message: message(), level: "error", reason: message() }] },
    });
    expect(await snapshot("pointsBoosts")).toEqual(before);
  });

  it("keep the attributes of their cohort filters from being deleted", async () => {
    await server.rest("POST", "/admin/v1/attributes", { body: [{ key: "country", name: "Country", type: "user" }] });
    const country = (await server.rest("GET", "/admin/v1/attributes?limit=100")).body.find((a: { key: string }) => a.key === "country").id;
    const systemId = await newSystem("cohort");
    await server.rest("POST", `/admin/v1/points/${systemId}/boosts`, {
      body: [{ name: "UK boost", start: "2026-01-01", multiplier: 2, userAttributes: [{ attributeId: country, attributeValue: "GB" }] }],
    });
    const refused = await server.rest("DELETE", `/admin/v1/attributes?ids=${country}`);
    expect(refused.body.issues[0].message).toMatch(/^Cannot delete: still used by points boost "UK boost"/);
  });
});

describe("points admin scope", () => {
  it("refuses application keys on every protocol", async () => {
    const appKey = (
      await createApiKey(server.service.context.database.collections.apiKeys, "application", { tenantId: DEFAULT_SCOPE, userId: "u1" }, new Date())
    ).key;
    expect(await server.rest("GET", "/admin/v1/points", { apiKey: appKey })).toEqual({
      status: 403,
      body: { error: "This call needs an admin API key; application keys may only call the Application API" },
    });
    const before = await snapshot("pointsSystems");
    expect((await server.rest("POST", "/admin/v1/points", { apiKey: appKey, body: [{ key: "sneaky", name: "S" }] })).status).toBe(403);
    expect(await snapshot("pointsSystems")).toEqual(before);
    for (const protocol of ["connect-json", "grpc"] as const) {
      const error = await server
        .client(protocol, { apiKey: appKey })
        .points.listPointsSystems({})
        .catch((e) => ConnectError.from(e));
      expect(error).toBeInstanceOf(ConnectError);
      expect((error as ConnectError).code).toBe(Code.PermissionDenied);
    }
  });

  it("keeps each tenant's points configuration to itself", async () => {
    const systemId = await newSystem("mine");
    const otherSystems = (await server.rest("GET", "/admin/v1/points?limit=100", { tenantId: "other" })).body;
    expect(otherSystems).toEqual([]);
    expect((await server.rest("GET", `/admin/v1/points/${systemId}`, { tenantId: "other" })).status).toBe(404);
    const nested = await server.rest("POST", `/admin/v1/points/${systemId}/levels`, { tenantId: "other", body: [{ key: "l", name: "L", points: 1 }] });
    expect(nested).toEqual({ status: 404, body: { error: `Points system "${systemId}" not found` } });
    const grpcError = await server
      .client("grpc", { tenantId: "other" })
      .points.listPointsBoosts({ systemId })
      .catch((e) => ConnectError.from(e));
    expect((grpcError as ConnectError).code).toBe(Code.NotFound);
    expect((await server.rest("PATCH", "/admin/v1/points", { tenantId: "other", body: [{ id: systemId, name: "Stolen" }] })).body.issues).toEqual([
      { id: systemId, severity: "error", message: "Points system not found by ID", level: "error", reason: "Points system not found by ID" },
    ]);
    expect((await server.rest("DELETE", `/admin/v1/points?ids=${systemId}`, { tenantId: "other" })).body.deleted).toEqual([]);

    // The same key in another tenant is another system.
    const theirs = await newSystem("mine", "other");
    expect(theirs).not.toBe(systemId);
    expect((await server.rest("GET", "/admin/v1/points?limit=100", { tenantId: "other" })).body.map((s: { id: string }) => s.id)).toEqual([theirs]);
  });

  it("checks request rules before anything runs", async () => {
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ key: `k${i}`, name: `K${i}` }));
    expect((await server.rest("POST", "/admin/v1/points", { body: tooMany })).status).toBe(400);
    expect((await server.rest("POST", "/admin/v1/points", { body: [] })).status).toBe(400);
    expect((await server.rest("GET", "/admin/v1/points?limit=0")).status).toBe(400);
    expect((await server.rest("GET", "/admin/v1/points?skip=-1")).status).toBe(400);
    expect((await server.rest("POST", "/admin/v1/points/nope/triggers", { body: [{ type: "user_creation", points: 1 }] })).status).toBe(404);
    const badEnum = await server.rest("POST", "/admin/v1/points/nope/triggers", { body: [{ type: "time", points: 1, timeUnit: "hour", timeInterval: 1 }] });
    expect(badEnum).toEqual({ status: 400, body: { error: 'triggers[0].timeUnit: "hour" is not one of "hours", "days"' } });
  });
});
