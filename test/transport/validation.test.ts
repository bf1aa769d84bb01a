import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, CLIENT_PROTOCOLS, startTestServer, type TestServer } from "../helpers/server.js";
import type { PointsTriggerStatus } from "../../sdk/src/gen/gamification/v1/points_pb.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words", name: "Words" }] });
  await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "u1", tz: "Europe/London" }, value: 5 } });
});
afterAll(() => server.close());

/** The user's stored state, to prove that a refused request changed nothing. */
async function storedUser(id: string) {
  return server.service.context.database.collections.users.findOne({ userId: id });
}

const REST_CASES: Array<{ name: string; path?: string; rawBody: string; status: number; error: RegExp }> = [
  { name: "malformed JSON", rawBody: '{"user":{"id":"u1"},', status: 400, error: /^Malformed JSON body/ },
  { name: "a body that is not an object", rawBody: "[1]", status: 400, error: /body must be a JSON object/ },
  { name: "a value of the wrong type", rawBody: '{"user":{"id":"u1"},"value":"abc"}', status: 400, error: /value must be a number, got the string "abc"/ },
  { name: "a user of the wrong type", rawBody: '{"user":"u1","value":1}', status: 400, error: /^Invalid request: user: expected an object, got "u1"$/ },
  { name: "a missing value", rawBody: '{"user":{"id":"u1"}}', status: 400, error: /^Invalid request: value: value is required$/ },
  { name: "a missing user", rawBody: '{"value":1}', status: 400, error: /^Invalid request: user: value is required$/ },
  { name: "an empty user id", rawBody: '{"user":{"id":""},"value":1}', status: 400, error: /user\.id: must be 1 to 255 characters/ },
  { name: "a non-finite value", rawBody: '{"user":{"id":"u1"},"value":"Infinity"}', status: 400, error: /value must be a number, got the string "Infinity"/ },
  { name: "NaN", rawBody: '{"user":{"id":"u1"},"value":"NaN"}', status: 400, error: /value must be a number, got the string "NaN"/ },
  {
    name: "an invalid time zone",
    rawBody: '{"user":{"id":"u1","tz":"Mars/Olympus"},"value":1}',
    status: 400,
    error: /user\.tz "Mars\/Olympus" is not an IANA time zone/,
  },
  {
    name: "a body naming the metric the path names, differently",
    rawBody: '{"key":"other","user":{"id":"u1"},"value":1}',
    status: 400,
    error: /^Invalid request: the body's "key" \("other"\) differs from the path's \("words"\)$/,
  },
  { name: "an unknown field", rawBody: '{"user":{"id":"u1"},"value":1,"bogus":true}', status: 400, error: /^Invalid request: unknown field "bogus"$/ },
  {
    name: "an unknown field in a nested message",
    rawBody: '{"user":{"id":"u1","nickname":"x"},"value":1}',
    status: 400,
    error: /^Invalid request: user: unknown field "nickname"$/,
  },
  { name: "a string field given a number", rawBody: '{"user":{"id":7},"value":1}', status: 400, error: /^Invalid request: user\.id: expected string, got 7$/ },
  {
    name: "a timestamp that is not one",
    rawBody: '{"user":{"id":"u1"},"value":1,"timestamp":"yesterday"}',
    status: 400,
    error: /^Invalid request: timestamp: expected an RFC 3339 date and time, got "yesterday"$/,
  },
  {
    name: "an unknown metric",
    path: "/api/metrics/nope/event",
    rawBody: '{"user":{"id":"u1"},"value":1}',
    status: 404,
    error: /^Metric with key "nope" not found$/,
  },
  {
    name: "a user attribute value over 255 characters",
    rawBody: JSON.stringify({ user: { id: "u1", attributes: { plan: "p".repeat(256) } }, value: 1 }),
    status: 400,
    error: /^Invalid request: user\.attributes\["plan"\]: must be at most 255 characters$/,
  },
  {
    name: "an event attribute value over 255 characters",
    rawBody: JSON.stringify({ user: { id: "u1" }, value: 1, attributes: { source: "s".repeat(256) } }),
    status: 400,
    error: /^Invalid request: attributes\["source"\]: must be at most 255 characters$/,
  },
  {
    name: "a device token over 1,024 characters",
    rawBody: JSON.stringify({ user: { id: "u1", deviceTokens: ["t".repeat(1025)] }, value: 1 }),
    status: 400,
    error: /^Invalid request: user\.deviceTokens\[0\]: must be at most 1024 characters$/,
  },
  {
    name: "undefined attribute keys",
    rawBody: '{"user":{"id":"u1"},"value":1,"attributes":{"source":"web","x":"y"}}',
    status: 400,
    error: /^Invalid attribute keys: source, x\. /,
  },
];

