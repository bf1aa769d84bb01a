import { brotliCompressSync, gzipSync } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_PROTOCOLS, startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  const created = await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words-written", name: "Words written" }] });
  expect(created.status).toBe(201);
});
afterAll(() => server.close());

describe("every protocol reaches the same implementation", () => {
  it("adds events from REST, Connect JSON, Connect binary, gRPC and gRPC-web to one exact total", async () => {
    const first = await server.rest("POST", "/api/metrics/words-written/event", {
      body: { user: { id: "u1", tz: "Europe/London" }, value: 750 },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      total: 750,
      achievements: [],
      currentStreak: { length: 0, frequency: "daily", extended: false },
      points: {},
      leaderboards: {},
    });
    expect(first.body.metricId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body).not.toHaveProperty("idempotentReplayed");

    let expected = 750;
    for (const protocol of CLIENT_PROTOCOLS) {
      const response = await server.client(protocol).application.trackMetricEvent({ key: "words-written", user: { id: "u1" }, value: 0.1 });
      expected = Math.round((expected + 0.1) * 10) / 10;
      expect(response.total, protocol).toBe(expected);
      expect(response.metricId).toBe(first.body.metricId);
    }
    // The additional REST binding reaches the same call; decimals stay exact (no 750.4000000001).
    const last = await server.rest("POST", "/v1/metrics/words-written/event", { body: { user: { id: "u1" }, value: 0.1 } });
    expect(last.body.total).toBe(750.5);
  });

  it("returns the same user on every protocol", async () => {
    const viaRest = await server.rest("GET", "/v1/users/u1");
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toMatchObject({ id: "u1", tz: "Europe/London", email: null, name: null, attributes: {}, subscribeToEmails: true });
    for (const protocol of CLIENT_PROTOCOLS) {
      const { user } = await server.client(protocol).application.getUser({ id: "u1" });
      expect(user?.id, protocol).toBe("u1");
      expect(user?.tz, protocol).toBe("Europe/London");
      expect(user?.created && new Date(Number(user.created.seconds) * 1000).toISOString().slice(0, 16)).toBe(viaRest.body.created.slice(0, 16));
    }
  });

  it("serves raw Connect JSON over plain HTTP", async () => {
    const response = await fetch(`${server.baseUrl}/gamification.v1.ApplicationService/TrackMetricEvent`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": (await import("../helpers/server.js")).ADMIN_KEY },
      body: JSON.stringify({ key: "words-written", user: { id: "raw" }, value: 2 }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ total: 2 });
  });

  it("accepts Connect requests compressed with gzip or br, as Connect clients send them by default", async () => {
    const { ADMIN_KEY } = await import("../helpers/server.js");
    const body = Buffer.from(JSON.stringify({ key: "words-written", user: { id: "compressed" }, value: 3 }));
    for (const [encoding, bytes] of [
      ["gzip", gzipSync(body)],
      ["br", brotliCompressSync(body)],
    ] as const) {
      const response = await fetch(`${server.baseUrl}/gamification.v1.ApplicationService/TrackMetricEvent`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": encoding, "x-api-key": ADMIN_KEY },
        body: bytes,
      });
      expect(response.status, encoding).toBe(200);
      expect(await response.json()).toMatchObject({ total: encoding === "gzip" ? 3 : 6 });
    }
    // An encoding no one supports is refused as Connect says, and changes nothing.
    const unknown = await fetch(`${server.baseUrl}/gamification.v1.ApplicationService/TrackMetricEvent`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "zstd", "x-api-key": ADMIN_KEY },
      body,
    });
    expect(unknown.status).toBe(501);
    // Compressed data that does not decompress (a gzip stream cut short, or not gzip at all) is the
    // caller's broken body: 400 invalid_argument on Connect, grpc-status 3 on gRPC-web.
    const gzipped = gzipSync(body);
    for (const broken of [gzipped.subarray(0, 20), Buffer.from("1f8b080067617262616765", "hex"), Buffer.from("notgzip")]) {
      const refused = await fetch(`${server.baseUrl}/gamification.v1.ApplicationService/TrackMetricEvent`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": "gzip", "x-api-key": ADMIN_KEY },
        body: broken,
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: "invalid_argument", message: expect.stringContaining("not valid gzip data") });
    }
    const { TrackMetricEventRequestSchema } = await import("../../src/gen/gamification/v1/application_service_pb.js");
    const message = gzipSync(
      toBinary(TrackMetricEventRequestSchema, create(TrackMetricEventRequestSchema, { key: "words-written", user: { id: "compressed" }, value: 1 })),
    );
    const cut = message.subarray(0, message.length - 8);
    const envelope = Buffer.concat([Buffer.from([1, 0, 0, 0, 0]), cut]);
    envelope.writeUInt32BE(cut.length, 1);
    const grpcWeb = await fetch(`${server.baseUrl}/gamification.v1.ApplicationService/TrackMetricEvent`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", "grpc-encoding": "gzip", "x-api-key": ADMIN_KEY },
      body: envelope,
    });
    expect([grpcWeb.status, grpcWeb.headers.get("grpc-status")]).toEqual([200, "3"]);
    // Nothing was counted: the total is still the one above.
    expect((await server.rest("GET", "/v1/users/compressed/metrics/words-written")).body).toMatchObject({ current: 6 });
  });

  it("takes REST bodies compressed with gzip or br, and refuses other codings, broken data and bombs without counting", async () => {
    const { ADMIN_KEY } = await import("../helpers/server.js");
    const event = (user: string) => Buffer.from(JSON.stringify({ user: { id: user }, value: 4 }));
    const post = (encoding: string, bytes: Uint8Array) =>
      fetch(`${server.baseUrl}/api/metrics/words-written/event`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": encoding, "x-api-key": ADMIN_KEY },
        body: bytes,
      });
    for (const [encoding, bytes] of [
      ["gzip", gzipSync(event("rest-gzip"))],
      ["br", brotliCompressSync(event("rest-br"))],
      ["GZIP", gzipSync(event("rest-upper"))],
    ] as const) {
      const response = await post(encoding, bytes);
      expect([encoding, response.status]).toEqual([encoding, 201]);
      expect(await response.json()).toMatchObject({ total: 4 });
    }
    const unsupported = await post("zstd", event("rest-zstd"));
    expect(unsupported.status).toBe(415);
    expect(unsupported.headers.get("accept-encoding")).toBe("gzip, br");
    expect(await unsupported.json()).toMatchObject({ error: 'Unsupported Content-Encoding "zstd": send gzip, br or no encoding' });
    for (const broken of [gzipSync(event("rest-cut")).subarray(0, 20), Buffer.from("notgzip")]) {
      const refused = await post("gzip", broken);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: expect.stringContaining("not valid gzip data") });
    }
    // Small on the wire, past the request limit once decompressed.
    const bomb = await post("gzip", gzipSync(Buffer.concat([event("rest-bomb").subarray(0, -1), Buffer.from(`,"pad":"${"x".repeat(8 * 1024 * 1024)}"}`)])));
    expect(bomb.status).toBe(413);
    for (const user of ["rest-zstd", "rest-cut", "rest-bomb"]) expect((await server.rest("GET", `/v1/users/${user}`)).status).toBe(404);
  });

  it("renders admin resources in the reference shapes, with the same data on Connect", async () => {
    const list = await server.rest("GET", "/admin/v1/metrics");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: expect.any(String), key: "words-written", name: "Words written", unitType: "number", units: "" }]);
    const { metrics } = await server.client("connect-json").admin.listMetrics({});
    expect(metrics.map((m) => m.id)).toEqual([list.body[0].id]);
    const one = await server.rest("GET", `/admin/v1/metrics/${list.body[0].id}`);
    expect(one.body).toEqual(list.body[0]);
  });

  it("reports database reachability on /healthz", async () => {
    const health = await server.rest("GET", "/healthz", { apiKey: null });
    expect(health).toEqual({ status: 200, body: { status: "ok", database: "reachable" } });
  });
});
