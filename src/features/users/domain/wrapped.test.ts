import { describe, expect, it } from "vitest";
import { DomainError } from "../../../engine/domain/errors.js";
import { applyEvent, type MetricEvent } from "../../../engine/domain/event.js";
import type { RankedLeaderboard } from "../../leaderboards/domain/leaderboard-entries.js";
import type { LeaderboardConfig } from "../../leaderboards/domain/leaderboard-config.js";
import type { MetricConfig } from "../../metrics/domain/metric.js";
import type { StreakPeriodRecord } from "../../streaks/domain/streak.js";
import { createUserState, zoneInForce, type UserState } from "../../../engine/domain/user.js";
import { localDate } from "../../../engine/domain/history.js";
import { mondayOf } from "../../../engine/domain/plain-dates.js";
import {
  computeWrapped,
  longestStreakIn,
  percentChange,
  supportedYears,
  userLocalDateAt,
  wrappedOfUser,
  wrappedYear,
  type WrappedConfig,
  type WrappedInput,
} from "./wrapped.js";
import { sha256 } from "../../../engine/sha256.js";
import { emptyPointsState } from "../../points/domain/points.js";

const ENGINE = { achievements: [], points: { systems: [], attributeKeys: {} }, streak: null, newId: () => "id", sha256 };
const METRIC: MetricConfig = { id: "m1", key: "words", name: "Words", unitType: "number", units: "words", created: new Date(0), updated: new Date(0) };
const CONFIG: WrappedConfig<string> = { metrics: [METRIC], pointsSystems: [], achievements: [], leaderboards: [], streak: null };

/** A user after events of the given values at the given instants, in the zone (or zones) sent with them. */
function userAfter(events: Array<{ at: string; value?: number; tz?: string }>): UserState {
  let state = createUserState("u1", new Date(events[0]!.at));
  for (const e of events) {
    const event: MetricEvent = { eventId: "e", metricId: "m1", at: new Date(e.at), user: { id: "u1", tz: e.tz }, value: e.value ?? 1, attributes: {} };
    state = applyEvent(state, event, new Date(e.at), ENGINE, false).state;
  }
  return state;
}

const review = (user: UserState, year: number, now: string, config: WrappedConfig<string> = CONFIG) => wrappedOfUser(user, config, year, new Date(now)).wrapped;

describe("supported years", () => {
  it("are the current year and the one before, in the user's zone", () => {
    expect(supportedYears("2026-11-25")).toEqual({ first: 2025, last: 2026 });
    expect(wrappedYear(undefined, "2026-01-01")).toBe(2026);
    expect(wrappedYear(2025, "2026-01-01")).toBe(2025);
    for (const year of [2024, 2027, 1]) expect(() => wrappedYear(year, "2026-06-01")).toThrow(DomainError);
    expect(() => wrappedYear(2024, "2026-06-01")).toThrow(/year must be 2025 or 2026/);
  });

  it("follow the user's zone at the year boundary: the default year in Auckland is already the next one", () => {
    const user = userAfter([{ at: "2026-12-31T10:00:00Z", tz: "Pacific/Auckland" }]); // 23:00 on Dec 31 in Auckland
    const now = "2026-12-31T12:00:00Z"; // 01:00 on Jan 1 2027 in Auckland
    expect(wrappedOfUser(user, CONFIG, undefined, new Date(now)).year).toBe(2027);
    expect(review(user, 2026, now).mostActiveDay.date).toBe("2026-12-31");
    expect(() => review(userAfter([{ at: "2026-12-31T10:00:00Z", tz: "America/New_York" }]), 2027, now)).toThrow(DomainError);
  });
});

