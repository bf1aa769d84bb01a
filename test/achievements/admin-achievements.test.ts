import { fromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AchievementStatus, AchievementTrigger } from "../../sdk/src/index.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
/** IDs of the default scope's metric and of the other tenant's metric, attribute and achievement. */
let words: string;
let otherMetric: string;
let otherAchievement: string;
/** IDs of the default scope's user attribute "plan" and event attribute "source". */
let planId: string;
let sourceId: string;

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "other", name: "Other" }] });
  words = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words", name: "Words" }] })).body.created[0].id;
  [planId, sourceId] = (
    await server.rest("POST", "/admin/v1/attributes", {
      body: [
        { key: "plan", name: "Plan", type: "user" },
        { key: "source", name: "Source", type: "event" },
      ],
    })
  ).body.created.map((a: { id: string }) => a.id);
  otherMetric = (await server.rest("POST", "/admin/v1/metrics", { tenantId: "other", body: [{ key: "steps", name: "Steps" }] })).body.created[0].id;
  await server.rest("POST", "/admin/v1/attributes", { tenantId: "other", body: [{ key: "region", name: "Region", type: "user" }] });
  otherAchievement = (await server.rest("POST", "/admin/v1/achievements", { tenantId: "other", body: [{ name: "Other", key: "other-api", trigger: "api" }] }))
    .body.created[0].id;
});
afterAll(() => server.close());

const achievements = () => server.service.context.database.collections.achievements;
/** Every achievement document of every tenant: proof that a refused request changed nothing. */
const snapshot = () => achievements().find({}).sort({ _id: 1 }).toArray();

describe("attribute filters in the Admin API's shape (trophy 1.27.0's {attributeId, attributeValue})", () => {
  it("are taken by attribute ID on create and update, and shown with both the ID and the key (REST)", async () => {
    const created = await server.rest("POST", "/admin/v1/achievements", {
      body: [
        {
          name: "Pro writer",
          key: "pro-writer",
          trigger: "metric",
          metricId: words,
          metricValue: 10,
          userAttributes: [{ attributeId: planId, attributeValue: "pro" }],
          eventAttributes: [{ attributeId: sourceId, attributeValue: "app" }],
        },
        { name: "Bad ID", key: "bad-id", trigger: "api", userAttributes: [{ attributeId: sourceId, attributeValue: "x" }] }, // an event attribute
      ],
    });
    // An unknown ID (here an event attribute's, in a user filter) refuses the whole request: nothing is created.
    expect([created.status, created.body.error]).toEqual([
      400,
      `achievements[1].userAttributes[0].attributeId "${sourceId}" is not the ID of a user attribute of this tenant`,
    ]);
    const ok = await server.rest("POST", "/admin/v1/achievements", {
      body: [
        {
          name: "Pro writer",
          key: "pro-writer",
          trigger: "metric",
          metricId: words,
          metricValue: 10,
          userAttributes: [{ attributeId: planId, attributeValue: "pro" }],
          eventAttributes: [{ attributeId: sourceId, attributeValue: "app" }],
        },
      ],
    });
    const [writer] = ok.body.created;
    expect([writer.userAttributes, writer.eventAttributes]).toEqual([
      [{ key: "plan", value: "pro", attributeId: planId, attributeValue: "pro" }],
      [{ key: "source", value: "app", attributeId: sourceId, attributeValue: "app" }],
    ]);
    const patched = await server.rest("PATCH", "/admin/v1/achievements", {
      body: [{ id: writer.id, userAttributes: [{ attributeId: planId, attributeValue: "team" }] }],
    });
    expect(patched.body.updated[0].userAttributes).toEqual([{ key: "plan", value: "team", attributeId: planId, attributeValue: "team" }]);
    // The Application API keeps its {key, value} shape.
    expect((await server.rest("GET", "/v1/achievements")).body).toEqual([]); // inactive: not listed
    const before = await snapshot();
    const unknown = await server.rest("PATCH", "/admin/v1/achievements", {
      body: [{ id: writer.id, userAttributes: [{ attributeId: "nope", attributeValue: "x" }] }],
    });
    expect([unknown.status, unknown.body.error]).toEqual([
      400,
      'achievements[0].userAttributes[0].attributeId "nope" is not the ID of a user attribute of this tenant',
    ]);
    expect(await snapshot()).toEqual(before);
    await server.rest("DELETE", `/admin/v1/achievements?ids=${writer.id}`);
  });

  it("over Connect: by attribute ID, shown with both", async () => {
    const admin = server.client("connect-json").achievements;
    const { created } = await admin.createAchievements({
      achievements: [{ name: "Pro API", key: "pro-api", trigger: AchievementTrigger.API, userAttributes: [{ attributeId: planId, attributeValue: "pro" }] }],
    });
    expect(created[0]!.userAttributes.map((f) => [f.key, f.value, f.attributeId, f.attributeValue])).toEqual([["plan", "pro", planId, "pro"]]);
    await expect(
      admin.createAchievements({
        achievements: [{ name: "X", key: "x-api", trigger: AchievementTrigger.API, userAttributes: [{ attributeId: "nope", attributeValue: "x" }] }],
      }),
    ).rejects.toThrow(/\[invalid_argument\] achievements\[0\]\.userAttributes\[0\]\.attributeId "nope" is not the ID of a user attribute/);
    await server.rest("DELETE", `/admin/v1/achievements?ids=${created[0]!.id}`);
  });
});

