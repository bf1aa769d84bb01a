import { describe, expect, it } from "vitest";
import {
  checkLeaderboardDraft,
  checkLeaderboardReferences,
  checkLockedChanges,
  checkStatusDates,
  leaderboardSettings,
  mergeLeaderboardChanges,
  rankingIdOf,
  redefinesRanking,
  statusRulesApply,
  utcDay,
  type LeaderboardChanges,
  type LeaderboardDraft,
  type LeaderboardSettings,
  type LeaderboardStatus,
} from "./leaderboard-config.js";

const TODAY = "2026-04-20";
const metric: LeaderboardDraft = { name: "Revenue Champions", key: "revenue-champions", rankBy: "metric", metricId: "m1" };

describe("checkLeaderboardDraft", () => {
  it.each<[string, LeaderboardDraft]>([
    ["a metric leaderboard", metric],
    ["a points leaderboard", { name: "XP", key: "xp_weekly", rankBy: "points", pointsSystemId: "p1", runUnit: "day", runInterval: 7 }],
    ["a perpetual streak leaderboard", { name: "Streaks", key: "streaks", rankBy: "streak" }],
    ["more than the reference's 1,000 participants", { ...metric, maxParticipants: 250_000 }],
    [
      "user attribute filters",
      {
        ...metric,
        userAttributes: [
          { attributeId: "plan", attributeValue: "pro" },
          { attributeId: "city", attributeValue: "London" },
        ],
      },
    ],
    [
      "dates, a window and breakdowns",
      { ...metric, start: "2026-04-20", end: "2026-04-20", startTime: "09:00", endTime: "17:30", breakdownAttributes: ["city", "plan"] },
    ],
    // The reference: "setting only a start time ..."; HH:mm(:ss) in its OpenAPI.
    ["a window with a start only (to the end of the day)", { ...metric, startTime: "18:00" }],
    ["a window with an end only (from midnight)", { ...metric, endTime: "09:00" }],
    ["a window in seconds", { ...metric, startTime: "08:59:30", endTime: "23:59:59" }],
  ])("accepts %s", (_name, draft) => expect(checkLeaderboardDraft(draft, TODAY)).toBeNull());

  it.each<[LeaderboardDraft, string]>([
    [{ ...metric, name: "" }, "name is required"],
    [{ ...metric, name: "n".repeat(256) }, "name must be at most 255 characters"],
    [{ ...metric, key: "" }, "key is required"],
    [{ ...metric, key: "a/b" }, 'key "a/b" is invalid: use letters, digits, hyphens and underscores, at most 100 characters'],
    [{ ...metric, description: "d".repeat(1001) }, "description must be at most 1000 characters"],
    [{ name: "x", key: "x" }, 'rankBy is required: "metric", "points" or "streak"'],
    [{ ...metric, metricId: undefined }, "metricId is required when rankBy is metric"],
    [{ name: "x", key: "x", rankBy: "points" }, "pointsSystemId is required when rankBy is points"],
    [{ ...metric, pointsSystemId: "p1" }, "pointsSystemId is only allowed when rankBy is points, not metric"],
    [{ name: "x", key: "x", rankBy: "streak", metricId: "m1" }, "metricId is only allowed when rankBy is metric, not streak"],
    [{ ...metric, maxParticipants: 0 }, "maxParticipants must be a whole number of at least 1, got 0"],
    [{ ...metric, maxParticipants: 2.5 }, "maxParticipants must be a whole number of at least 1, got 2.5"],
    [{ ...metric, start: "2026-02-30" }, 'start must be a date (YYYY-MM-DD), got "2026-02-30"'],
    [{ ...metric, start: "20-04-2026" }, 'start must be a date (YYYY-MM-DD), got "20-04-2026"'],
    [{ ...metric, end: "2026-13-01" }, 'end must be a date (YYYY-MM-DD), got "2026-13-01"'],
    [{ ...metric, start: "1999-12-31" }, 'start must be from 2000-01-01 to 2099-12-31, got "1999-12-31"'],
    [{ ...metric, end: "9999-12-31" }, 'end must be from 2000-01-01 to 2099-12-31, got "9999-12-31"'],
    [{ ...metric, start: "2026-05-01", end: "2026-04-30" }, "end (2026-04-30) must not be before start (2026-05-01)"],
    [{ ...metric, end: "2026-04-19" }, "end (2026-04-19) must not be before start (2026-04-20)"],
    [{ ...metric, startTime: "9:00", endTime: "10:00" }, 'startTime "9:00" is not a time of day (HH:mm or HH:mm:ss)'],
    [{ ...metric, startTime: "09:00", endTime: "24:00" }, 'endTime "24:00" is not a time of day (HH:mm or HH:mm:ss)'],
    [{ ...metric, endTime: "23:59:60" }, 'endTime "23:59:60" is not a time of day (HH:mm or HH:mm:ss)'],
    [{ ...metric, startTime: "17:00", endTime: "09:00" }, "startTime (17:00) must be before endTime (09:00)"],
    [{ ...metric, startTime: "09:00", endTime: "09:00:00" }, "startTime (09:00) must be before endTime (09:00:00)"],
    [{ ...metric, breakdownAttributes: ["city", ""] }, "breakdownAttributes[1] must not be empty"],
    [{ ...metric, breakdownAttributes: ["city", "city"] }, 'breakdownAttributes lists "city" more than once'],
    [{ ...metric, userAttributes: [{ attributeId: "", attributeValue: "pro" }] }, "userAttributes[0].attributeId is required"],
    [{ ...metric, userAttributes: [{ attributeId: "plan", attributeValue: "" }] }, "userAttributes[0].attributeValue is required"],
    [
      { ...metric, userAttributes: [{ attributeId: "plan", attributeValue: "v".repeat(256) }] },
      "userAttributes[0].attributeValue must be at most 255 characters",
    ],
    [
      {
        ...metric,
        userAttributes: [
          { attributeId: "plan", attributeValue: "pro" },
          { attributeId: "plan", attributeValue: "free" },
        ],
      },
      'userAttributes[1].attributeId "plan" is repeated: filter each attribute once',
    ],
    [{ ...metric, runUnit: "day" }, "runUnit and runInterval must be set together (a repeating leaderboard) or not at all"],
    [{ ...metric, runInterval: 7 }, "runUnit and runInterval must be set together (a repeating leaderboard) or not at all"],
    [{ ...metric, runUnit: "day", runInterval: 0 }, "runInterval must be a whole number of at least 1, got 0"],
    [{ ...metric, runUnit: "day", runInterval: 36_526 }, "runInterval must be at most 36525 for runUnit day (a run of at most 100 years), got 36526"],
    [{ ...metric, runUnit: "month", runInterval: 1201 }, "runInterval must be at most 1200 for runUnit month (a run of at most 100 years), got 1201"],
    [{ ...metric, runUnit: "year", runInterval: 7974 }, "runInterval must be at most 100 for runUnit year (a run of at most 100 years), got 7974"],
    [
      { name: "x", key: "x", rankBy: "streak", runUnit: "month", runInterval: 1 },
      "runUnit and runInterval are not allowed when rankBy is streak: streak leaderboards are perpetual",
    ],
    ...[{ startTime: "09:00" }, { endTime: "17:00" }, { startTime: "09:00", endTime: "17:00" }].map((window): [LeaderboardDraft, string] => [
      { name: "x", key: "x", rankBy: "streak" as const, ...window },
      "startTime and endTime are not allowed when rankBy is streak: a streak leaderboard ranks current streaks at every hour (a lost streak leaves it at the user's midnight)",
    ]),
  ])("refuses %j: %s", (draft, message) => expect(checkLeaderboardDraft(draft, TODAY)).toBe(message));
});

