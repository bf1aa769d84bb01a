import { describe, expect, it } from "vitest";
import type { LeaderboardStatus } from "./leaderboard-config.js";
import {
  currentRun,
  dateBeginsAnywhereAt,
  isRunFinal,
  isWithinDailyWindow,
  nextRunStart,
  nextWindowEdge,
  runEndsAt,
  runFinalAt,
  runOf,
  runOnDate,
  runStartsBetween,
  statusOf,
  type LeaderboardCalendar,
} from "./leaderboard-runs.js";

const KIRITIMATI = "Pacific/Kiritimati"; // UTC+14
const PAGO_PAGO = "Pacific/Pago_Pago"; // UTC−11
const BAKER = "Etc/GMT+12"; // UTC−12

function board(over: Partial<LeaderboardCalendar> = {}): LeaderboardCalendar {
  return { start: "2026-01-05", end: null, runUnit: null, runInterval: null, startTime: null, endTime: null, ...over };
}
/** Weekly, Mondays: runs 01-05..01-11, 01-12..01-18, ... */
const weekly = board({ runUnit: "day", runInterval: 7 });
const at = (iso: string) => new Date(iso);
const run = (runStart: string, runEnd: string | null) => ({ runStart, runEnd });

describe("runOf: the run of the user's local date", () => {
  it.each<[string, LeaderboardCalendar, string, string | null, ReturnType<typeof run> | null]>([
    // Around the first run boundary: 2026-01-12 00:00 begins at 2026-01-11T10:00Z in Kiritimati,
    // at 2026-01-12T00:00Z in UTC and at 2026-01-12T11:00Z in Pago Pago.
    ["Kiritimati, last second of run 1", weekly, "2026-01-11T09:59:59.999Z", KIRITIMATI, run("2026-01-05", "2026-01-11")],
    ["Kiritimati, first instant of run 2", weekly, "2026-01-11T10:00:00Z", KIRITIMATI, run("2026-01-12", "2026-01-18")],
    ["UTC at the same instant is still in run 1", weekly, "2026-01-11T10:00:00Z", null, run("2026-01-05", "2026-01-11")],
    ["UTC, last instant of run 1", weekly, "2026-01-11T23:59:59.999Z", "UTC", run("2026-01-05", "2026-01-11")],
    ["UTC, first instant of run 2", weekly, "2026-01-12T00:00:00Z", "UTC", run("2026-01-12", "2026-01-18")],
    ["Pago Pago, last second of run 1 (11 h after UTC left it)", weekly, "2026-01-12T10:59:59Z", PAGO_PAGO, run("2026-01-05", "2026-01-11")],
    ["Pago Pago, first instant of run 2", weekly, "2026-01-12T11:00:00Z", PAGO_PAGO, run("2026-01-12", "2026-01-18")],
    // Before the start: the start date begins at 2026-01-04T10:00Z in Kiritimati.
    ["Kiritimati before the start", weekly, "2026-01-04T09:59:59Z", KIRITIMATI, null],
    ["Kiritimati at the start, while UTC is still on Jan 4", weekly, "2026-01-04T10:00:00Z", KIRITIMATI, run("2026-01-05", "2026-01-11")],
    ["UTC before the start", weekly, "2026-01-04T23:59:59Z", null, null],
    ["Pago Pago before the start (UTC already started)", weekly, "2026-01-05T10:59:59Z", PAGO_PAGO, null],
    ["Pago Pago at the start", weekly, "2026-01-05T11:00:00Z", PAGO_PAGO, run("2026-01-05", "2026-01-11")],
    // After the end: end 2026-01-15 (run 2 cut short at the end).
    ["UTC on the end date, run cut at the end", board({ ...weekly, end: "2026-01-15" }), "2026-01-15T23:59:59Z", null, run("2026-01-12", "2026-01-15")],
    ["UTC after the end", board({ ...weekly, end: "2026-01-15" }), "2026-01-16T00:00:00Z", null, null],
    ["Kiritimati already past the end", board({ ...weekly, end: "2026-01-15" }), "2026-01-15T10:00:00Z", KIRITIMATI, null],
    ["Pago Pago still on the end date", board({ ...weekly, end: "2026-01-15" }), "2026-01-16T10:59:59Z", PAGO_PAGO, run("2026-01-12", "2026-01-15")],
    ["Pago Pago after the end", board({ ...weekly, end: "2026-01-15" }), "2026-01-16T11:00:00Z", PAGO_PAGO, null],
    // Perpetual.
    ["perpetual without an end", board(), "2030-06-01T12:00:00Z", null, run("2026-01-05", null)],
    ["perpetual with an end", board({ end: "2026-12-31" }), "2026-06-01T12:00:00Z", "Europe/London", run("2026-01-05", "2026-12-31")],
    ["an unknown zone counts as UTC", weekly, "2026-01-11T10:00:00Z", "Mars/Olympus", run("2026-01-05", "2026-01-11")],
    // Daily runs.
    ["daily run", board({ runUnit: "day", runInterval: 1 }), "2026-02-01T23:00:00Z", "UTC", run("2026-02-01", "2026-02-01")],
    ["3-day runs", board({ runUnit: "day", runInterval: 3 }), "2026-01-10T01:00:00Z", null, run("2026-01-08", "2026-01-10")],
  ])("%s", (_name, config, instant, tz, expected) => expect(runOf(config, at(instant), tz)).toEqual(expected));
});

