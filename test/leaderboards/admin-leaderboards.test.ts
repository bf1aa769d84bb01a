import { randomUUID } from "node:crypto";
import { fromJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeaderboardRankBy, LeaderboardRunUnit, LeaderboardStatus } from "../../sdk/src/index.js";
import { DEFAULT_SCOPE } from "../../src/features/account/domain/tenant.js";
import { describeReferrers } from "../../src/engine/references.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { leaderboardRankingsFilter } from "../../src/features/leaderboards/store/leaderboard-rankings.js";
import { datesOnEarth } from "../../src/features/leaderboards/domain/leaderboard-config.js";

let server: TestServer;
let words: string;
let otherTenant: string;
let otherMetric: string;
let points: string;
let otherPoints: string;
/** Attribute IDs: breakdowns name user attributes by ID, as in the reference. */
let city: string;
let source: string;
let region: string;

/** A calendar day (YYYY-MM-DD, UTC) relative to today: the admin rules compare dates with today. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Moves the server's clock (the status a read shows depends on it). */
let offsetMs = 0;

beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(Date.now() + offsetMs) });
  otherTenant = (await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "other", name: "Other" }] })).body.created[0].id;
  words = (await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words", name: "Words" }] })).body.created[0].id;
  [city, source] = (
    await server.rest("POST", "/admin/v1/attributes", {
      body: [
        { key: "city", name: "City", type: "user" },
        { key: "source", name: "Source", type: "event" },
      ],
    })
  ).body.created.map((a: { id: string }) => a.id);
  otherMetric = (await server.rest("POST", "/admin/v1/metrics", { tenantId: "other", body: [{ key: "steps", name: "Steps" }] })).body.created[0].id;
  region = (await server.rest("POST", "/admin/v1/attributes", { tenantId: "other", body: [{ key: "region", name: "Region", type: "user" }] })).body.created[0]
    .id;
  // Points systems are administered elsewhere; a leaderboard only needs one to exist in its tenant.
  points = randomUUID();
  otherPoints = randomUUID();
  const systems = server.service.context.database.collections.pointsSystems;
  await systems.insertMany([
    { _id: points as never, tenantId: DEFAULT_SCOPE, key: "xp", name: "XP" },
    { _id: otherPoints as never, tenantId: otherTenant, key: "xp", name: "XP" },
  ]);
});
afterAll(() => server.close());

const snapshot = () => server.service.context.database.collections.leaderboards.find({}).sort({ _id: 1 }).toArray();

