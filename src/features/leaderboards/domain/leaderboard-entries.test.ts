import { describe, expect, it } from "vitest";
import type { LeaderboardConfig } from "./leaderboard-config.js";
import {
  contributionOf,
  entryOf,
  groupInRun,
  historyOfRun,
  HISTORY_LIMIT,
  planLeaderboardEntries,
  recordLeaderboardOutcomes,
  type EntryOutcome,
  type LeaderboardContribution,
  type LeaderboardEntry,
  type LeaderboardHistoryItem,
  type PlannedEntry,
  type RankedLeaderboard,
} from "./leaderboard-entries.js";
import { groupKey } from "./leaderboard-ranking.js";
import type { LeaderboardRun } from "./leaderboard-runs.js";
import { createUserState, type UserState } from "../../../engine/domain/user.js";

// ---------------------------------------------------------------------------------------------
// Fixtures

const KIRITIMATI = "Pacific/Kiritimati"; // UTC+14
const PAGO_PAGO = "Pacific/Pago_Pago"; // UTC−11
const CREATED = new Date("2025-12-01T00:00:00Z");
const at = (iso: string) => new Date(iso);
const run = (runStart: string, runEnd: string | null): LeaderboardRun => ({ runStart, runEnd });

/** A full leaderboard as the engine holds it; ranks by the metric "m-steps" unless told otherwise. */
function board(over: Partial<LeaderboardConfig> = {}, breakdownKeys: string[] = [], userFilters: RankedLeaderboard["userFilters"] = []): RankedLeaderboard {
  const config: LeaderboardConfig = {
    id: "lb-1",
    key: "weekly-steps",
    name: "Weekly steps",
    description: null,
    status: "active",
    rankBy: "metric",
    metricId: "m-steps",
    pointsSystemId: null,
    maxParticipants: 1000,
    start: "2026-01-05",
    end: null,
    startTime: null,
    endTime: null,
    breakdownAttributes: breakdownKeys.map((k) => `attr-${k}`),
    runUnit: null,
    runInterval: null,
    userAttributes: [],
    created: CREATED,
    updated: CREATED,
    ...over,
  };
  return {
    config,
    metric: config.rankBy === "metric" ? { key: "steps", name: "Steps" } : null,
    pointsSystem: config.rankBy === "points" ? { key: "xp", name: "Experience" } : null,
    breakdownKeys,
    userFilters,
  };
}

/** Weekly, Mondays: runs 01-05..01-11, 01-12..01-18, ... */
const WEEKLY: Partial<LeaderboardConfig> = { runUnit: "day", runInterval: 7 };
const weeklySteps = board(WEEKLY);
const pointsBoard = board({ id: "lb-xp", key: "xp", rankBy: "points", metricId: null, pointsSystemId: "ps-xp", ...WEEKLY });
const streakBoard = board({ id: "lb-streak", key: "streaks", rankBy: "streak", metricId: null });

const RUN1 = run("2026-01-05", "2026-01-11");
const RUN2 = run("2026-01-12", "2026-01-18");
/** In the first run in every zone: Wednesday 00:30 UTC, Tuesday 13:30 in Pago Pago, Wednesday 14:30 in Kiritimati. */
const MID_RUN1 = "2026-01-07T00:30:00Z";

function user(over: Partial<UserState> = {}): UserState {
  return { ...createUserState("u1", CREATED), ...over };
}

function entry(runStart: string, group: string, value: string | null, history: LeaderboardHistoryItem[] = []): LeaderboardEntry {
  return { run: runStart, group, value, history };
}

const steps = (value: number): LeaderboardContribution => ({ metric: { metricId: "m-steps", value } });

/** What a plan says, without the leaderboard object (checked by identity separately). */
function summary(plan: PlannedEntry) {
  return { id: plan.leaderboard.config.id, run: plan.run, group: plan.group, groupValues: plan.groupValues, value: plan.value, leave: plan.leave };
}

function plan(state: UserState, leaderboard: RankedLeaderboard, contribution: LeaderboardContribution, instant: string) {
  const plans = planLeaderboardEntries(state, [leaderboard], contribution, at(instant));
  for (const p of plans) expect(p.leaderboard).toBe(leaderboard);
  return plans.map(summary);
}

/** The single plan expected for `lb-1`-like leaderboards without breakdowns. */
const planned = (
  id: string,
  r: LeaderboardRun,
  value: string | null,
  leave: PlannedEntry["leave"] = null,
  group = "",
  groupValues: PlannedEntry["groupValues"] = [],
) => [{ id, run: r, group, groupValues, value, leave }];

// ---------------------------------------------------------------------------------------------

describe("contributionOf", () => {
  it("copies the event's metric and value, the points changes and the streak length", () => {
    const points = [
      { systemId: "ps-xp", added: 10 },
      { systemId: "ps-coins", added: -2 },
    ];
    const event = { metricId: "m-steps", value: 0.5, extra: "ignored" };
    const c = contributionOf(event, points, 3);
    expect(c).toEqual({ metric: { metricId: "m-steps", value: 0.5 }, points, streakLength: 3 });
    expect(Object.keys(c.metric!)).toEqual(["metricId", "value"]);
    expect(c.metric).not.toBe(event);
  });

  it("has no metric without an event, and keeps an undefined streak", () => {
    const c = contributionOf(undefined, [], undefined);
    expect(c.metric).toBeUndefined();
    expect(c.points).toEqual([]);
    expect(c.streakLength).toBeUndefined();
  });

  it("plans what the call did, every leaderboard in configuration order", () => {
    const c = contributionOf({ metricId: "m-steps", value: 4 }, [{ systemId: "ps-xp", added: 7 }], 2);
    const plans = planLeaderboardEntries(user(), [streakBoard, weeklySteps, pointsBoard], c, at(MID_RUN1)).map(summary);
    expect(plans).toEqual([...planned("lb-streak", run("2026-01-05", null), "2"), ...planned("lb-1", RUN1, "4"), ...planned("lb-xp", RUN1, "7")]);
  });
});

