import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJsonLines, venvPython } from "../helpers/programs.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

/**
 * The reference's own published Python client, `trophy` 1.27.0 (pinned in
 * scripts/python-client-venv.sh, installed from PyPI into a venv under .tmp/), pointed at this
 * server and used as a customer would. test/published-python-client/run.py calls every public
 * method of the sync client once with realistic data (the client parses each answer with its own
 * pydantic models and raises when one does not fit) and prints one JSON line per call; this test
 * checks the key values. The run prints "methods that work: N of M".
 *
 * Methods that do not work yet are listed in NOT_YET_WORKING with the reason; the test fails when any
 * other method fails, and when a listed one starts working (so the list only ever shrinks).
 */

const TENANT = "python-client";
const NOT_YET_WORKING: Record<string, string> = {};

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
type Outcome = { method: string; error: string | null; result: any };

let server: TestServer;
let outcomes: Outcome[] = [];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function runClient(python: string): Promise<Outcome[]> {
  return runJsonLines(python, [join(root, "test/published-python-client/run.py"), server.baseUrl, ADMIN_KEY, TENANT], {
    env: { ...process.env, PYTHONUNBUFFERED: "1", PYTHONDONTWRITEBYTECODE: "1" },
  });
}

beforeAll(async () => {
  const python = venvPython("scripts/python-client-venv.sh");
  server = await startTestServer();
  const admin = async (method: string, path: string, body: unknown) => {
    const response = await server.rest(method, path, { body, tenantId: TENANT });
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
    return response.body;
  };
  expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: TENANT, name: "Python client" }] })).status).toBeLessThan(300);
  // Streaks on "words" through the PUT form: the client's PATCH form is built in parallel (issue 15).
  const [words] = (await admin("POST", "/admin/v1/metrics", [{ key: "words", name: "Words written" }])).created;
  await admin("PUT", "/admin/v1/streaks/settings", {
    frequency: "daily",
    metrics: [{ metricId: words.id, threshold: 1 }],
    evaluationMode: "all",
    freezes: { initialGrant: 1, maxFreezes: 3 },
  });
  outcomes = await runClient(python);
  // Kept (git-ignored) for a look at what the client parsed.
  mkdirSync(join(root, ".tmp"), { recursive: true });
  writeFileSync(join(root, ".tmp/python-client-outcomes.jsonl"), outcomes.map((o) => JSON.stringify(o)).join("\n") + "\n");
}, 300_000);

afterAll(async () => {
  await server?.close();
});

