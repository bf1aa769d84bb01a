import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { experimentBucket } from "../../src/features/account/domain/settings.js";
import { AggregationPeriod } from "../../src/gen/gamification/v1/settings_admin_service_pb.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { sha256 } from "../../src/engine/sha256.js";

/**
 * Account settings (GET/PATCH /admin/v1/settings), environments (GET /admin/v1/environments) and
 * the control group the experimentation settings define, over REST, Connect and gRPC.
 */
let server: TestServer;
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e) => ConnectError.from(e),
  );
const DEFAULTS = {
  branding: { appName: "", appUrl: "", brandColor: "#000000", font: "MODERN_SANS", logo: null, appIcon: null },
  experimentation: { controlRatio: 0, userActivationWindow: 14 },
  aggregationPeriod: "weekly",
};

beforeAll(async () => {
  server = await startTestServer({ environment: { key: "staging", name: "Staging" } });
  for (const customerId of ["acme", "globex", "game"]) {
    expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId, name: customerId }] })).status).toBe(201);
  }
}, 120_000);
afterAll(() => server?.close());

describe("account settings", () => {
  it("read as the defaults until set", async () => {
    const { status, body } = await server.rest("GET", "/admin/v1/settings", { tenantId: "acme" });
    expect([status, body]).toEqual([200, DEFAULTS]);
  });

  it("change only the fields sent, per tenant; null clears an image", async () => {
    const patch = await server.rest("PATCH", "/admin/v1/settings", {
      tenantId: "acme",
      body: { branding: { appName: "Acme", brandColor: "rgb(10, 20, 30)", logo: { url: "https://acme.example/logo.png" } }, aggregationPeriod: "monthly" },
    });
    const expected = {
      ...DEFAULTS,
      branding: { ...DEFAULTS.branding, appName: "Acme", brandColor: "rgb(10, 20, 30)", logo: { url: "https://acme.example/logo.png" } },
      aggregationPeriod: "monthly",
    };
    expect([patch.status, patch.body]).toEqual([200, expected]);
    const second = await server.rest("PATCH", "/admin/v1/settings", {
      tenantId: "acme",
      body: { branding: { font: "MONOSPACE", logo: null, appIcon: { url: "https://acme.example/icon.png" } } },
    });
    expect(second.body.branding).toEqual({ ...expected.branding, font: "MONOSPACE", logo: null, appIcon: { url: "https://acme.example/icon.png" } });
    expect(second.body.aggregationPeriod).toBe("monthly");
    expect((await server.rest("GET", "/admin/v1/settings", { tenantId: "acme" })).body).toEqual(second.body);
    // Another tenant and the default scope are untouched.
    expect((await server.rest("GET", "/admin/v1/settings", { tenantId: "globex" })).body).toEqual(DEFAULTS);
    expect((await server.rest("GET", "/admin/v1/settings")).body).toEqual(DEFAULTS);
  });

  it("refuse invalid input with a specific 400 and change nothing", async () => {
    const before = (await server.rest("GET", "/admin/v1/settings", { tenantId: "acme" })).body;
    const cases: Array<[unknown, RegExp]> = [
      [{ branding: { brandColor: "red" } }, /brandColor must be #RGB/],
      [{ branding: { brandColor: "rgb(256,0,0)" } }, /brandColor/],
      [{ branding: { font: "COMIC_SANS" } }, /font/],
      [{ branding: { logo: { url: "ftp://acme.example/logo.png" } } }, /logo\.url must be an http or https URL/],
      [{ branding: { logo: "https://acme.example/logo.png" } }, /branding\.logo must be an object/],
      [{ branding: { appUrl: "not a url" } }, /appUrl/],
      [{ experimentation: { controlRatio: 101 } }, /controlRatio: must be greater than or equal to 0 and less than or equal to 100/],
      [{ experimentation: { userActivationWindow: 0 } }, /userActivationWindow/],
      [{ aggregationPeriod: "daily" }, /aggregation/i],
      [{ colour: "red" }, /colour/],
    ];
    for (const [body, message] of cases) {
      const { status, body: answer } = await server.rest("PATCH", "/admin/v1/settings", { tenantId: "acme", body });
      expect([JSON.stringify(body), status]).toEqual([JSON.stringify(body), 400]);
      expect(answer.error).toMatch(message);
    }
    expect((await server.rest("GET", "/admin/v1/settings", { tenantId: "acme" })).body).toEqual(before);
    expect((await server.rest("PATCH", "/admin/v1/settings", { tenantId: "nobody", body: {} })).status).toBe(404);
    expect((await server.rest("GET", "/admin/v1/settings", { tenantId: "globex", apiKey: "adm_nope.x" })).status).toBe(401);
  });

  it("work the same on Connect and gRPC", async () => {
    for (const protocol of ["connect-json", "connect-binary", "grpc"] as const) {
      const settings = server.client(protocol, { tenantId: "globex" }).settings;
      const ratio = { "connect-json": 5, "connect-binary": 6, grpc: 7 }[protocol];
      const updated = await settings.updateSettings({ experimentation: { controlRatio: ratio }, aggregationPeriod: AggregationPeriod.MONTHLY });
      expect([
        updated.settings?.experimentation?.controlRatio,
        updated.settings?.experimentation?.userActivationWindow,
        updated.settings?.aggregationPeriod,
      ]).toEqual([ratio, 14, AggregationPeriod.MONTHLY]);
      expect((await settings.getSettings({})).settings?.experimentation?.controlRatio).toBe(ratio);
      expect((await errorOf(settings.updateSettings({ branding: { brandColor: "#12345" } })))?.code).toBe(Code.InvalidArgument);
      expect((await errorOf(settings.updateSettings({ experimentation: { controlRatio: -1 } })))?.code).toBe(Code.InvalidArgument);
    }
    expect((await server.rest("GET", "/admin/v1/settings", { tenantId: "globex" })).body.experimentation.controlRatio).toBe(7);
  });
});

describe("deleting a tenant", () => {
  it("deletes its settings", async () => {
    const created = await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "short-lived", name: "Short-lived" }] });
    const id = created.body.created[0].id as string;
    expect((await server.rest("PATCH", "/admin/v1/settings", { tenantId: "short-lived", body: { branding: { appName: "Gone soon" } } })).status).toBe(200);
    const { accountSettings } = server.service.context.database.collections;
    expect((await accountSettings.findOne({ _id: id }))?.branding.appName).toBe("Gone soon");
    expect((await server.rest("DELETE", `/admin/v1/tenants?ids=${id}`)).status).toBe(200);
    expect(await accountSettings.findOne({ _id: id })).toBeNull();
  });
});

