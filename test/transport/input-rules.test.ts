import { request } from "node:http";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, CLIENT_PROTOCOLS, startTestServer, type TestServer } from "../helpers/server.js";

/**
 * Input rules of the domain (issue 13, hostile clients): user IDs, the range of amounts, the era of
 * dates and timestamps, and repeated pauses. Each refusal is specific and changes nothing.
 */
let server: TestServer;
let words: string;

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  server = await startTestServer();
  words = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words", name: "Words" }] })).body.created[0].id;
  await server.rest("PUT", "/admin/v1/streaks/settings", {
    body: { frequency: "daily", metrics: [{ metricId: words, threshold: 1 }], freezes: { initialGrant: 0, maxFreezes: 5 } },
  });
  await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "u1" }, value: 1 } });
});
afterAll(() => server.close());

/** Everything a refused request could have changed: users, their state, batches and keys. */
async function snapshot() {
  const { users, metricEventBatches, apiKeys } = server.service.context.database.collections;
  return {
    users: await users
      .find({}, { projection: { _id: 0 } })
      .sort({ userId: 1 })
      .toArray(),
    batches: await metricEventBatches.countDocuments({}),
    keys: await apiKeys.countDocuments({}),
  };
}

/**
 * A REST call with the path sent exactly as given: fetch (like every HTTP client) resolves "." and
 * ".." segments, also percent-encoded ones, so `/v1/users/%2E` could never reach the server.
 */