describe("achievements over REST", () => {
  it("are created, listed, read, updated and deleted in exact JSON shapes", async () => {
    const created = await server.rest("POST", "/admin/v1/achievements", {
      body: [
        {
          name: "1,000 words",
          key: "words-1000",
          trigger: "metric",
          metricId: words,
          metricValue: 1000,
          userAttributes: [{ key: "plan", value: "pro" }],
          eventAttributes: [{ key: "source", value: "web" }],
        },
        {
          name: "One week",
          key: "week",
          description: "Seven days in a row",
          badgeUrl: "https://cdn.example.com/week.png",
          trigger: "streak",
          streakLength: 7,
          status: "active",
        },
        { name: "Profile", key: "profile", trigger: "api" },
      ],
    });
    expect(created.status).toBe(201);
    const [metric, streak, api] = created.body.created;
    expect(created.body).toEqual({
      created: [
        {
          id: expect.any(String),
          name: "1,000 words",
          key: "words-1000",
          description: null,
          badgeUrl: null,
          badge: null,
          trigger: "metric",
          status: "inactive",
          metricId: words,
          metricValue: 1000,
          // Both shapes: the Application API's key and value, the Admin API's attribute ID and value.
          userAttributes: [{ key: "plan", value: "pro", attributeId: planId, attributeValue: "pro" }],
          eventAttributes: [{ key: "source", value: "web", attributeId: sourceId, attributeValue: "web" }],
        },
        {
          id: expect.any(String),
          name: "One week",
          key: "week",
          description: "Seven days in a row",
          badgeUrl: "https://cdn.example.com/week.png",
          badge: { url: "https://cdn.example.com/week.png" },
          trigger: "streak",
          status: "active",
          streakLength: 7,
          userAttributes: [],
        },
        {
          id: expect.any(String),
          name: "Profile",
          key: "profile",
          description: null,
          badgeUrl: null,
          badge: null,
          trigger: "api",
          status: "inactive",
          userAttributes: [],
        },
      ],
      issues: [],
    });

    const composite = await server.rest("POST", "/admin/v1/achievements", {
      body: [{ name: "Master", key: "master", trigger: "achievement", achievementIds: [metric.id, streak.id] }],
    });
    expect(composite.status).toBe(201);
    const master = composite.body.created[0];
    expect(master).toEqual({
      id: expect.any(String),
      name: "Master",
      key: "master",
      description: null,
      badgeUrl: null,
      badge: null,
      trigger: "achievement",
      status: "inactive",
      achievementIds: [metric.id, streak.id],
      userAttributes: [],
    });

    const list = await server.rest("GET", "/admin/v1/achievements");
    expect(list).toEqual({ status: 200, body: [metric, streak, api, master] });
    expect((await server.rest("GET", "/admin/v1/achievements?limit=2&skip=1")).body).toEqual([streak, api]);
    expect(await server.rest("GET", `/admin/v1/achievements/${master.id}`)).toEqual({ status: 200, body: master });
    expect(await server.rest("GET", "/admin/v1/achievements/missing")).toEqual({ status: 404, body: { error: 'Achievement "missing" not found' } });

    const patched = await server.rest("PATCH", "/admin/v1/achievements", {
      body: [
        { id: metric.id, name: "A thousand words", status: "active", metricValue: 1500, eventAttributes: null },
        { id: api.id, trigger: "metric", metricId: words, metricValue: 1 },
        { id: "missing", name: "x" },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      updated: [
        { ...metric, name: "A thousand words", status: "active", metricValue: 1500, eventAttributes: [] },
        { ...api, trigger: "metric", metricId: words, metricValue: 1, eventAttributes: [] },
      ].map((a) => JSON.parse(JSON.stringify(a))),
      issues: [{ id: "missing", severity: "error", message: "Achievement not found by ID", level: "error", reason: "Achievement not found by ID" }],
    });
    // Moving to another trigger drops the fields of the previous one.
    const toStreak = await server.rest("PATCH", "/admin/v1/achievements", { body: [{ id: api.id, trigger: "streak", streakLength: 2, description: null }] });
    expect(toStreak.body.updated).toEqual([{ ...api, trigger: "streak", streakLength: 2 }]);

    const removed = await server.rest("DELETE", `/admin/v1/achievements?ids=${master.id},missing`);
    expect(removed).toEqual({
      status: 200,
      body: {
        deleted: [{ id: master.id }],
        issues: [{ id: "missing", severity: "error", message: "Achievement not found by ID", level: "error", reason: "Achievement not found by ID" }],
      },
    });
    expect((await server.rest("GET", `/admin/v1/achievements/${master.id}`)).status).toBe(404);
  });

  it("take the badge as badgeUrl or as the newest clients' badge: {url}, and show both", async () => {
    const url = "https://cdn.example.com/b.png";
    const created = await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "Badged", key: "badged", trigger: "api", badge: { url } }] });
    expect(created.body.created[0]).toMatchObject({ badgeUrl: url, badge: { url } });
    const id = created.body.created[0].id;
    const moved = await server.rest("PATCH", "/admin/v1/achievements", { body: [{ id, badge: { url: "https://cdn.example.com/c.png" } }] });
    expect(moved.body.updated[0]).toMatchObject({ badgeUrl: "https://cdn.example.com/c.png", badge: { url: "https://cdn.example.com/c.png" } });
    const both = await server.rest("PATCH", "/admin/v1/achievements", { body: [{ id, badgeUrl: url, badge: { url: "https://cdn.example.com/d.png" } }] });
    expect(both).toMatchObject({ status: 400, body: { error: expect.stringMatching(/badgeUrl and .*badge name different badges/) } });
    const removed = await server.rest("PATCH", "/admin/v1/achievements", { body: [{ id, badge: null }] });
    expect(removed.body.updated[0]).toMatchObject({ badgeUrl: null, badge: null });
    await server.rest("DELETE", `/admin/v1/achievements?ids=${id}`);
  });

  it("answers 200 with only issues when nothing was created, and changes nothing", async () => {
    const before = await snapshot();
    const response = await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "Dup", key: "week", trigger: "api" }] });
    expect(response).toEqual({
      status: 200,
      body: {
        created: [],
        issues: [
          {
            index: 0,
            severity: "error",
            message: 'Key "week" is already in use by another achievement',
            level: "error",
            reason: 'Key "week" is already in use by another achievement',
          },
        ],
      },
    });
    expect(await snapshot()).toEqual(before);
  });
});