describe("runOnDate: month and year units", () => {
  const monthly31 = board({ start: "2026-01-31", runUnit: "month", runInterval: 1 });
  const quarterly = board({ start: "2026-01-01", runUnit: "month", runInterval: 3 });
  const leapYearly = board({ start: "2024-02-29", runUnit: "year", runInterval: 1 });
  const biennial = board({ start: "2026-07-01", runUnit: "year", runInterval: 2 });
  it.each<[string, LeaderboardCalendar, string, ReturnType<typeof run> | null]>([
    ["monthly from the 31st: first run", monthly31, "2026-02-27", run("2026-01-31", "2026-02-27")],
    ["monthly from the 31st: February's run starts on the 28th", monthly31, "2026-02-28", run("2026-02-28", "2026-03-30")],
    ["monthly from the 31st: back to the 31st in March", monthly31, "2026-03-31", run("2026-03-31", "2026-04-29")],
    ["monthly from the 31st: the 30th in April", monthly31, "2026-05-15", run("2026-04-30", "2026-05-30")],
    ["monthly from the 31st: a leap February", monthly31, "2028-02-29", run("2028-02-29", "2028-03-30")],
    ["monthly from the 31st: a year on", monthly31, "2027-01-31", run("2027-01-31", "2027-02-27")],
    ["quarterly: first quarter's last day", quarterly, "2026-03-31", run("2026-01-01", "2026-03-31")],
    ["quarterly: second quarter", quarterly, "2026-04-01", run("2026-04-01", "2026-06-30")],
    ["quarterly: across the year", quarterly, "2027-02-14", run("2027-01-01", "2027-03-31")],
    ["yearly from Feb 29: the next year runs from Feb 28", leapYearly, "2025-02-27", run("2024-02-29", "2025-02-27")],
    ["yearly from Feb 29: Feb 28 begins the next run", leapYearly, "2025-02-28", run("2025-02-28", "2026-02-27")],
    ["yearly from Feb 29: back on Feb 29 in a leap year", leapYearly, "2028-03-01", run("2028-02-29", "2029-02-27")],
    ["every two years", biennial, "2028-06-30", run("2026-07-01", "2028-06-30")],
    ["every two years, the second run", biennial, "2028-07-01", run("2028-07-01", "2030-06-30")],
    ["before the start", quarterly, "2025-12-31", null],
    ["after the end", board({ ...quarterly, end: "2026-05-10" }), "2026-05-11", null],
    ["the last run is cut at the end", board({ ...quarterly, end: "2026-05-10" }), "2026-04-01", run("2026-04-01", "2026-05-10")],
    ["the longest run: a hundred years", board({ start: "2026-01-01", runUnit: "year", runInterval: 100 }), "2099-12-31", run("2026-01-01", "2125-12-31")],
    ["the longest run in months", board({ start: "2026-01-01", runUnit: "month", runInterval: 1200 }), "2099-12-31", run("2026-01-01", "2125-12-31")],
    ["the longest run in days", board({ start: "2026-01-01", runUnit: "day", runInterval: 36_525 }), "2099-12-31", run("2026-01-01", "2126-01-01")],
    // Stored before the bound existed: runs a hundred years instead of passing the year 9999.
    [
      "a longer interval in years, stored earlier",
      board({ start: "2026-01-01", runUnit: "year", runInterval: 7974 }),
      "2099-12-31",
      run("2026-01-01", "2125-12-31"),
    ],
    [
      "a longer interval in months, stored earlier",
      board({ start: "2026-01-01", runUnit: "month", runInterval: 95_688 }),
      "2030-06-01",
      run("2026-01-01", "2125-12-31"),
    ],
    [
      "a longer interval in days, stored earlier",
      board({ start: "2026-01-01", runUnit: "day", runInterval: 99_979_547 }),
      "2026-01-01",
      run("2026-01-01", "2126-01-01"),
    ],
  ])("%s", (_name, config, date, expected) => expect(runOnDate(config, date)).toEqual(expected));

  it("addresses a run by its first day, and every day of a run gives the same run", () => {
    const days: string[] = [];
    for (let d = new Date("2026-01-31T00:00:00Z"); d < new Date("2027-03-01T00:00:00Z"); d = new Date(d.getTime() + 86_400_000))
      days.push(d.toISOString().slice(0, 10));
    let previous: ReturnType<typeof runOnDate> = null;
    for (const day of days) {
      const r = runOnDate(monthly31, day)!;
      expect(day >= r.runStart && day <= r.runEnd!).toBe(true);
      expect(runOnDate(monthly31, r.runStart)).toEqual(r);
      // Runs are consecutive: a new run begins the day after the previous one ends.
      if (previous && previous.runStart !== r.runStart) expect(nextRunStart(monthly31, previous.runStart)).toBe(r.runStart);
      previous = r;
    }
  });
});