describe("the published Python client (trophy 1.27.0)", () => {
  it("scopes its calls by its tenant_id setting (the Tenant-ID header)", async () => {
    expect((await server.rest("GET", "/v1/users/ana", { tenantId: TENANT })).body.name).toBe("Ana");
    expect((await server.rest("GET", "/v1/users/ana")).status).toBe(404); // nothing in the default scope
  });

  it("every method works against this server", () => {
    const checked: Array<{ method: string; error: string | null }> = [];
    const [from, to] = [day(-7), day(0)];
    const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);
    const keys = (list: Array<{ key: string }>) => list.map((x) => x.key);
    const noIssues = (r: any) => expect(r.issues).toEqual([]);
    /** The answer of a method that worked, for checks that compare with an earlier one. */
    const answer = (method: string) => outcomes.find((o) => o.method === method)?.result;
    const checks: Record<string, (r: any) => void> = {
      // Admin API: configuration.
      "admin.metrics.create": (r) => {
        noIssues(r);
        expect(r.created.map((m: any) => [m.key, m.unitType, m.units])).toEqual([
          ["revenue", "currency", "USD"],
          ["scratch", "number", ""],
        ]);
      },
      "admin.metrics.list": (r) => expect(keys(r).sort()).toEqual(["revenue", "scratch", "words"]),
      "admin.metrics.get": (r) => expect([r.key, r.name]).toEqual(["words", "Words written"]),
      "admin.metrics.update": (r) => {
        noIssues(r);
        expect(r.updated.map((m: any) => [m.name, m.units])).toEqual([["Revenue (EUR)", "EUR"]]);
      },
      "admin.attributes.create": (r) => {
        noIssues(r);
        expect(r.created.map((a: any) => [a.key, a.type])).toEqual([
          ["plan", "user"],
          ["device", "event"],
          ["scratch", "user"],
        ]);
      },
      "admin.attributes.list": (r) => expect(keys(r).sort()).toEqual(["device", "plan", "scratch"]),
      "admin.attributes.get": (r) => expect([r.key, r.name]).toEqual(["plan", "Plan"]),
      "admin.attributes.update": (r) => expect(r.updated.map((a: any) => [a.key, a.name])).toEqual([["plan", "Subscription plan"]]),
      "admin.achievements.create": (r) => {
        noIssues(r);
        expect(r.created.map((a: any) => [a.key, a.trigger, a.status])).toEqual([
          ["words-500", "metric", "active"],
          ["finish-onboarding", "api", "active"],
          ["scratch", "api", "inactive"],
        ]);
        expect(r.created[0].metricValue).toBe(500);
        expect([r.created[0].userAttributes, r.created[0].eventAttributes]).toEqual([
          [expect.objectContaining({ attributeId: answer("admin.attributes.get").id, attributeValue: "pro" })],
          [expect.objectContaining({ attributeId: answer("admin.attributes.create").created[1].id, attributeValue: "ios" })],
        ]);
      },
      "admin.achievements.list": (r) => expect(keys(r).sort()).toEqual(["finish-onboarding", "scratch", "words-500"]),
      "admin.achievements.get": (r) => expect([r.key, r.metricId]).toEqual(["words-500", answer("admin.metrics.get").id]),
      "admin.achievements.update": (r) => expect(r.updated.map((a: any) => [a.key, a.description])).toEqual([["words-500", "Write 500 words"]]),
      "admin.points.systems.create": (r) => {
        noIssues(r);
        expect(keys(r.created)).toEqual(["xp", "scratch"]);
        expect(r.created[1].maxPoints).toBe(1000);
        expect(keys(r.created[0].levels)).toEqual(["bronze"]);
      },
      "admin.points.systems.list": (r) => expect(keys(r).sort()).toEqual(["scratch", "xp"]),
      "admin.points.systems.get": (r) => expect([r.key, r.name]).toEqual(["xp", "XP"]),
      "admin.points.systems.update": (r) => expect(r.updated.map((s: any) => s.description)).toEqual(["Points for writing"]),
      "admin.points.triggers.create": (r) => {
        noIssues(r);
        expect(r.created.map((t: any) => [t.type, t.points, t.status])).toEqual([
          ["metric", 10, "active"],
          ["achievement", 5, "inactive"],
        ]);
        expect(r.created[0].userAttributes).toEqual([{ attributeId: answer("admin.attributes.get").id, attributeValue: "pro" }]);
      },
      "admin.points.triggers.list": (r) => expect(r.map((t: any) => t.type).sort()).toEqual(["achievement", "metric"]),
      "admin.points.triggers.get": (r) => expect([r.type, r.metricThreshold]).toEqual(["metric", 100]),
      "admin.points.triggers.update": (r) => expect(r.updated.map((t: any) => t.points)).toEqual([7]),
      "admin.points.levels.create": (r) => {
        noIssues(r);
        expect(r.created.map((l: any) => [l.key, l.points])).toEqual([
          ["silver", 50],
          ["gold", 5000],
        ]);
      },
      "admin.points.levels.list": (r) => expect(keys(r)).toEqual(["bronze", "silver", "gold"]),
      "admin.points.levels.get": (r) => expect([r.key, r.points]).toEqual(["silver", 50]),
      "admin.points.levels.update": (r) => expect(r.updated.map((l: any) => [l.key, l.description])).toEqual([["gold", "The very best"]]),
      "admin.leaderboards.create": (r) => {
        noIssues(r);
        expect(r.created.map((l: any) => [l.key, l.rankBy, l.status])).toEqual([
          ["words-board", "metric", "active"],
          ["scratch-board", "points", "inactive"],
        ]);
        expect(r.created[1].userAttributes).toEqual([{ attributeId: answer("admin.attributes.get").id, attributeValue: "pro" }]);
      },
      "admin.leaderboards.list": (r) => expect(keys(r).sort()).toEqual(["scratch-board", "words-board"]),
      "admin.leaderboards.get": (r) =>
        expect([r.key, r.start, r.runUnit, r.runInterval, r.maxParticipants, r.userAttributes]).toEqual(["words-board", day(-1), "day", 7, 100, []]),
      "admin.leaderboards.update": (r) => expect(r.updated.map((l: any) => l.description)).toEqual(["Ranked by words written"]),

      // Application API.
      "metrics.event": (r) => {
        expect(r.total).toBe(750);
        expect(keys(r.achievements)).toEqual(["words-500"]);
        expect(r.currentStreak.length).toBe(1);
        expect([r.points.xp.added, r.points.xp.level.key]).toEqual([70, "silver"]);
        expect(r.leaderboards["words-board"]).toMatchObject({ rank: 1, userAttributes: [] });
      },
      "users.create": (r) =>
        expect([r.id, r.tz, r.signUpDate, r.deviceTokens, r.attributes]).toEqual(["bo", "America/New_York", day(-7), ["bo-phone"], { plan: "free" }]),
      "users.get": (r) => expect([r.id, r.email, r.tz, r.attributes]).toEqual(["ana", "ana@example.com", "Europe/London", { plan: "pro" }]),
      "users.identify": (r) => expect([r.id, r.email, r.signUpDate]).toEqual(["cy", "cy@example.com", "2024-02-29"]),
      "users.update": (r) => expect([r.name, r.subscribeToEmails]).toEqual(["Ana", false]),
      "achievements.complete": (r) => expect(r.achievement.key).toBe("finish-onboarding"),
      "admin.points.boosts.create": (r) => {
        noIssues(r);
        expect(r.created.map((b: any) => [b.name, b.userId, b.multiplier, b.status])).toEqual([
          ["Welcome week", "bo", 2, "active"],
          ["Scratch", "bo", 3, "scheduled"],
        ]);
      },
      "admin.points.boosts.list": (r) => expect(r.map((b: any) => b.name).sort()).toEqual(["Scratch", "Welcome week"]),
      "admin.points.boosts.get": (r) => expect([r.name, r.end]).toEqual(["Welcome week", day(6)]),
      "admin.points.boosts.update": (r) => expect(r.updated.map((b: any) => [b.name, b.end])).toEqual([["Welcome fortnight", day(13)]]),
      "achievements.all_": (r) => {
        // Active ones open to a free-plan user: Wordsmith is for the pro plan.
        expect(keys(r)).toEqual(["finish-onboarding"]);
        expect(r[0].completions).toBe(1);
      },
      "users.all_metrics": (r) =>
        expect(r.map((m: any) => [m.key, m.current]).sort()).toEqual([
          ["revenue", 0],
          ["scratch", 0],
          ["words", 750],
        ]),
      "users.single_metric": (r) => expect([r.key, r.current, keys(r.achievements)]).toEqual(["words", 750, ["words-500"]]),
      "users.metric_event_summary": (r) => {
        expect(r).toHaveLength(8);
        expect(r.at(-1)).toEqual({ date: to, total: 750, change: 750 });
        expect(r[0].date).toBe(from);
      },
      "users.achievements": (r) => {
        expect(keys(r).sort()).toEqual(["finish-onboarding", "words-500"]);
        expect(r.find((a: any) => a.key === "words-500").achievedAt).toEqual(expect.any(String));
        expect(r.find((a: any) => a.key === "finish-onboarding").achievedAt).toBeNull();
      },
      "users.streak": (r) => {
        expect([r.length, r.frequency, r.freezes, r.maxFreezes]).toEqual([1, "daily", 1, 3]);
        expect(r.streakHistory.map((p: any) => p.length)).toEqual([1]);
      },
      "users.points": (r) => {
        expect([r.key, r.total, r.level.key]).toEqual(["xp", 70, "silver"]);
        expect(r.awards.map((a: any) => [a.awarded, a.trigger.type])).toEqual([[70, "metric"]]);
      },
      "users.points_boosts": (r) => expect(r.map((b: any) => [b.name, b.multiplier])).toEqual([["Welcome fortnight", 2]]),
      "users.points_event_summary": (r) => expect(r.at(-1)).toEqual({ date: to, total: 70, change: 70 }),
      "users.leaderboard": (r) => {
        expect([r.key, r.rank, r.value, r.userAttributes]).toEqual(["words-board", 1, 750, []]);
        expect(r.history.map((h: any) => [h.date, h.rank, h.value])).toEqual([[to, 1, 750]]);
      },
      "streaks.list": (r) =>
        expect(r.map((s: any) => [s.userId, s.streakLength])).toEqual([
          ["ana", 1],
          ["bo", 0],
        ]),
      "points.summary": (r) => {
        expect(r.reduce((n: number, bucket: any) => n + bucket.users, 0)).toBe(3); // ana, bo and cy
        expect(r.find((bucket: any) => bucket.from <= 70 && 70 <= bucket.to).users).toBe(1);
      },
      "points.system": (r) => {
        expect([r.name, r.triggers.map((t: any) => t.type)]).toEqual(["XP", ["metric"]]); // the inactive trigger is not shown
        expect(r.triggers[0]).toMatchObject({
          status: "active",
          userAttributes: [{ key: "plan", value: "pro" }],
          created: expect.any(String),
          updated: expect.any(String),
        });
      },
      "points.boosts": (r) => expect(r).toEqual([]), // only boosts for everyone or a cohort; bo's is his own
      "points.levels": (r) =>
        expect(r.map((l: any) => [l.key, l.points])).toEqual([
          ["bronze", 0],
          ["silver", 50],
          ["gold", 5000],
        ]),
      "points.level_summary": (r) =>
        expect(r.map((s: any) => [s.level.key, s.users])).toEqual([
          ["bronze", 0], // both others are at 0 points, which exceeds no threshold
          ["silver", 1],
          ["gold", 0],
        ]),
      "leaderboards.all_": (r) => expect(r.map((l: any) => [l.key, l.status, l.userAttributes])).toEqual([["words-board", "active", []]]),
      "leaderboards.get": (r) => {
        expect(r.rankings.map((e: any) => [e.userId, e.rank, e.value])).toEqual([["ana", 1, 750]]);
        expect([r.participants, r.userAttributes, r.runStart, r.runEnd]).toEqual([1, [], day(-1), day(5)]);
      },

      // Admin API: users' state.
      "admin.metrics.batch_events": (r) => expect([r.accepted, typeof r.batchId]).toEqual([3, "string"]),
      "admin.streaks.freezes.create": (r) => expect(r.issues.map((i: any) => [i.userId, i.level])).toEqual([["nobody-yet", "error"]]),
      "admin.streaks.restore": (r) => {
        // ana's streak is live (nothing to restore) and nobody-yet has none.
        expect(r.restoredUsers).toEqual([]);
        expect(r.issues.map((i: any) => [i.userId, i.level])).toEqual([
          ["ana", "warning"],
          ["nobody-yet", "error"],
        ]);
      },
      "admin.streaks.pauses.create": (r) => {
        noIssues(r);
        expect(r.created.map((p: any) => [p.userId, p.start, p.end])).toEqual([["cy", day(10), day(12)]]);
      },
      "admin.streaks.pauses.delete": (r) => expect(ids(r.deleted)).toEqual(ids(answer("admin.streaks.pauses.create").created)),
      "admin.application_api_keys.create": (r) => {
        noIssues(r);
        expect([r.created[0].userId, r.created[0].key.startsWith(r.created[0].prefix)]).toEqual(["ana", true]);
      },
      "admin.application_api_keys.delete": (r) => expect(ids(r.deleted)).toEqual(ids(answer("admin.application_api_keys.create").created)),

      // Admin API: removals, then tenants.
      "admin.points.boosts.delete": (r) => expect(ids(r.deleted)).toEqual([answer("admin.points.boosts.create").created[1].id]),
      "admin.points.levels.delete": (r) => expect(ids(r.deleted)).toEqual([answer("admin.points.levels.create").created[1].id]),
      "admin.points.triggers.delete": (r) => expect(ids(r.deleted)).toEqual([answer("admin.points.triggers.create").created[1].id]),
      "admin.leaderboards.delete": (r) => expect(ids(r.deleted)).toEqual([answer("admin.leaderboards.create").created[1].id]),
      "admin.points.systems.delete": (r) => expect(ids(r.deleted)).toEqual([answer("admin.points.systems.create").created[1].id]),
      "admin.achievements.delete": (r) => expect(ids(r.deleted)).toEqual([answer("admin.achievements.create").created[2].id]),
      "admin.attributes.delete": (r) => expect(ids(r.deleted)).toEqual([answer("admin.attributes.create").created[2].id]),
      "admin.metrics.delete": (r) => expect(ids(r.deleted)).toEqual([answer("admin.metrics.create").created[1].id]),
      "admin.tenants.create": (r) => expect(r.created.map((t: any) => [t.customerId, t.name])).toEqual([["globex", "Globex Inc"]]),
      "admin.tenants.list": (r) => expect(r.map((t: any) => t.customerId).sort()).toEqual(["globex", TENANT]),
      "admin.tenants.get": (r) => expect([r.customerId, r.name]).toEqual(["globex", "Globex Inc"]),
      "admin.tenants.update": (r) => expect(r.updated.map((t: any) => t.name)).toEqual(["Globex Corporation"]),
      "admin.tenants.delete": (r) => expect(ids(r.deleted)).toEqual(ids(answer("admin.tenants.create").created)),
    };
    for (const o of outcomes) {
      let error = o.error;
      if (error === null && checks[o.method]) {
        try {
          checks[o.method]!(o.result);
        } catch (failure) {
          error = `answer parsed, but: ${failure instanceof Error ? failure.message.split("\n")[0] : String(failure)}`;
        }
      }
      checked.push({ method: o.method, error });
    }
    const working = checked.filter((o) => o.error === null).length;
    console.log(`trophy 1.27.0 (Python): methods that work: ${working} of ${checked.length}`);
    for (const o of checked) if (o.error !== null) console.log(`  not working: ${o.method}: ${o.error}`);
    expect(checked.map((o) => o.method)).toEqual([...new Set(checked.map((o) => o.method))]);
    expect(checked).toHaveLength(85); // every public method of the sync client
    const failing = Object.fromEntries(checked.filter((o) => o.error !== null).map((o) => [o.method, o.error]));
    expect(Object.keys(failing).sort(), JSON.stringify(failing, null, 2)).toEqual(Object.keys(NOT_YET_WORKING).sort());
  });
});
