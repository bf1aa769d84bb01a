import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StreakEvaluationMode, StreakFrequency } from "../../sdk/src/index.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;
let words: string;
let lessons: string;
let otherMetric: string;

const PATH = "/admin/v1/streaks/settings";
const NOT_SET = "Streak settings have not been set for this tenant; set them with PUT /admin/v1/streaks/settings (UpdateStreakSettings)";

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "other", name: "Other" }] });
  [words, lessons] = (
    await server.rest("POST", "/admin/v1/metrics", {
      body: [
        { key: "words", name: "Words" },
        { key: "lessons", name: "Lessons" },
      ],
    })
  ).body.created.map((m: { id: string }) => m.id);
  otherMetric = (await server.rest("POST", "/admin/v1/metrics", { tenantId: "other", body: [{ key: "steps", name: "Steps" }] })).body.created[0].id;
});
afterAll(() => server.close());

/**
 * The answer to settings in our form: ours, with the published clients' fields beside them (metric
 * keys, `startCount`/`maxCount`/`autoEarnInterval`/`autoEarnAmount`, `customizationEnabled`,
 * `daysOff`).
 */
type OurSettings = {
  frequency: string;
  evaluationMode: string;
  metrics: Array<{ metricId: string; threshold: number }>;
  freezes: { initialGrant: number; maxFreezes: number; autoEarn: { amount: number; intervalDays: number } | null } | null;
};
function answered(s: OurSettings, extra: { customizationEnabled?: boolean; daysOff?: number[] } = {}) {
  const keys = new Map([
    [words, "words"],
    [lessons, "lessons"],
    [otherMetric, "steps"],
  ]);
  return {
    ...s,
    metrics: s.metrics.map((m) => ({ ...m, key: keys.get(m.metricId) })),
    freezes: s.freezes && {
      ...s.freezes,
      startCount: s.freezes.initialGrant,
      maxCount: s.freezes.maxFreezes,
      autoEarnInterval: s.freezes.autoEarn?.intervalDays ?? null,
      autoEarnAmount: s.freezes.autoEarn?.amount ?? null,
    },
    customizationEnabled: extra.customizationEnabled ?? false,
    daysOff: extra.daysOff ?? [],
  };
}

const snapshot = () => server.service.context.database.collections.streakSettings.find({}).sort({ _id: 1 }).toArray();