describe("planLeaderboardEntries: metric leaderboards", () => {
  it.each<[string, UserState, LeaderboardContribution, string, ReturnType<typeof planned> | []]>([
    ["the first event of the run", user(), steps(5), MID_RUN1, planned("lb-1", RUN1, "5")],
    ["adds to the run's value", user({ leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }), steps(5), MID_RUN1, planned("lb-1", RUN1, "15")],
    ["decimals are exact: 0.1 + 0.2", user({ leaderboards: { "lb-1": entry("2026-01-05", "", "0.1") } }), steps(0.2), MID_RUN1, planned("lb-1", RUN1, "0.3")],
    ["a negative value subtracts", user({ leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }), steps(-2.5), MID_RUN1, planned("lb-1", RUN1, "7.5")],
    [
      "an event of another metric plans nothing",
      user({ leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }),
      { metric: { metricId: "m-other", value: 5 } },
      MID_RUN1,
      [],
    ],
    ["no event plans nothing", user(), { points: [{ systemId: "ps-xp", added: 5 }], streakLength: 3 }, MID_RUN1, []],
    ["a value of 0 on the run's entry changes nothing", user({ leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }), steps(0), MID_RUN1, []],
    // A new run starts at 0: the previous run's value stays in its own ranking.
    [
      "a new run starts again at 0",
      user({ leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }),
      steps(3),
      "2026-01-12T00:00:00Z",
      planned("lb-1", RUN2, "3"),
    ],
    [
      "a later run (skipping one) starts at 0 too",
      user({ leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }),
      steps(3),
      "2026-01-20T12:00:00Z",
      planned("lb-1", run("2026-01-19", "2026-01-25"), "3"),
    ],
    // 2026-01-11T10:00Z is Monday 2026-01-12 00:00 in Kiritimati, Sunday 10:00 in UTC.
    [
      "the user's zone: Kiritimati is already in run 2",
      user({ tz: KIRITIMATI, leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }),
      steps(3),
      "2026-01-11T10:00:00Z",
      planned("lb-1", RUN2, "3"),
    ],
    [
      "the user's zone: Kiritimati's last moment of run 1",
      user({ tz: KIRITIMATI, leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }),
      steps(3),
      "2026-01-11T09:59:59.999Z",
      planned("lb-1", RUN1, "13"),
    ],
    [
      "a backfill before a move to UTC: the zone in force then (Kiritimati), not the current one",
      user({
        tz: "UTC",
        tzHistory: [
          { tz: KIRITIMATI, from: new Date("2026-01-01T00:00:00Z") },
          { tz: "UTC", from: new Date("2026-01-11T12:00:00Z") },
        ],
        leaderboards: { "lb-1": entry("2026-01-05", "", "10") },
      }),
      steps(3),
      "2026-01-11T10:00:00Z",
      planned("lb-1", RUN2, "3"),
    ],
    [
      "the same instant in UTC (no zone) is still run 1",
      user({ leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }),
      steps(3),
      "2026-01-11T10:00:00Z",
      planned("lb-1", RUN1, "13"),
    ],
    [
      "the same instant in UTC (named) is still run 1",
      user({ tz: "UTC", leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }),
      steps(3),
      "2026-01-11T10:00:00Z",
      planned("lb-1", RUN1, "13"),
    ],
    [
      "Pago Pago is still in run 1 after UTC left it",
      user({ tz: PAGO_PAGO, leaderboards: { "lb-1": entry("2026-01-05", "", "10") } }),
      steps(3),
      "2026-01-12T10:59:59Z",
      planned("lb-1", RUN1, "13"),
    ],
  ])("%s", (_name, state, contribution, instant, expected) => {
    expect(plan(state, weeklySteps, contribution, instant)).toEqual(expected);
  });

  const ending = board({ ...WEEKLY, end: "2026-01-15" });
  const cut = run("2026-01-12", "2026-01-15");
  it.each<[string, string | null, string, ReturnType<typeof planned> | []]>([
    // The start date 2026-01-05 begins at 2026-01-04T10:00Z in Kiritimati, 2026-01-05T11:00Z in Pago Pago.
    ["UTC before the start", null, "2026-01-04T23:59:59Z", []],
    ["UTC at the start", null, "2026-01-05T00:00:00Z", planned("lb-1", RUN1, "1")],
    ["Kiritimati before the start", KIRITIMATI, "2026-01-04T09:59:59Z", []],
    ["Kiritimati at the start, while UTC is still on Jan 4", KIRITIMATI, "2026-01-04T10:00:00Z", planned("lb-1", RUN1, "1")],
    ["Pago Pago before the start (UTC already started)", PAGO_PAGO, "2026-01-05T10:59:59Z", []],
    ["Pago Pago at the start", PAGO_PAGO, "2026-01-05T11:00:00Z", planned("lb-1", RUN1, "1")],
    // The end date 2026-01-15 ends at 2026-01-15T10:00Z in Kiritimati, 2026-01-16T11:00Z in Pago Pago.
    ["UTC on the end date: the run is cut at the end", null, "2026-01-15T23:59:59Z", planned("lb-1", cut, "1")],
    ["UTC after the end", null, "2026-01-16T00:00:00Z", []],
    ["Kiritimati after the end, UTC still on it", KIRITIMATI, "2026-01-15T10:00:00Z", []],
    ["Pago Pago still on the end date, UTC past it", PAGO_PAGO, "2026-01-16T10:59:59Z", planned("lb-1", cut, "1")],
    ["Pago Pago after the end", PAGO_PAGO, "2026-01-16T11:00:00Z", []],
  ])("start and end in the user's zone: %s", (_name, tz, instant, expected) => {
    expect(plan(user({ tz }), ending, steps(1), instant)).toEqual(expected);
  });

  it("a perpetual leaderboard has one run from the start, without an end", () => {
    expect(plan(user({ leaderboards: { "lb-1": entry("2026-01-05", "", "100") } }), board(), steps(1), "2027-06-01T12:00:00Z")).toEqual(
      planned("lb-1", run("2026-01-05", null), "101"),
    );
  });
});