describe("the daily window, on the user's clock", () => {
  const window = board({ ...weekly, startTime: "09:00", endTime: "17:00" });
  it.each<[string, string, string | null, boolean]>([
    ["UTC, just before the start", "2026-01-06T08:59:59Z", null, false],
    ["UTC, at the start", "2026-01-06T09:00:00Z", null, true],
    ["UTC, last second", "2026-01-06T16:59:59Z", null, true],
    ["UTC, at the end (excluded)", "2026-01-06T17:00:00Z", null, false],
    ["Kiritimati 09:00 is 19:00 UTC the day before", "2026-01-05T19:00:00Z", KIRITIMATI, true],
    ["Kiritimati 08:59", "2026-01-05T18:59:00Z", KIRITIMATI, false],
    ["Pago Pago 16:59 is 03:59 UTC the next day", "2026-01-07T03:59:00Z", PAGO_PAGO, true],
    ["Pago Pago 17:00", "2026-01-07T04:00:00Z", PAGO_PAGO, false],
    ["New York 09:30 in summer time (UTC−4)", "2026-07-01T13:30:00Z", "America/New_York", true],
    ["New York 08:30 in summer time", "2026-07-01T12:30:00Z", "America/New_York", false],
  ])("%s", (_name, instant, tz, inside) => {
    expect(isWithinDailyWindow(window, at(instant), tz)).toBe(inside);
    expect(runOf(window, at(instant), tz) !== null).toBe(inside);
  });

  it("takes seconds in the bounds and a bound on one side only", () => {
    expect(isWithinDailyWindow({ startTime: "09:00:30", endTime: null }, at("2026-01-06T09:00:29Z"), null)).toBe(false);
    expect(isWithinDailyWindow({ startTime: "09:00:30", endTime: null }, at("2026-01-06T23:59:59Z"), null)).toBe(true);
    expect(isWithinDailyWindow({ startTime: null, endTime: "06:00" }, at("2026-01-06T00:00:00Z"), null)).toBe(true);
    expect(isWithinDailyWindow({ startTime: null, endTime: "06:00" }, at("2026-01-06T06:00:00Z"), null)).toBe(false);
  });

  it("tells the next moment the window opens or closes, in the user's zone (none without a window)", () => {
    const edge = (instant: string, tz: string | null, calendar: Pick<LeaderboardCalendar, "startTime" | "endTime"> = window) => {
      const next = nextWindowEdge(calendar, at(instant), tz);
      return next === null ? null : new Date(next).toISOString();
    };
    expect(edge("2026-01-06T08:00:00Z", null)).toBe("2026-01-06T09:00:00.000Z");
    expect(edge("2026-01-06T09:00:00Z", null)).toBe("2026-01-06T17:00:00.000Z"); // after, never at
    expect(edge("2026-01-06T17:00:00Z", null)).toBe("2026-01-07T09:00:00.000Z");
    expect(edge("2026-01-06T13:30:00Z", "Asia/Kolkata")).toBe("2026-01-07T03:30:00.000Z"); // 19:00 there: 09:00 tomorrow
    expect(edge("2026-07-01T12:00:00Z", "America/New_York")).toBe("2026-07-01T13:00:00.000Z"); // 09:00 in summer time
    expect(edge("2026-01-06T09:00:29Z", null, { startTime: "09:00:30", endTime: null })).toBe("2026-01-06T09:00:30.000Z");
    expect(edge("2026-01-06T12:00:00Z", null, { startTime: null, endTime: null })).toBeNull();
    // Every instant between two edges is on one side of the window.
    for (let t = Date.parse("2026-03-07T00:00:00Z"); t < Date.parse("2026-03-10T00:00:00Z"); t += 7 * 60_000) {
      const next = nextWindowEdge(window, new Date(t), "America/New_York")!;
      expect(isWithinDailyWindow(window, new Date(next - 1), "America/New_York")).toBe(isWithinDailyWindow(window, new Date(t), "America/New_York"));
    }
  });

  it("a run boundary inside the window: Kiritimati's Monday morning is in the new run", () => {
    // 2026-01-11T20:00Z = Monday 2026-01-12 10:00 in Kiritimati, Sunday 09:00 in Pago Pago.
    expect(runOf(window, at("2026-01-11T20:00:00Z"), KIRITIMATI)).toEqual(run("2026-01-12", "2026-01-18"));
    expect(runOf(window, at("2026-01-11T20:00:00Z"), PAGO_PAGO)).toEqual(run("2026-01-05", "2026-01-11"));
    expect(runOf(window, at("2026-01-11T20:00:00Z"), null)).toBeNull(); // 20:00 UTC, outside the window
  });
});