describe("achievement validation", () => {
  const ITEM_CASES: Array<{ name: string; item: () => object; message: string | (() => string) }> = [
    { name: "no trigger", item: () => ({ name: "x", key: "x" }), message: 'trigger is required: "metric", "streak", "api" or "achievement"' },
    { name: "no name", item: () => ({ name: "", key: "x", trigger: "api" }), message: "name is required" },
    {
      name: "a bad key",
      item: () => ({ name: "x", key: "no spaces", trigger: "api" }),
      message: expect.stringMatching(/^key "no spaces" is invalid/) as never,
    },
    {
      name: "a metric trigger without metric",
      item: () => ({ name: "x", key: "x", trigger: "metric", metricValue: 1 }),
      message: "metricId is required for a metric achievement",
    },
    {
      name: "a metric trigger without value",
      item: () => ({ name: "x", key: "x", trigger: "metric", metricId: words }),
      message: "metricValue is required for a metric achievement",
    },
    {
      name: "a streak trigger without length",
      item: () => ({ name: "x", key: "x", trigger: "streak" }),
      message: "streakLength is required for a streak achievement",
    },
    {
      name: "an empty composite",
      item: () => ({ name: "x", key: "x", trigger: "achievement" }),
      message: "achievementIds must list at least one prerequisite achievement for an achievement trigger",
    },
    {
      name: "event filters on a streak achievement",
      item: () => ({ name: "x", key: "x", trigger: "streak", streakLength: 3, eventAttributes: [{ key: "source", value: "web" }] }),
      message: "eventAttributes is only allowed for metric achievements, not streak achievements",
    },
    {
      name: "a metric field on an API achievement",
      item: () => ({ name: "x", key: "x", trigger: "api", metricId: words }),
      message: "metricId is only allowed for metric achievements, not api achievements",
    },
    {
      name: "an unknown metric",
      item: () => ({ name: "x", key: "x", trigger: "metric", metricId: "nope", metricValue: 1 }),
      message: 'metricId "nope" is not a metric of this tenant',
    },
    {
      name: "another tenant's metric",
      item: () => ({ name: "x", key: "x", trigger: "metric", metricId: otherMetric, metricValue: 1 }),
      message: () => `metricId "${otherMetric}" is not a metric of this tenant`,
    },
    {
      name: "an unknown user attribute",
      item: () => ({ name: "x", key: "x", trigger: "api", userAttributes: [{ key: "colour", value: "red" }] }),
      message: `userAttributes[0].key "colour" is not one of this tenant's user attributes`,
    },
    {
      name: "another tenant's user attribute",
      item: () => ({ name: "x", key: "x", trigger: "api", userAttributes: [{ key: "region", value: "eu" }] }),
      message: `userAttributes[0].key "region" is not one of this tenant's user attributes`,
    },
    {
      name: "an event attribute used as a user attribute",
      item: () => ({ name: "x", key: "x", trigger: "api", userAttributes: [{ key: "source", value: "web" }] }),
      message: `userAttributes[0].key "source" is not one of this tenant's user attributes`,
    },
    {
      name: "a user attribute used as an event attribute",
      item: () => ({ name: "x", key: "x", trigger: "metric", metricId: words, metricValue: 5, eventAttributes: [{ key: "plan", value: "pro" }] }),
      message: `eventAttributes[0].key "plan" is not one of this tenant's event attributes`,
    },
    {
      name: "a filter repeated",
      item: () => ({
        name: "x",
        key: "x",
        trigger: "api",
        userAttributes: [
          { key: "plan", value: "a" },
          { key: "plan", value: "b" },
        ],
      }),
      message: 'userAttributes[1].key "plan" is repeated: filter each attribute once',
    },
    {
      name: "an unknown prerequisite",
      item: () => ({ name: "x", key: "x", trigger: "achievement", achievementIds: ["nope"] }),
      message: 'achievementIds: "nope" is not an achievement of this tenant',
    },
    {
      name: "another tenant's prerequisite",
      item: () => ({ name: "x", key: "x", trigger: "achievement", achievementIds: [otherAchievement] }),
      message: () => `achievementIds: "${otherAchievement}" is not an achievement of this tenant`,
    },
    {
      name: "a badge that is not http",
      item: () => ({ name: "x", key: "x", trigger: "api", badgeUrl: "ftp://example.com/b.png" }),
      message: 'badgeUrl "ftp://example.com/b.png" must be an http or https URL',
    },
  ];

  it.each(ITEM_CASES)("REST: $name is an issue of its item and changes nothing", async ({ item, message }) => {
    const before = await snapshot();
    const response = await server.rest("POST", "/admin/v1/achievements", { body: [item()] });
    const expected = typeof message === "function" ? message() : message;
    expect(response).toEqual({
      status: 200,
      body: { created: [], issues: [{ index: 0, severity: "error", message: expected, level: "error", reason: expected }] },
    });
    expect(await snapshot()).toEqual(before);
  });

  const REQUEST_CASES: Array<{ name: string; body: unknown; error: string | RegExp }> = [
    { name: "a body that is not an array", body: { name: "x" }, error: "Invalid request: the body must be a JSON array" },
    { name: "an empty array", body: [], error: "Invalid request: achievements: must contain at least 1 item(s)" },
    {
      name: "an unknown trigger",
      body: [{ name: "x", key: "x", trigger: "sometimes" }],
      error: 'achievements[0].trigger: "sometimes" is not one of "metric", "streak", "api", "achievement"',
    },
    {
      name: "an unknown status",
      body: [{ name: "x", key: "x", trigger: "api", status: "paused" }],
      error: 'achievements[0].status: "paused" is not one of "active", "inactive", "locked"',
    },
    {
      name: "a metric value of zero",
      body: [{ name: "x", key: "x", trigger: "metric", metricId: "m", metricValue: 0 }],
      error: "Invalid request: achievements[0].metricValue: must be greater than 0",
    },
    {
      name: "a streak length of zero",
      body: [{ name: "x", key: "x", trigger: "streak", streakLength: 0 }],
      error: "Invalid request: achievements[0].streakLength: must be greater than or equal to 1",
    },
    {
      name: "a badge that is not a URI",
      body: [{ name: "x", key: "x", trigger: "api", badgeUrl: "not a url" }],
      error: "Invalid request: achievements[0].badgeUrl: must be a valid URI",
    },
    {
      name: "repeated prerequisites",
      body: [{ name: "x", key: "x", trigger: "achievement", achievementIds: ["a", "a"] }],
      error: /achievements\[0\]\.achievementIds: repeated value must contain unique items/,
    },
    { name: "an unknown field", body: [{ name: "x", key: "x", trigger: "api", colour: "red" }], error: /colour/ },
  ];

  it.each(REQUEST_CASES)("REST: $name is refused as a whole with 400", async ({ body, error }) => {
    const before = await snapshot();
    const response = await server.rest("POST", "/admin/v1/achievements", { body });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body)).toEqual(["error"]);
    if (typeof error === "string") expect(response.body.error).toBe(error);
    else expect(response.body.error).toMatch(error);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses prerequisites that would make a cycle, or the achievement itself", async () => {
    const [a] = (await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "A", key: "cycle-a", trigger: "api" }] })).body.created;
    const [b] = (await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "B", key: "cycle-b", trigger: "achievement", achievementIds: [a.id] }] }))
      .body.created;
    const [c] = (await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "C", key: "cycle-c", trigger: "achievement", achievementIds: [b.id] }] }))
      .body.created;
    const before = await snapshot();
    const response = await server.rest("PATCH", "/admin/v1/achievements", {
      body: [
        { id: a.id, trigger: "achievement", achievementIds: [c.id] },
        { id: b.id, achievementIds: [b.id] },
        { id: c.id, metricId: words },
        { id: c.id, badgeUrl: "ftp://example.com/x.png" },
      ],
    });
    expect(response).toEqual({
      status: 200,
      body: {
        updated: [],
        issues: [
          {
            id: a.id,
            severity: "error",
            message: `achievementIds would make a cycle of prerequisites: ${a.id} -> ${c.id} -> ${b.id} -> ${a.id}`,
            level: "error",
            reason: `achievementIds would make a cycle of prerequisites: ${a.id} -> ${c.id} -> ${b.id} -> ${a.id}`,
          },
          {
            id: b.id,
            severity: "error",
            message: "achievementIds must not include the achievement itself",
            level: "error",
            reason: "achievementIds must not include the achievement itself",
          },
          {
            id: c.id,
            severity: "error",
            message: "metricId is only allowed for metric achievements, not achievement achievements",
            level: "error",
            reason: "metricId is only allowed for metric achievements, not achievement achievements",
          },
          {
            id: c.id,
            severity: "error",
            message: 'badgeUrl "ftp://example.com/x.png" must be an http or https URL',
            level: "error",
            reason: 'badgeUrl "ftp://example.com/x.png" must be an http or https URL',
          },
        ],
      },
    });
    // A value of the wrong shape for a clearable field makes the whole request malformed.
    const malformed = await server.rest("PATCH", "/admin/v1/achievements", {
      body: [
        { id: a.id, name: "A2" },
        { id: b.id, userAttributes: { plan: "pro" } },
      ],
    });
    expect(malformed).toEqual({
      status: 400,
      body: {
        error:
          'Invalid request: achievements[1].userAttributes must be an array of {"attributeId": string, "attributeValue": string} or of {"key": string, "value": string} or null',
      },
    });
    expect(await snapshot()).toEqual(before);
  });
});