describe("planLeaderboardEntries: points leaderboards", () => {
  const inRun = (value: string) => ({ "lb-xp": entry("2026-01-05", "", value) });
  it.each<[string, Record<string, LeaderboardEntry>, LeaderboardContribution, ReturnType<typeof planned> | []]>([
    ["one change", {}, { points: [{ systemId: "ps-xp", added: 10 }] }, planned("lb-xp", RUN1, "10")],
    [
      "sums the system's changes, deductions included, ignoring other systems",
      {},
      {
        points: [
          { systemId: "ps-xp", added: 10 },
          { systemId: "ps-coins", added: 99 },
          { systemId: "ps-xp", added: -3 },
          { systemId: "ps-xp", added: 0.25 },
        ],
      },
      planned("lb-xp", RUN1, "7.25"),
    ],
    ["adds to the run's value", inRun("2.5"), { points: [{ systemId: "ps-xp", added: 7 }] }, planned("lb-xp", RUN1, "9.5")],
    ["a deduction lowers the run's value below 0", inRun("2"), { points: [{ systemId: "ps-xp", added: -5 }] }, planned("lb-xp", RUN1, "-3")],
    ["decimals are exact", inRun("0.1"), { points: [{ systemId: "ps-xp", added: 0.2 }] }, planned("lb-xp", RUN1, "0.3")],
    ["only another system's points: nothing", inRun("5"), { points: [{ systemId: "ps-coins", added: 10 }] }, []],
    ["no points changes: nothing", inRun("5"), { points: [] }, []],
    ["points undefined: nothing", {}, { metric: { metricId: "m-steps", value: 1 }, streakLength: 2 }, []],
    [
      "changes that cancel out leave the value unchanged: nothing",
      inRun("5"),
      {
        points: [
          { systemId: "ps-xp", added: 4 },
          { systemId: "ps-xp", added: -4 },
        ],
      },
      [],
    ],
    [
      "a previous run's value does not count",
      { "lb-xp": entry("2025-12-29", "", "50") },
      { points: [{ systemId: "ps-xp", added: 1 }] },
      planned("lb-xp", RUN1, "1"),
    ],
  ])("%s", (_name, leaderboards, contribution, expected) => {
    expect(plan(user({ leaderboards }), pointsBoard, contribution, MID_RUN1)).toEqual(expected);
  });

  it("with `finalBy`, plans nothing for a run final by then (12:00 UTC the day after its last day): a change paid late", () => {
    const late = { points: [{ systemId: "ps-xp", added: 10 }] };
    const planAt = (finalBy: string) => planLeaderboardEntries(user(), [pointsBoard], late, at(MID_RUN1), at(finalBy)).map(summary);
    expect(planAt("2026-01-12T11:59:59Z")).toEqual(planned("lb-xp", RUN1, "10"));
    expect(planAt("2026-01-12T12:00:00Z")).toEqual([]);
  });
});

describe("planLeaderboardEntries: streak leaderboards", () => {
  const perpetual = run("2026-01-05", null);
  const stored = (value: string | null) => ({ "lb-streak": entry("2026-01-05", "", value) });
  it.each<[string, Record<string, LeaderboardEntry>, number | undefined, ReturnType<typeof planned> | []]>([
    ["a first streak day", {}, 1, planned("lb-streak", perpetual, "1")],
    ["the length, as an absolute value", stored("3"), 4, planned("lb-streak", perpetual, "4")],
    ["a shorter streak after a reset replaces the value", stored("7"), 1, planned("lb-streak", perpetual, "1")],
    ["the same length as stored: nothing", stored("4"), 4, []],
    ["a lost streak (0) leaves the ranking", stored("4"), 0, planned("lb-streak", perpetual, null)],
    ["a lost streak without an entry: nothing", {}, 0, []],
    ["a lost streak after leaving already: nothing", stored(null), 0, []],
    ["rejoining after leaving", stored(null), 1, planned("lb-streak", perpetual, "1")],
    ["no streak length (streaks not configured): nothing", stored("4"), undefined, []],
  ])("%s", (_name, leaderboards, streakLength, expected) => {
    const contribution: LeaderboardContribution = { metric: { metricId: "m-steps", value: 1 }, points: [{ systemId: "ps-xp", added: 1 }], streakLength };
    expect(plan(user({ leaderboards }), streakBoard, contribution, MID_RUN1)).toEqual(expected);
  });
});

describe("planLeaderboardEntries: status", () => {
  it.each<[string, Partial<LeaderboardConfig>, string | null, string, boolean]>([
    ["active", { status: "active" }, null, MID_RUN1, true],
    ["inactive plans nothing", { status: "inactive" }, null, MID_RUN1, false],
    ["finished (by an admin) plans nothing", { status: "finished" }, null, MID_RUN1, false],
    ["scheduled whose start has begun plans", { status: "scheduled" }, null, MID_RUN1, true],
    ["scheduled whose start has begun in Kiritimati plans for a Kiritimati user", { status: "scheduled" }, KIRITIMATI, "2026-01-04T10:00:00Z", true],
    ["scheduled before the start begins anywhere plans nothing", { status: "scheduled", start: "2026-02-02" }, KIRITIMATI, MID_RUN1, false],
    // Finished once final (2026-01-16T12:00Z), even for a user whose local date is the end date.
    ["active but final: finished, plans nothing", { status: "active", end: "2026-01-15" }, "Etc/GMT+12", "2026-01-16T12:00:00Z", false],
    ["active, one moment before final, in UTC−12", { status: "active", end: "2026-01-15" }, "Etc/GMT+12", "2026-01-16T11:59:59Z", true],
  ])("%s", (_name, over, tz, instant, plans) => {
    const leaderboard = board({ ...WEEKLY, ...over });
    expect(planLeaderboardEntries(user({ tz }), [leaderboard], steps(2), at(instant)).map((p) => p.value)).toEqual(plans ? ["2"] : []);
  });
});