describe("when a run is final", () => {
  it.each<[string, LeaderboardCalendar, string, string | null, string | null]>([
    ["weekly", weekly, "2026-01-05", "2026-01-12T00:00:00.000Z", "2026-01-12T12:00:00.000Z"],
    ["a run cut at the end", board({ ...weekly, end: "2026-01-15" }), "2026-01-12", "2026-01-16T00:00:00.000Z", "2026-01-16T12:00:00.000Z"],
    ["monthly", board({ start: "2026-01-31", runUnit: "month", runInterval: 1 }), "2026-02-28", "2026-03-31T00:00:00.000Z", "2026-03-31T12:00:00.000Z"],
    ["perpetual without an end never ends", board(), "2026-01-05", null, null],
    ["perpetual with an end", board({ end: "2026-12-31" }), "2026-01-05", "2027-01-01T00:00:00.000Z", "2027-01-01T12:00:00.000Z"],
    ["a date before the start is no run", weekly, "2026-01-04", null, null],
  ])("%s", (_name, config, runStart, endsAt, finalAt) => {
    expect(runEndsAt(config, runStart)?.toISOString() ?? null).toBe(endsAt);
    expect(runFinalAt(config, runStart)?.toISOString() ?? null).toBe(finalAt);
  });

  it("is final exactly when the last zone (UTC−12) has left the run's last day", () => {
    const lastMomentInBaker = at("2026-01-12T11:59:59.999Z");
    expect(runOf(weekly, lastMomentInBaker, BAKER)).toEqual(run("2026-01-05", "2026-01-11"));
    expect(isRunFinal(weekly, "2026-01-05", lastMomentInBaker)).toBe(false);
    expect(isRunFinal(weekly, "2026-01-05", at("2026-01-12T12:00:00Z"))).toBe(true);
    // Pago Pago left it an hour earlier; its events after that count toward the next run.
    expect(runOf(weekly, at("2026-01-12T11:00:00Z"), PAGO_PAGO)).toEqual(run("2026-01-12", "2026-01-18"));
    expect(isRunFinal(board(), "2026-01-05", at("2100-01-01T00:00:00Z"))).toBe(false);
  });
});