describe("the year boundary in the user's zone", () => {
  // 23:30 on Dec 31 in New York is already Jan 1 in UTC; it belongs to the user's 2025.
  const user = userAfter([
    { at: "2026-01-01T04:30:00Z", tz: "America/New_York", value: 5 },
    { at: "2026-01-01T05:30:00Z", tz: "America/New_York", value: 2 },
  ]);

  it("puts each event in the year of its local date", () => {
    const last = review(user, 2025, "2026-02-01T00:00:00Z");
    expect([last.daysActive, last.mostActiveDay.date, last.mostActiveMonth.month]).toEqual([1, "2025-12-31", 11]);
    expect(last.entireYear.metrics.words).toEqual({ currentTotal: "5", change: "5", percentChange: 100 });
    const next = review(user, 2026, "2026-02-01T00:00:00Z");
    expect([next.daysActive, next.mostActiveDay.date, next.mostActiveMonth.month]).toEqual([1, "2026-01-01", 0]);
    // The total at the end of the period, and the change against the total before it.
    expect(next.entireYear.metrics.words).toEqual({ currentTotal: "7", change: "2", percentChange: 40 });
  });

  it("counts a week that spans two years only with the days of the year asked for", () => {
    // Monday 2025-12-29 to Sunday 2026-01-04: the 2025 review sees Dec 31 only.
    const last = review(user, 2025, "2026-02-01T00:00:00Z");
    expect([last.mostActiveWeek.start, last.mostActiveWeek.end]).toEqual(["2025-12-29", "2026-01-04"]);
    expect(last.mostActiveWeek.metrics.words?.change).toBe("5");
    expect(last.weeksActive).toBe(1);
  });
});

describe("DST", () => {
  it("keeps local days across the spring and autumn changes (London)", () => {
    const user = userAfter([
      { at: "2026-03-29T00:30:00Z", tz: "Europe/London" }, // 00:30 GMT, Sunday Mar 29
      { at: "2026-03-29T23:30:00Z", tz: "Europe/London" }, // 00:30 BST, Monday Mar 30
      { at: "2026-10-24T23:30:00Z", tz: "Europe/London" }, // 00:30 BST, Sunday Oct 25 (25 hours long)
      { at: "2026-10-25T23:30:00Z", tz: "Europe/London" }, // 23:30 GMT, still Oct 25
    ]);
    const w = review(user, 2026, "2026-11-01T00:00:00Z");
    expect(Object.keys(user.activity).sort()).toEqual(["2026-03-29", "2026-03-30", "2026-10-25"]);
    expect([w.daysActive, w.mostActiveDay.date, w.weeksActive, w.monthsActive]).toEqual([3, "2026-10-25", 3, 2]);
    expect(w.mostActiveDay.metrics.words?.change).toBe("2");
  });
});

describe("a leap year", () => {
  it("has February 29 in its month and week", () => {
    const user = userAfter([
      { at: "2028-02-29T12:00:00Z", tz: "UTC", value: 3 },
      { at: "2028-02-29T13:00:00Z", tz: "UTC", value: 3 },
      { at: "2028-03-01T12:00:00Z", tz: "UTC", value: 1 },
    ]);
    const w = review(user, 2028, "2028-12-31T12:00:00Z");
    expect(w.mostActiveDay.date).toBe("2028-02-29");
    expect([w.mostActiveWeek.start, w.mostActiveWeek.end]).toEqual(["2028-02-28", "2028-03-05"]);
    expect(w.mostActiveWeek.metrics.words?.change).toBe("7");
    expect(w.mostActiveMonth.month).toBe(1); // February: two events, March one
    expect(w.mostActiveMonth.metrics.words).toEqual({ currentTotal: "6", change: "6", percentChange: 100 });
    expect(mondayOf("2028-02-29")).toBe("2028-02-28");
  });
});

describe("a user who moved zone", () => {
  it("dates events and achievements in the zone the user was in at the time", () => {
    // In Auckland until Mar 10, then Los Angeles. 2026-03-09T20:00Z is Mar 10 09:00 in Auckland.
    const user = userAfter([
      { at: "2026-03-09T20:00:00Z", tz: "Pacific/Auckland" },
      { at: "2026-03-10T20:00:00Z", tz: "America/Los_Angeles" }, // Mar 10 13:00 in Los Angeles
      { at: "2026-03-11T20:00:00Z", tz: "America/Los_Angeles" },
    ]);
    const config = {
      ...CONFIG,
      achievements: [
        { item: "in-auckland", achievedAt: new Date("2026-03-09T20:00:00Z") },
        { item: "in-los-angeles", achievedAt: new Date("2026-03-11T20:00:00Z") },
      ],
    };
    const w = review(user, 2026, "2026-06-01T00:00:00Z", config);
    expect(Object.keys(user.activity).sort()).toEqual(["2026-03-10", "2026-03-11"]);
    expect([w.daysActive, w.mostActiveDay.date]).toEqual([2, "2026-03-10"]);
    expect(w.mostActiveDay.achievements).toEqual(["in-auckland"]); // Mar 10 in Auckland, not Mar 9 (UTC)
    expect(w.entireYear.achievements).toEqual(["in-auckland", "in-los-angeles"]);
  });
});