describe("planLeaderboardEntries: the daily window on the user's clock", () => {
  const windowed = board({ ...WEEKLY, startTime: "09:00", endTime: "17:00" });
  it.each<[string, string, string | null, LeaderboardRun | null]>([
    ["UTC, just before the start", "2026-01-06T08:59:59Z", null, null],
    ["UTC, at the start (included)", "2026-01-06T09:00:00Z", null, RUN1],
    ["UTC, midday", "2026-01-06T12:00:00Z", null, RUN1],
    ["UTC, last second", "2026-01-06T16:59:59Z", null, RUN1],
    ["UTC, at the end (excluded)", "2026-01-06T17:00:00Z", null, null],
    ["Kiritimati 09:00 is 19:00 UTC the day before", "2026-01-05T19:00:00Z", KIRITIMATI, RUN1],
    ["Kiritimati 08:59:59", "2026-01-05T18:59:59Z", KIRITIMATI, null],
    ["UTC at 19:00 is outside", "2026-01-05T19:00:00Z", null, null],
    ["Kiritimati 16:59:59", "2026-01-06T02:59:59Z", KIRITIMATI, RUN1],
    ["Kiritimati 17:00", "2026-01-06T03:00:00Z", KIRITIMATI, null],
    ["Kiritimati's Monday morning is in run 2, inside the window", "2026-01-11T20:00:00Z", KIRITIMATI, RUN2],
    ["Pago Pago's Sunday morning at the same instant is in run 1", "2026-01-11T20:00:00Z", PAGO_PAGO, RUN1],
  ])("%s", (_name, instant, tz, expected) => {
    expect(plan(user({ tz }), windowed, steps(1), instant)).toEqual(expected === null ? [] : planned("lb-1", expected, "1"));
  });
});

describe("planLeaderboardEntries: user attribute filters", () => {
  const filters = [
    { key: "plan", value: "pro" },
    { key: "country", value: "NZ" },
  ];
  const proOnly = board(
    {
      ...WEEKLY,
      userAttributes: [
        { attributeId: "attr-plan", attributeValue: "pro" },
        { attributeId: "attr-country", attributeValue: "NZ" },
      ],
    },
    [],
    filters,
  );

  it.each<[string, UserState, ReturnType<typeof planned> | []]>([
    ["a user matching every filter takes part", user({ attributes: { plan: "pro", country: "NZ", other: "x" } }), planned("lb-1", RUN1, "2")],
    ["one filter not matched: nothing", user({ attributes: { plan: "pro", country: "AU" } }), []],
    ["a filtered attribute missing: nothing", user({ attributes: { plan: "pro" } }), []],
    ["values compare exactly (case matters)", user({ attributes: { plan: "Pro", country: "NZ" } }), []],
    ["no attributes: nothing", user(), []],
  ])("%s", (_name, state, expected) => expect(plan(state, proOnly, steps(2), MID_RUN1)).toEqual(expected));

  it("a user who stops matching keeps the value ranked; their later changes are not counted", () => {
    const ranked = user({ attributes: { plan: "free", country: "NZ" }, leaderboards: { "lb-1": entry("2026-01-05", "", "10") } });
    expect(plan(ranked, proOnly, steps(2), MID_RUN1)).toEqual([]);
  });

  it("no filters: everyone takes part", () => {
    expect(plan(user(), weeklySteps, steps(2), MID_RUN1)).toEqual(planned("lb-1", RUN1, "2"));
  });
});

describe("planLeaderboardEntries: breakdowns", () => {
  const byCountryTier = board(WEEKLY, ["country", "tier"]);
  const gold = groupKey(["NZ", "gold"])!;
  const silver = groupKey(["NZ", "silver"])!;
  const goldValues = [
    { key: "country", value: "NZ" },
    { key: "tier", value: "gold" },
  ];
  const goldUser = (leaderboards: Record<string, LeaderboardEntry> = {}) => user({ attributes: { tier: "gold", other: "x", country: "NZ" }, leaderboards });

  it("the group key is the attribute values in the leaderboard's order", () => {
    expect(gold).toBe('["NZ","gold"]');
  });

  it.each<[string, UserState, LeaderboardContribution, string, ReturnType<typeof planned> | []]>([
    ["values in the configured order", goldUser(), steps(2), MID_RUN1, planned("lb-1", RUN1, "2", null, gold, goldValues)],
    [
      "adds within the same group",
      goldUser({ "lb-1": entry("2026-01-05", gold, "10") }),
      steps(2),
      MID_RUN1,
      planned("lb-1", RUN1, "12", null, gold, goldValues),
    ],
    ["a missing value: nothing", user({ attributes: { country: "NZ" } }), steps(2), MID_RUN1, []],
    ["no attributes: nothing", user(), steps(2), MID_RUN1, []],
    [
      "a group change within the run moves the run value and leaves the old group",
      goldUser({ "lb-1": entry("2026-01-05", silver, "10") }),
      steps(2),
      MID_RUN1,
      planned("lb-1", RUN1, "12", { run: "2026-01-05", group: silver }, gold, goldValues),
    ],
    [
      "a group change without a change of value still moves",
      goldUser({ "lb-1": entry("2026-01-05", silver, "10") }),
      steps(0),
      MID_RUN1,
      planned("lb-1", RUN1, "10", { run: "2026-01-05", group: silver }, gold, goldValues),
    ],
    [
      "a group change across runs: no leave, a fresh value",
      goldUser({ "lb-1": entry("2026-01-05", silver, "10") }),
      steps(2),
      "2026-01-13T12:00:00Z",
      planned("lb-1", RUN2, "2", null, gold, goldValues),
    ],
    ["a value of 0 in the same run and group: nothing", goldUser({ "lb-1": entry("2026-01-05", gold, "10") }), steps(0), MID_RUN1, []],
  ])("%s", (_name, state, contribution, instant, expected) => {
    expect(plan(state, byCountryTier, contribution, instant)).toEqual(expected);
  });

  it("a streak leaderboard with breakdowns: a group change with the same length moves; a lost streak leaves the old group", () => {
    const streaks = board({ id: "lb-streak", rankBy: "streak", metricId: null }, ["country", "tier"]);
    const perpetual = run("2026-01-05", null);
    const state = goldUser({ "lb-streak": entry("2026-01-05", silver, "4") });
    expect(plan(state, streaks, { streakLength: 4 }, MID_RUN1)).toEqual(
      planned("lb-streak", perpetual, "4", { run: "2026-01-05", group: silver }, gold, goldValues),
    );
    expect(plan(state, streaks, { streakLength: 0 }, MID_RUN1)).toEqual(
      planned("lb-streak", perpetual, null, { run: "2026-01-05", group: silver }, gold, goldValues),
    );
    // Left already (value null): nothing to leave, and nothing to rank.
    expect(plan(goldUser({ "lb-streak": entry("2026-01-05", silver, null) }), streaks, { streakLength: 0 }, MID_RUN1)).toEqual([]);
    // Rejoining in another group after leaving: no ranking to leave.
    expect(plan(goldUser({ "lb-streak": entry("2026-01-05", silver, null) }), streaks, { streakLength: 1 }, MID_RUN1)).toEqual(
      planned("lb-streak", perpetual, "1", null, gold, goldValues),
    );
  });
});