describe("checkStatusDates", () => {
  // Noon UTC on TODAY: 2026-04-21 has begun in UTC+14, and 2026-04-19 has just ended in UTC-12.
  const NOON = new Date(`${TODAY}T12:00:00Z`);
  const EARLY = new Date(`${TODAY}T05:00:00Z`); // 2026-04-19 still runs in UTC-12, 2026-04-21 has not begun
  it.each<[Pick<LeaderboardSettings, "status" | "start" | "end">, boolean, Date, string | null]>([
    [{ status: "inactive", start: "2030-01-01", end: null }, true, NOON, null],
    [{ status: "scheduled", start: "2026-04-21", end: null }, true, NOON, null],
    [
      { status: "scheduled", start: TODAY, end: null },
      true,
      NOON,
      "status scheduled needs a start date after today (2026-04-20, UTC); the start is 2026-04-20",
    ],
    [{ status: "active", start: TODAY, end: TODAY }, true, NOON, null],
    // A start that has begun in UTC+14 reads active: it can be sent back as active.
    [{ status: "active", start: "2026-04-21", end: null }, true, NOON, null],
    [
      { status: "active", start: "2026-04-21", end: null },
      true,
      EARLY,
      "status active needs a start date that has begun somewhere (no later than 2026-04-20, today in UTC+14); use scheduled for a start on 2026-04-21",
    ],
    [
      { status: "active", start: "2026-04-22", end: null },
      true,
      NOON,
      "status active needs a start date that has begun somewhere (no later than 2026-04-21, today in UTC+14); use scheduled for a start on 2026-04-22",
    ],
    // An end that has not ended in UTC-12 reads active: it can be sent back as active.
    [{ status: "active", start: "2026-01-01", end: "2026-04-19" }, false, EARLY, null],
    [
      { status: "active", start: "2026-01-01", end: "2026-04-19" },
      false,
      NOON,
      "status active needs an end date that has not ended everywhere (no earlier than 2026-04-20, today in UTC-12); the end was 2026-04-19",
    ],
    [{ status: "finished", start: "2026-01-01", end: "2026-04-19" }, true, NOON, null],
    [
      { status: "finished", start: "2026-01-01", end: "2026-04-19" },
      true,
      EARLY,
      "status finished is only for a new leaderboard whose end date has ended everywhere (before 2026-04-19, today in UTC-12)",
    ],
    [
      { status: "finished", start: "2026-01-01", end: null },
      true,
      NOON,
      "status finished is only for a new leaderboard whose end date has ended everywhere (before 2026-04-20, today in UTC-12)",
    ],
    [{ status: "finished", start: "2026-01-01", end: null }, false, NOON, null],
  ])("%j (creating: %s) at %s", (settings, creating, now, message) => expect(checkStatusDates(settings, now, creating)).toBe(message));
});