describe("computeWrapped", () => {
  const base: WrappedInput<string, string> = {
    year: 2026,
    activity: {},
    metrics: [],
    points: [],
    achievements: [],
    leaderboards: [],
    streak: null,
    streakFrequency: null,
  };

  it("answers a year without activity with its first day, week and month, empty", () => {
    const w = computeWrapped(base);
    expect([w.daysActive, w.weeksActive, w.monthsActive]).toEqual([0, 0, 0]);
    expect(w.mostActiveDay).toEqual({ date: "2026-01-01", metrics: {}, points: {}, achievements: [], leaderboards: {} });
    expect([w.mostActiveWeek.start, w.mostActiveWeek.end, w.mostActiveMonth.month]).toEqual(["2025-12-29", "2026-01-04", 0]);
    expect(w.entireYear.longestStreak).toEqual({ length: 0, frequency: "daily", periodStart: null, periodEnd: null, started: null });
  });

  it("counts events, and one per metric changed on days from before events were counted", () => {
    const w = computeWrapped({
      ...base,
      activity: { "2026-05-02": "1" },
      metrics: [
        { key: "a", total: "10", daily: { "2026-05-01": "4", "2026-05-02": "1" } },
        { key: "b", total: "3", daily: { "2026-05-01": "3" } },
      ],
    });
    expect([w.daysActive, w.mostActiveDay.date]).toEqual([2, "2026-05-01"]); // two metrics: at least two events
    expect(w.mostActiveDay.metrics).toEqual({
      a: { currentTotal: "9", change: "4", percentChange: 80 },
      b: { currentTotal: "3", change: "3", percentChange: 100 },
    });
  });

  it("picks the earliest of equally active periods", () => {
    const w = computeWrapped({ ...base, activity: { "2026-02-03": "2", "2026-01-20": "2", "2026-07-01": "1" } });
    expect([w.mostActiveDay.date, w.mostActiveWeek.start, w.mostActiveMonth.month]).toEqual(["2026-01-20", "2026-01-19", 0]);
  });

  it("shows points of the period and the best leaderboard rank, the earliest of equals", () => {
    const history = [
      { run: "2026-03-01", date: "2026-03-02", previousRank: null, rank: 4, previousValue: null, value: "10" },
      { run: "2026-03-01", date: "2026-03-05", previousRank: 4, rank: 2, previousValue: "10", value: "30" },
      { run: "2026-04-01", date: "2026-04-02", previousRank: null, rank: 2, previousValue: null, value: "50" },
      { run: "2026-04-01", date: "2026-04-03", previousRank: 2, rank: null, previousValue: "50", value: null },
    ];
    const w = computeWrapped({
      ...base,
      points: [{ key: "xp", total: "150", daily: { "2026-03-05": "50", "2026-04-02": "100" } }],
      leaderboards: [{ key: "board", leaderboard: "the board", history }],
    });
    expect(w.entireYear.points.xp).toEqual({ currentTotal: "150", change: "150", percentChange: 100 });
    expect(w.entireYear.leaderboards.board).toEqual({ leaderboard: "the board", run: "2026-03-01", rank: 2, value: "30", history: history.slice(0, 2) });
    expect(
      computeWrapped({ ...base, year: 2026, leaderboards: [{ key: "board", leaderboard: "b", history: history.slice(3) }] }).entireYear.leaderboards,
    ).toEqual({});
  });
});

describe("percentChange", () => {
  it("is relative to the total before the period; from 0 it is the change's sign times 100", () => {
    expect(percentChange("12500", "2500")).toBe(20);
    expect(percentChange("3", "1")).toBe(33.33);
    expect(percentChange("-10", "5")).toBe(50);
    expect(percentChange("0", "7")).toBe(100);
    expect(percentChange("0", "-7")).toBe(-100);
    expect(percentChange("0", "0")).toBe(0);
  });

  it("rounds exact decimals half away from zero (23 on 160 is 14.375 %: 14.38, where doubles give 14.37)", () => {
    expect(percentChange("160", "23")).toBe(14.38);
    expect(percentChange("100", "1.015")).toBe(1.02);
    expect(percentChange("160", "-23")).toBe(-14.38);
  });
});