// ---------------------------------------------------------------------------------------------

function outcome(over: Partial<EntryOutcome> = {}): EntryOutcome {
  return { changed: true, previousRank: null, rank: 1, previousValue: null, value: "1", threshold: null, ...over };
}

function item(
  runStart: string,
  date: string,
  previousRank: number | null,
  rank: number | null,
  previousValue: string | null,
  value: string | null,
): LeaderboardHistoryItem {
  return { run: runStart, date, previousRank, rank, previousValue, value };
}

/** A plan as planLeaderboardEntries makes it. */
function onePlan(state: UserState, leaderboard: RankedLeaderboard, contribution: LeaderboardContribution, instant: string): PlannedEntry {
  const plans = planLeaderboardEntries(state, [leaderboard], contribution, at(instant));
  expect(plans).toHaveLength(1);
  return plans[0]!;
}

describe("recordLeaderboardOutcomes", () => {
  it("writes the first entry with one history item, and reports the result", () => {
    const state = user({ leaderboards: { other: entry("2026-01-05", "", "9") } });
    const p = onePlan(state, weeklySteps, steps(5), "2026-01-07T12:00:00Z");
    const o = outcome({ previousRank: null, rank: 3, previousValue: null, value: "5", threshold: "2" });
    const { state: next, results } = recordLeaderboardOutcomes(state, [p], [o], at("2026-01-07T12:00:00Z"));
    expect(next.leaderboards).toEqual({
      other: entry("2026-01-05", "", "9"),
      "lb-1": entry("2026-01-05", "", "5", [item("2026-01-05", "2026-01-07", null, 3, null, "5")]),
    });
    expect(results).toEqual([{ leaderboard: weeklySteps, run: RUN1, groupValues: [], outcome: o }]);
    expect(results[0]!.leaderboard).toBe(weeklySteps);
    // The input state is left as it was.
    expect(state.leaderboards).toEqual({ other: entry("2026-01-05", "", "9") });
    expect(next.userId).toBe("u1");
  });

  const first = item("2026-01-05", "2026-01-07", 5, 3, "10", "15");
  it.each<[string, string | null, string, LeaderboardHistoryItem[]]>([
    ["a second change the same day updates the day's item", null, "2026-01-07T23:59:59Z", [item("2026-01-05", "2026-01-07", 5, 2, "10", "20")]],
    ["a change on a new date appends an item", null, "2026-01-08T00:00:00Z", [first, item("2026-01-05", "2026-01-08", 3, 2, "15", "20")]],
    // 2026-01-07T11:00Z is 2026-01-08 01:00 in Kiritimati.
    [
      "the date is the user's local date: Kiritimati is on the next day",
      KIRITIMATI,
      "2026-01-07T11:00:00Z",
      [first, item("2026-01-05", "2026-01-08", 3, 2, "15", "20")],
    ],
    // 2026-01-08T10:59Z is 2026-01-07 23:59 in Pago Pago.
    [
      "the date is the user's local date: Pago Pago is still on the day",
      PAGO_PAGO,
      "2026-01-08T10:59:00Z",
      [item("2026-01-05", "2026-01-07", 5, 2, "10", "20")],
    ],
  ])("%s", (_name, tz, instant, expected) => {
    const state = user({ tz, leaderboards: { "lb-1": entry("2026-01-05", "", "15", [first]) } });
    const p = onePlan(state, weeklySteps, steps(5), instant);
    const { state: next } = recordLeaderboardOutcomes(state, [p], [outcome({ previousRank: 3, rank: 2, previousValue: "15", value: "20" })], at(instant));
    expect(next.leaderboards["lb-1"]).toEqual(entry("2026-01-05", "", "20", expected));
  });

  it("a new run appends an item, even on the same local date as the last one", () => {
    const last = item("2026-01-05", "2026-01-11", 4, 2, "10", "12");
    const state = user({ leaderboards: { "lb-1": entry("2026-01-05", "", "12", [last]) } });
    const p = onePlan(state, weeklySteps, steps(3), "2026-01-12T08:00:00Z");
    const { state: next } = recordLeaderboardOutcomes(
      state,
      [p],
      [outcome({ previousRank: null, rank: 7, previousValue: null, value: "3" })],
      at("2026-01-12T08:00:00Z"),
    );
    expect(next.leaderboards["lb-1"]).toEqual(entry("2026-01-12", "", "3", [last, item("2026-01-12", "2026-01-12", null, 7, null, "3")]));

    // Same run check: a last item of another run on the same date is not merged into.
    const sameDate = item("2025-12-29", "2026-01-12", 1, 1, "1", "2");
    const odd = user({ leaderboards: { "lb-1": entry("2025-12-29", "", "2", [sameDate]) } });
    const q = onePlan(odd, weeklySteps, steps(3), "2026-01-12T08:00:00Z");
    const after = recordLeaderboardOutcomes(odd, [q], [outcome({ previousRank: null, rank: 7, previousValue: null, value: "3" })], at("2026-01-12T08:00:00Z"));
    expect(after.state.leaderboards["lb-1"]!.history).toEqual([sameDate, item("2026-01-12", "2026-01-12", null, 7, null, "3")]);
  });

  it("a group change records the new group and the moved value", () => {
    const byTier = board(WEEKLY, ["tier"]);
    const first = item("2026-01-05", "2026-01-06", null, 1, null, "10");
    const state = user({ attributes: { tier: "gold" }, leaderboards: { "lb-1": entry("2026-01-05", '["silver"]', "10", [first]) } });
    const p = onePlan(state, byTier, steps(1), MID_RUN1);
    const o = outcome({ previousRank: null, rank: 4, previousValue: null, value: "11" });
    const { state: next, results } = recordLeaderboardOutcomes(state, [p], [o], at(MID_RUN1));
    const moved = { ...item("2026-01-05", "2026-01-07", null, 4, null, "11"), group: '["gold"]' };
    expect(next.leaderboards["lb-1"]).toEqual(entry("2026-01-05", '["gold"]', "11", [first, moved]));
    expect(results).toEqual([{ leaderboard: byTier, run: RUN1, groupValues: [{ key: "tier", value: "gold" }], outcome: o }]);
    // A second change that day in another group: the day's item takes the group too.
    const silverAgain = { ...next, attributes: { tier: "silver" } };
    const p2 = onePlan(silverAgain, byTier, steps(1), MID_RUN1);
    const { state: last } = recordLeaderboardOutcomes(silverAgain, [p2], [outcome({ rank: 2, value: "12" })], at(MID_RUN1));
    expect(last.leaderboards["lb-1"]!.history.at(-1)).toEqual({ ...moved, group: '["silver"]', rank: 2, value: "12" });
  });

  it("a lost streak records a null value", () => {
    const state = user({ leaderboards: { "lb-streak": entry("2026-01-05", "", "4") } });
    const p = onePlan(state, streakBoard, { streakLength: 0 }, MID_RUN1);
    const o = outcome({ previousRank: 2, rank: null, previousValue: "4", value: null });
    const { state: next, results } = recordLeaderboardOutcomes(state, [p], [o], at(MID_RUN1));
    expect(next.leaderboards["lb-streak"]).toEqual(entry("2026-01-05", "", null, [item("2026-01-05", "2026-01-07", 2, null, "4", null)]));
    expect(results.map((r) => r.outcome)).toEqual([o]);
  });

  it("an unchanged outcome writes the entry, leaves the history alone and is not a result", () => {
    const hist = [item("2026-01-05", "2026-01-06", null, 1001, null, "10")];
    const state = user({
      leaderboards: {
        "lb-1": entry("2026-01-05", "", "10", hist),
        "lb-xp": entry("2026-01-05", "", "1"),
      },
    });
    const plans = planLeaderboardEntries(
      state,
      [weeklySteps, pointsBoard],
      { metric: { metricId: "m-steps", value: 1 }, points: [{ systemId: "ps-xp", added: 2 }] },
      at(MID_RUN1),
    );
    expect(plans.map(summary)).toEqual([...planned("lb-1", RUN1, "11"), ...planned("lb-xp", RUN1, "3")]);
    const unchanged = outcome({ changed: false, previousRank: null, rank: null, previousValue: "10", value: "11", threshold: "50" });
    const changed = outcome({ previousRank: 9, rank: 8, previousValue: "1", value: "3" });
    const { state: next, results } = recordLeaderboardOutcomes(state, plans, [unchanged, changed], at(MID_RUN1));
    expect(next.leaderboards).toEqual({
      "lb-1": entry("2026-01-05", "", "11", hist),
      "lb-xp": entry("2026-01-05", "", "3", [item("2026-01-05", "2026-01-07", 9, 8, "1", "3")]),
    });
    expect(results).toEqual([{ leaderboard: pointsBoard, run: RUN1, groupValues: [], outcome: changed }]);
  });

  it("an unchanged first outcome leaves an empty history", () => {
    const state = user();
    const p = onePlan(state, weeklySteps, steps(1), MID_RUN1);
    const { state: next, results } = recordLeaderboardOutcomes(state, [p], [outcome({ changed: false, rank: null, value: "1" })], at(MID_RUN1));
    expect(next.leaderboards["lb-1"]).toEqual(entry("2026-01-05", "", "1", []));
    expect(results).toEqual([]);
  });

  it("results follow the plan order", () => {
    const state = user();
    const c: LeaderboardContribution = { metric: { metricId: "m-steps", value: 1 }, points: [{ systemId: "ps-xp", added: 1 }], streakLength: 1 };
    const plans = planLeaderboardEntries(state, [pointsBoard, streakBoard, weeklySteps], c, at(MID_RUN1));
    const outcomes = [outcome({ rank: 1 }), outcome({ rank: 2 }), outcome({ rank: 3 })];
    const { results } = recordLeaderboardOutcomes(state, plans, outcomes, at(MID_RUN1));
    expect(results.map((r) => [r.leaderboard.config.id, r.outcome.rank])).toEqual([
      ["lb-xp", 1],
      ["lb-streak", 2],
      ["lb-1", 3],
    ]);
  });

  it(`keeps at most HISTORY_LIMIT (${HISTORY_LIMIT}) items, the newest`, () => {
    expect(HISTORY_LIMIT).toBe(100);
    // One item per day from 2026-01-05 on: the leaderboard is perpetual, so all in one run.
    const day = (i: number) => new Date(Date.UTC(2026, 0, 5 + i)).toISOString().slice(0, 10);
    const full = Array.from({ length: HISTORY_LIMIT }, (_, i) => item("2026-01-05", day(i), i + 2, i + 1, String(i), String(i + 1)));
    const perpetualSteps = board();
    const state = user({ leaderboards: { "lb-1": entry("2026-01-05", "", String(HISTORY_LIMIT), full) } });
    const instant = `${day(HISTORY_LIMIT)}T12:00:00Z`;
    const p = onePlan(state, perpetualSteps, steps(1), instant);
    const { state: next } = recordLeaderboardOutcomes(state, [p], [outcome({ previousRank: 101, rank: 1, previousValue: "100", value: "101" })], at(instant));
    const history = next.leaderboards["lb-1"]!.history;
    expect(history).toHaveLength(HISTORY_LIMIT);
    expect(history[0]).toEqual(full[1]);
    expect(history[HISTORY_LIMIT - 2]).toEqual(full[HISTORY_LIMIT - 1]);
    expect(history[HISTORY_LIMIT - 1]).toEqual(item("2026-01-05", day(HISTORY_LIMIT), 101, 1, "100", "101"));

    // A second change the same day updates the last item and drops nothing.
    const again = recordLeaderboardOutcomes(next, [p], [outcome({ previousRank: 1, rank: 1, previousValue: "101", value: "102" })], at(instant));
    const history2 = again.state.leaderboards["lb-1"]!.history;
    expect(history2).toHaveLength(HISTORY_LIMIT);
    expect(history2[0]).toEqual(full[1]);
    expect(history2[HISTORY_LIMIT - 1]).toEqual(item("2026-01-05", day(HISTORY_LIMIT), 101, 1, "100", "102"));
  });
});