describe("leaderboards over REST", () => {
  it("are created, listed, read, updated and deleted in the reference shapes", async () => {
    const created = await server.rest("POST", "/admin/v1/leaderboards", {
      body: [
        {
          name: "Revenue Champions",
          key: "revenue-champions",
          description: "Ranked by monthly revenue",
          status: "active",
          rankBy: "metric",
          metricId: words,
          maxParticipants: 100,
          start: day(-1),
          end: day(30),
          breakdownAttributes: [city],
          userAttributes: [],
          runUnit: "month",
          runInterval: 1,
        },
        { name: "Streak Legends", key: "streak-legends", status: "scheduled", rankBy: "streak", start: day(7) },
        { name: "XP", key: "xp", rankBy: "points", pointsSystemId: points, maxParticipants: 50_000, startTime: "09:00", endTime: "17:00" },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      created: [
        {
          id: expect.any(String),
          name: "Revenue Champions",
          key: "revenue-champions",
          description: "Ranked by monthly revenue",
          status: "active",
          rankBy: "metric",
          metricId: words,
          maxParticipants: 100,
          start: day(-1),
          end: day(30),
          breakdownAttributes: [city],
          userAttributes: [],
          runUnit: "month",
          runInterval: 1,
        },
        // The reference's own example of a streak leaderboard, field for field.
        {
          id: expect.any(String),
          name: "Streak Legends",
          key: "streak-legends",
          status: "scheduled",
          rankBy: "streak",
          maxParticipants: 1000,
          start: day(7),
          breakdownAttributes: [],
          userAttributes: [],
        },
        {
          id: expect.any(String),
          name: "XP",
          key: "xp",
          status: "inactive",
          rankBy: "points",
          pointsSystemId: points,
          maxParticipants: 50_000,
          start: day(0),
          startTime: "09:00",
          endTime: "17:00",
          breakdownAttributes: [],
          userAttributes: [],
        },
      ],
      issues: [],
    });
    const [revenue, streak, xp] = created.body.created;

    expect(await server.rest("GET", "/admin/v1/leaderboards")).toEqual({ status: 200, body: [revenue, streak, xp] });
    expect((await server.rest("GET", "/admin/v1/leaderboards?skip=2")).body).toEqual([xp]);
    expect(await server.rest("GET", `/admin/v1/leaderboards/${streak.id}`)).toEqual({ status: 200, body: streak });
    expect(await server.rest("GET", "/admin/v1/leaderboards/missing")).toEqual({ status: 404, body: { error: 'Leaderboard "missing" not found' } });

    const patched = await server.rest("PATCH", "/admin/v1/leaderboards", {
      body: [
        { id: revenue.id, name: "Monthly Revenue Champions", maxParticipants: 5000, end: null, description: null },
        { id: streak.id, status: "inactive" },
        { id: xp.id, key: "xp-2", rankBy: "metric", metricId: words, startTime: null, endTime: null },
        { id: revenue.id, key: "renamed" },
        { id: "missing", name: "x" },
      ],
    });
    expect(patched.status).toBe(200);
    const { description: _d, end: _e, ...unended } = revenue;
    const { pointsSystemId: _p, startTime: _s, endTime: _t, ...byMetric } = xp;
    expect(patched.body).toEqual({
      updated: [
        { ...unended, name: "Monthly Revenue Champions", maxParticipants: 5000 },
        { ...streak, status: "inactive" },
        { ...byMetric, key: "xp-2", rankBy: "metric", metricId: words },
      ],
      issues: [
        {
          id: revenue.id,
          severity: "error",
          message: "key can only be changed while the leaderboard is inactive (it is active)",
          level: "error",
          reason: "key can only be changed while the leaderboard is inactive (it is active)",
        },
        { id: "missing", severity: "error", message: "Leaderboard not found by ID", level: "error", reason: "Leaderboard not found by ID" },
      ],
    });
    // null resets maxParticipants to its default (the reference types it nullable).
    const reset = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: revenue.id, maxParticipants: null }] });
    expect(reset.body.updated[0].maxParticipants).toBe(1000);
    const both = server.client("connect-json").leaderboards.updateLeaderboards({
      leaderboards: [{ id: revenue.id, maxParticipants: 5, resetMaxParticipants: true }],
    });
    await expect(both).rejects.toThrow(/not both/);

    const removed = await server.rest("DELETE", `/admin/v1/leaderboards?ids=${xp.id}&ids=missing`);
    expect(removed).toEqual({
      status: 200,
      body: {
        deleted: [{ id: xp.id }],
        issues: [{ id: "missing", severity: "error", message: "Leaderboard not found by ID", level: "error", reason: "Leaderboard not found by ID" }],
      },
    });
    expect((await server.rest("GET", "/admin/v1/leaderboards")).body.map((l: { key: string }) => l.key)).toEqual(["revenue-champions", "streak-legends"]);
  });

  it("deleting a leaderboard deletes the rankings of every run and group, by key", async () => {
    const tenantId = "deleting";
    const admin = async (method: string, path: string, body?: unknown) => server.rest(method, path, { body, tenantId });
    const created = await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenantId, name: "Deleting" }] });
    const internalId: string = created.body.created[0].id;
    const [laps] = (await admin("POST", "/admin/v1/metrics", [{ key: "laps", name: "Laps" }])).body.created;
    const [team] = (await admin("POST", "/admin/v1/attributes", [{ key: "team", name: "Team", type: "user" }])).body.created;
    const daily = { rankBy: "metric", metricId: laps.id, status: "active", start: day(-3), runUnit: "day", runInterval: 1, breakdownAttributes: [team.id] };
    const [board, kept] = (
      await admin("POST", "/admin/v1/leaderboards", [
        { ...daily, name: "Daily laps", key: "daily-laps" },
        { ...daily, name: "Kept", key: "kept" },
      ])
    ).body.created;
    // Three runs (backdated events), two groups each.
    for (const [d, user, group] of [
      [-2, "a", "red"],
      [-2, "b", "blue"],
      [-1, "a", "red"],
      [-1, "c", "blue"],
      [0, "b", "blue"],
      [0, "d", "red"],
    ] as const)
      expect(
        (await admin("POST", "/api/metrics/laps/event", { user: { id: user, attributes: { team: group } }, value: 1, timestamp: `${day(d)}T00:00:00Z` }))
          .status,
      ).toBe(201);
    const { collections } = server.service.context.database;
    const left = async (leaderboardId: string) => [
      ...(await collections.leaderboardRankChunks.find({ leaderboardId }).toArray()),
      ...(await collections.leaderboardUserChunks.find({ leaderboardId }).toArray()),
      ...(await collections.leaderboardRankings.find(leaderboardRankingsFilter(internalId, leaderboardId)).toArray()),
    ];
    const before = await left(board.id);
    expect(before.filter((d) => d._id.startsWith("g:")).length).toBe(3);
    expect((await left(kept.id)).length).toBe(before.length);
    expect((await admin("DELETE", `/admin/v1/leaderboards?ids=${board.id}`)).body.deleted).toEqual([{ id: board.id }]);
    expect(await left(board.id)).toEqual([]);
    expect((await left(kept.id)).length).toBe(before.length);
  });

  it("answers 200 with only issues when nothing was created", async () => {
    const before = await snapshot();
    const response = await server.rest("POST", "/admin/v1/leaderboards", { body: [{ name: "Again", key: "streak-legends", rankBy: "streak" }] });
    expect(response).toEqual({
      status: 200,
      body: {
        created: [],
        issues: [
          {
            index: 0,
            severity: "error",
            message: 'Key "streak-legends" is already in use by another leaderboard',
            level: "error",
            reason: 'Key "streak-legends" is already in use by another leaderboard',
          },
        ],
      },
    });
    expect(await snapshot()).toEqual(before);
  });
});

