import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/metrics", {
    body: [
      { key: "words", name: "Words" },
      { key: "pages", name: "Pages" },
    ],
  });
  await server.rest("POST", "/admin/v1/attributes", { body: [{ key: "plan", name: "Plan", type: "user" }] });
});
afterAll(() => server.close());

describe("users", () => {
  it("are created (201), identified (200) and updated, in the reference shape", async () => {
    const created = await server.rest("POST", "/v1/users", { body: { id: "ann", email: "ann@example.com", tz: "Europe/Paris", attributes: { plan: "pro" } } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: "ann",
      email: "ann@example.com",
      name: null,
      tz: "Europe/Paris",
      deviceTokens: [],
      subscribeToEmails: true,
      attributes: { plan: "pro" },
      control: false,
      created: expect.any(String),
      updated: expect.any(String),
      signUpDate: null,
    });
    const again = await server.rest("POST", "/v1/users", { body: { id: "ann" } });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatch(/already exists/);

    const identified = await server.rest("PUT", "/v1/users/ann", { body: { name: "Ann" } });
    expect(identified.status).toBe(200);
    expect(identified.body).toMatchObject({ name: "Ann", email: "ann@example.com", tz: "Europe/Paris" });
    const firstSight = await server.client("grpc").application.identifyUser({ id: "bob", user: { tz: "Asia/Tokyo" } });
    expect(firstSight.user?.tz).toBe("Asia/Tokyo");

    const updated = await server.rest("PATCH", "/v1/users/ann", { body: { subscribeToEmails: false } });
    expect(updated.body.subscribeToEmails).toBe(false);
    expect((await server.rest("PATCH", "/v1/users/nobody", { body: { name: "x" } })).status).toBe(404);

    // The reference's own example body of PATCH carries the user's ID: accepted when it is the path's.
    const example = await server.rest("PATCH", "/v1/users/ann", { body: { id: "ann", tz: "Europe/London" } });
    expect(example.status, JSON.stringify(example.body)).toBe(200);
    expect(example.body).toMatchObject({ id: "ann", tz: "Europe/London" });
    const other = await server.rest("PATCH", "/v1/users/ann", { body: { id: "bob", name: "Bob" } });
    expect(other).toMatchObject({ status: 400, body: { error: expect.stringMatching(/the body's id "bob" is not the user's ID in the path, "ann"/) } });
    await expect(server.client("connect-binary").application.identifyUser({ id: "ann", user: { id: "bob" } })).rejects.toThrow(/is not the user's ID/);
    expect((await server.rest("GET", "/v1/users/ann")).body).toMatchObject({ name: "Ann", tz: "Europe/London" });
  });

  it("clear device tokens with [] or null (REST) or clearDeviceTokens (Connect), and keep no e-mail while unsubscribed", async () => {
    const devices = { id: "dev", email: "dev@example.com", deviceTokens: ["tok-a", "tok-b"] };
    expect((await server.rest("POST", "/v1/users", { body: devices })).body.deviceTokens).toEqual(["tok-a", "tok-b"]);
    expect((await server.rest("PATCH", "/v1/users/dev", { body: { name: "Dev" } })).body.deviceTokens).toEqual(["tok-a", "tok-b"]);
    expect((await server.rest("PATCH", "/v1/users/dev", { body: { deviceTokens: [] } })).body.deviceTokens).toEqual([]);
    expect((await server.rest("PUT", "/v1/users/dev", { body: { deviceTokens: ["tok-c"] } })).body.deviceTokens).toEqual(["tok-c"]);
    expect((await server.rest("PUT", "/v1/users/dev", { body: { deviceTokens: null } })).body.deviceTokens).toEqual([]);
    const connect = server.client("connect-json").application;
    await connect.updateUser({ id: "dev", user: { deviceTokens: ["tok-d"] } });
    expect((await connect.updateUser({ id: "dev", user: { clearDeviceTokens: true } })).user?.deviceTokens).toEqual([]);
    await expect(connect.updateUser({ id: "dev", user: { clearDeviceTokens: true, deviceTokens: ["x"] } })).rejects.toThrow(/not both/);

    // "If false, Trophy will not store the user's email address."
    expect((await server.rest("PATCH", "/v1/users/dev", { body: { subscribeToEmails: false } })).body).toMatchObject({ email: null, subscribeToEmails: false });
    expect((await server.rest("PATCH", "/v1/users/dev", { body: { email: "dev@example.com" } })).body.email).toBeNull();
    const event = await server.rest("POST", "/v1/metrics/words/event", {
      body: { user: { id: "quiet", email: "q@example.com", subscribeToEmails: false }, value: 1 },
    });
    expect(event.status).toBe(201);
    expect((await server.rest("GET", "/v1/users/quiet")).body).toMatchObject({ email: null, subscribeToEmails: false });
    const resubscribed = await server.rest("PATCH", "/v1/users/dev", { body: { subscribeToEmails: true, email: "dev@example.com" } });
    expect(resubscribed.body).toMatchObject({ email: "dev@example.com", subscribeToEmails: true });
  });

  it("remove the time zone, e-mail or name with null (REST; the reference's tz is nullable) or clearTz, clearEmail, clearName (Connect, gRPC)", async () => {
    await server.rest("POST", "/v1/users", { body: { id: "zoned", tz: "Asia/Tokyo", name: "Z" } });
    expect((await server.rest("PATCH", "/v1/users/zoned", { body: { name: "Zed" } })).body).toMatchObject({ tz: "Asia/Tokyo", name: "Zed" });
    expect((await server.rest("PATCH", "/v1/users/zoned", { body: { tz: null } })).body).toMatchObject({ tz: null, name: "Zed" });
    expect((await server.rest("PUT", "/v1/users/zoned", { body: { tz: "Europe/Oslo" } })).body.tz).toBe("Europe/Oslo");
    expect((await server.rest("PUT", "/v1/users/zoned", { body: { tz: null } })).body.tz).toBeNull();
    await server.rest("PATCH", "/v1/users/zoned", { body: { tz: "Europe/Oslo" } });
    const event = await server.rest("POST", "/v1/metrics/words/event", { body: { user: { id: "zoned", tz: null }, value: 1 } });
    expect(event.status, JSON.stringify(event.body)).toBe(201);
    expect((await server.rest("GET", "/v1/users/zoned")).body.tz).toBeNull();
    for (const protocol of ["connect-json", "grpc"] as const) {
      const application = server.client(protocol).application;
      await application.updateUser({ id: "zoned", user: { tz: "America/Lima" } });
      expect((await application.updateUser({ id: "zoned", user: { clearTz: true } })).user?.tz).toBeUndefined();
      await expect(application.updateUser({ id: "zoned", user: { clearTz: true, tz: "Europe/Oslo" } })).rejects.toThrow(/send tz or clearTz, not both/);
    }
    expect((await server.rest("GET", "/v1/users/zoned")).body).toMatchObject({ tz: null, name: "Zed" });

    await server.rest("PATCH", "/v1/users/zoned", { body: { email: "z@example.com" } });
    expect((await server.rest("PATCH", "/v1/users/zoned", { body: { email: null } })).body).toMatchObject({ email: null, name: "Zed" });
    expect((await server.rest("PUT", "/v1/users/zoned", { body: { name: null, email: "z@example.com" } })).body).toMatchObject({
      email: "z@example.com",
      name: null,
    });
    const grpc = server.client("grpc").application;
    await grpc.updateUser({ id: "zoned", user: { name: "Zed" } });
    const cleared = (await grpc.updateUser({ id: "zoned", user: { clearEmail: true, clearName: true } })).user;
    expect([cleared?.email, cleared?.name]).toEqual([undefined, undefined]);
    await expect(grpc.updateUser({ id: "zoned", user: { clearName: true, name: "Z" } })).rejects.toThrow(/send name or clearName, not both/);
    await expect(grpc.updateUser({ id: "zoned", user: { clearEmail: true, email: "z@example.com" } })).rejects.toThrow(/send email or clearEmail, not both/);
    expect((await server.rest("GET", "/v1/users/zoned")).body).toMatchObject({ tz: null, name: null, email: null });
  });

  it("refuse invalid fields and unknown attributes, changing nothing", async () => {
    const before = (await server.rest("GET", "/v1/users/ann")).body;
    expect((await server.rest("PATCH", "/v1/users/ann", { body: { tz: "Atlantis/City" } })).status).toBe(400);
    expect((await server.rest("PATCH", "/v1/users/ann", { body: { email: "not-an-email" } })).body.error).toMatch(/email/);
    expect((await server.rest("PUT", "/v1/users/ann", { body: { attributes: { colour: "red" } } })).body.error).toMatch(/^Invalid attribute keys: colour\./);
    expect((await server.rest("GET", "/v1/users/ann")).body).toEqual(before);
    try {
      await server.client("connect-json").application.updateUser({ id: "ghost", user: { name: "x" } });
      expect.unreachable();
    } catch (error) {
      expect(ConnectError.from(error).code).toBe(Code.NotFound);
    }
  });
});

describe("users' sign-up dates (trophy 1.27.0's signUpDate)", () => {
  it("are set on create, identify, update and events, and read back (REST and Connect)", async () => {
    const created = await server.rest("POST", "/v1/users", { body: { id: "sue", signUpDate: "2024-02-29" } });
    expect([created.status, created.body.signUpDate]).toEqual([201, "2024-02-29"]);
    expect((await server.rest("PUT", "/v1/users/sue", { body: { name: "Sue" } })).body.signUpDate).toBe("2024-02-29"); // kept when not sent
    expect((await server.rest("PATCH", "/v1/users/sue", { body: { signUpDate: "2024-03-01" } })).body.signUpDate).toBe("2024-03-01");
    await server.rest("POST", "/v1/metrics/words/event", { body: { user: { id: "sam", signUpDate: "2025-12-31" }, value: 1 } });
    expect((await server.rest("GET", "/v1/users/sam")).body.signUpDate).toBe("2025-12-31");

    const app = server.client("connect-json").application;
    expect((await app.identifyUser({ id: "sid", user: { signUpDate: "2023-06-15" } })).user?.signUpDate).toBe("2023-06-15");
    expect((await app.getUser({ id: "sid" })).user?.signUpDate).toBe("2023-06-15");
    expect((await app.getUser({ id: "ann" })).user?.signUpDate).toBeUndefined();
  });

  it("refuse dates that are not real YYYY-MM-DD days in range, changing nothing", async () => {
    const before = (await server.rest("GET", "/v1/users/sue")).body;
    for (const bad of ["2026-02-29", "29/02/2024", "1999-12-31"]) {
      const response = await server.rest("PATCH", "/v1/users/sue", { body: { signUpDate: bad } });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(/^signUpDate must be/);
    }
    const event = await server.rest("POST", "/v1/metrics/words/event", { body: { user: { id: "sue", signUpDate: "2026-13-01" }, value: 1 } });
    expect([event.status, event.body.error]).toEqual([400, 'user.signUpDate must be a date (YYYY-MM-DD), got "2026-13-01"']);
    expect((await server.rest("GET", "/v1/users/sue")).body).toEqual(before);
    await expect(server.client("grpc").application.createUser({ user: { id: "bad-date", signUpDate: "tomorrow" } })).rejects.toThrow(
      /\[invalid_argument\] signUpDate must be a date/,
    );
  });
});

describe("metric reads", () => {
  it("list every metric of the tenant with the user's current total", async () => {
    await server.rest("POST", "/api/metrics/words/event", { body: { user: { id: "ann" }, value: 120.5 } });
    const list = await server.rest("GET", "/v1/users/ann/metrics");
    expect(list.body).toEqual([
      { id: expect.any(String), key: "words", name: "Words", current: 120.5, achievements: [], status: "active" },
      { id: expect.any(String), key: "pages", name: "Pages", current: 0, achievements: [], status: "active" },
    ]);
    expect((await server.rest("GET", "/v1/users/ann/metrics/words")).body).toEqual(list.body[0]);
    expect((await server.rest("GET", "/v1/users/ann/metrics/nope")).status).toBe(404);
    const viaConnect = await server.client("grpc-web").application.getUserMetric({ id: "ann", key: "words" });
    expect(viaConnect.metric?.current).toBe(120.5);
  });

  it("summarize changes per local day, week and month", async () => {
    const at = (iso: string, value: number) =>
      server.rest("POST", "/api/metrics/pages/event", { body: { user: { id: "sum", tz: "America/New_York" }, value, timestamp: iso } });
    // 03:00 UTC on Jan 2 is still Jan 1 in New York.
    await at("2026-01-02T03:00:00Z", 100);
    await at("2026-01-02T15:00:00Z", 200);
    await at("2026-01-03T15:00:00Z", 300);
    const daily = await server.rest("GET", "/v1/users/sum/metrics/pages/event-summary?aggregation=daily&startDate=2026-01-01&endDate=2026-01-03");
    expect(daily).toEqual({
      status: 200,
      body: [
        { date: "2026-01-01", total: 100, change: 100 },
        { date: "2026-01-02", total: 300, change: 200 },
        { date: "2026-01-03", total: 600, change: 300 },
      ],
    });
    const monthly = await server
      .client("connect-json")
      .application.getUserMetricEventSummary({ id: "sum", key: "pages", aggregation: 3, startDate: "2026-01-01", endDate: "2026-01-31" });
    expect(monthly.periods.map((p) => [p.date, p.total, p.change])).toEqual([["2026-01-01", 600, 600]]);
    const bad = await server.rest("GET", "/v1/users/sum/metrics/pages/event-summary?aggregation=hourly&startDate=2026-01-01&endDate=2026-01-03");
    expect(bad.status).toBe(400);
    // Errors name the fields as the caller sends them (query parameters, JSON names).
    const missing = await server.rest("GET", "/v1/users/sum/metrics/pages/event-summary?startDate=2026-01-01&endDate=2026-01-03");
    expect(missing).toEqual({ status: 400, body: { error: "Invalid request: aggregation: value is required" } });
    const badDate = await server.rest("GET", "/v1/users/sum/metrics/pages/event-summary?aggregation=daily&startDate=2026-1-1&endDate=2026-01-03");
    expect(badDate.body.error).toMatch(/^Invalid request: startDate: /);
    const tooLong = await server.rest("GET", "/v1/users/sum/metrics/pages/event-summary?aggregation=daily&startDate=2025-01-01&endDate=2026-03-01");
    expect(tooLong.body.error).toMatch(/at most 400 days/);
  });
});