function rawRest(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.baseUrl);
    const req = request(
      { host: url.hostname, port: url.port, method, path, headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function expectConnectError(call: () => Promise<unknown>, code: Code, message: RegExp | string): Promise<void> {
  try {
    await call();
    expect.unreachable("the call should have been refused");
  } catch (e) {
    const error = ConnectError.from(e);
    expect(error.code).toBe(code);
    if (typeof message === "string") expect(error.rawMessage).toContain(message);
    else expect(error.rawMessage).toMatch(message);
  }
}

const CONTROL = "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)";
const DOTS = 'must not be "." or ".." (no URL path can address them)';
const BAD_USER_IDS: Array<[string, string, string]> = [
  ["empty", "", "must be 1 to 255 characters"],
  ["too long", "u".repeat(256), "must be 1 to 255 characters"],
  ["only whitespace", " \u00a0\u3000", "must not be only whitespace"],
  ["a NUL", "a\u0000b", CONTROL],
  ["a newline", "a\nb", CONTROL],
  ["DEL", "a\u007f", CONTROL],
  ["a C1 control", "a\u0085", CONTROL],
  ["a dot", ".", DOTS],
  ["two dots", "..", DOTS],
];

describe("user IDs no path can address, or that are odd, are refused wherever a user ID enters", () => {
  it.each(BAD_USER_IDS)("REST event call: %s", async (_name, id, message) => {
    const before = await snapshot();
    const response = await server.rest("POST", "/api/metrics/words/event", { body: { user: { id }, value: 1 } });
    expect(response).toEqual({ status: 400, body: { error: `Invalid request: user.id: ${message}` } });
    expect(await snapshot()).toEqual(before);
  });

  for (const protocol of CLIENT_PROTOCOLS) {
    it.each(BAD_USER_IDS)(`${protocol} event call: %s`, async (_name, id, message) => {
      const before = await snapshot();
      await expectConnectError(
        () => server.client(protocol).application.trackMetricEvent({ key: "words", user: { id }, value: 1 }),
        Code.InvalidArgument,
        `user.id: ${message}`,
      );
      expect(await snapshot()).toEqual(before);
    });
  }

  it("user writes, admin per-user actions and batches refuse them with 400 and change nothing", async () => {
    const before = await snapshot();
    const calls: Array<[string, string, unknown, string]> = [
      ["POST", "/v1/users", { id: "a\tb" }, "user.id: must not contain control characters"],
      ["PUT", "/v1/users/%20%20", { name: "x" }, "id: must not be only whitespace"],
      ["PATCH", "/v1/users/a%7F", { name: "x" }, `id: ${CONTROL}`],
      ["POST", "/v1/achievements/any/complete", { user: { id: "." } }, 'user.id: must not be "." or ".."'],
      ["POST", "/admin/v1/streaks/freezes", { freezes: [{ userId: "u1" }, { userId: "a\u0000" }] }, "freezes[1].userId: must not contain control characters"],
      ["POST", "/admin/v1/streaks/pauses", { pauses: [{ userId: "", start: inDays(1), end: inDays(2) }] }, "pauses[0].userId: must be 1 to 255 characters"],
      ["POST", "/admin/v1/streaks/restore", { users: [{ id: ".." }] }, 'users[0].id: must not be "." or ".."'],
      ["POST", "/admin/v1/application-api-keys", [{ userId: "\u2003" }], "keys[0].userId: must not be only whitespace"],
      [
        "POST",
        "/admin/v1/metrics/events",
        [{ key: "words", user: { id: "a\u009fb" }, value: 1, idempotencyKey: "k1" }],
        "events[0].user.id: must not contain control characters",
      ],
    ];
    for (const [method, path, body, message] of calls) {
      const response = await rawRest(method, path, body);
      expect({ path, ...response }).toEqual({ path, status: 400, body: { error: expect.stringContaining(message), requestId: expect.any(String) } });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('reads of such an ID answer 400 ("." and ".." never reach a REST route: URLs resolve them)', async () => {
    for (const path of [
      "/v1/users/%C2%85",
      "/v1/users/%09/streak",
      "/v1/users/a%00b/metrics",
      "/v1/users/%20/points/anything",
      "/v1/streaks?userIds=u1&userIds=%0A",
    ]) {
      const response = await rawRest("GET", path);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(response.body.error).toMatch(/^Invalid request: /);
    }
    await expectConnectError(() => server.client("grpc").application.getUser({ id: ".." }), Code.InvalidArgument, `id: ${DOTS}`);
    await expectConnectError(() => server.client("grpc-web").application.getUserStreak({ id: "." }), Code.InvalidArgument, `id: ${DOTS}`);
  });

  it("ordinary IDs, including dots and spaces inside, still work", async () => {
    for (const id of ["...", "a.b", "user 7", "ünïcødé", "😀"]) {
      const response = await server.rest("POST", "/api/metrics/words/event", { body: { user: { id }, value: 1 } });
      expect(response.status).toBe(201);
      expect((await server.rest("GET", `/v1/users/${encodeURIComponent(id)}`)).body.id).toBe(id);
    }
  });
});

describe("amounts: finite and within ±1e15, totals included", () => {
  it("REST: a value out of range, or an event whose total would leave the range, is refused and the idempotency key stays unused", async () => {
    const out = await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "big" }, value: 1e308 } });
    expect(out).toEqual({ status: 400, body: { error: "value must be between -1000000000000000 and 1000000000000000, got 1e+308" } });
    expect(await server.service.context.database.collections.users.findOne({ userId: "big" })).toBeNull();

    expect((await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "big" }, value: 1e15 } })).body.total).toBe(1e15);
    const before = await snapshot();
    const over = await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "big" }, value: 1, idempotencyKey: "once" } });
    expect(over).toEqual({
      status: 400,
      body: {
        error:
          "This event would make the user's total 1000000000000001, outside the supported range of -1000000000000000 to 1000000000000000; nothing was recorded",
      },
    });
    expect(await snapshot()).toEqual(before);
    // The key was not consumed: a different request with it is applied (not a 422 mismatch, not a replay).
    const next = await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "big" }, value: -1, idempotencyKey: "once" } });
    expect(next.status).toBe(201);
    expect(next.body.total).toBe(999_999_999_999_999);
  });

  it.each(["connect-json", "connect-binary"] as const)("%s: the same rules, and non-finite values", async (protocol) => {
    const client = server.client(protocol).application;
    const user = { id: `big-${protocol}` };
    await expectConnectError(
      () => client.trackMetricEvent({ key: "words", user, value: -1e16 }),
      Code.InvalidArgument,
      "value must be between -1000000000000000 and 1000000000000000",
    );
    // JSON carries NaN as the string "NaN", refused as a non-decimal numeric string; binary reaches the `finite` rule.
    const nanMessage = protocol === "connect-json" ? 'value must be a number, got the string "NaN"' : "value: must be finite";
    await expectConnectError(() => client.trackMetricEvent({ key: "words", user, value: Number.NaN }), Code.InvalidArgument, nanMessage);
    expect((await client.trackMetricEvent({ key: "words", user, value: -1e15 })).total).toBe(-1e15);
    const before = await snapshot();
    await expectConnectError(
      () => client.trackMetricEvent({ key: "words", user, value: -0.5 }),
      Code.InvalidArgument,
      "This event would make the user's total -1000000000000000.5",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("Connect JSON: the strings NaN and Infinity are refused for every double of a request (as non-decimal numeric strings)", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.baseUrl}/gamification.v1.${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "adm_testkey.0123456789abcdefghijklmnopqrstuvwxyz" },
        body: JSON.stringify(body),
      });
    const cases: Array<[string, unknown]> = [
      ["ApplicationService/TrackMetricEvent", { key: "words", user: { id: "u1" }, value: "Infinity" }],
      ["AdminService/CreateMetricEventBatch", { events: [{ key: "words", user: { id: "u1" }, value: "NaN", idempotencyKey: "k" }] }],
      [
        "StreakAdminService/UpdateStreakSettings",
        { settings: { frequency: "STREAK_FREQUENCY_DAILY", metrics: [{ metricId: words, threshold: "-Infinity" }] } },
      ],
      [
        "AchievementAdminService/CreateAchievements",
        { achievements: [{ key: "a", name: "A", trigger: "ACHIEVEMENT_TRIGGER_METRIC", metricId: words, metricValue: "Infinity" }] },
      ],
    ];
    for (const [path, body] of cases) {
      const response = await post(path, body);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(await response.json()).toMatchObject({
        code: "invalid_argument",
        message: expect.stringMatching(/must be a number, got the string "-?(Infinity|NaN)"/),
      });
    }
  });

  it("thresholds beyond the range can never be reached and are refused", async () => {
    const response = await server.rest("PUT", "/admin/v1/streaks/settings", { body: { frequency: "daily", metrics: [{ metricId: words, threshold: 2e15 }] } });
    expect(response).toEqual({
      status: 400,
      body: { error: "metrics[0].threshold must be a number greater than 0 and at most 1000000000000000 (the largest total), got 2000000000000000" },
    });
  });
});