describe("achievements over Connect and gRPC", () => {
  it("create, read, update and delete with typed messages; validation errors carry their code", async () => {
    const connect = server.client("connect-json").achievements;
    const grpc = server.client("grpc").achievements;
    const { created, issues } = await connect.createAchievements({
      achievements: [
        { name: "Thirty days", key: "thirty", trigger: AchievementTrigger.STREAK, streakLength: 30, userAttributes: [{ key: "plan", value: "pro" }] },
      ],
    });
    expect(issues).toEqual([]);
    const [thirty] = created;
    expect(thirty).toMatchObject({ name: "Thirty days", trigger: AchievementTrigger.STREAK, status: AchievementStatus.INACTIVE, streakLength: 30 });
    expect(thirty!.metricId).toBeUndefined();

    const got = await grpc.getAchievement({ id: thirty!.id });
    expect(got.achievement).toEqual(thirty);
    const page = await grpc.listAchievements({ limit: 100 });
    expect(page.achievements.map((a) => a.key)).toContain("thirty");

    const { updated } = await server.client("connect-binary").achievements.updateAchievements({
      achievements: [{ id: thirty!.id, status: AchievementStatus.LOCKED, userAttributes: fromJson(ValueSchema, null) }],
    });
    expect(updated[0]).toMatchObject({ status: AchievementStatus.LOCKED, userAttributes: [] });
    expect((await server.rest("GET", `/admin/v1/achievements/${thirty!.id}`)).body).toMatchObject({ status: "locked", userAttributes: [] });

    for (const client of [connect, grpc]) {
      const error = await client
        .createAchievements({ achievements: [{ name: "x", key: "x", trigger: AchievementTrigger.STREAK, streakLength: 0 }] })
        .catch((e) => ConnectError.from(e));
      expect(error).toBeInstanceOf(ConnectError);
      expect((error as ConnectError).code).toBe(Code.InvalidArgument);
      expect((error as ConnectError).rawMessage).toMatch(/streakLength: must be greater than or equal to 1/);
    }
    const missing = await grpc.getAchievement({ id: "missing" }).catch((e) => ConnectError.from(e));
    expect((missing as ConnectError).code).toBe(Code.NotFound);

    expect((await grpc.deleteAchievements({ ids: [thirty!.id] })).deleted).toEqual([expect.objectContaining({ id: thirty!.id })]);
  });
});