describe("an earlier run than the entry's (a backdated event, a zone moved west)", () => {
  // The user reached run 2 (value 3); run 1 ended at 12 (its last history item).
  const run1Last = item("2026-01-05", "2026-01-09", 4, 2, "10", "12");
  const run2First = item("2026-01-12", "2026-01-12", null, 5, null, "3");
  const inRun2 = (history: LeaderboardHistoryItem[]) => user({ leaderboards: { "lb-1": entry("2026-01-12", "", "3", history) } });

  it("adds to the user's value in that run, their latest history item of it; the entry stays on run 2", () => {
    const p = onePlan(inRun2([run1Last, run2First]), weeklySteps, steps(5), MID_RUN1);
    expect(summary(p)).toEqual(planned("lb-1", RUN1, "17")[0]);
    expect(p.earlierRun).toEqual({ addToRanked: false });
  });

  it("without a kept history item of that run, the change is added to the ranked value when written", () => {
    const p = onePlan(inRun2([run2First]), weeklySteps, steps(5), MID_RUN1);
    expect(summary(p)).toEqual(planned("lb-1", RUN1, "5")[0]);
    expect(p.earlierRun).toEqual({ addToRanked: true });
  });

  it("a change of 0 to a known value plans nothing", () => {
    expect(plan(inRun2([run1Last, run2First]), weeklySteps, steps(0), MID_RUN1)).toEqual([]);
  });

  it("a zone moved west: Kiritimati's Monday (run 2), then Pago Pago's Sunday (run 1) an hour later", () => {
    // 2026-01-11T10:30Z: Monday 00:30 in Kiritimati; 11:30Z: Sunday 00:30 in Pago Pago.
    const tokyoDay = item("2026-01-05", "2026-01-11", null, 1, null, "12");
    const state = user({
      tz: PAGO_PAGO,
      leaderboards: { "lb-1": entry("2026-01-12", "", "1", [tokyoDay, item("2026-01-12", "2026-01-12", null, 1, null, "1")]) },
    });
    const p = onePlan(state, weeklySteps, steps(2), "2026-01-11T11:30:00Z");
    expect(summary(p)).toEqual(planned("lb-1", RUN1, "14")[0]);
    const { state: next } = recordLeaderboardOutcomes(
      state,
      [p],
      [outcome({ previousRank: 1, rank: 1, previousValue: "12", value: "14" })],
      at("2026-01-11T11:30:00Z"),
    );
    // The entry stays on run 2; the run-1 item of Sunday (not the last item) takes the new value.
    expect(next.leaderboards["lb-1"]).toEqual(
      entry("2026-01-12", "", "1", [item("2026-01-05", "2026-01-11", null, 1, null, "14"), item("2026-01-12", "2026-01-12", null, 1, null, "1")]),
    );
    // The next event in run 2 adds to run 2's value.
    expect(plan(next, weeklySteps, steps(1), "2026-01-13T12:00:00Z")).toEqual(planned("lb-1", RUN2, "2"));
  });

  it("a new date in the earlier run appends an item; the entry keeps its run, group and value", () => {
    const state = inRun2([run1Last, run2First]);
    const p = onePlan(state, weeklySteps, steps(5), MID_RUN1);
    const { state: next, results } = recordLeaderboardOutcomes(
      state,
      [p],
      [outcome({ previousRank: 2, rank: 1, previousValue: "12", value: "17" })],
      at(MID_RUN1),
    );
    expect(next.leaderboards["lb-1"]).toEqual(entry("2026-01-12", "", "3", [run1Last, run2First, item("2026-01-05", "2026-01-07", 2, 1, "12", "17")]));
    expect(results.map((r) => r.run)).toEqual([RUN1]);
  });

  it("an opted-out user's earlier run changes nothing in the entry", () => {
    const state = inRun2([run1Last, run2First]);
    const p = onePlan(state, weeklySteps, steps(5), MID_RUN1);
    const { state: next } = recordLeaderboardOutcomes(state, [p], [outcome({ changed: false, rank: null, value: null })], at(MID_RUN1));
    expect(next.leaderboards["lb-1"]).toEqual(state.leaderboards["lb-1"]);
  });

  it("points leaderboards too", () => {
    const state = user({ leaderboards: { "lb-xp": entry("2026-01-12", "", "3", [item("2026-01-05", "2026-01-09", null, 1, null, "40")]) } });
    const p = onePlan(state, pointsBoard, { points: [{ systemId: "ps-xp", added: 10 }] }, MID_RUN1);
    expect(summary(p)).toEqual(planned("lb-xp", RUN1, "50")[0]);
  });

  it("a group change in the earlier run moves its value out of the group its history item names", () => {
    const byTier = board(WEEKLY, ["tier"]);
    const silverRun1 = { ...run1Last, group: '["silver"]' };
    const state = user({ attributes: { tier: "gold" }, leaderboards: { "lb-1": entry("2026-01-12", '["silver"]', "3", [silverRun1, run2First]) } });
    const p = onePlan(state, byTier, steps(5), MID_RUN1);
    expect(summary(p)).toEqual(planned("lb-1", RUN1, "17", { run: "2026-01-05", group: '["silver"]' }, '["gold"]', [{ key: "tier", value: "gold" }])[0]);
    const { state: next } = recordLeaderboardOutcomes(state, [p], [outcome({ value: "17" })], at(MID_RUN1));
    // The entry stays on run 2 in its group; run 1's new item names the group it moved to.
    expect(next.leaderboards["lb-1"]).toMatchObject({ run: "2026-01-12", group: '["silver"]', value: "3" });
    expect(next.leaderboards["lb-1"]!.history.at(-1)).toMatchObject({ run: "2026-01-05", group: '["gold"]', value: "17" });
    // Items written before groups were kept name none: nothing to leave.
    const legacy = user({ attributes: { tier: "gold" }, leaderboards: { "lb-1": entry("2026-01-12", '["silver"]', "3", [run1Last, run2First]) } });
    expect(onePlan(legacy, byTier, steps(5), MID_RUN1).leave).toBeNull();
  });

  it("a streak length is set as it is", () => {
    const weeklyStreak = board({ id: "lb-streak", key: "streaks", rankBy: "streak", metricId: null, ...WEEKLY });
    const state = user({ leaderboards: { "lb-streak": entry("2026-01-12", "", "3", [run2First]) } });
    const p = onePlan(state, weeklyStreak, { streakLength: 6 }, MID_RUN1);
    expect(summary(p)).toEqual(planned("lb-streak", RUN1, "6")[0]);
    expect(p.earlierRun).toEqual({ addToRanked: false });
  });
});