describe("leaderboardSettings", () => {
  it("applies the defaults: inactive, 1000 participants, starting today, perpetual", () => {
    expect(leaderboardSettings(metric, TODAY)).toEqual({
      key: "revenue-champions",
      name: "Revenue Champions",
      description: null,
      status: "inactive",
      rankBy: "metric",
      metricId: "m1",
      pointsSystemId: null,
      maxParticipants: 1000,
      start: TODAY,
      end: null,
      startTime: null,
      endTime: null,
      breakdownAttributes: [],
      runUnit: null,
      runInterval: null,
      userAttributes: [],
    });
  });
});

describe("mergeLeaderboardChanges", () => {
  const inactive = leaderboardSettings({ ...metric, end: "2026-05-20", runUnit: "month", runInterval: 1, breakdownAttributes: ["city"] }, TODAY);
  const active: LeaderboardSettings = { ...inactive, status: "active" };

  it("changes only what is set", () => {
    expect(mergeLeaderboardChanges(active, { name: "Renamed", maxParticipants: 5000 })).toMatchObject({
      name: "Renamed",
      maxParticipants: 5000,
      key: "revenue-champions",
      end: "2026-05-20",
      breakdownAttributes: ["city"],
    });
  });

  it("switches what it ranks by while inactive, dropping the old metric", () => {
    expect(mergeLeaderboardChanges(inactive, { rankBy: "points", pointsSystemId: "p1" })).toMatchObject({
      rankBy: "points",
      pointsSystemId: "p1",
      metricId: undefined,
    });
  });

  it("removes optional values set to null; a null runUnit makes it perpetual", () => {
    const merged = mergeLeaderboardChanges(active, { end: null, runUnit: null, breakdownAttributes: null });
    expect([merged.end, merged.runUnit, merged.runInterval, merged.breakdownAttributes]).toEqual([undefined, undefined, undefined, []]);
    expect(checkLeaderboardDraft(merged, TODAY)).toBeNull();
    const halfRun = mergeLeaderboardChanges(active, { runUnit: null, runInterval: 3 });
    expect(checkLeaderboardDraft(halfRun, TODAY)).toBe("runUnit and runInterval must be set together (a repeating leaderboard) or not at all");
  });

  it.each<[Parameters<typeof statusRulesApply>[0], boolean]>([
    [{ name: "x" }, false],
    [{ status: "active" }, true],
    [{ start: TODAY }, true],
    [{ end: null }, true],
  ])("status rules apply to %j: %s", (changes, applies) => expect(statusRulesApply(changes)).toBe(applies));
});