describe("references", () => {
  it("refuse deleting a metric, attribute or prerequisite an achievement uses, naming the achievement", async () => {
    const [plan, source] = (await server.rest("GET", "/admin/v1/attributes")).body;
    const [metricBased] = (
      await server.rest("POST", "/admin/v1/achievements", {
        body: [
          {
            name: "Ref metric",
            key: "ref-metric",
            trigger: "metric",
            metricId: words,
            metricValue: 10,
            userAttributes: [{ key: "plan", value: "pro" }],
            eventAttributes: [{ key: "source", value: "web" }],
          },
        ],
      })
    ).body.created;
    const [composite] = (
      await server.rest("POST", "/admin/v1/achievements", {
        body: [{ name: "Ref composite", key: "ref-composite", trigger: "achievement", achievementIds: [metricBased.id] }],
      })
    ).body.created;
    const refused = (id: string, noun: string, name: string, referrerId: string) => ({
      deleted: [],
      issues: [
        {
          id,
          severity: "error",
          message: `Cannot delete: still used by ${noun} "${name}" (${referrerId}); remove that reference first`,
          level: "error",
          reason: `Cannot delete: still used by ${noun} "${name}" (${referrerId}); remove that reference first`,
        },
      ],
    });

    const metricDelete = await server.rest("DELETE", `/admin/v1/metrics?ids=${words}`);
    expect(metricDelete.body.deleted).toEqual([]);
    expect(metricDelete.body.issues[0].message).toMatch(/^Cannot delete: still used by achievement "/);
    expect((await server.rest("DELETE", `/admin/v1/achievements?ids=${metricBased.id}`)).body).toEqual(
      refused(metricBased.id, "achievement", "Ref composite", composite.id),
    );
    expect((await server.rest("DELETE", `/admin/v1/attributes?ids=${source.id}`)).body.issues[0].message).toMatch(
      /^Cannot delete: still used by achievement "/,
    );

    // Once the filters are gone, the attributes can go; once the composite is gone, its prerequisite can.
    const stillUsingPlan = (await server.rest("GET", "/admin/v1/achievements?limit=100")).body.filter((a: { userAttributes: Array<{ key: string }> }) =>
      a.userAttributes.some((f) => f.key === "plan"),
    );
    await server.rest("PATCH", "/admin/v1/achievements", { body: stillUsingPlan.map((a: { id: string }) => ({ id: a.id, userAttributes: null })) });
    expect((await server.rest("DELETE", `/admin/v1/attributes?ids=${plan.id}`)).body.deleted).toEqual([{ id: plan.id }]);
    await server.rest("DELETE", `/admin/v1/achievements?ids=${composite.id}`);
    expect((await server.rest("DELETE", `/admin/v1/achievements?ids=${metricBased.id}`)).body.deleted).toEqual([{ id: metricBased.id }]);
  });

  it("delete a prerequisite and what uses it in one request, whatever their order", async () => {
    const [pre] = (await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "Pre", key: "order-pre", trigger: "api" }] })).body.created;
    const [post] = (
      await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "Post", key: "order-post", trigger: "achievement", achievementIds: [pre.id] }] })
    ).body.created;
    const [kept] = (
      await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "Kept", key: "order-kept", trigger: "achievement", achievementIds: [pre.id] }] })
    ).body.created;
    // `kept` still uses `pre`, so this request can delete only `post`: the issue names `pre`, first as asked.
    const partly = await server.rest("DELETE", `/admin/v1/achievements?ids=${pre.id},${post.id},nope`);
    expect(partly.body.deleted).toEqual([{ id: post.id }]);
    expect(partly.body.issues.map((i: { id: string; message: string }) => [i.id, i.message])).toEqual([
      [pre.id, `Cannot delete: still used by achievement "Kept" (${kept.id}); remove that reference first`],
      ["nope", "Achievement not found by ID"],
    ]);
    const both = await server.rest("DELETE", `/admin/v1/achievements?ids=${pre.id},${kept.id}`);
    expect(both.body).toEqual({ deleted: [{ id: kept.id }, { id: pre.id }], issues: [] });
  });
});