describe("leaderboard validation", () => {
  const base = { name: "Board", key: "board" };
  const ITEM_CASES: Array<{ name: string; item: () => object; message: () => string }> = [
    { name: "no rank", item: () => base, message: () => 'rankBy is required: "metric", "points" or "streak"' },
    { name: "no name", item: () => ({ ...base, name: " ", rankBy: "streak" }), message: () => "name is required" },
    {
      name: "a bad key",
      item: () => ({ ...base, key: "a b", rankBy: "streak" }),
      message: () => 'key "a b" is invalid: use letters, digits, hyphens and underscores, at most 100 characters',
    },
    { name: "a metric ranking without metric", item: () => ({ ...base, rankBy: "metric" }), message: () => "metricId is required when rankBy is metric" },
    { name: "a points ranking without system", item: () => ({ ...base, rankBy: "points" }), message: () => "pointsSystemId is required when rankBy is points" },
    {
      name: "a metric on a streak ranking",
      item: () => ({ ...base, rankBy: "streak", metricId: words }),
      message: () => "metricId is only allowed when rankBy is metric, not streak",
    },
    {
      name: "an unknown metric",
      item: () => ({ ...base, rankBy: "metric", metricId: "nope" }),
      message: () => 'metricId "nope" is not a metric of this tenant',
    },
    {
      name: "another tenant's metric",
      item: () => ({ ...base, rankBy: "metric", metricId: otherMetric }),
      message: () => `metricId "${otherMetric}" is not a metric of this tenant`,
    },
    {
      name: "another tenant's points system",
      item: () => ({ ...base, rankBy: "points", pointsSystemId: otherPoints }),
      message: () => `pointsSystemId "${otherPoints}" is not a points system of this tenant`,
    },
    {
      name: "an impossible date",
      item: () => ({ ...base, rankBy: "streak", start: "2026-02-30" }),
      message: () => 'start must be a date (YYYY-MM-DD), got "2026-02-30"',
    },
    {
      name: "an end before the start",
      item: () => ({ ...base, rankBy: "streak", start: day(5), end: day(4) }),
      message: () => `end (${day(4)}) must not be before start (${day(5)})`,
    },
    {
      name: "a window ending before it starts",
      item: () => ({ ...base, rankBy: "streak", startTime: "18:00", endTime: "08:00" }),
      message: () => "startTime (18:00) must be before endTime (08:00)",
    },
    {
      name: "a daily window on a streak leaderboard",
      item: () => ({ ...base, rankBy: "streak", startTime: "09:00" }),
      message: () =>
        "startTime and endTime are not allowed when rankBy is streak: a streak leaderboard ranks current streaks at every hour (a lost streak leaves it at the user's midnight)",
    },
    {
      name: "a run unit without interval",
      item: () => ({ ...base, rankBy: "metric", metricId: words, runUnit: "day" }),
      message: () => "runUnit and runInterval must be set together (a repeating leaderboard) or not at all",
    },
    {
      name: "a repeating streak leaderboard",
      item: () => ({ ...base, rankBy: "streak", runUnit: "day", runInterval: 7 }),
      message: () => "runUnit and runInterval are not allowed when rankBy is streak: streak leaderboards are perpetual",
    },
    {
      name: "an unknown breakdown attribute",
      item: () => ({ ...base, rankBy: "streak", breakdownAttributes: ["team"] }),
      message: () => 'breakdownAttributes[0] "team" is not the ID of a user attribute of this tenant',
    },
    {
      name: "an event attribute as breakdown",
      item: () => ({ ...base, rankBy: "streak", breakdownAttributes: [source] }),
      message: () => `breakdownAttributes[0] "${source}" is not the ID of a user attribute of this tenant`,
    },
    {
      name: "another tenant's attribute as breakdown",
      item: () => ({ ...base, rankBy: "streak", breakdownAttributes: [region] }),
      message: () => `breakdownAttributes[0] "${region}" is not the ID of a user attribute of this tenant`,
    },
    {
      name: "scheduled without a future start",
      item: () => ({ ...base, rankBy: "streak", status: "scheduled" }),
      message: () => `status scheduled needs a start date after today (${day(0)}, UTC); the start is ${day(0)}`,
    },
    {
      name: "active with a future start",
      item: () => ({ ...base, rankBy: "streak", status: "active", start: day(3) }),
      message: () =>
        `status active needs a start date that has begun somewhere (no later than ${datesOnEarth(new Date()).latest}, today in UTC+14); use scheduled for a start on ${day(3)}`,
    },
    {
      name: "created finished without a past end",
      item: () => ({ ...base, rankBy: "streak", status: "finished", start: day(-10), end: day(1) }),
      message: () =>
        `status finished is only for a new leaderboard whose end date has ended everywhere (before ${datesOnEarth(new Date()).earliest}, today in UTC-12)`,
    },
  ];

  it.each(ITEM_CASES)("REST: $name is an issue of its item and changes nothing", async ({ item, message }) => {
    const before = await snapshot();
    const response = await server.rest("POST", "/admin/v1/leaderboards", { body: [item()] });
    expect(response).toEqual({
      status: 200,
      body: { created: [], issues: [{ index: 0, severity: "error", message: message(), level: "error", reason: message() }] },
    });
    expect(await snapshot()).toEqual(before);
  });

  const REQUEST_CASES: Array<{ name: string; body: unknown; error: string }> = [
    {
      name: "no participants",
      body: [{ ...base, rankBy: "streak", maxParticipants: 0 }],
      error: "Invalid request: leaderboards[0].maxParticipants: must be greater than or equal to 1",
    },
    {
      name: "a run interval of zero",
      body: [{ ...base, rankBy: "metric", metricId: "m", runUnit: "day", runInterval: 0 }],
      error: "Invalid request: leaderboards[0].runInterval: must be greater than or equal to 1",
    },
    {
      name: "a start that is not a date",
      body: [{ ...base, rankBy: "streak", start: "tomorrow" }],
      error: expect.stringMatching(/^Invalid request: leaderboards\[0\]\.start: does not match regex pattern/) as never,
    },
    {
      name: "a time that is not HH:mm",
      body: [{ ...base, rankBy: "streak", startTime: "9am", endTime: "10am" }],
      error: expect.stringMatching(/^Invalid request: leaderboards\[0\]\.startTime: does not match regex pattern/) as never,
    },
    { name: "an unknown rank", body: [{ ...base, rankBy: "votes" }], error: 'leaderboards[0].rankBy: "votes" is not one of "points", "streak", "metric"' },
    {
      name: "an unknown run unit",
      body: [{ ...base, rankBy: "metric", metricId: "m", runUnit: "week", runInterval: 1 }],
      error: 'leaderboards[0].runUnit: "week" is not one of "day", "month", "year"',
    },
    {
      name: "a repeated breakdown",
      body: [{ ...base, rankBy: "streak", breakdownAttributes: ["same-id", "same-id"] }],
      error: "Invalid request: leaderboards[0].breakdownAttributes: repeated value must contain unique items",
    },
  ];

  it.each(REQUEST_CASES)("REST: $name is refused as a whole with 400", async ({ body, error }) => {
    const before = await snapshot();
    expect(await server.rest("POST", "/admin/v1/leaderboards", { body })).toEqual({ status: 400, body: { error } });
    expect(await snapshot()).toEqual(before);
  });

  it("checks updates as the whole leaderboard they result in", async () => {
    const [board] = (
      await server.rest("POST", "/admin/v1/leaderboards", {
        body: [{ ...base, key: "upd", rankBy: "metric", metricId: words, status: "active", start: day(-3) }],
      })
    ).body.created;
    const before = await snapshot();
    const updates = [
      { id: board.id, rankBy: "streak" },
      { id: board.id, metricId: otherMetric },
      { id: board.id, end: day(-4) },
      { id: board.id, status: "scheduled" },
      { id: board.id, startTime: "10:00", endTime: "10:00" },
      { id: board.id, end: "2026-99-01" },
    ];
    // A value of the wrong shape for a clearable field makes the whole request malformed.
    const malformed = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [...updates, { id: board.id, runUnit: "week" }] });
    expect(malformed).toEqual({ status: 400, body: { error: 'Invalid request: leaderboards[6].runUnit must be "day", "month" or "year" or null' } });
    const checked = await server.rest("PATCH", "/admin/v1/leaderboards", { body: updates });
    expect(checked.body).toEqual({
      updated: [],
      issues: [
        {
          id: board.id,
          severity: "error",
          message: "rankBy can only be changed while the leaderboard is inactive (it is active)",
          level: "error",
          reason: "rankBy can only be changed while the leaderboard is inactive (it is active)",
        },
        {
          id: board.id,
          severity: "error",
          message: "metricId can only be changed while the leaderboard is inactive (it is active)",
          level: "error",
          reason: "metricId can only be changed while the leaderboard is inactive (it is active)",
        },
        {
          id: board.id,
          severity: "error",
          message: `end (${day(-4)}) must not be before start (${day(-3)})`,
          level: "error",
          reason: `end (${day(-4)}) must not be before start (${day(-3)})`,
        },
        {
          id: board.id,
          severity: "error",
          message: `status scheduled needs a start date after today (${day(0)}, UTC); the start is ${day(-3)}`,
          level: "error",
          reason: `status scheduled needs a start date after today (${day(0)}, UTC); the start is ${day(-3)}`,
        },
        {
          id: board.id,
          severity: "error",
          message: "startTime (10:00) must be before endTime (10:00)",
          level: "error",
          reason: "startTime (10:00) must be before endTime (10:00)",
        },
        {
          id: board.id,
          severity: "error",
          message: 'end must be a date (YYYY-MM-DD), got "2026-99-01"',
          level: "error",
          reason: 'end must be a date (YYYY-MM-DD), got "2026-99-01"',
        },
      ],
    });
    expect(await snapshot()).toEqual(before);
    // Deactivated, its ranking can change; finishing is always allowed.
    const inactive = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: board.id, status: "inactive" }] });
    expect(inactive.body.updated[0].status).toBe("inactive");
    const switched = await server.rest("PATCH", "/admin/v1/leaderboards", {
      body: [{ id: board.id, rankBy: "points", pointsSystemId: points, status: "finished" }],
    });
    expect(switched.body.updated[0]).toMatchObject({ rankBy: "points", pointsSystemId: points, status: "finished" });
    expect(switched.body.updated[0].metricId).toBeUndefined();
  });
});