describe("checkLockedChanges", () => {
  // Monthly from TODAY to 2026-05-20, broken down by city; unless told, TODAY is the latest date begun anywhere.
  const current = leaderboardSettings({ ...metric, end: "2026-05-20", runUnit: "month", runInterval: 1, breakdownAttributes: ["city"] }, TODAY);
  const check = (changes: LeaderboardChanges, status: LeaderboardStatus, latestDay = TODAY) =>
    checkLockedChanges(current, mergeLeaderboardChanges(current, changes), { status, latestDay });
  const storage: LeaderboardChanges[] = [
    { breakdownAttributes: [] },
    { breakdownAttributes: null },
    { breakdownAttributes: ["city", "plan"] },
    { start: "2026-04-01" },
    { start: "2026-04-21" },
    { runUnit: null },
    { runUnit: "day" },
    { runInterval: 2 },
  ];

  it.each<[LeaderboardChanges, string]>([
    [{ key: "new-key" }, "key can only be changed while the leaderboard is inactive (it is active)"],
    [{ rankBy: "streak" }, "rankBy can only be changed while the leaderboard is inactive (it is active)"],
    [{ metricId: "m2" }, "metricId can only be changed while the leaderboard is inactive (it is active)"],
    [{ pointsSystemId: "p1" }, "pointsSystemId can only be changed while the leaderboard is inactive (it is active)"],
  ])("refuses %j on an active leaderboard", (changes, message) => expect(check(changes, "active")).toBe(message));

  // Its rankings are stored per run start and breakdown group: moved, every read would find an empty ranking.
  it.each(storage)("refuses %j on an active or finished leaderboard: where its rankings are stored", (changes) => {
    const field = Object.keys(changes)[0]!;
    expect(check(changes, "active")).toBe(`${field} can only be changed while the leaderboard is inactive or scheduled (it is active)`);
    expect(check(changes, "finished")).toBe(`${field} can only be changed while the leaderboard is inactive or scheduled (it is finished)`);
  });

  it.each(storage)("accepts %j while inactive or scheduled (no one has taken part)", (changes) => {
    expect(check(changes, "inactive")).toBeNull();
    expect(check(changes, "scheduled")).toBeNull();
  });

  it("accepts the current values sent again, and what reads or each change apply", () => {
    const same = { key: "revenue-champions", rankBy: "metric", metricId: "m1", start: TODAY, end: "2026-05-20" } as const;
    expect(check({ ...same, breakdownAttributes: ["city"], runUnit: "month", runInterval: 1 }, "active")).toBeNull();
    expect(check({ name: "Renamed", description: null, maxParticipants: 5, startTime: "09:00", endTime: null, userAttributes: [] }, "active")).toBeNull();
    expect(check({ status: "inactive" }, "active")).toBeNull();
    // Making it inactive in the same update does not unlock it: the status in force decides.
    expect(check({ status: "inactive", start: "2026-04-01" }, "active")).toBe(
      "start can only be changed while the leaderboard is inactive or scheduled (it is active)",
    );
    // A reorder is a change: the breakdown group is read in this order.
    const twoGroups = { ...current, breakdownAttributes: ["city", "plan"] };
    expect(
      checkLockedChanges(twoGroups, mergeLeaderboardChanges(twoGroups, { breakdownAttributes: ["plan", "city"] }), { status: "active", latestDay: TODAY }),
    ).toBe("breakdownAttributes can only be changed while the leaderboard is inactive or scheduled (it is active)");
  });

  it("moves the end of an active or finished leaderboard only across days no zone has begun", () => {
    const refused = (latestDay: string, status = "active") =>
      `end can only be changed while the leaderboard is inactive or scheduled (it is ${status}), or between dates on or after ${latestDay}, the latest date begun anywhere`;
    expect(check({ end: "2026-06-30" }, "active")).toBeNull();
    expect(check({ end: null }, "active")).toBeNull();
    expect(check({ end: TODAY }, "active")).toBeNull(); // the days after TODAY have begun nowhere
    expect(check({ end: "2026-04-19" }, "active")).toBe(refused(TODAY)); // values of TODAY are counted
    expect(check({ end: TODAY }, "active", "2026-04-21")).toBe(refused("2026-04-21")); // the 21st has begun in UTC+14
    // Its last day has begun: a later end would miss what users did after it.
    expect(check({ end: "2026-06-30" }, "active", "2026-05-21")).toBe(refused("2026-05-21"));
    expect(check({ end: "2026-05-20" }, "active", "2026-05-21")).toBeNull();
    expect(check({ end: null }, "finished", "2026-05-21")).toBe(refused("2026-05-21", "finished"));
    expect(check({ end: "2026-04-19" }, "scheduled")).toBeNull();
  });
});