describe("longestStreakIn", () => {
  const p = (periodStart: string, length: number): StreakPeriodRecord => ({ periodStart, periodEnd: periodStart, length, usedFreeze: false, usedPause: false });

  it("takes the longest length of periods overlapping the year, with the start of its run", () => {
    const periods = [p("2025-12-30", 1), p("2025-12-31", 2), p("2026-01-01", 3), p("2026-01-02", 0), p("2026-01-03", 1), p("2026-01-04", 2)];
    const streak = { frequency: "daily" as const, periods, currentStarted: "2026-01-03" };
    expect(longestStreakIn(streak, null, 2026)).toEqual({
      length: 3,
      frequency: "daily",
      periodStart: "2026-01-01",
      periodEnd: "2026-01-01",
      started: "2025-12-30",
    });
    expect(longestStreakIn(streak, null, 2025)).toEqual({
      length: 2,
      frequency: "daily",
      periodStart: "2025-12-31",
      periodEnd: "2025-12-31",
      started: "2025-12-30",
    });
  });

  it("uses the current run's start, and null when a run began before the kept periods", () => {
    expect(longestStreakIn({ frequency: "daily", periods: [p("2026-05-01", 40), p("2026-05-02", 41)], currentStarted: "2026-03-23" }, null, 2026).started).toBe(
      "2026-03-23",
    );
    expect(longestStreakIn({ frequency: "daily", periods: [p("2026-05-01", 40), p("2026-05-02", 0)], currentStarted: null }, null, 2026).started).toBeNull();
  });

  it("a peak before the current period of the current run (a week not yet met) takes the run's start as the streak read does", () => {
    // Weekly: the run began with an event on Sunday 11-01 (the week of 10-26); the current week is not met yet.
    const weeks = [p("2026-10-19", 0), p("2026-10-26", 1), p("2026-11-02", 2), p("2026-11-09", 3), p("2026-11-16", 4), p("2026-11-23", 4)];
    expect(longestStreakIn({ frequency: "weekly", periods: weeks, currentStarted: "2026-11-01" }, null, 2026)).toMatchObject({
      length: 4,
      periodStart: "2026-11-16",
      started: "2026-11-01",
    });
    // An earlier run with the same peak keeps its first period.
    const earlier = [p("2026-10-19", 1), p("2026-10-26", 2), p("2026-11-02", 0), p("2026-11-09", 1)];
    expect(longestStreakIn({ frequency: "weekly", periods: earlier, currentStarted: "2026-11-10" }, null, 2026).started).toBe("2026-10-19");
  });

  it("a run begun by an admin reset starts at the reset, not at the run before it", () => {
    // 1-2 January: 1, 2; reset on the 3rd, then an event: 1; 4-5 January: 2, 3; then lost.
    const reset = { ...p("2026-01-03", 1), resetAt: new Date("2026-01-03T08:00:00Z") };
    const periods = [p("2026-01-01", 1), p("2026-01-02", 2), reset, p("2026-01-04", 2), p("2026-01-05", 3), p("2026-01-06", 0)];
    expect(longestStreakIn({ frequency: "daily", periods, currentStarted: null }, null, 2026)).toMatchObject({ length: 3, started: "2026-01-03" });
  });

  it("a restored run goes on from the lost run (the restore joins them)", () => {
    // 1-3 January: 1, 2, 3; the 4th missed (lost); the 5th an event and a restore: 3 + 1 = 4; the 6th 5; then lost.
    const periods = [
      p("2026-01-01", 1),
      p("2026-01-02", 2),
      p("2026-01-03", 3),
      p("2026-01-04", 0),
      p("2026-01-05", 4),
      p("2026-01-06", 5),
      p("2026-01-07", 0),
    ];
    expect(longestStreakIn({ frequency: "daily", periods, currentStarted: null }, null, 2026)).toMatchObject({ length: 5, started: "2026-01-01" });
    // A new run after a loss starts at 1: it does not join.
    const fresh = [p("2026-01-01", 3), p("2026-01-02", 0), p("2026-01-03", 1), p("2026-01-04", 2), p("2026-01-05", 0)];
    expect(longestStreakIn({ frequency: "daily", periods: fresh, currentStarted: null }, null, 2026)).toMatchObject({ length: 3, started: null });
  });

  it("a run cut by a reset in its peak period peaks there, with its own start (not the run after it)", () => {
    // 1-5 March: 1..5; reset on the 5th after its event (the 5 is kept as the period's peak); an event after the reset: 1.
    const cut = { ...p("2026-03-05", 1), resetAt: new Date("2026-03-05T13:00:00Z"), peakBeforeReset: 5 };
    const periods = [p("2026-03-01", 1), p("2026-03-02", 2), p("2026-03-03", 3), p("2026-03-04", 4), cut];
    expect(longestStreakIn({ frequency: "daily", periods, currentStarted: "2026-03-05" }, null, 2026)).toEqual({
      length: 5,
      frequency: "daily",
      periodStart: "2026-03-05",
      periodEnd: "2026-03-05",
      started: "2026-03-01",
    });
    // Cut to 0 and never extended again; a later, longer run still wins.
    const zero = { ...p("2026-03-05", 0), resetAt: new Date("2026-03-05T13:00:00Z"), peakBeforeReset: 5 };
    expect(longestStreakIn({ frequency: "daily", periods: [...periods.slice(0, 4), zero], currentStarted: null }, null, 2026)).toMatchObject({
      length: 5,
      started: "2026-03-01",
    });
    const later = [
      ...periods.slice(0, 4),
      zero,
      p("2026-03-06", 1),
      p("2026-03-07", 2),
      p("2026-03-08", 3),
      p("2026-03-09", 4),
      p("2026-03-10", 5),
      p("2026-03-11", 6),
    ];
    expect(longestStreakIn({ frequency: "daily", periods: later, currentStarted: "2026-03-06" }, null, 2026)).toMatchObject({
      length: 6,
      started: "2026-03-06",
    });
  });

  it("shows the tenant's frequency when the user has no streak", () => {
    expect(longestStreakIn(null, "weekly", 2026)).toEqual({ length: 0, frequency: "weekly", periodStart: null, periodEnd: null, started: null });
  });
});