describe("leaderboards over Connect and gRPC", () => {
  it("create, read, update and delete with typed messages", async () => {
    const connect = server.client("connect-json").leaderboards;
    const grpc = server.client("grpc").leaderboards;
    const { created, issues } = await connect.createLeaderboards({
      leaderboards: [
        { name: "Daily words", key: "daily-words", rankBy: LeaderboardRankBy.METRIC, metricId: words, runUnit: LeaderboardRunUnit.DAY, runInterval: 1 },
      ],
    });
    expect(issues).toEqual([]);
    const board = created[0]!;
    expect(board).toMatchObject({
      status: LeaderboardStatus.INACTIVE,
      rankBy: LeaderboardRankBy.METRIC,
      maxParticipants: 1000,
      runUnit: LeaderboardRunUnit.DAY,
      runInterval: 1,
      start: day(0),
    });
    expect((await grpc.getLeaderboard({ id: board.id })).leaderboard).toEqual(board);
    expect((await grpc.listLeaderboards({ limit: 100 })).leaderboards.map((l) => l.key)).toContain("daily-words");
    const { updated } = await grpc.updateLeaderboards({
      leaderboards: [{ id: board.id, breakdownAttributes: fromJson(ValueSchema, [city]), runUnit: fromJson(ValueSchema, null) }],
    });
    expect(updated[0]!.breakdownAttributes).toEqual([city]);
    expect([updated[0]!.runUnit, updated[0]!.runInterval]).toEqual([undefined, undefined]);

    const error = await grpc
      .createLeaderboards({ leaderboards: [{ name: "x", key: "x", rankBy: LeaderboardRankBy.STREAK, maxParticipants: 0 }] })
      .catch((e) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    expect((error as ConnectError).rawMessage).toMatch(/maxParticipants: must be greater than or equal to 1/);

    expect((await connect.deleteLeaderboards({ ids: [board.id] })).deleted.map((d) => d.id)).toEqual([board.id]);
  });
});

describe("references", () => {
  it("refuse deleting a metric, points system or attribute a leaderboard uses, naming the leaderboard", async () => {
    const coins = randomUUID();
    await server.service.context.database.collections.pointsSystems.insertOne({ _id: coins as never, tenantId: DEFAULT_SCOPE, key: "coins", name: "Coins" });
    const [metricBoard, pointsBoard] = (
      await server.rest("POST", "/admin/v1/leaderboards", {
        body: [
          { name: "Ref words", key: "ref-words", rankBy: "metric", metricId: words, breakdownAttributes: [city] },
          { name: "Ref points", key: "ref-points", rankBy: "points", pointsSystemId: coins },
        ],
      })
    ).body.created;
    const metricDelete = await server.rest("DELETE", `/admin/v1/metrics?ids=${words}`);
    expect(metricDelete.body.deleted).toEqual([]);
    expect(metricDelete.body.issues[0].message).toMatch(/^Cannot delete: still used by leaderboard "/);
    const attributeDelete = await server.rest("DELETE", `/admin/v1/attributes?ids=${city}`);
    expect(attributeDelete.body.issues[0].message).toMatch(/^Cannot delete: still used by leaderboard "/);
    // The points system's own delete call lives with the points administration; the rule is registered here.
    expect(await describeReferrers(server.service.context, DEFAULT_SCOPE, "points_system", coins, "coins")).toBe(
      `Cannot delete: still used by leaderboard "Ref points" (${pointsBoard.id}); remove that reference first`,
    );
    expect(await describeReferrers(server.service.context, otherTenant, "points_system", coins, "coins")).toBeNull();
    expect(metricBoard.breakdownAttributes).toEqual([city]);
  });
});

describe("access", () => {
  it("refuses application keys: 403 on REST, PermissionDenied on Connect", async () => {
    const appKey = (await server.rest("POST", "/admin/v1/application-api-keys", { body: [{ userId: "u1" }] })).body.created[0].key;
    expect((await server.rest("POST", "/admin/v1/leaderboards", { apiKey: appKey, body: [{ name: "x", key: "x", rankBy: "streak" }] })).status).toBe(403);
    const error = await server
      .client("connect-json", { apiKey: appKey })
      .leaderboards.listLeaderboards({})
      .catch((e) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.PermissionDenied);
  });

  it("keeps tenants apart", async () => {
    const [theirs] = (
      await server.rest("POST", "/admin/v1/leaderboards", {
        tenantId: "other",
        body: [{ name: "Steps", key: "revenue-champions", rankBy: "metric", metricId: otherMetric }],
      })
    ).body.created;
    expect(theirs.key).toBe("revenue-champions"); // the same key in another tenant
    expect((await server.rest("GET", "/admin/v1/leaderboards", { tenantId: "other" })).body).toEqual([theirs]);
    expect((await server.rest("GET", `/admin/v1/leaderboards/${theirs.id}`)).status).toBe(404);
    const before = await snapshot();
    expect((await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: theirs.id, name: "Mine" }] })).body.issues[0].message).toBe(
      "Leaderboard not found by ID",
    );
    expect((await server.rest("DELETE", `/admin/v1/leaderboards?ids=${theirs.id}`)).body.deleted).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

describe("user attribute filters (trophy 1.27.0's userAttributes)", () => {
  let planId: string;

  it("only users matching every filter take part; every leaderboard shape shows the filters (REST)", async () => {
    const tenantId = "cohort";
    const admin = async (method: string, path: string, body: unknown) => server.rest(method, path, { body, tenantId });
    expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenantId, name: "Cohort" }] })).status).toBe(201);
    const [pages] = (await admin("POST", "/admin/v1/metrics", [{ key: "pages", name: "Pages" }])).body.created;
    const [plan] = (await admin("POST", "/admin/v1/attributes", [{ key: "plan", name: "Plan", type: "user" }])).body.created;
    planId = plan.id;
    // The Admin API names the attribute by ID; the Application API shows its key.
    const filters = [{ attributeId: plan.id, attributeValue: "pro" }];
    const shown = [{ key: "plan", value: "pro" }];
    const created = await admin("POST", "/admin/v1/leaderboards", [
      { name: "Pro pages", key: "pro-pages", rankBy: "metric", metricId: pages.id, status: "active", start: day(-1), userAttributes: filters },
      { name: "Bad", key: "bad", rankBy: "metric", metricId: pages.id, userAttributes: [{ attributeId: "nope", attributeValue: "x" }] },
      { name: "Twice", key: "twice", rankBy: "metric", metricId: pages.id, userAttributes: [filters[0], { attributeId: plan.id, attributeValue: "free" }] },
    ]);
    expect(created.body.created.map((l: any) => [l.key, l.userAttributes])).toEqual([["pro-pages", filters]]);
    expect(created.body.issues.map((i: any) => [i.index, i.message])).toEqual([
      [1, 'userAttributes[0].attributeId "nope" is not the ID of a user attribute of this tenant'],
      [2, `userAttributes[1].attributeId "${plan.id}" is repeated: filter each attribute once`],
    ]);
    const id = created.body.created[0].id;
    expect((await admin("GET", `/admin/v1/leaderboards/${id}`, undefined)).body.userAttributes).toEqual(filters);

    const event = (userId: string, planValue: string, value: number) =>
      admin("POST", "/v1/metrics/pages/event", { user: { id: userId, attributes: { plan: planValue } }, value });
    expect((await event("pro-1", "pro", 5)).body.leaderboards["pro-pages"]).toMatchObject({ rank: 1, userAttributes: shown });
    expect((await event("free-1", "free", 50)).body.leaderboards).toEqual({}); // not taking part
    const rankings = (await admin("GET", "/v1/leaderboards/pro-pages", undefined)).body;
    expect([rankings.userAttributes, rankings.rankings.map((r: any) => [r.userId, r.value])]).toEqual([shown, [["pro-1", 5]]]);
    expect((await admin("GET", "/v1/leaderboards", undefined)).body.map((l: any) => l.userAttributes)).toEqual([shown]);
    const standing = (await admin("GET", "/v1/users/pro-1/leaderboards/pro-pages", undefined)).body;
    expect([standing.userAttributes, standing.rank, standing.value]).toEqual([shown, 1, 5]);
    expect((await admin("GET", "/v1/users/free-1/leaderboards/pro-pages", undefined)).body).toMatchObject({ rank: null, value: null });

    // The attribute cannot be deleted while a leaderboard filters on it.
    const refused = await admin("DELETE", `/admin/v1/attributes?ids=${plan.id}`, undefined);
    expect(refused.body.issues[0].message).toMatch(/still used by leaderboard "Pro pages"/);

    // null removes the filters: everyone takes part from then on.
    const cleared = await admin("PATCH", "/admin/v1/leaderboards", [{ id, userAttributes: null }]);
    expect(cleared.body.updated[0].userAttributes).toEqual([]);
    expect((await event("free-1", "free", 1)).body.leaderboards["pro-pages"]).toMatchObject({ rank: 2, userAttributes: [] }); // behind pro-1's 5
    const before = await snapshot();
    const bad = await admin("PATCH", "/admin/v1/leaderboards", [{ id, userAttributes: [{ key: "plan", value: "pro" }] }]);
    expect([bad.status, bad.body.error]).toEqual([
      400,
      'Invalid request: leaderboards[0].userAttributes must be an array of {"attributeId": string, "attributeValue": string} or null',
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it("over Connect and gRPC: set, read and shown", async () => {
    const admin = server.client("connect-json", { tenantId: "cohort" }).leaderboards;
    const metricId = (await server.rest("GET", "/admin/v1/metrics", { tenantId: "cohort" })).body[0].id;
    const { created, issues } = await admin.createLeaderboards({
      leaderboards: [
        {
          name: "Pro only",
          key: "pro-only",
          rankBy: LeaderboardRankBy.METRIC,
          metricId,
          status: LeaderboardStatus.ACTIVE,
          start: day(-1),
          userAttributes: [{ attributeId: planId, attributeValue: "pro" }],
        },
      ],
    });
    expect(issues).toEqual([]);
    expect(created[0]!.userAttributes.map(({ attributeId, attributeValue }) => [attributeId, attributeValue])).toEqual([[planId, "pro"]]);
    const viaGrpc = await server.client("grpc", { tenantId: "cohort" }).leaderboards.getLeaderboard({ id: created[0]!.id });
    expect(viaGrpc.leaderboard!.userAttributes.map(({ attributeValue }) => attributeValue)).toEqual(["pro"]);
    const updated = await admin.updateLeaderboards({
      leaderboards: [{ id: created[0]!.id, userAttributes: fromJson(ValueSchema, [{ attributeId: planId, attributeValue: "team" }]) }],
    });
    expect(updated.updated[0]!.userAttributes.map(({ attributeValue }) => attributeValue)).toEqual(["team"]);
    const rankings = await server.client("grpc", { tenantId: "cohort" }).leaderboardReads.getLeaderboardRankings({ key: "pro-only" });
    expect(rankings.leaderboard!.userAttributes.map(({ key, value }) => [key, value])).toEqual([["plan", "team"]]);
  });
});

describe("status in force", () => {
  it("reads show scheduled turn active once the start begins, and active turn finished once the last run is final", async () => {
    const made = await server.rest("POST", "/admin/v1/leaderboards", {
      body: [
        { key: "status-later", name: "Later", rankBy: "metric", metricId: words, status: "scheduled", start: day(2) },
        { key: "status-ending", name: "Ending", rankBy: "metric", metricId: words, status: "active", start: day(-1), end: day(0) },
      ],
    });
    expect(made.body.issues).toEqual([]);
    const [later, ending] = made.body.created.map((l: { id: string }) => l.id);
    const statusOf = async (id: string) => (await server.rest("GET", `/admin/v1/leaderboards/${id}`)).body.status;
    try {
      expect([await statusOf(later), await statusOf(ending)]).toEqual(["scheduled", "active"]);
      offsetMs = 3 * 86_400_000; // past day(2)'s start everywhere, and past 12:00 UTC on the day after day(0)
      expect([await statusOf(later), await statusOf(ending)]).toEqual(["active", "finished"]);
    } finally {
      offsetMs = 0;
    }
  });
});

describe("a status in force can be sent back", () => {
  it("active is accepted for a start begun in UTC+14 and an end not over in UTC-12, as reads show them", async () => {
    const dayMs = 86_400_000;
    const midnight = Math.floor(Date.now() / dayMs) * dayMs + 10 * dayMs; // a UTC midnight ten days ahead
    const date = (offset: number) => new Date(midnight + offset * dayMs).toISOString().slice(0, 10);
    const at = (iso: string) => (offsetMs = Date.parse(iso) - Date.now());
    const statusOf = async (id: string) => (await server.rest("GET", `/admin/v1/leaderboards/${id}`)).body.status;
    try {
      at(`${date(0)}T12:00:00Z`); // the next date has begun in UTC+14; the previous one is over everywhere
      const made = await server.rest("POST", "/admin/v1/leaderboards", {
        body: [
          { key: "sent-back-start", name: "Starting", rankBy: "metric", metricId: words, status: "scheduled", start: date(1) },
          { key: "sent-back-end", name: "Ending", rankBy: "metric", metricId: words, status: "active", start: date(-5), end: date(0) },
        ],
      });
      expect(made.body.issues).toEqual([]);
      const [starting, ending] = made.body.created.map((l: { id: string }) => l.id);
      expect(await statusOf(starting)).toBe("active");
      const renamed = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: starting, name: "Started", status: "active" }] });
      expect(renamed.body.issues).toEqual([]);
      at(`${date(1)}T05:00:00Z`); // the end date is still running in UTC-12
      expect(await statusOf(ending)).toBe("active");
      const paused = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: ending, status: "inactive" }] });
      expect(paused.body.issues).toEqual([]);
      const resumed = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: ending, status: "active" }] });
      expect(resumed.body.issues).toEqual([]);
      expect(await statusOf(ending)).toBe("active");
      at(`${date(1)}T12:00:00Z`); // over everywhere
      expect(await statusOf(ending)).toBe("finished");
      const tooLate = await server.rest("PATCH", "/admin/v1/leaderboards", { body: [{ id: ending, status: "active" }] });
      expect(tooLate.body.issues.map((i: { message: string }) => i.message)).toEqual([
        `status active needs an end date that has not ended everywhere (no earlier than ${date(1)}, today in UTC-12); the end was ${date(0)}`,
      ]);
    } finally {
      offsetMs = 0;
    }
  });
});