describe("historyOfRun", () => {
  const a1 = item("2026-01-05", "2026-01-05", null, 5, null, "1");
  const a2 = item("2026-01-05", "2026-01-07", 5, 4, "1", "2");
  const a3 = item("2026-01-05", "2026-01-09", 4, 3, "2", "3");
  const b1 = item("2026-01-12", "2026-01-12", null, 9, null, "1");
  const b2 = item("2026-01-12", "2026-01-14", 9, 8, "1", "2");
  const e = entry("2026-01-12", "", "2", [a1, a2, a3, b1, b2]);
  it.each<[string, LeaderboardEntry | undefined, string, number, LeaderboardHistoryItem[]]>([
    ["all of a run, oldest first", e, "2026-01-05", 10, [a1, a2, a3]],
    ["exactly the run's count", e, "2026-01-05", 3, [a1, a2, a3]],
    ["the newest `limit`, oldest first", e, "2026-01-05", 2, [a2, a3]],
    ["limit 1: the newest", e, "2026-01-05", 1, [a3]],
    ["another run", e, "2026-01-12", 5, [b1, b2]],
    ["a run without items", e, "2026-01-19", 5, []],
    ["limit 0", e, "2026-01-05", 0, []],
    ["a negative limit", e, "2026-01-05", -1, []],
    ["no entry", undefined, "2026-01-05", 5, []],
  ])("%s", (_name, en, runStart, limit, expected) => {
    expect(historyOfRun(en, runStart, limit)).toEqual(expected);
  });
});