describe("access", () => {
  it("refuses application keys: 403 on REST, PermissionDenied on Connect", async () => {
    const appKey = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "u1" }] })).body.created[0].key;
    const response = await server.rest("GET", "/admin/v1/achievements", { apiKey: appKey });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatch(/admin API key/);
    const error = await server
      .client("connect-json", { apiKey: appKey })
      .achievements.listAchievements({})
      .catch((e) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.PermissionDenied);
  });

  it("keeps tenants apart: nothing of one tenant is visible or changeable through another", async () => {
    const inOther = await server.rest("GET", "/admin/v1/achievements", { tenantId: "other" });
    expect(inOther.body.map((a: { id: string }) => a.id)).toEqual([otherAchievement]);
    expect((await server.rest("GET", "/admin/v1/achievements")).body.map((a: { id: string }) => a.id)).not.toContain(otherAchievement);
    expect((await server.rest("GET", `/admin/v1/achievements/${otherAchievement}`)).status).toBe(404);
    const before = await snapshot();
    expect((await server.rest("PATCH", "/admin/v1/achievements", { body: [{ id: otherAchievement, name: "Hijacked" }] })).body.issues).toEqual([
      { id: otherAchievement, severity: "error", message: "Achievement not found by ID", level: "error", reason: "Achievement not found by ID" },
    ]);
    expect((await server.rest("DELETE", `/admin/v1/achievements?ids=${otherAchievement}`)).body.deleted).toEqual([]);
    expect(await snapshot()).toEqual(before);
    // The same key may be used in two tenants.
    expect((await server.rest("POST", "/admin/v1/achievements", { body: [{ name: "Other", key: "other-api", trigger: "api" }] })).status).toBe(201);
  });
});
