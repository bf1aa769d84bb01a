import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, startAnotherInstance, startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";
import { minuteOf, userDocumentId } from "../../src/engine/store/user-documents.js";
import { findDueUsers } from "../../src/workers/store/due-users.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "other", name: "Other" }] });
});
afterAll(() => server.close());

describe("custom attributes", () => {
  it("are created, listed, read, renamed and deleted in the reference shapes", async () => {
    const created = await server.rest("POST", "/admin/v1/attributes", {
      body: [
        { key: "plan", name: "Plan", type: "user" },
        { key: "source", name: "Source", type: "event" },
        { key: "plan", name: "Plan again", type: "user" },
        { key: "bad key", name: "Bad", type: "user" },
        { key: "nameless", name: "", type: "event" },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.created).toEqual([
      { id: expect.any(String), key: "plan", name: "Plan", type: "user" },
      { id: expect.any(String), key: "source", name: "Source", type: "event" },
    ]);
    expect(created.body.issues).toEqual([
      {
        index: 2,
        severity: "error",
        message: 'Key "plan" is already in use by another user attribute',
        level: "error",
        reason: 'Key "plan" is already in use by another user attribute',
      },
      {
        index: 3,
        severity: "error",
        message: expect.stringMatching(/^key "bad key" is invalid/),
        level: "error",
        reason: expect.stringMatching(/^key "bad key" is invalid/),
      },
      { index: 4, severity: "error", message: "name is required", level: "error", reason: "name is required" },
    ]);
    const [plan] = created.body.created;
    const renamed = await server.client("connect-json").admin.updateAttributes({ attributes: [{ id: plan.id, name: "Plan tier" }] });
    expect(renamed.updated[0]?.name).toBe("Plan tier");
    expect((await server.rest("GET", `/admin/v1/attributes/${plan.id}`)).body).toEqual({ ...plan, name: "Plan tier" });
    expect((await server.rest("GET", "/admin/v1/attributes", { tenantId: "other" })).body).toEqual([]);
    expect((await server.rest("DELETE", `/admin/v1/attributes?ids=${plan.id}`, { tenantId: "other" })).body.deleted).toEqual([]);
  });

  it("are the only keys events and users accept, and take effect on the next event", async () => {
    await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "clicks", name: "Clicks" }] });
    const refused = await server.rest("POST", "/api/metrics/clicks/event", {
      body: { user: { id: "u1", attributes: { plan: "pro", colour: "red" } }, value: 1, attributes: { source: "web", medium: "x" } },
    });
    expect(refused).toEqual({
      status: 400,
      body: { error: "Invalid attribute keys: medium, colour. Please make sure all keys match attributes created in the dashboard." },
    });
    expect(await server.service.context.database.collections.users.countDocuments({ userId: "u1" })).toBe(0);

    const accepted = await server.rest("POST", "/api/metrics/clicks/event", {
      body: { user: { id: "u1", attributes: { plan: "pro" } }, value: 1, attributes: { source: "web" } },
    });
    expect(accepted.status).toBe(201);
    expect((await server.rest("GET", "/v1/users/u1")).body.attributes).toEqual({ plan: "pro" });
    // An event attribute key is not a user attribute key.
    const wrongType = await server.rest("POST", "/api/metrics/clicks/event", { body: { user: { id: "u1", attributes: { source: "x" } }, value: 1 } });
    expect(wrongType.body.error).toMatch(/^Invalid attribute keys: source\./);
  });

  it("deleted, take their values off users (hidden at once, dropped at the user's next write); at most 100 of a type per tenant", async () => {
    const tenantId = "attrs";
    await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenantId, name: "Attributes" }] });
    const post = (path: string, body: unknown) => server.rest("POST", path, { body, tenantId });
    await post("/admin/v1/metrics", [{ key: "taps", name: "Taps" }]);
    const [tier, region] = (
      await post("/admin/v1/attributes", [
        { key: "tier", name: "Tier", type: "user" },
        { key: "region", name: "Region", type: "user" },
      ])
    ).body.created;
    expect((await post("/v1/users", { id: "a1", attributes: { tier: "gold", region: "eu" } })).status).toBe(201);
    expect((await server.rest("DELETE", `/admin/v1/attributes?ids=${tier.id}`, { tenantId })).body.deleted).toEqual([{ id: tier.id }]);
    expect((await server.rest("GET", "/v1/users/a1", { tenantId })).body.attributes).toEqual({ region: "eu" });
    // The next write drops the value from the document: an attribute created again starts with none.
    expect((await post("/v1/metrics/taps/event", { user: { id: "a1" }, value: 1 })).status).toBe(201);
    await post("/admin/v1/attributes", [{ key: "tier", name: "Tier again", type: "user" }]);
    expect((await server.rest("GET", "/v1/users/a1", { tenantId })).body.attributes).toEqual({ region: "eu" });
    const stored = await server.service.context.database.collections.users.findOne({ userId: "a1" });
    expect(JSON.stringify(stored)).not.toContain("gold");

    // 100 user attributes at most (region and tier are two): the 99th new one is refused.
    const many = await post(
      "/admin/v1/attributes",
      Array.from({ length: 99 }, (_, i) => ({ key: `k${i}`, name: `K${i}`, type: "user" })),
    );
    expect(many.body.created).toHaveLength(98);
    expect(many.body.issues).toEqual([expect.objectContaining({ index: 98, message: "A tenant has at most 100 user attributes; delete one first" })]);
    expect((await post("/admin/v1/attributes", [{ key: "e1", name: "Event one", type: "event" }])).body.created).toHaveLength(1);
    expect(region.key).toBe("region");
  });

  it("created again with a key used before, hold none of the earlier attribute's values: not shown, matched or counted, dropped at the user's next write", async () => {
    const tenantId = "attrs-again";
    const [internalId] = await createdIds(server, "/admin/v1/tenants", [{ customerId: tenantId, name: "Attributes again" }]);
    const storedUser = async (id: string) =>
      JSON.stringify(await server.service.context.database.collections.users.findOne({ _id: userDocumentId(internalId!, id) }));
    const created = (path: string, body: unknown[]) => createdIds(server, path, body, tenantId);
    const post = (path: string, body: unknown) => server.rest("POST", path, { body, tenantId });
    const [taps] = await created("/admin/v1/metrics", [{ key: "taps", name: "Taps" }]);
    const [earlierTier] = await created("/admin/v1/attributes", [{ key: "tier", name: "Tier", type: "user" }]);
    for (const id of ["a1", "a2"]) expect((await post("/v1/users", { id, attributes: { tier: "gold" } })).status).toBe(201);
    // Deleted and created again before either user writes anything.
    expect((await server.rest("DELETE", `/admin/v1/attributes?ids=${earlierTier}`, { tenantId })).body.deleted).toEqual([{ id: earlierTier }]);
    const [tier] = await created("/admin/v1/attributes", [{ key: "tier", name: "Tier", type: "user" }]);
    const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP" }]);
    const onlyGold = [{ attributeId: tier, attributeValue: "gold" }];
    await created(`/admin/v1/points/${xp}/triggers`, [
      { type: "metric", points: 10, metricId: taps, metricThreshold: 1, status: "active", userAttributes: onlyGold },
    ]);
    await created(`/admin/v1/points/${xp}/boosts`, [
      { name: "Gold double", start: new Date().toISOString().slice(0, 10), multiplier: 2, userAttributes: onlyGold },
    ]);
    const boostsOf = async (id: string) =>
      (await server.rest("GET", `/v1/users/${id}/points/xp/boosts`, { tenantId })).body.map((b: { name: string }) => b.name);
    const goldUsers = async () => {
      const summary = await server.rest("GET", "/v1/points/xp/summary?userAttributes=tier:gold", { tenantId });
      expect(summary.status).toBe(200);
      return (summary.body as Array<{ users: number }>).reduce((sum, range) => sum + range.users, 0);
    };

    expect((await server.rest("GET", "/v1/users/a1", { tenantId })).body.attributes).toEqual({});
    expect(await goldUsers()).toBe(0);
    expect(await boostsOf("a1")).toEqual([]);
    // The trigger filtered by the new attribute does not match the earlier one's value.
    const untouched = await post("/v1/metrics/taps/event", { user: { id: "a1" }, value: 1 });
    expect([untouched.status, untouched.body.points]).toEqual([201, {}]);
    expect(await storedUser("a1")).toMatch(/"userId":"a1"/);
    expect(await storedUser("a1")).not.toContain("gold");
    // A value sent again is the user's own.
    const resent = await post("/v1/metrics/taps/event", { user: { id: "a1", attributes: { tier: "gold" } }, value: 1 });
    expect(resent.body.points.xp).toMatchObject({ added: 20, total: 20 });
    expect((await server.rest("GET", "/v1/users/a1", { tenantId })).body.attributes).toEqual({ tier: "gold" });
    expect(await goldUsers()).toBe(1);
    expect(await boostsOf("a1")).toEqual(["Gold double"]);
    // a2 has not written since: the document still holds the earlier value, which counts nowhere.
    expect(await storedUser("a2")).toContain("gold");
    expect((await server.rest("GET", "/v1/users/a2", { tenantId })).body.attributes).toEqual({});
    expect(await boostsOf("a2")).toEqual([]);
  });

  it("created again with a key used before, hold none of the earlier attribute's values on an instance that has not seen the change yet", async () => {
    // Two instances on one database, both in the mode that allows it (no user cache).
    const first = await startTestServer({ writeMode: "versioned", versionedOnFerretDbForTests: true });
    const second = await startAnotherInstance(first);
    try {
      const tenantId = "attrs-two-instances";
      await createdIds(first, "/admin/v1/tenants", [{ customerId: tenantId, name: "Attributes on two instances" }]);
      const created = (path: string, body: unknown[]) => createdIds(first, path, body, tenantId);
      await created("/admin/v1/metrics", [{ key: "taps", name: "Taps" }]);
      const [earlierTier] = await created("/admin/v1/attributes", [
        { key: "tier", name: "Tier", type: "user" },
        { key: "plan", name: "Plan", type: "user" },
      ]);
      expect((await first.rest("POST", "/v1/users", { tenantId, body: { id: "x1", attributes: { tier: "gold" } } })).status).toBe(201);
      const onSecond = (user: Record<string, unknown>) =>
        fetch(`http://127.0.0.1:${second.port}/v1/metrics/taps/event`, {
          method: "POST",
          headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", "tenant-id": tenantId },
          body: JSON.stringify({ user, value: 1 }),
        });
      expect((await onSecond({ id: "warm" })).status).toBe(201); // the second instance caches the attributes
      await first.rest("DELETE", `/admin/v1/attributes?ids=${earlierTier}`, { tenantId });
      await created("/admin/v1/attributes", [{ key: "tier", name: "Tier", type: "user" }]);
      // Within its cache's second, the second instance writes x1 with the earlier attribute still in force there.
      expect((await onSecond({ id: "x1", attributes: { plan: "pro" } })).status).toBe(201);
      expect((await first.rest("GET", "/v1/users/x1", { tenantId })).body.attributes).toEqual({ plan: "pro" });
    } finally {
      await second.close();
      await first.close();
    }
  });

  it("reach another instance on the same database within the documented one-second bound", async () => {
    const second = await startAnotherInstance(server);
    try {
      const send = () =>
        fetch(`http://127.0.0.1:${second.port}/api/metrics/clicks/event`, {
          method: "POST",
          headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
          body: JSON.stringify({ user: { id: "u2" }, value: 1, attributes: { campaign: "x" } }),
        });
      expect((await send()).status).toBe(400); // caches "no such attribute" on the second instance
      await server.rest("POST", "/admin/v1/attributes", { body: [{ key: "campaign", name: "Campaign", type: "event" }] });
      await new Promise((r) => setTimeout(r, 1100));
      expect((await send()).status).toBe(201);
    } finally {
      await second.close();
    }
  });

  it("deleted on one instance, are refused at once by another instance's admin checks (not after its cache's second)", async () => {
    const second = await startAnotherInstance(server);
    try {
      const [plan] = await createdIds(server, "/admin/v1/attributes", [{ key: "plan-tier", name: "Plan tier", type: "user" }]);
      const [metric] = await createdIds(server, "/admin/v1/metrics", [{ key: "tiered", name: "Tiered" }]);
      const onSecond = (path: string, body: unknown) =>
        fetch(`http://127.0.0.1:${second.port}${path}`, {
          method: "POST",
          headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      // An event caches the tenant's user attributes on the second instance.
      expect((await onSecond("/api/metrics/tiered/event", { user: { id: "tier-user", attributes: { "plan-tier": "pro" } }, value: 1 })).status).toBe(201);
      expect((await server.rest("DELETE", `/admin/v1/attributes?ids=${plan}`)).body.issues).toEqual([]);
      const after = (await (
        await onSecond("/admin/v1/leaderboards", [{ key: "tier", name: "Tier", rankBy: "metric", metricId: metric, breakdownAttributes: [plan] }])
      ).json()) as { created: unknown[]; issues: Array<{ message: string }> };
      expect(after.created).toEqual([]);
      expect(after.issues[0]?.message).toContain(plan);
    } finally {
      await second.close();
    }
  });
  it("created on one instance, are known at once to another instance's achievement admin: accepted by ID and shown with their ID", async () => {
    const second = await startAnotherInstance(server);
    try {
      const onSecond = async (path: string, body: unknown) => {
        const response = await fetch(`http://127.0.0.1:${second.port}${path}`, {
          method: "POST",
          headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return (await response.json()) as { created: Array<{ id: string }>; issues: unknown[] };
      };
      // A read caches the tenant's attributes on this instance.
      expect((await server.rest("GET", "/admin/v1/achievements")).status).toBe(200);
      const [tier] = (await onSecond("/admin/v1/attributes", [{ key: "fresh-tier", name: "Tier", type: "user" }])).created;
      const filter = { attributeId: tier!.id, attributeValue: "gold" };
      const createdThere = await onSecond("/admin/v1/achievements", [{ name: "Gold", key: "gold-tier", trigger: "api", userAttributes: [filter] }]);
      expect(createdThere.issues).toEqual([]);
      const shownHere = await server.rest("GET", `/admin/v1/achievements/${createdThere.created[0]!.id}`);
      expect(shownHere.body).toEqual(createdThere.created[0]);
      expect(shownHere.body.userAttributes).toEqual([{ key: "fresh-tier", value: "gold", ...filter }]);

      const [region] = (await onSecond("/admin/v1/attributes", [{ key: "fresh-region", name: "Region", type: "user" }])).created;
      const createdHere = await server.rest("POST", "/admin/v1/achievements", {
        body: [{ name: "EU", key: "eu-region", trigger: "api", userAttributes: [{ attributeId: region!.id, attributeValue: "eu" }] }],
      });
      expect([createdHere.status, createdHere.body.issues]).toEqual([201, []]);
    } finally {
      await second.close();
    }
  });
});

describe("metrics", () => {
  it("change key only until the metric has events, and refuse invalid updates", async () => {
    const { body } = await server.rest("POST", "/admin/v1/metrics", {
      body: [
        { key: "drafts", name: "Drafts" },
        { key: "revenue", name: "Revenue", unitType: "currency", units: "USD" },
      ],
    });
    const [drafts, revenue] = body.created;
    expect(revenue).toMatchObject({ unitType: "currency", units: "USD" });
    const renamed = await server.rest("PATCH", "/admin/v1/metrics", { body: [{ id: drafts.id, key: "drafts-written" }] });
    expect(renamed.body.updated[0].key).toBe("drafts-written");
    await server.rest("POST", "/api/metrics/drafts-written/event", { body: { user: { id: "w" }, value: 1 } });
    const locked = await server.rest("PATCH", "/admin/v1/metrics", {
      body: [
        { id: drafts.id, key: "drafts-again" },
        { id: revenue.id, units: "dollars" },
        { id: "nope", name: "x" },
      ],
    });
    expect(locked.body).toEqual({
      updated: [],
      issues: [
        {
          id: drafts.id,
          severity: "error",
          message: "key cannot be changed once the metric has events",
          level: "error",
          reason: "key cannot be changed once the metric has events",
        },
        {
          id: revenue.id,
          severity: "error",
          message: 'units must be an ISO 4217 currency code (e.g. "USD") for a currency metric, got "dollars"',
          level: "error",
          reason: 'units must be an ISO 4217 currency code (e.g. "USD") for a currency metric, got "dollars"',
        },
        { id: "nope", severity: "error", message: "Metric not found by ID", level: "error", reason: "Metric not found by ID" },
      ],
    });
    const toNumber = await server.rest("PATCH", "/admin/v1/metrics", { body: [{ id: revenue.id, unitType: "number" }] });
    expect(toNumber.body.updated[0]).toMatchObject({ unitType: "number", units: "" });
  });

  it("refuse an update to a key another item holds as an issue, changing nothing (metrics, achievements, leaderboards, tenants)", async () => {
    const issue = (id: string, message: string) => ({ id, severity: "error", message, level: "error", reason: message });
    const created = async (path: string, body: unknown[]) => (await server.rest("POST", path, { body })).body.created;
    const [taken, free, spare] = await created("/admin/v1/metrics", [
      { key: "taken", name: "Taken" },
      { key: "free", name: "Free" },
      { key: "spare", name: "Spare" },
    ]);
    // An existing key, and two items of one request moving to the same new key.
    expect((await server.rest("PATCH", "/admin/v1/metrics", { body: [{ id: free.id, key: "taken", name: "Renamed" }] })).body).toEqual({
      updated: [],
      issues: [issue(free.id, 'Key "taken" is already in use by another metric')],
    });
    expect(
      (
        await server.rest("PATCH", "/admin/v1/metrics", {
          body: [
            { id: free.id, key: "same" },
            { id: spare.id, key: "same" },
          ],
        })
      ).body,
    ).toEqual({
      updated: [expect.objectContaining({ id: free.id, key: "same" })],
      issues: [issue(spare.id, 'Key "same" is already in use by another metric')],
    });
    expect((await server.rest("GET", `/admin/v1/metrics/${spare.id}`)).body).toMatchObject({ key: "spare", name: "Spare" });

    const [first, second] = await created("/admin/v1/achievements", [
      { name: "First", key: "first-api", trigger: "api" },
      { name: "Second", key: "second-api", trigger: "api" },
    ]);
    expect((await server.rest("PATCH", "/admin/v1/achievements", { body: [{ id: second.id, key: "first-api" }] })).body.issues).toEqual([
      expect.objectContaining({ id: second.id, message: expect.stringContaining("first-api") }),
    ]);
    expect((await server.rest("GET", `/admin/v1/achievements/${first.id}`)).body.key).toBe("first-api");

    const board = (key: string) => ({ key, name: key, rankBy: "metric", metricId: taken.id, status: "inactive", start: "2026-01-01" });
    const [, boardB] = await created("/admin/v1/leaderboards", [board("board-a"), board("board-b")]);
    expect((await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: boardB.id, key: "board-a" }] })).body.issues).toEqual([
      issue(boardB.id, 'Key "board-a" is already in use by another leaderboard'),
    ]);

    const [, beta] = await created("/admin/v1/tenants", [
      { customerId: "alpha-co", name: "Alpha" },
      { customerId: "beta-co", name: "Beta" },
    ]);
    expect((await server.rest("PATCH", "/admin/v1/tenants", { body: [{ id: beta.id, customerId: "alpha-co" }] })).body).toEqual({
      updated: [],
      issues: [issue(beta.id, 'Customer ID "alpha-co" already exists in this environment')],
    });
    expect((await server.rest("GET", `/admin/v1/tenants/${beta.id}`)).body.customerId).toBe("beta-co");
  });
});