describe("checkLeaderboardReferences", () => {
  const refs = { metricIds: new Set(["m1"]), pointsSystemIds: new Set(["p1"]), userAttributeIds: new Set(["city"]) };
  it.each<[LeaderboardDraft, string | null]>([
    [{ ...metric, breakdownAttributes: ["city"] }, null],
    [{ ...metric, metricId: "m2" }, 'metricId "m2" is not a metric of this tenant'],
    [{ name: "x", key: "x", rankBy: "points", pointsSystemId: "p2" }, 'pointsSystemId "p2" is not a points system of this tenant'],
    [{ ...metric, breakdownAttributes: ["city", "plan"] }, 'breakdownAttributes[1] "plan" is not the ID of a user attribute of this tenant'],
    [{ ...metric, userAttributes: [{ attributeId: "city", attributeValue: "Paris" }] }, null],
    [
      {
        ...metric,
        userAttributes: [
          { attributeId: "city", attributeValue: "Paris" },
          { attributeId: "plan", attributeValue: "x" },
        ],
      },
      'userAttributes[1].attributeId "plan" is not the ID of a user attribute of this tenant',
    ],
  ])("%j", (draft, message) => expect(checkLeaderboardReferences(leaderboardSettings(draft, TODAY), refs)).toBe(message));
});

it("utcDay is the UTC calendar day", () => {
  expect(utcDay(new Date("2026-04-20T23:30:00-05:00"))).toBe("2026-04-21");
});

describe("redefinesRanking", () => {
  const current = leaderboardSettings({ ...metric, status: "inactive", breakdownAttributes: ["city"], runUnit: "day", runInterval: 7 }, TODAY);
  const after = (changes: LeaderboardChanges) => leaderboardSettings(mergeLeaderboardChanges(current, changes), TODAY);
  it.each<[string, LeaderboardChanges, boolean]>([
    ["another metric", { metricId: "m2" }, true],
    ["points instead of the metric", { rankBy: "points", pointsSystemId: "p1" }, true],
    ["another start", { start: "2026-04-21" }, true],
    ["perpetual instead of repeating", { runUnit: null }, true],
    ["another run length", { runInterval: 14 }, true],
    ["another unit", { runUnit: "month", runInterval: 1 }, true],
    ["other breakdowns", { breakdownAttributes: ["plan"] }, true],
    ["no breakdowns", { breakdownAttributes: null }, true],
    ["a new key (a name only)", { key: "renamed" }, false],
    [
      "the name, status, end, window, filters and size",
      {
        name: "N",
        status: "active",
        end: "2026-05-01",
        startTime: "09:00",
        maxParticipants: 5,
        userAttributes: [{ attributeId: "plan", attributeValue: "pro" }],
      },
      false,
    ],
    ["the same values sent again", { metricId: "m1", start: current.start, runUnit: "day", runInterval: 7, breakdownAttributes: ["city"] }, false],
  ])("%s: %s", (_name, changes, expected) => {
    expect(redefinesRanking(current, after(changes))).toBe(expected);
  });
});

describe("rankingIdOf", () => {
  it("is the leaderboard's ID until it is redefined, then one per definition", () => {
    expect(rankingIdOf("lb", undefined)).toBe("lb");
    expect(rankingIdOf("lb", 0)).toBe("lb");
    expect(rankingIdOf("lb", 1)).toBe("lb.1");
    expect(rankingIdOf("lb", 2)).toBe("lb.2");
  });
});