describe("malformed input changes nothing and gets a specific error", () => {
  it.each(REST_CASES)("REST: $name", async ({ path, rawBody, status, error }) => {
    const before = await storedUser("u1");
    const response = await server.rest("POST", path ?? "/api/metrics/words/event", { rawBody });
    expect(response.status).toBe(status);
    expect(Object.keys(response.body)).toEqual(["error"]);
    expect(response.body.error).toMatch(error);
    expect(await storedUser("u1")).toEqual(before);
  });

  it("REST: a body naming the metric the path names, alike, is read as the path says", async () => {
    const response = await server.rest("POST", "/api/metrics/words/event", { body: { key: "words", user: { id: "u2" }, value: 3 } });
    expect(response.status).toBe(201);
    expect(response.body.total).toBe(3);
  });

  const CONNECT_CASES = [
    { name: "missing value", request: { key: "words", user: { id: "u1" } }, code: Code.InvalidArgument, error: /value is required/ },
    { name: "missing user", request: { key: "words", value: 1 }, code: Code.InvalidArgument, error: /user: value is required/ },
    {
      name: "non-finite value",
      request: { key: "words", user: { id: "u1" }, value: Number.POSITIVE_INFINITY },
      code: Code.InvalidArgument,
      error: /must be finite|must be a number, got the string "Infinity"/,
    },
    {
      name: "NaN value",
      request: { key: "words", user: { id: "u1" }, value: Number.NaN },
      code: Code.InvalidArgument,
      error: /must be finite|must be a number, got the string "NaN"/,
    },
    { name: "invalid time zone", request: { key: "words", user: { id: "u1", tz: "Nowhere" }, value: 1 }, code: Code.InvalidArgument, error: /IANA/ },
    {
      name: "a user attribute value over 255 characters",
      request: { key: "words", user: { id: "u1", attributes: { plan: "p".repeat(256) } }, value: 1 },
      code: Code.InvalidArgument,
      error: /must be at most 255 characters/,
    },
    { name: "unknown metric", request: { key: "nope", user: { id: "u1" }, value: 1 }, code: Code.NotFound, error: /"nope" not found/ },
  ];
  for (const protocol of CLIENT_PROTOCOLS) {
    it.each(CONNECT_CASES)(`${protocol}: $name`, async ({ request, code, error }) => {
      const before = await storedUser("u1");
      try {
        await server.client(protocol).application.trackMetricEvent(request);
        expect.unreachable();
      } catch (e) {
        const connectError = ConnectError.from(e);
        expect(connectError.code).toBe(code);
        expect(connectError.rawMessage).toMatch(error);
      }
      expect(await storedUser("u1")).toEqual(before);
    });
  }

  it("Connect JSON over raw HTTP: wrong types are InvalidArgument", async () => {
    const response = await fetch(`${server.baseUrl}/gamification.v1.ApplicationService/TrackMetricEvent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "adm_testkey.0123456789abcdefghijklmnopqrstuvwxyz" },
      body: JSON.stringify({ key: "words", user: { id: "u1" }, value: "lots" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "invalid_argument" });
  });

  it("REST admin calls: enum values, limits and array bodies are checked", async () => {
    const badEnum = await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "k", name: "K", unitType: "furlongs" }] });
    expect(badEnum).toEqual({ status: 400, body: { error: 'metrics[0].unitType: "furlongs" is not one of "number", "currency"' } });
    expect((await server.rest("POST", "/admin/v1/metrics", { body: { key: "k", name: "K" } })).body.error).toMatch(/JSON array/);
    expect((await server.rest("GET", "/admin/v1/metrics?limit=101")).status).toBe(400);
    expect((await server.rest("GET", "/admin/v1/metrics?colour=red")).body.error).toMatch(/unknown query parameter "colour"/);
    expect(await server.rest("GET", "/admin/v1/metrics?limit=5&limit=50")).toEqual({
      status: 400,
      body: { error: 'Invalid request: the query parameter "limit" is given 2 times; it takes one value' },
    });
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ key: `m-${i}`, name: `M ${i}` }));
    expect((await server.rest("POST", "/admin/v1/metrics", { body: tooMany })).status).toBe(400);
    const itemIssues = await server.rest("POST", "/admin/v1/metrics", {
      body: [
        { key: "Bad Key", name: "x" },
        { key: "words", name: "Dup" },
        { key: "cash", name: "Cash", unitType: "currency" },
      ],
    });
    expect(itemIssues.status).toBe(200);
    expect(itemIssues.body.issues.map((i: { index: number }) => i.index)).toEqual([0, 1, 2]);
    expect((await server.rest("GET", "/admin/v1/metrics")).body).toHaveLength(1);
  });

  it("answers unknown routes and methods with JSON errors", async () => {
    expect(await server.rest("GET", "/v1/nothing-here")).toEqual({ status: 404, body: { error: "No route for GET /v1/nothing-here" } });
    expect(await server.rest("GET", "//v1//users")).toEqual({ status: 404, body: { error: "No route for GET //v1//users" } });
    expect((await server.rest("PUT", "/admin/v1/metrics", { body: [] })).status).toBe(405);
  });

  it("answers HEAD as GET without the body: health without a key, REST reads with one", async () => {
    const health = await fetch(`${server.baseUrl}/healthz`, { method: "HEAD" });
    expect([health.status, await health.text()]).toEqual([200, ""]);
    const user = await server.rest("HEAD", "/v1/users/u1");
    const unknown = await server.rest("HEAD", "/v1/users/nobody");
    expect([user, unknown]).toEqual([
      { status: 200, body: null },
      { status: 404, body: null },
    ]);
  });

  it("refuses bodies over the size limit", async () => {
    const response = await server.rest("POST", "/api/metrics/words/event", { rawBody: JSON.stringify({ pad: "x".repeat(1_100_000) }) });
    expect(response.status).toBe(413);
  });
});

describe("enum values and decoding errors read alike on every protocol", () => {
  let systemId = "";
  let triggerId = "";
  let leaderboardId = "";

  beforeAll(async () => {
    const metricId = (await server.rest("GET", "/admin/v1/metrics")).body[0].id;
    systemId = (await server.rest("POST", "/admin/v1/points", { body: [{ key: "xp", name: "XP" }] })).body.created[0].id;
    const trigger = { type: "metric", points: 5, metricId, metricThreshold: 1, status: "active" };
    triggerId = (await server.rest("POST", `/admin/v1/points/${systemId}/triggers`, { body: [trigger] })).body.created[0].id;
    leaderboardId = (await server.rest("POST", "/admin/v1/leaderboards", { body: [{ key: "lb", name: "LB", rankBy: "metric", metricId }] })).body.created[0].id;
  });

  const connectJson = async (method: string, body: unknown) => {
    const response = await fetch(`${server.baseUrl}/gamification.v1.${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": ADMIN_KEY },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { code?: string; message?: string } };
  };

  it("an enum number the enum does not define is refused, not read as 'not given', on REST and every RPC protocol", async () => {
    const boost = await server.rest("POST", `/admin/v1/points/${systemId}/boosts`, {
      body: [{ name: "B", start: "2026-01-01", multiplier: 1.5, rounding: 99 }],
    });
    expect(boost).toEqual({ status: 400, body: { error: "Invalid request: boosts[0].rounding: value must be one of the defined enum values" } });
    expect((await server.rest("GET", `/admin/v1/points/${systemId}/boosts`)).body).toEqual([]);
    const refused: Array<[string, Code | undefined, string]> = [];
    for (const protocol of CLIENT_PROTOCOLS) {
      try {
        await server.client(protocol).points.updatePointsTriggers({ systemId, triggers: [{ id: triggerId, status: 99 as PointsTriggerStatus }] });
        refused.push([protocol, undefined, ""]);
      } catch (e) {
        refused.push([protocol, ConnectError.from(e).code, ConnectError.from(e).rawMessage]);
      }
    }
    expect(refused).toEqual(
      CLIENT_PROTOCOLS.map((protocol) => [protocol, Code.InvalidArgument, "Invalid request: triggers[0].status: value must be one of the defined enum values"]),
    );
    const [stored] = (await server.rest("GET", `/admin/v1/points/${systemId}/triggers`)).body;
    expect(stored.status).toBe("active");
  });

  it("Connect JSON names a bad enum string and the zero's name by path with the allowed values, as REST does", async () => {
    const allowed = '"LEADERBOARD_STATUS_INACTIVE", "LEADERBOARD_STATUS_SCHEDULED", "LEADERBOARD_STATUS_ACTIVE", "LEADERBOARD_STATUS_FINISHED"';
    for (const status of ["bogus", "LEADERBOARD_STATUS_UNSPECIFIED"]) {
      const answer = await connectJson("LeaderboardAdminService/UpdateLeaderboards", { leaderboards: [{ id: leaderboardId, status }] });
      expect(answer).toMatchObject({
        status: 400,
        body: { code: "invalid_argument", message: `Invalid request: leaderboards[0].status: "${status}" is not one of ${allowed}` },
      });
    }
    const rest = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: leaderboardId, status: "unspecified" }] });
    expect(rest).toEqual({ status: 400, body: { error: 'leaderboards[0].status: "unspecified" is not one of "inactive", "scheduled", "active", "finished"' } });
  });

  it("a value protobuf-es cannot read is named by its JSON path with the item's index, on REST bodies, query parameters and Connect JSON", async () => {
    const items = [{ id: leaderboardId }, { id: leaderboardId, maxParticipants: 2147483648 }];
    const outOfRange = "Invalid request: leaderboards[1].maxParticipants: expected number (int32): 2147483648 out of range";
    expect(await server.rest("PATCH", "/admin/v1/leaderboards", { body: items })).toEqual({ status: 400, body: { error: outOfRange } });
    expect(await connectJson("LeaderboardAdminService/UpdateLeaderboards", { leaderboards: items })).toMatchObject({
      status: 400,
      body: { code: "invalid_argument", message: outOfRange },
    });
    expect(await server.rest("GET", "/admin/v1/metrics?limit=99999999999")).toEqual({
      status: 400,
      body: { error: "Invalid request: limit: expected number (int32): 99999999999 out of range" },
    });
    expect((await server.rest("GET", `/admin/v1/leaderboards/${leaderboardId}`)).body.maxParticipants).not.toBe(2147483648);
  });
});