describe("updates", () => {
  const issue = (id: string, message: string) => ({ id, severity: "error", message, level: "error", reason: message });
  const CONTROL = "name must not contain control characters (such as NUL, a line break or ESC)";

  it("check names as creation does, and take a currency metric's own unit type back unchanged", async () => {
    const [sales] = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "sales", name: "Sales", unitType: "currency", units: "EUR" }] })).body
      .created;
    expect((await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "bell", name: "x\u0007y" }] })).body.issues).toEqual([
      { index: 0, severity: "error", message: CONTROL, level: "error", reason: CONTROL },
    ]);
    const renamed = await server.rest("PATCH", "/admin/v1/metrics", {
      body: [{ id: sales.id, name: "Sales\nTotal" }],
    });
    expect(renamed.body).toEqual({ updated: [], issues: [issue(sales.id, CONTROL)] });
    const resent = await server.rest("PATCH", "/admin/v1/metrics", { body: [{ id: sales.id, name: "Turnover", unitType: "currency" }] });
    expect(resent.body.updated).toEqual([expect.objectContaining({ name: "Turnover", unitType: "currency", units: "EUR" })]);
    const badUnits = "units must not contain control characters (such as NUL, a line break or ESC)";
    expect((await server.rest("PATCH", "/admin/v1/metrics", { body: [{ id: sales.id, unitType: "number", units: "k\tg" }] })).body.issues).toEqual([
      issue(sales.id, badUnits),
    ]);

    const [team] = await createdIds(server, "/admin/v1/attributes", [{ key: "squad", name: "Squad", type: "user" }]);
    const attribute = await server.rest("PATCH", "/admin/v1/attributes", {
      body: [
        { id: team, name: "a\u001bb" },
        { id: team, name: "n".repeat(256) },
      ],
    });
    expect(attribute.body.issues).toEqual([issue(team!, CONTROL), issue(team!, "name must be at most 255 characters")]);
    expect((await server.rest("GET", `/admin/v1/attributes/${team}`)).body.name).toBe("Squad");
  });

  it("apply an ID named twice in one request in order, and do the work after a change once, from the first state to the last", async () => {
    const [laps] = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "laps", name: "Laps" }] })).body.created;
    const twice = await server.rest("PATCH", "/admin/v1/metrics", {
      body: [
        { id: laps.id, name: "Lengths" },
        { id: laps.id, units: "m" },
      ],
    });
    expect(twice.body.issues).toEqual([]);
    expect((await server.rest("GET", `/admin/v1/metrics/${laps.id}`)).body).toMatchObject({ name: "Lengths", units: "m" });
    // A time trigger made active lists the tenant's users for the scheduler (its work after the
    // change), also when the same request changes the trigger again.
    const { dueUsers } = server.service.context.database.collections;
    const [xp] = await createdIds(server, "/admin/v1/points", [{ key: "laps-xp", name: "XP" }]);
    expect((await server.rest("PUT", "/v1/users/early-bird", { body: {} })).status).toBe(200);
    const [hourly] = await createdIds(server, `/admin/v1/points/${xp}/triggers`, [
      { type: "time", points: 1, timeUnit: "hours", timeInterval: 1, status: "inactive" },
    ]);
    const minute = minuteOf(new Date()) + 1;
    const activated = await server.rest("PATCH", `/admin/v1/points/${xp}/triggers`, {
      body: [
        { id: hourly, status: "active" },
        { id: hourly, points: 2 },
      ],
    });
    expect(activated.body.issues).toEqual([]);
    const listed = (await Promise.all([minute, minute + 1].map((m) => findDueUsers(dueUsers, m)))).flatMap((m) => m.users.map((u) => u.userId));
    expect(listed).toContain("early-bird");
  });

  it("made at once, each take effect: different fields of one item, and an update beside an archive", async () => {
    const [gems] = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "gems", name: "Gems" }] })).body.created;
    for (let round = 0; round < 15; round++) {
      const [named, measured] = await Promise.all([
        server.rest("PATCH", "/admin/v1/metrics", { body: [{ id: gems.id, name: `Gems ${round}` }] }),
        server.rest("PATCH", "/admin/v1/metrics", { body: [{ id: gems.id, units: `u${round}` }] }),
      ]);
      expect([named.body.issues, measured.body.issues]).toEqual([[], []]);
      expect((await server.rest("GET", `/admin/v1/metrics/${gems.id}`)).body).toMatchObject({ name: `Gems ${round}`, units: `u${round}` });
    }
    for (let round = 0; round < 15; round++) {
      const [system] = await createdIds(server, "/admin/v1/points", [{ key: `coins-${round}`, name: "Coins" }]);
      const [described, archived] = await Promise.all([
        server.rest("PATCH", "/admin/v1/points", { body: [{ id: system, description: "Shiny" }] }),
        server.rest("DELETE", `/admin/v1/points?ids=${system}`),
      ]);
      expect(archived.body.issues).toEqual([]);
      // The description went in before the archive, or is refused after it: never both undone.
      const stored = (await server.rest("GET", `/admin/v1/points/${system}`)).body;
      expect(stored.status).toBe("archived");
      expect(stored.description === "Shiny").toBe(described.body.issues.length === 0);
    }
  });
});