describe("a leaderboard redefined while inactive (rankingGeneration)", () => {
  const redefined = board({ ...WEEKLY, rankingGeneration: 1 });
  const before = user({ leaderboards: { "lb-1": entry("2026-01-05", "", "10", [item("2026-01-05", "2026-01-06", null, 1, null, "10")]) } });

  it("entryOf: an entry of the same generation is read; one of another (absent counts as 0) is none", () => {
    expect(entryOf(before, weeklySteps.config)).toBe(before.leaderboards["lb-1"]);
    expect(entryOf(before, redefined.config)).toBeUndefined();
    const later = user({ leaderboards: { "lb-1": { ...entry("2026-01-05", "", "1"), generation: 1 } } });
    expect(entryOf(later, redefined.config)).toBe(later.leaderboards["lb-1"]);
    expect(entryOf(later, weeklySteps.config)).toBeUndefined();
    expect(entryOf(user(), weeklySteps.config)).toBeUndefined();
  });

  it("the user starts over: the earlier value is not added to, and the entry is replaced with the new generation and history", () => {
    const p = onePlan(before, redefined, steps(2), MID_RUN1);
    expect(summary(p)).toEqual(planned("lb-1", RUN1, "2")[0]);
    expect(p.earlierRun).toBeNull();
    const { state: next } = recordLeaderboardOutcomes(before, [p], [outcome({ value: "2" })], at(MID_RUN1));
    expect(next.leaderboards["lb-1"]).toEqual({ ...entry("2026-01-05", "", "2", [item("2026-01-05", "2026-01-07", null, 1, null, "2")]), generation: 1 });
  });

  it("an entry of an earlier definition on a later run does not make this one an earlier run", () => {
    const onRun2 = user({ leaderboards: { "lb-1": entry("2026-01-12", "", "3", [item("2026-01-05", "2026-01-09", null, 1, null, "12")]) } });
    const p = onePlan(onRun2, redefined, steps(5), MID_RUN1);
    expect(summary(p)).toEqual(planned("lb-1", RUN1, "5")[0]);
    expect(p.earlierRun).toBeNull();
  });
});

describe("groupInRun", () => {
  const e = entry("2026-01-12", '["gold"]', "2", [
    { ...item("2026-01-05", "2026-01-05", null, 1, null, "1"), group: '["silver"]' },
    { ...item("2026-01-05", "2026-01-07", 1, 1, "1", "2"), group: '["bronze"]' },
    item("2026-01-12", "2026-01-12", null, 1, null, "2"),
  ]);
  it.each<[string, LeaderboardEntry | undefined, string, string | undefined]>([
    ["the entry's run: its group", e, "2026-01-12", '["gold"]'],
    ["an earlier run: its latest item's group", e, "2026-01-05", '["bronze"]'],
    ["a run without items", e, "2025-12-29", undefined],
    ["no entry", undefined, "2026-01-05", undefined],
    [
      "an item without a group (written before groups were kept)",
      entry("2026-01-12", "", "1", [item("2026-01-05", "2026-01-05", null, 1, null, "1")]),
      "2026-01-05",
      undefined,
    ],
  ])("%s", (_name, en, runStart, expected) => {
    expect(groupInRun(en, runStart)).toBe(expected);
  });
});