describe("where a live leaderboard's rankings are stored", () => {
  it("stays put: breakdowns, start and runs change only while inactive or scheduled, and the rankings stay readable", async () => {
    const tenantId = "shapes";
    const admin = async (method: string, path: string, body?: unknown) => server.rest(method, path, { body, tenantId });
    expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenantId, name: "Shapes" }] })).status).toBe(201);
    const [laps] = (await admin("POST", "/admin/v1/metrics", [{ key: "laps", name: "Laps" }])).body.created;
    const [country] = (await admin("POST", "/admin/v1/attributes", [{ key: "country", name: "Country", type: "user" }])).body.created;
    const board = (
      await admin("POST", "/admin/v1/leaderboards", [
        {
          name: "Weekly laps",
          key: "laps-weekly",
          rankBy: "metric",
          metricId: laps.id,
          status: "active",
          start: day(-1),
          breakdownAttributes: [country.id],
          runUnit: "day",
          runInterval: 7,
        },
      ])
    ).body.created[0];
    const event = (userId: string, value: number) => admin("POST", "/v1/metrics/laps/event", { user: { id: userId, attributes: { country: "NZ" } }, value });
    const nz = async () =>
      (await admin("GET", "/v1/leaderboards/laps-weekly?userAttributes=country:NZ")).body.rankings.map((r: any) => [r.userId, r.rank, r.value]);
    await event("a", 5);
    await event("d", 2);
    expect(await nz()).toEqual([
      ["a", 1, 5],
      ["d", 2, 2],
    ]);

    const before = (await admin("GET", `/admin/v1/leaderboards/${board.id}`)).body;
    const edits = [
      { id: board.id, breakdownAttributes: [] },
      { id: board.id, breakdownAttributes: null },
      { id: board.id, start: day(-2) },
      { id: board.id, runUnit: null },
      { id: board.id, runUnit: "month", runInterval: 1 },
      { id: board.id, runInterval: 14 },
      // Making it inactive in the same update does not unlock it.
      { id: board.id, status: "inactive", breakdownAttributes: [] },
    ];
    const refused = await admin("PATCH", "/admin/v1/leaderboards", edits);
    const message = (field: string) => `${field} can only be changed while the leaderboard is inactive or scheduled (it is active)`;
    expect(refused).toEqual({
      status: 200,
      body: {
        updated: [],
        issues: ["breakdownAttributes", "breakdownAttributes", "start", "runUnit", "runUnit", "runInterval", "breakdownAttributes"].map((field) => ({
          id: board.id,
          severity: "error",
          message: message(field),
          level: "error",
          reason: message(field),
        })),
      },
    });
    // Nothing changed: the configuration, and the rankings its readers and the next event see.
    expect((await admin("GET", `/admin/v1/leaderboards/${board.id}`)).body).toEqual(before);
    expect(await nz()).toEqual([
      ["a", 1, 5],
      ["d", 2, 2],
    ]);
    expect((await event("d", 1)).body.leaderboards["laps-weekly"]).toMatchObject({ rank: 2, previousRank: 2 });
    expect(await nz()).toEqual([
      ["a", 1, 5],
      ["d", 2, 3],
    ]);
    expect((await admin("GET", "/v1/users/a/leaderboards/laps-weekly")).body).toMatchObject({ rank: 1, value: 5 });

    // The values it has, sent again, are no change; what reads and each change apply stays editable.
    const same = await admin("PATCH", "/admin/v1/leaderboards", [
      { id: board.id, name: "Weekly laps (NZ)", maxParticipants: 50, breakdownAttributes: [country.id], start: day(-1), runUnit: "day", runInterval: 7 },
    ]);
    expect(same.body).toEqual({ updated: [{ ...before, name: "Weekly laps (NZ)", maxParticipants: 50 }], issues: [] });

    // Inactive, the same edits are accepted.
    expect((await admin("PATCH", "/admin/v1/leaderboards", [{ id: board.id, status: "inactive" }])).body.issues).toEqual([]);
    const reshaped = await admin("PATCH", "/admin/v1/leaderboards", [{ id: board.id, breakdownAttributes: [], start: day(-2), runInterval: 14 }]);
    expect(reshaped.body.issues).toEqual([]);
    expect(reshaped.body.updated[0]).toMatchObject({ status: "inactive", breakdownAttributes: [], start: day(-2), runUnit: "day", runInterval: 14 });
  });
});