describe("configuration writes made at once", () => {
  it("never both delete an item and create one naming it: one of the two is refused", async () => {
    for (let round = 0; round < 10; round++) {
      const [system] = await createdIds(server, "/admin/v1/points", [{ key: `raced-${round}`, name: "Raced" }]);
      const [archived, board] = await Promise.all([
        server.rest("DELETE", `/admin/v1/points?ids=${system}`),
        server.rest("POST", "/admin/v1/leaderboards", {
          body: [{ key: `raced-board-${round}`, name: "Raced", rankBy: "points", pointsSystemId: system, status: "active", start: "2025-01-01" }],
        }),
      ]);
      expect(archived.body.deleted.length + board.body.created.length).toBe(1);
      const [metric] = await createdIds(server, "/admin/v1/metrics", [{ key: `raced-metric-${round}`, name: "Raced" }]);
      const [deleted, achievement] = await Promise.all([
        server.rest("DELETE", `/admin/v1/metrics?ids=${metric}`),
        server.rest("POST", "/admin/v1/achievements", {
          body: [{ key: `raced-achievement-${round}`, name: "Raced", trigger: "metric", metricId: metric, metricValue: 1, status: "active" }],
        }),
      ]);
      expect(deleted.body.deleted.length + achievement.body.created.length).toBe(1);
    }
  });
});