describe("timestamps and dates lie within 2000-01-01 to 2099-12-31", () => {
  it("event timestamps before 2000 are refused on REST, Connect and in batches", async () => {
    const before = await snapshot();
    for (const timestamp of ["0001-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "1970-01-01T00:00:00Z"]) {
      const event = await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "u1" }, value: 1, timestamp } });
      expect(event).toEqual({ status: 400, body: { error: "Invalid request: timestamp: must be from 2000-01-01T00:00:00Z and before 2100-01-01T00:00:00Z" } });
      const batch = await server.rest("POST", "/admin/v1/metrics/events", {
        body: [{ key: "words", user: { id: "u1" }, value: 1, idempotencyKey: "old", timestamp }],
      });
      expect(batch).toEqual({
        status: 400,
        body: { error: "Invalid request: events[0].timestamp: must be from 2000-01-01T00:00:00Z and before 2100-01-01T00:00:00Z" },
      });
    }
    await expectConnectError(
      () =>
        server
          .client("connect-binary")
          .application.trackMetricEvent({ key: "words", user: { id: "u1" }, value: 1, timestamp: { seconds: -62135596800n, nanos: 0 } }),
      Code.InvalidArgument,
      "timestamp: must be from 2000-01-01T00:00:00Z",
    );
    // Far beyond any date (seconds a JSON timestamp cannot even spell): refused, not a crash.
    await expectConnectError(
      () => server.client("grpc").application.trackMetricEvent({ key: "words", user: { id: "u1" }, value: 1, timestamp: { seconds: 10n ** 15n, nanos: 0 } }),
      Code.InvalidArgument,
      "timestamp: must be from 2000-01-01T00:00:00Z and before 2100-01-01T00:00:00Z",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("dates of boosts, leaderboards, pauses and summaries are refused outside the era", async () => {
    const system = await server.rest("POST", "/admin/v1/points", { body: [{ key: "xp", name: "XP" }] });
    const systemId = system.body.created[0].id;
    const boost = await server.rest("POST", `/admin/v1/points/${systemId}/boosts`, { body: [{ name: "Old", start: "0001-01-01", multiplier: 2 }] });
    expect(boost.body.issues).toEqual([
      {
        index: 0,
        severity: "error",
        message: 'start must be from 2000-01-01 to 2099-12-31, got "0001-01-01"',
        level: "error",
        reason: 'start must be from 2000-01-01 to 2099-12-31, got "0001-01-01"',
      },
    ]);
    const board = await server.rest("POST", "/admin/v1/leaderboards", {
      body: [{ key: "lb", name: "LB", rankBy: "streak", start: today(), end: "9999-12-31" }],
    });
    expect(board.body.issues).toEqual([
      {
        index: 0,
        severity: "error",
        message: 'end must be from 2000-01-01 to 2099-12-31, got "9999-12-31"',
        level: "error",
        reason: 'end must be from 2000-01-01 to 2099-12-31, got "9999-12-31"',
      },
    ]);
    const pause = await server.rest("POST", "/admin/v1/streaks/pauses", { body: { pauses: [{ userId: "u1", start: inDays(1), end: "2100-01-01" }] } });
    expect(pause.body.issues).toEqual([
      {
        userId: "u1",
        severity: "error",
        message: 'end must be from 2000-01-01 to 2099-12-31, got "2100-01-01"',
        level: "error",
        reason: 'end must be from 2000-01-01 to 2099-12-31, got "2100-01-01"',
      },
    ]);
    const summary = await server.rest("GET", "/v1/users/u1/metrics/words/event-summary?aggregation=daily&startDate=0001-01-01&endDate=0001-01-02");
    expect(summary).toEqual({ status: 400, body: { error: 'startDate must be from 2000-01-01 to 2099-12-31, got "0001-01-01"' } });
  });
});