describe("environments", () => {
  it("list this deployment, named by its configuration, on every protocol", async () => {
    const rest = await server.rest("GET", "/admin/v1/environments");
    expect([rest.status, rest.body]).toEqual([200, [{ name: "Staging", key: "staging", priority: 1 }]]);
    // An account-level read: the Tenant-ID header does not apply.
    expect((await server.rest("GET", "/admin/v1/environments", { tenantId: "acme" })).body).toEqual(rest.body);
    for (const protocol of ["connect-json", "grpc"] as const) {
      const { environments } = await server.client(protocol).settings.listEnvironments({});
      expect(environments.map((e) => [e.key, e.name, e.priority])).toEqual([["staging", "Staging", 1]]);
    }
  });
});

describe("the control group", () => {
  const tenantId = "game";
  const event = (user: string, value = 100) => server.rest("POST", "/api/metrics/words/event", { tenantId, body: { user: { id: user }, value } });
  const inControl = (ratio: number) => (id: string) => experimentBucket(id, sha256) < ratio;
  const users = Array.from({ length: 40 }, (_, i) => `player-${i}`);

  beforeAll(async () => {
    const admin = async (method: string, path: string, body: unknown) => {
      const response = await server.rest(method, path, { tenantId, body });
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
      return response.body;
    };
    const [words] = (await admin("POST", "/admin/v1/metrics", [{ key: "words", name: "Words" }])).created;
    await admin("POST", "/admin/v1/achievements", [
      { name: "First words", key: "first", trigger: "metric", metricId: words.id, metricValue: 1, status: "active" },
      { name: "Onboarded", key: "onboarded", trigger: "api", status: "active" },
    ]);
    await admin("PUT", "/admin/v1/streaks/settings", { frequency: "daily", metrics: [{ metricId: words.id, threshold: 1 }], evaluationMode: "all" });
    const [xp] = (await admin("POST", "/admin/v1/points", [{ key: "xp", name: "XP" }])).created;
    await admin("POST", `/admin/v1/points/${xp.id}/triggers`, [
      { type: "metric", points: 10, metricId: words.id, metricThreshold: 100, status: "active" },
      { type: "user_creation", points: 5, status: "active" },
    ]);
    await admin("POST", "/admin/v1/leaderboards", [
      { key: "board", name: "Board", rankBy: "metric", metricId: words.id, status: "active", start: "2020-01-01" },
    ]);
  });

  it("with a ratio of 0 (the default) nobody is in control", async () => {
    const answer = await event("early");
    expect([answer.status, answer.body.achievements.length, answer.body.points.xp.added, answer.body.leaderboards.board.rank]).toEqual([201, 1, 15, 1]);
    expect((await server.rest("GET", "/v1/users/early", { tenantId })).body.control).toBe(false);
  });

  it("puts new users whose ID hash falls below the ratio in control: they earn nothing, and reads say so", async () => {
    await server.rest("PATCH", "/admin/v1/settings", { tenantId, body: { experimentation: { controlRatio: 50 } } });
    const expected = users.filter(inControl(50));
    expect(expected.length).toBeGreaterThan(5); // the hash spreads IDs over both groups
    expect(expected.length).toBeLessThan(35);
    for (const user of users) {
      const { status, body } = await event(user);
      expect(status).toBe(201);
      expect(body.total).toBe(100); // the metric is counted either way
      if (expected.includes(user)) {
        // currentStreak: a zero-length streak, the object the published clients require.
        expect([user, body.achievements, body.points, body.leaderboards, body.currentStreak]).toEqual([
          user,
          [],
          {},
          {},
          expect.objectContaining({ length: 0, extended: false }),
        ]);
      } else {
        expect([user, body.achievements.length, body.points.xp.added, body.currentStreak.length]).toEqual([user, 1, 15, 1]);
      }
      expect((await server.rest("GET", `/v1/users/${user}`, { tenantId })).body.control).toBe(expected.includes(user));
    }
    const controlUser = expected[0]!;
    // Reads: no points, no achievements, no rank; the leaderboard ranks only the others.
    expect((await server.rest("GET", `/v1/users/${controlUser}/points/xp`, { tenantId })).body).toMatchObject({ total: 0, awards: [] });
    expect((await server.rest("GET", `/v1/users/${controlUser}/achievements`, { tenantId })).body).toEqual([]);
    expect((await server.rest("GET", `/v1/users/${controlUser}/leaderboards/board`, { tenantId })).body).toMatchObject({ rank: null, value: null });
    const ranked = (await server.rest("GET", "/v1/leaderboards/board?limit=100", { tenantId })).body.rankings.map((r: { userId: string }) => r.userId);
    expect(ranked.sort()).toEqual(["early", ...users.filter((u) => !expected.includes(u))].sort());
    // An API achievement is refused, and a second event earns nothing either.
    const complete = await server.rest("POST", "/v1/achievements/onboarded/complete", { tenantId, body: { user: { id: controlUser } } });
    expect([complete.status, complete.body.error]).toEqual([422, expect.stringMatching(/control group/)]);
    expect((await event(controlUser, 500)).body).toMatchObject({ total: 600, achievements: [], points: {}, leaderboards: {} });
    // Streak admin refuses a control user (no streak to freeze, pause or restore), per item.
    const freezes = await server.rest("POST", "/admin/v1/streaks/freezes", { tenantId, body: { freezes: [{ userId: controlUser }] } });
    expect(freezes.body.issues).toEqual([expect.objectContaining({ userId: controlUser, severity: "error", message: expect.stringMatching(/control group/) })]);
    // So does a boost for them alone (it could never apply, yet would be announced).
    const xp = (await server.rest("GET", "/admin/v1/points", { tenantId })).body.find((p: { key: string }) => p.key === "xp").id;
    const boost = await server.rest("POST", `/admin/v1/points/${xp}/boosts`, {
      tenantId,
      body: [{ name: "Just you", start: "2026-01-01", multiplier: 2, userId: controlUser }],
    });
    expect(boost.body.issues).toEqual([expect.objectContaining({ severity: "error", message: expect.stringMatching(/control group/) })]);
    // Nor does a global boost apply to them: their boosts read lists none, an earner's lists it.
    const global = await server.rest("POST", `/admin/v1/points/${xp}/boosts`, { tenantId, body: [{ name: "Everyone", start: "2026-01-01", multiplier: 2 }] });
    expect(global.body.issues).toEqual([]);
    expect((await server.rest("GET", `/v1/users/${controlUser}/points/xp/boosts`, { tenantId })).body).toEqual([]);
    expect((await server.rest("GET", "/v1/users/early/points/xp/boosts", { tenantId })).body).toEqual([expect.objectContaining({ name: "Everyone" })]);
    const removed = await server.rest("DELETE", `/admin/v1/points/${xp}/boosts?ids=${global.body.created[0].id}`, { tenantId });
    expect(removed.body.issues).toEqual([]);
    // Connect shows the same group.
    const viaConnect = await server.client("connect-json", { tenantId }).application.getUser({ id: controlUser });
    expect(viaConnect.user?.control).toBe(true);
  });

  it("keeps existing users in their group when the ratio changes; new users follow the new ratio", async () => {
    await server.rest("PATCH", "/admin/v1/settings", { tenantId, body: { experimentation: { controlRatio: 0 } } });
    const controlUser = users.find(inControl(50))!;
    expect((await event(controlUser)).body.points).toEqual({});
    expect((await server.rest("GET", `/v1/users/${controlUser}`, { tenantId })).body.control).toBe(true);
    await server.rest("PATCH", "/admin/v1/settings", { tenantId, body: { experimentation: { controlRatio: 100 } } });
    const earner = users.find((u) => !inControl(50)(u))!;
    expect((await event(earner)).body.points.xp.added).toBe(10);
    const created = await server.rest("POST", "/v1/users", { tenantId, body: { id: "newcomer" } });
    expect([created.status, created.body.control]).toEqual([201, true]);
    expect((await server.rest("GET", "/v1/users/newcomer/points/xp", { tenantId })).body.total).toBe(0); // no user-creation points
  });

  it("shows a control user's streak as zero-length, of the tenant's frequency, without freezes: in the event, its replay and the streak read", async () => {
    const words = (await server.rest("GET", "/admin/v1/metrics", { tenantId })).body.find((m: { key: string }) => m.key === "words").id;
    const weekly = { frequency: "weekly", metrics: [{ metricId: words, threshold: 1 }], freezes: { initialGrant: 1, maxFreezes: 3, autoEarn: null } };
    expect((await server.rest("PUT", "/admin/v1/streaks/settings", { tenantId, body: weekly })).status).toBeLessThan(300);
    const controlUser = users.find(inControl(50))!;
    const keyed = () =>
      server.rest("POST", "/api/metrics/words/event", { tenantId, body: { user: { id: controlUser }, value: 1, idempotencyKey: "weekly-1" } });
    const noStreak = { length: 0, frequency: "weekly", started: null, periodStart: null, periodEnd: null, expires: null };
    for (const [status, answer] of [
      [201, await keyed()],
      [202, await keyed()],
    ] as const) {
      expect(answer.status).toBe(status);
      expect(answer.body.currentStreak).toEqual({ ...noStreak, extended: false });
    }
    const read = await server.rest("GET", `/v1/users/${controlUser}/streak`, { tenantId });
    expect(read.body).toEqual({ ...noStreak, extended: null, streakHistory: [], pauses: [] });
  });
});