describe("API keys", () => {
  it("creates application keys shown once, which act for their user and can be revoked", async () => {
    // A malformed user ID refuses the whole request (the user ID rule is a request-level rule).
    const refused = await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "alice" }, { userId: "" }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain("keys[1].userId: must be 1 to 255 characters");
    const created = await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "alice" }] });
    expect(created.status).toBe(201);
    const [key] = created.body.created;
    expect(key).toEqual({
      id: expect.any(String),
      userId: "alice",
      key: expect.stringMatching(/^app_[0-9a-f]{12}\./),
      prefix: key.key.split(".")[0],
      rateLimit: null,
    });
    expect(created.body.issues).toEqual([]);

    expect((await server.rest("GET", "/v1/users/u1", { apiKey: key.key })).status).toBe(403);
    expect((await server.rest("POST", "/api/metrics/clicks/event", { apiKey: key.key, body: { user: { id: "alice" }, value: 1 } })).status).toBe(201);
    // A key of the default scope cannot be used in another tenant.
    const other = await server.rest("GET", "/v1/users/alice", { apiKey: key.key, tenantId: "other" });
    // ...and cannot tell an existing tenant from an unknown one.
    const unknown = await server.rest("GET", "/v1/users/alice", { apiKey: key.key, tenantId: "no-such-tenant" });
    expect([other, unknown]).toEqual([
      { status: 403, body: { error: "This API key belongs to another tenant" } },
      { status: 403, body: { error: "This API key belongs to another tenant" } },
    ]);

    expect((await server.rest("DELETE", `/admin/v1/application-api-keys?ids=${key.id}`, { tenantId: "other" })).body).toEqual({
      deleted: [],
      issues: [expect.objectContaining({ id: key.id, message: "Application API key not found by ID" })],
    });
    expect((await server.rest("GET", "/v1/users/alice", { apiKey: key.key })).status).toBe(200); // now in the key cache
    expect((await server.rest("DELETE", `/admin/v1/application-api-keys?ids=${key.id}`)).body.deleted).toEqual([{ id: key.id }]);
    // At once on this instance: the revocation cleared its key cache.
    expect((await server.rest("GET", "/v1/users/alice", { apiKey: key.key })).status).toBe(401);
  });

  it("creates, lists (prefix only) and revokes admin keys; a key cannot revoke itself", async () => {
    const created = await server.client("grpc").admin.createAdminApiKey({});
    expect(created.key?.key).toMatch(/^adm_[0-9a-f]{12}\./);
    const list = await server.rest("GET", "/admin/v1/admin-api-keys");
    expect(list.body.map((k: { prefix: string }) => k.prefix)).toContain(created.key?.prefix);
    expect(JSON.stringify(list.body)).not.toContain(created.key!.key.split(".")[1]);

    const newKeyId = created.key!.id;
    const self = await server.rest("DELETE", `/admin/v1/admin-api-keys?ids=${newKeyId}`, { apiKey: created.key!.key });
    expect(self.body.issues[0].message).toBe("An admin key cannot revoke itself; use another admin key");
    expect((await server.rest("DELETE", `/admin/v1/admin-api-keys?ids=${newKeyId}`)).body.deleted).toEqual([{ id: newKeyId }]);
    await new Promise((r) => setTimeout(r, 1100));
    try {
      await server.client("connect-binary", { apiKey: created.key!.key }).admin.listMetrics({});
      expect.unreachable();
    } catch (error) {
      expect(ConnectError.from(error).code).toBe(Code.Unauthenticated);
    }
  });
});