describe("streak settings over REST", () => {
  it("are not found until set, created with 201, replaced with 200, in exact JSON shapes", async () => {
    expect(await server.rest("GET", PATH)).toEqual({ status: 404, body: { error: NOT_SET } });

    const first = await server.rest("PUT", PATH, { body: { frequency: "daily", metrics: [{ metricId: words, threshold: 500 }] } });
    expect(first).toEqual({
      status: 201,
      body: answered({ frequency: "daily", metrics: [{ metricId: words, threshold: 500 }], evaluationMode: "all", freezes: null }),
    });
    expect(await server.rest("GET", PATH)).toEqual({ status: 200, body: first.body });

    const settings = {
      frequency: "weekly",
      evaluationMode: "any",
      metrics: [
        { metricId: words, threshold: 2500 },
        { metricId: lessons, threshold: 0.5 },
      ],
      freezes: { initialGrant: 1, autoEarn: { amount: 1, intervalDays: 7 }, maxFreezes: 3 },
    };
    const replaced = await server.rest("PUT", PATH, { body: settings });
    expect(replaced).toEqual({ status: 200, body: answered(settings) });
    expect((await server.rest("GET", PATH)).body).toEqual(answered(settings));
    expect(await server.service.context.database.collections.streakSettings.countDocuments({})).toBe(1);

    const noEarning = await server.rest("PUT", PATH, { body: { ...settings, freezes: { initialGrant: 0, maxFreezes: 5 } } });
    expect(noEarning.body.freezes).toEqual({
      initialGrant: 0,
      autoEarn: null,
      maxFreezes: 5,
      startCount: 0,
      maxCount: 5,
      autoEarnInterval: null,
      autoEarnAmount: null,
    });
  });

  const CASES: Array<{ name: string; body: () => unknown; error: () => string }> = [
    {
      name: "no frequency",
      body: () => ({ metrics: [{ metricId: words, threshold: 1 }] }),
      error: () => 'frequency is required: "daily", "weekly" or "monthly"',
    },
    {
      name: "no metrics",
      body: () => ({ frequency: "daily", metrics: [] }),
      error: () => "Invalid request: settings.metrics: must contain at least 1 item(s)",
    },
    {
      name: "a zero threshold",
      body: () => ({ frequency: "daily", metrics: [{ metricId: words, threshold: 0 }] }),
      error: () => "Invalid request: settings.metrics[0].threshold: must be greater than 0",
    },
    {
      name: "a metric listed twice",
      body: () => ({
        frequency: "daily",
        metrics: [
          { metricId: words, threshold: 1 },
          { metricId: words, threshold: 2 },
        ],
      }),
      error: () => `metrics[1].metricId "${words}" is listed more than once: give each metric one threshold`,
    },
    {
      name: "an unknown metric",
      body: () => ({ frequency: "daily", metrics: [{ metricId: "nope", threshold: 1 }] }),
      error: () => 'metrics[0].metricId "nope" is not a metric of this tenant',
    },
    {
      name: "another tenant's metric",
      body: () => ({
        frequency: "daily",
        metrics: [
          { metricId: words, threshold: 1 },
          { metricId: otherMetric, threshold: 1 },
        ],
      }),
      error: () => `metrics[1].metricId "${otherMetric}" is not a metric of this tenant`,
    },
    {
      name: "more initial freezes than the maximum",
      body: () => ({ frequency: "daily", metrics: [{ metricId: words, threshold: 1 }], freezes: { initialGrant: 4, maxFreezes: 3 } }),
      error: () => "freezes.initialGrant (4) must not exceed freezes.maxFreezes (3)",
    },
    {
      name: "more than 100 freezes",
      body: () => ({ frequency: "daily", metrics: [{ metricId: words, threshold: 1 }], freezes: { initialGrant: 0, maxFreezes: 101 } }),
      error: () => "Invalid request: settings.freezes.maxFreezes: must be greater than or equal to 0 and less than or equal to 100",
    },
    {
      name: "earning no freezes",
      body: () => ({
        frequency: "daily",
        metrics: [{ metricId: words, threshold: 1 }],
        freezes: { initialGrant: 0, maxFreezes: 1, autoEarn: { amount: 0, intervalDays: 1 } },
      }),
      error: () => "Invalid request: settings.freezes.autoEarn.amount: must be greater than or equal to 1",
    },
    {
      name: "an unknown mode",
      body: () => ({ frequency: "daily", evaluationMode: "and", metrics: [] }),
      error: () => 'settings.evaluationMode: "and" is not one of "all", "any"',
    },
    {
      name: "an unknown frequency",
      body: () => ({ frequency: "hourly", metrics: [] }),
      error: () => 'settings.frequency: "hourly" is not one of "daily", "weekly", "monthly"',
    },
  ];

  it.each(CASES)("REST: $name is refused with 400 and changes nothing", async ({ body, error }) => {
    const before = await snapshot();
    expect(await server.rest("PUT", PATH, { body: body() })).toEqual({ status: 400, body: { error: error() } });
    expect(await snapshot()).toEqual(before);
  });

  it("REST: only GET and PUT are routed", async () => {
    expect((await server.rest("POST", PATH, { body: {} })).status).toBe(405);
  });
});