describe("identical or overlapping streak pauses are not stacked", () => {
  it("a repeated pause, in one request or a later one, is an issue naming the pause it repeats", async () => {
    await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "pia" }, value: 1 } });
    const pause = { userId: "pia", start: inDays(2), end: inDays(4) };
    const first = await server.rest("POST", "/admin/v1/streaks/pauses", { body: { pauses: [pause, pause, pause] } });
    expect(first.status).toBe(201);
    expect(first.body.created).toHaveLength(1);
    const id = first.body.created[0].id;
    const repeated = `the user already has this pause ${id} (${pause.start} to ${pause.end}); a user's pauses may not overlap`;
    expect(first.body.issues).toEqual([
      { userId: "pia", severity: "error", message: repeated, level: "error", reason: repeated },
      { userId: "pia", severity: "error", message: repeated, level: "error", reason: repeated },
    ]);
    const again = await server.client("connect-json").streaks.createStreakPauses({ pauses: [pause, { userId: "pia", start: inDays(4), end: inDays(6) }] });
    expect(again.created).toEqual([]);
    expect(again.issues.map((i) => i.message)).toEqual([
      repeated,
      `the pause overlaps this user's pause ${id} (${pause.start} to ${pause.end}); a user's pauses may not overlap`,
    ]);
    const next = await server.rest("POST", "/admin/v1/streaks/pauses", { body: { pauses: [{ userId: "pia", start: inDays(5), end: inDays(6) }] } });
    expect(next.status).toBe(201);
    expect((await server.rest("GET", "/v1/users/pia/streak")).body.pauses.map((p: { start: string }) => p.start)).toEqual([inDays(2), inDays(5)]);
  });
});