describe("leaderboards in a user's review", () => {
  it("leaves out inactive leaderboards", () => {
    const user = { ...userAfter([{ at: "2026-03-02T12:00:00Z" }]) };
    const entry = {
      run: "2026-03-01",
      group: "",
      value: "1",
      history: [{ run: "2026-03-01", date: "2026-03-02", previousRank: null, rank: 1, previousValue: null, value: "1" }],
    };
    user.leaderboards = { l1: entry, l2: entry };
    const board = (id: string, status: LeaderboardConfig["status"]): RankedLeaderboard => ({
      config: { id, key: id, status } as LeaderboardConfig,
      metric: null,
      pointsSystem: null,
      breakdownKeys: [],
      userFilters: [],
    });
    const w = review(user, 2026, "2026-06-01T00:00:00Z", { ...CONFIG, leaderboards: [board("l1", "active"), board("l2", "inactive")] });
    expect(Object.keys(w.entireYear.leaderboards)).toEqual(["l1"]);
  });
});

describe("points in a user's review", () => {
  it("show a total above a since-lowered maxPoints as the cap, as every other read", () => {
    const energy = {
      id: "p1",
      key: "energy",
      name: "Energy",
      description: "",
      status: "active" as const,
      badge: null,
      created: new Date(0),
      updated: new Date(0),
    };
    const user = userAfter([{ at: "2026-05-01T10:00:00Z", tz: "UTC" }]);
    user.points = { p1: { ...emptyPointsState(), total: 530, daily: { "2026-05-01": "530" } } };
    const capped = review(user, 2026, "2026-06-01T00:00:00Z", { ...CONFIG, pointsSystems: [{ ...energy, maxPoints: 5 }] });
    expect(capped.entireYear.points.energy?.currentTotal).toBe("5");
    const uncapped = review(user, 2026, "2026-06-01T00:00:00Z", { ...CONFIG, pointsSystems: [{ ...energy, maxPoints: null }] });
    expect(uncapped.entireYear.points.energy?.currentTotal).toBe("530");
  });
});

describe("achievements are dated as the events that completed them", () => {
  it("before the user's first recorded zone, in the zone the daily histories use (zoneInForce), not the current one", () => {
    // Identified in Tokyo on 15 June; an event backdated to 10 June 20:00 UTC (06:00 on the 11th in Tokyo).
    const user = {
      ...createUserState("u", new Date("2026-06-15T00:00:00Z")),
      tz: "Asia/Tokyo",
      tzHistory: [{ tz: "Asia/Tokyo", from: new Date("2026-06-15T00:00:00Z") }],
    };
    const at = new Date("2026-06-10T20:00:00Z");
    expect(userLocalDateAt(user, at)).toBe(localDate(at, zoneInForce(user, at)));
    expect(userLocalDateAt(user, at)).toBe("2026-06-10");
    expect(userLocalDateAt(user, new Date("2026-06-16T20:00:00Z"))).toBe("2026-06-17");
  });
});