describe("streak settings over Connect and gRPC", () => {
  it("are set and read with typed messages; errors carry their code", async () => {
    const connect = server.client("connect-json").streaks;
    const grpc = server.client("grpc").streaks;
    const { settings } = await connect.updateStreakSettings({
      settings: { frequency: StreakFrequency.MONTHLY, metrics: [{ metricId: lessons, threshold: 3 }], freezes: { initialGrant: 2, maxFreezes: 2 } },
    });
    expect(settings).toMatchObject({
      frequency: StreakFrequency.MONTHLY,
      evaluationMode: StreakEvaluationMode.ALL,
      freezes: { initialGrant: 2, maxFreezes: 2 },
    });
    expect(settings!.freezes!.autoEarn).toBeUndefined();
    expect((await grpc.getStreakSettings({})).settings).toEqual(settings);
    expect((await server.rest("GET", PATH)).body).toEqual(
      answered({
        frequency: "monthly",
        metrics: [{ metricId: lessons, threshold: 3 }],
        evaluationMode: "all",
        freezes: { initialGrant: 2, autoEarn: null, maxFreezes: 2 },
      }),
    );

    const missing = await grpc.updateStreakSettings({}).catch((e) => ConnectError.from(e));
    expect((missing as ConnectError).code).toBe(Code.InvalidArgument);
    expect((missing as ConnectError).rawMessage).toBe("Invalid request: settings: value is required");
    const unknown = await connect
      .updateStreakSettings({ settings: { frequency: StreakFrequency.DAILY, metrics: [{ metricId: otherMetric, threshold: 1 }] } })
      .catch((e) => ConnectError.from(e));
    expect((unknown as ConnectError).code).toBe(Code.InvalidArgument);
    expect((unknown as ConnectError).rawMessage).toBe(`metrics[0].metricId "${otherMetric}" is not a metric of this tenant`);
    const notSet = await server
      .client("grpc", { tenantId: "other" })
      .streaks.getStreakSettings({})
      .catch((e) => ConnectError.from(e));
    expect((notSet as ConnectError).code).toBe(Code.NotFound);
  });
});

describe("references, access and tenants", () => {
  it("refuse deleting a metric the streak settings use", async () => {
    await server.rest("PUT", PATH, { body: { frequency: "daily", metrics: [{ metricId: lessons, threshold: 1 }] } });
    const [doc] = await server.service.context.database.collections.streakSettings.find({ tenantId: "default" }).toArray();
    expect((await server.rest("DELETE", `/admin/v1/metrics?ids=${lessons}`)).body).toEqual({
      deleted: [],
      issues: [
        {
          id: lessons,
          severity: "error",
          message: `Cannot delete: still used by streak settings "Streak settings" (${String(doc!._id)}); remove that reference first`,
          level: "error",
          reason: `Cannot delete: still used by streak settings "Streak settings" (${String(doc!._id)}); remove that reference first`,
        },
      ],
    });
    await server.rest("PUT", PATH, { body: { frequency: "daily", metrics: [{ metricId: words, threshold: 1 }] } });
    expect((await server.rest("DELETE", `/admin/v1/metrics?ids=${lessons}`)).body.deleted).toEqual([{ id: lessons }]);
  });

  it("refuses application keys", async () => {
    const appKey = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "u1" }] })).body.created[0].key;
    expect((await server.rest("GET", PATH, { apiKey: appKey })).status).toBe(403);
    const error = await server
      .client("connect-json", { apiKey: appKey })
      .streaks.getStreakSettings({})
      .catch((e) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.PermissionDenied);
  });

  it("keeps one document per tenant, each seeing only its own", async () => {
    expect(await server.rest("GET", PATH, { tenantId: "other" })).toEqual({ status: 404, body: { error: NOT_SET } });
    const theirs = await server.rest("PUT", PATH, { tenantId: "other", body: { frequency: "weekly", metrics: [{ metricId: otherMetric, threshold: 10 }] } });
    expect(theirs.status).toBe(201);
    expect((await server.rest("GET", PATH, { tenantId: "other" })).body.metrics).toEqual([{ metricId: otherMetric, key: "steps", threshold: 10 }]);
    expect((await server.rest("GET", PATH)).body.metrics).toEqual([{ metricId: words, key: "words", threshold: 1 }]);
    expect(await server.service.context.database.collections.streakSettings.countDocuments({})).toBe(2);
  });
});