describe("statusOf", () => {
  const ending = board({ ...weekly, end: "2026-01-15" });
  it.each<[string, LeaderboardCalendar & { status: LeaderboardStatus }, string, LeaderboardStatus]>([
    ["scheduled until Kiritimati reaches the start", { ...ending, status: "scheduled" }, "2026-01-04T09:59:59Z", "scheduled"],
    ["active once Kiritimati reaches the start", { ...ending, status: "scheduled" }, "2026-01-04T10:00:00Z", "active"],
    ["active while UTC−12 is still on the end date", { ...ending, status: "active" }, "2026-01-16T11:59:59Z", "active"],
    ["finished once the last run is final", { ...ending, status: "active" }, "2026-01-16T12:00:00Z", "finished"],
    ["no end: active for ever", { ...weekly, status: "active" }, "2099-01-01T00:00:00Z", "active"],
    ["inactive stays inactive", { ...ending, status: "inactive" }, "2026-01-10T00:00:00Z", "inactive"],
    ["finished early by an admin stays finished", { ...weekly, status: "finished" }, "2026-01-10T00:00:00Z", "finished"],
  ])("%s", (_name, config, instant, expected) => expect(statusOf(config, at(instant))).toBe(expected));

  it("the first zone to begin a date is 14 hours ahead of UTC", () => {
    expect(dateBeginsAnywhereAt("2026-01-05").toISOString()).toBe("2026-01-04T10:00:00.000Z");
  });
});

describe("currentRun", () => {
  it("is the run of today's date, the first before the start and the last after the end", () => {
    const ending = board({ ...weekly, end: "2026-01-15" });
    expect(currentRun(ending, at("2026-01-13T00:00:00Z"))).toEqual(run("2026-01-12", "2026-01-15"));
    expect(currentRun(ending, at("2025-12-01T00:00:00Z"))).toEqual(run("2026-01-05", "2026-01-11"));
    expect(currentRun(ending, at("2026-03-01T00:00:00Z"))).toEqual(run("2026-01-12", "2026-01-15"));
    expect(currentRun(weekly, at("2026-01-11T10:00:00Z"), KIRITIMATI)).toEqual(run("2026-01-12", "2026-01-18"));
  });

  it("nextRunStart is null for the last run and for perpetual leaderboards", () => {
    expect(nextRunStart(weekly, "2026-01-05")).toBe("2026-01-12");
    expect(nextRunStart(board({ ...weekly, end: "2026-01-15" }), "2026-01-12")).toBeNull();
    expect(nextRunStart(board({ ...weekly, end: "2026-01-18" }), "2026-01-12")).toBeNull();
    expect(nextRunStart(board(), "2026-01-05")).toBeNull();
  });
});

describe("runStartsBetween: the runs holding any date of a span", () => {
  it.each<[string, LeaderboardCalendar, string, string, number, string[]]>([
    ["weekly, a span across three runs", weekly, "2026-01-10", "2026-01-20", 10, ["2026-01-05", "2026-01-12", "2026-01-19"]],
    ["from before the start", weekly, "2025-12-01", "2026-01-06", 10, ["2026-01-05"]],
    ["at most `limit`, the oldest", weekly, "2026-01-05", "2026-03-01", 2, ["2026-01-05", "2026-01-12"]],
    ["a perpetual leaderboard has one run", board(), "2026-01-01", "2027-01-01", 10, ["2026-01-05"]],
    ["none after the end", board({ runUnit: "day", runInterval: 1, end: "2026-01-06" }), "2026-01-07", "2026-01-09", 10, []],
    ["cut at the end", board({ runUnit: "day", runInterval: 1, end: "2026-01-06" }), "2026-01-01", "2026-01-09", 10, ["2026-01-05", "2026-01-06"]],
  ])("%s", (_case, config, from, to, limit, expected) => {
    expect(runStartsBetween(config, from, to, limit)).toEqual(expected);
  });
});
