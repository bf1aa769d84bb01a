import { DomainError } from "../../../engine/domain/errors.js";
import { describe, expect, it } from "vitest";
import type { StreakSettings } from "./streak-config.js";
import { isCalendarDate, localDateIn, periodEndDate, periodStartOf, startOfDateIn, zoneAt } from "./streak-calendar.js";
import {
  activePauses,
  addPause,
  applyStreakEvent,
  catchUpStreak,
  createStreakState,
  describeStreak,
  grantFreezes,
  nextStreakDueAt,
  readStreak,
  removePause,
  restoreStreak,
  STREAK_HISTORY_LIMIT,
  streakHistory,
  type StreakDomainEvent,
  type StreakState,
} from "./streak.js";
import type { TimeZoneChange } from "../../../engine/domain/user.js";

const A = "0b6a3c1e-5f2d-4c8a-9e7b-00000000000a";
const B = "0b6a3c1e-5f2d-4c8a-9e7b-00000000000b";
const OTHER = "0b6a3c1e-5f2d-4c8a-9e7b-0000000000ff";
const CREATED = new Date("2026-01-01T00:00:00Z");

function cfg(over: Partial<StreakSettings> = {}): StreakSettings {
  return { frequency: "daily", metrics: [{ metricId: A, threshold: 1 }], evaluationMode: "all", freezes: null, ...over };
}
const at = (iso: string) => new Date(iso);
function zones(...entries: Array<[string, string]>): TimeZoneChange[] {
  return entries.map(([tz, from]) => ({ tz, from: new Date(from) }));
}
type Ev = [iso: string, value?: number, metricId?: string, tz?: string];

/**
 * Applies events in order, as the pipeline would: an event carrying a new zone is applied with it,
 * and the zone stays in the user's history for later events. Returns the final state and history,
 * each event's `extended` and every domain event.
 */
function play(settings: StreakSettings, tzHistory: TimeZoneChange[], evs: Ev[], state: StreakState = createStreakState(settings, CREATED)) {
  const extended: boolean[] = [];
  const events: StreakDomainEvent[] = [];
  let history = tzHistory;
  for (const [iso, value = 1, metricId = A, tz] of evs) {
    const r = applyStreakEvent(state, settings, { metricId, value, at: at(iso), ...(tz ? { tz } : {}) }, history);
    if (tz && zoneAt(history, at(iso)) !== tz) history = [...history, { tz, from: at(iso) }];
    state = r.state;
    extended.push(r.extended);
    events.push(...r.events);
  }
  return { state, extended, events, history };
}
const types = (events: StreakDomainEvent[]) => events.map((e) => `${e.type}@${e.at.toISOString()}`);
const hist = (s: StreakState, n = 100) =>
  streakHistory(s, n).map((p) => `${p.periodStart}..${p.periodEnd}:${p.length}${p.usedFreeze ? "F" : ""}${p.usedPause ? "P" : ""}`);

describe("calendar periods", () => {
  it.each([
    ["2026-03-04", "daily", "2026-03-04", "2026-03-04"],
    ["2026-03-01", "weekly", "2026-02-23", "2026-03-01"], // a Sunday closes the ISO week
    ["2026-03-02", "weekly", "2026-03-02", "2026-03-08"], // a Monday opens it
    ["2026-01-01", "weekly", "2025-12-29", "2026-01-04"], // the week across the new year
    ["2028-02-29", "weekly", "2028-02-28", "2028-03-05"],
    ["2026-01-31", "monthly", "2026-01-01", "2026-01-31"],
    ["2026-02-14", "monthly", "2026-02-01", "2026-02-28"],
    ["2028-02-29", "monthly", "2028-02-01", "2028-02-29"], // leap year
  ] as const)("%s (%s) is in the period %s..%s", (date, frequency, start, end) => {
    expect(periodStartOf(date, frequency)).toBe(start);
    expect(periodEndDate(start, frequency)).toBe(end);
  });

  it.each([
    ["2026-03-29", "Europe/London", "2026-03-29T00:00:00.000Z"], // spring forward at 01:00 UTC: the day has 23 hours
    ["2026-03-30", "Europe/London", "2026-03-29T23:00:00.000Z"],
    ["2026-10-26", "Europe/London", "2026-10-26T00:00:00.000Z"], // after the 25-hour day
    ["2026-03-09", "America/New_York", "2026-03-09T04:00:00.000Z"],
    ["2026-11-02", "America/New_York", "2026-11-02T05:00:00.000Z"],
    ["2024-03-10", "America/Havana", "2024-03-10T05:00:00.000Z"], // midnight does not exist: 01:00 CDT
    ["2024-11-03", "America/Havana", "2024-11-03T04:00:00.000Z"], // midnight happens twice: the first one
    ["2011-12-30", "Pacific/Apia", "2011-12-30T10:00:00.000Z"], // the skipped date starts with the next one
    ["2026-03-01", "Not/AZone", "2026-03-01T00:00:00.000Z"], // unknown zones count as UTC
  ])("%s begins in %s at %s", (date, zone, instant) => {
    expect(startOfDateIn(date, zone).toISOString()).toBe(instant);
    // Asked again (from the computed starts kept), the same instant, in a Date of the caller's own.
    const again = startOfDateIn(date, zone);
    expect(again.toISOString()).toBe(instant);
    again.setTime(0);
    expect(startOfDateIn(date, zone).toISOString()).toBe(instant);
  });

  it("finds the zone in force at an instant and the local date there", () => {
    const h = zones(["Europe/London", "2026-01-01T00:00:00Z"], ["Asia/Tokyo", "2026-03-01T12:00:00Z"]);
    expect(zoneAt(h, at("2025-12-31T23:59:59Z"))).toBe("UTC");
    expect(zoneAt(h, at("2026-03-01T11:59:59Z"))).toBe("Europe/London");
    expect(zoneAt(h, at("2026-03-01T12:00:00Z"))).toBe("Asia/Tokyo");
    expect(localDateIn(at("2026-03-01T15:30:00Z"), "Asia/Tokyo")).toBe("2026-03-02");
    expect([isCalendarDate("2028-02-29"), isCalendarDate("2026-02-29"), isCalendarDate("2026-3-01")]).toEqual([true, false, false]);
  });
});

describe("conditions: all or any of two metrics, summed within the period", () => {
  const two = (mode: "all" | "any") =>
    cfg({
      metrics: [
        { metricId: A, threshold: 10 },
        { metricId: B, threshold: 5 },
      ],
      evaluationMode: mode,
    });
  it.each([
    [
      "all",
      [
        ["2026-03-02T08:00:00Z", 6, A],
        ["2026-03-02T09:00:00Z", 4, A],
        ["2026-03-02T10:00:00Z", 5, B],
        ["2026-03-02T11:00:00Z", 50, A],
      ],
      [false, false, true, false],
    ],
    [
      "all",
      [
        ["2026-03-02T08:00:00Z", 5, B],
        ["2026-03-02T09:00:00Z", 9.5, A],
        ["2026-03-02T10:00:00Z", 0.5, A],
      ],
      [false, false, true],
    ],
    [
      "any",
      [
        ["2026-03-02T08:00:00Z", 6, A],
        ["2026-03-02T09:00:00Z", 5, B],
        ["2026-03-02T10:00:00Z", 10, A],
      ],
      [false, true, false],
    ],
    [
      "any",
      [
        ["2026-03-02T08:00:00Z", 3, B],
        ["2026-03-02T09:00:00Z", 2, B],
      ],
      [false, true],
    ],
    // sums restart with each period: 6 yesterday and 4 today are not 10
    [
      "any",
      [
        ["2026-03-01T08:00:00Z", 6, A],
        ["2026-03-02T09:00:00Z", 4, A],
        ["2026-03-02T10:00:00Z", 6, A],
      ],
      [false, false, true],
    ],
    // a metric outside the condition never counts
    ["any", [["2026-03-02T08:00:00Z", 100, OTHER]], [false]],
  ] as const)("%s: %j gives extended %j", (mode, evs, expected) => {
    expect(
      play(
        two(mode),
        [],
        evs.map(([iso, v, m]) => [iso, v, m] as Ev),
      ).extended,
    ).toEqual(expected);
  });

  it("sums decimals exactly (0.1 + 0.7 reaches 0.8) and counts a met period once even if a later event is negative", () => {
    const s = cfg({ metrics: [{ metricId: A, threshold: 0.8 }] });
    const r = play(
      s,
      [],
      [
        ["2026-03-02T08:00:00Z", 0.1],
        ["2026-03-02T09:00:00Z", 0.7],
        ["2026-03-02T10:00:00Z", -5],
        ["2026-03-02T11:00:00Z", 5],
      ],
    );
    expect(r.extended).toEqual([false, true, false, false]);
    expect(r.state.period?.sums[A]).toBe("0.8");
    expect(r.state.length).toBe(1);
  });

  it("a negative event before the threshold delays it", () => {
    const r = play(
      cfg({ metrics: [{ metricId: A, threshold: 3 }] }),
      [],
      [
        ["2026-03-02T08:00:00Z", 2],
        ["2026-03-02T09:00:00Z", -1],
        ["2026-03-02T10:00:00Z", 1],
        ["2026-03-02T11:00:00Z", 1],
      ],
    );
    expect(r.extended).toEqual([false, false, false, true]);
  });
});

describe("daily, weekly and monthly streaks in the user's zone", () => {
  const london = zones(["Europe/London", "2026-01-01T00:00:00Z"]);
  const newYork = zones(["America/New_York", "2026-01-01T00:00:00Z"]);
  it.each([
    {
      name: "daily: two days met, read the third day before acting",
      frequency: "daily" as const,
      tz: london,
      evs: ["2026-03-01T10:00:00Z", "2026-03-02T23:30:00Z"],
      now: "2026-03-03T12:00:00Z",
      extended: [true, true],
      view: { length: 2, started: "2026-03-01", periodStart: "2026-03-03", periodEnd: "2026-03-03", expires: "2026-03-03" },
    },
    {
      name: "daily: Jan 31 then Feb 1",
      frequency: "daily" as const,
      tz: london,
      evs: ["2026-01-31T23:30:00Z", "2026-02-01T00:30:00Z"],
      now: "2026-02-01T00:30:00Z",
      extended: [true, true],
      view: { length: 2, started: "2026-01-31", periodStart: "2026-02-01", periodEnd: "2026-02-01", expires: "2026-02-02" },
    },
    {
      name: "daily: Feb 28, leap day, Mar 1 2028",
      frequency: "daily" as const,
      tz: london,
      evs: ["2028-02-28T12:00:00Z", "2028-02-29T12:00:00Z", "2028-03-01T12:00:00Z"],
      now: "2028-03-01T12:00:00Z",
      extended: [true, true, true],
      view: { length: 3, started: "2028-02-28", periodStart: "2028-03-01", periodEnd: "2028-03-01", expires: "2028-03-02" },
    },
    {
      name: "weekly: Sunday then Monday are two ISO weeks; started is the day of the first event",
      frequency: "weekly" as const,
      tz: london,
      evs: ["2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", "2026-03-08T10:00:00Z"],
      now: "2026-03-08T10:00:00Z",
      extended: [true, true, false],
      view: { length: 2, started: "2026-03-01", periodStart: "2026-03-02", periodEnd: "2026-03-08", expires: "2026-03-15" },
    },
    {
      name: "weekly: met last week, nothing yet this week",
      frequency: "weekly" as const,
      tz: london,
      evs: ["2026-03-04T10:00:00Z"],
      now: "2026-03-12T10:00:00Z",
      extended: [true],
      view: { length: 1, started: "2026-03-04", periodStart: "2026-03-09", periodEnd: "2026-03-15", expires: "2026-03-15" },
    },
    {
      name: "monthly: 23:30 on Jan 31 is January, 00:30 on Feb 1 is February",
      frequency: "monthly" as const,
      tz: london,
      evs: ["2026-01-31T23:30:00Z", "2026-02-01T00:30:00Z"],
      now: "2026-02-10T00:00:00Z",
      extended: [true, true],
      view: { length: 2, started: "2026-01-31", periodStart: "2026-02-01", periodEnd: "2026-02-28", expires: "2026-03-31" },
    },
    {
      name: "monthly in New York: 22:00 local on Jan 31 is January although it is February in UTC",
      frequency: "monthly" as const,
      tz: newYork,
      evs: ["2026-02-01T03:00:00Z", "2026-02-02T03:00:00Z"],
      now: "2026-03-15T00:00:00Z",
      extended: [true, true],
      view: { length: 2, started: "2026-01-31", periodStart: "2026-03-01", periodEnd: "2026-03-31", expires: "2026-03-31" },
    },
    {
      name: "monthly: leap February 2028, 23:30 on the 29th in New York",
      frequency: "monthly" as const,
      tz: newYork,
      evs: ["2028-01-10T15:00:00Z", "2028-03-01T04:30:00Z"],
      now: "2028-03-01T04:30:00Z",
      extended: [true, true],
      view: { length: 2, started: "2028-01-10", periodStart: "2028-02-01", periodEnd: "2028-02-29", expires: "2028-03-31" },
    },
    {
      name: "monthly: January met, expires at the end of leap February",
      frequency: "monthly" as const,
      tz: london,
      evs: ["2028-01-31T12:00:00Z"],
      now: "2028-01-31T12:00:00Z",
      extended: [true],
      view: { length: 1, started: "2028-01-31", periodStart: "2028-01-01", periodEnd: "2028-01-31", expires: "2028-02-29" },
    },
    {
      name: "no streak: every date is null",
      frequency: "daily" as const,
      tz: london,
      evs: ["2026-03-01T10:00:00Z"],
      now: "2026-03-03T00:00:00Z",
      extended: [true],
      view: { length: 0, started: null, periodStart: null, periodEnd: null, expires: null },
    },
  ])("$name", ({ frequency, tz, evs, now, extended, view }) => {
    const settings = cfg({ frequency });
    const r = play(
      settings,
      tz,
      evs.map((iso) => [iso] as Ev),
    );
    expect(r.extended).toEqual(extended);
    expect(describeStreak(r.state, settings, tz, at(now))).toEqual({ frequency, ...view });
  });
});

describe("DST: an event at 23:30 local on the change day counts for that day", () => {
  it.each([
    ["Europe/London", "spring", "2026-03-28T12:00:00Z", "2026-03-29T22:30:00Z", "2026-03-29", "2026-03-29T23:00:00.000Z"],
    ["Europe/London", "autumn", "2026-10-24T12:00:00Z", "2026-10-25T23:30:00Z", "2026-10-25", "2026-10-26T00:00:00.000Z"],
    ["America/New_York", "spring", "2026-03-07T17:00:00Z", "2026-03-09T03:30:00Z", "2026-03-08", "2026-03-09T04:00:00.000Z"],
    ["America/New_York", "autumn", "2026-10-31T16:00:00Z", "2026-11-02T04:30:00Z", "2026-11-01", "2026-11-02T05:00:00.000Z"],
  ])("%s %s: the change day is met and ends at local midnight", (zone, _season, dayBefore, lateEvent, changeDay, midnight) => {
    const tz = zones([zone, "2026-01-01T00:00:00Z"]);
    const settings = cfg();
    const r = play(settings, tz, [[dayBefore], [lateEvent]]);
    expect(r.extended).toEqual([true, true]);
    expect(describeStreak(r.state, settings, tz, at(lateEvent))).toMatchObject({ length: 2, periodStart: changeDay, periodEnd: changeDay });
    expect(nextStreakDueAt(r.state, settings, tz)?.toISOString()).toBe(midnight);
    // One millisecond before local midnight the change day is still current; at midnight the next day is.
    const before = new Date(new Date(midnight).getTime() - 1);
    expect(describeStreak(r.state, settings, tz, before).periodStart).toBe(changeDay);
    const next = describeStreak(r.state, settings, tz, at(midnight));
    expect(next).toMatchObject({ length: 2, periodStart: localDateIn(at(midnight), zone), expires: localDateIn(at(midnight), zone) });
    expect(next.periodStart).not.toBe(changeDay);
  });
});

describe("zone changes keep the streak intact", () => {
  const freezes = { initialGrant: 1, maxFreezes: 3, autoEarn: null };
  it.each([
    {
      name: "Honolulu -> Auckland (west over the date line, 03-02 never happens on the user's clock)",
      tz: zones(["Pacific/Honolulu", "2026-01-01T00:00:00Z"]),
      // 10:00 HST on 03-01; then 03:00 NZDT on 03-03 (UTC 03-02 14:00), sent with the new zone
      evs: [["2026-03-01T20:00:00Z"], ["2026-03-02T14:00:00Z", 1, A, "Pacific/Auckland"]] as Ev[],
      extended: [true, true],
      history: ["2026-03-01..2026-03-01:1", "2026-03-02..2026-03-02:1", "2026-03-03..2026-03-03:2"],
      view: { length: 2, started: "2026-03-01", periodStart: "2026-03-03", periodEnd: "2026-03-03", expires: "2026-03-04" },
      due: "2026-03-03T11:00:00.000Z", // midnight in Auckland
    },
    {
      name: "Auckland -> Honolulu (east over the date line, 03-03 is lived twice but counts once)",
      tz: zones(["Pacific/Auckland", "2026-01-01T00:00:00Z"]),
      // 09:00 NZDT on 03-03; 16:00 HST on 03-02; 10:00 HST on 03-03; 10:00 HST on 03-04
      evs: [["2026-03-02T20:00:00Z"], ["2026-03-03T02:00:00Z", 1, A, "Pacific/Honolulu"], ["2026-03-03T20:00:00Z"], ["2026-03-04T20:00:00Z"]] as Ev[],
      extended: [true, false, false, true],
      history: ["2026-03-03..2026-03-03:1", "2026-03-04..2026-03-04:2"],
      view: { length: 2, started: "2026-03-03", periodStart: "2026-03-04", periodEnd: "2026-03-04", expires: "2026-03-05" },
      due: "2026-03-05T10:00:00.000Z", // midnight in Honolulu
    },
    {
      name: "Los Angeles -> Tokyo (it is already the next day there: the next period)",
      tz: zones(["America/Los_Angeles", "2026-01-01T00:00:00Z"]),
      evs: [["2026-03-01T18:00:00Z"], ["2026-03-02T04:00:00Z", 1, A, "Asia/Tokyo"]] as Ev[],
      extended: [true, true],
      history: ["2026-03-01..2026-03-01:1", "2026-03-02..2026-03-02:2"],
      view: { length: 2, started: "2026-03-01", periodStart: "2026-03-02", periodEnd: "2026-03-02", expires: "2026-03-03" },
      due: "2026-03-02T15:00:00.000Z", // midnight in Tokyo
    },
    {
      name: "Tokyo -> Los Angeles (the same date again: no double period)",
      tz: zones(["Asia/Tokyo", "2026-01-01T00:00:00Z"]),
      // 10:00 JST on 03-02; 02:00 PST on 03-02 (still 03-02 in Tokyo); 10:00 PST on 03-03
      evs: [["2026-03-02T01:00:00Z"], ["2026-03-02T10:00:00Z", 1, A, "America/Los_Angeles"], ["2026-03-03T18:00:00Z"]] as Ev[],
      extended: [true, false, true],
      history: ["2026-03-02..2026-03-02:1", "2026-03-03..2026-03-03:2"],
      view: { length: 2, started: "2026-03-02", periodStart: "2026-03-03", periodEnd: "2026-03-03", expires: "2026-03-04" },
      due: "2026-03-04T08:00:00.000Z", // midnight in Los Angeles
    },
    {
      name: "Tokyo -> Los Angeles after Tokyo's midnight (03-02 is over for the user: Los Angeles' 03-02 counts as 03-03)",
      tz: zones(["Asia/Tokyo", "2026-01-01T00:00:00Z"]),
      // 10:00 JST on 03-02; 12:00 PST on 03-02, which is 05:00 on 03-03 in Tokyo where the user still was
      evs: [["2026-03-02T01:00:00Z"], ["2026-03-02T20:00:00Z", 1, A, "America/Los_Angeles"]] as Ev[],
      extended: [true, true],
      history: ["2026-03-02..2026-03-02:1", "2026-03-03..2026-03-03:2"],
      view: { length: 2, started: "2026-03-02", periodStart: "2026-03-03", periodEnd: "2026-03-03", expires: "2026-03-04" },
      due: "2026-03-04T08:00:00.000Z", // 03-03 ends at midnight in Los Angeles
    },
    {
      name: "London -> Tokyo with today unmet: the day cut short by the move uses no freeze",
      tz: zones(["Europe/London", "2026-01-01T00:00:00Z"]),
      evs: [["2026-03-01T10:00:00Z"], ["2026-03-02T20:00:00Z", 1, OTHER, "Asia/Tokyo"]] as Ev[],
      extended: [true, false],
      history: ["2026-03-01..2026-03-01:1", "2026-03-02..2026-03-02:1", "2026-03-03..2026-03-03:1"],
      view: { length: 1, started: "2026-03-01", periodStart: "2026-03-03", periodEnd: "2026-03-03", expires: "2026-03-03" },
      due: "2026-03-03T15:00:00.000Z",
    },
  ])("$name", ({ tz, evs, extended, history, view, due }) => {
    const settings = cfg({ freezes });
    const r = play(settings, tz, evs);
    expect(r.extended).toEqual(extended);
    expect(r.events.filter((e) => e.type === "streak.lost" || e.type === "streak.freeze_consumed")).toEqual([]);
    expect(hist(r.state)).toEqual(history);
    const last = at(evs.at(-1)![0]);
    expect(describeStreak(r.state, settings, r.history, last)).toEqual({ frequency: "daily", ...view, freezes: 1, maxFreezes: 3 });
    expect(nextStreakDueAt(r.state, settings, r.history)?.toISOString()).toBe(due);
  });

  it("a period straddling a move from London to New York ends at New York's midnight", () => {
    const settings = cfg();
    const tz = zones(["Europe/London", "2026-01-01T00:00:00Z"], ["America/New_York", "2026-03-02T12:00:00Z"]);
    const first = play(settings, tz, [["2026-03-01T10:00:00Z"]]);
    // Before the move is caught up, the next thing due is London's midnight.
    expect(nextStreakDueAt(first.state, settings, tz)?.toISOString()).toBe("2026-03-02T00:00:00.000Z");
    const moved = catchUpStreak(first.state, settings, tz, at("2026-03-02T13:00:00Z")).state;
    expect(moved.period).toMatchObject({ start: "2026-03-02", zone: "America/New_York" });
    expect(nextStreakDueAt(moved, settings, tz)?.toISOString()).toBe("2026-03-03T05:00:00.000Z");
    // 23:30 in New York on 03-02 (already 03-03 in London) extends the streak for 03-02.
    const r = play(settings, tz, [["2026-03-03T04:30:00Z"]], moved);
    expect(r.extended).toEqual([true]);
    expect(describeStreak(r.state, settings, tz, at("2026-03-03T04:30:00Z"))).toMatchObject({ length: 2, periodStart: "2026-03-02", expires: "2026-03-03" });
  });

  it("a zone change carried by an event at the same instant as the previous one is followed, as 1 ms later", () => {
    const settings = cfg({ metrics: [{ metricId: A, threshold: 10 }] });
    const london = zones(["Europe/London", "2026-01-01T00:00:00Z"]);
    // 02-07 met; 3 of 10 on 02-08; then 8 at 16:00 UTC carrying Tokyo, where it is 02-09 01:00:
    // London's 02-08 is cut short unmet (not judged), the 8 count for Tokyo's 02-09.
    for (const second of ["2026-02-08T16:00:00.000Z", "2026-02-08T16:00:00.001Z"]) {
      const r = play(settings, london, [
        ["2026-02-07T12:00:00Z", 10],
        ["2026-02-08T16:00:00Z", 3],
        [second, 8, A, "Asia/Tokyo"],
      ]);
      expect(r.extended, second).toEqual([true, false, false]);
      expect(describeStreak(r.state, settings, r.history, at(second)), second).toMatchObject({ length: 1, periodStart: "2026-02-09" });
    }
  });

  it("a zone change caught up by a read gives the same result as one carried by the next event", () => {
    const settings = cfg();
    const base = zones(["Pacific/Honolulu", "2026-01-01T00:00:00Z"]);
    const withAuckland = [...base, ...zones(["Pacific/Auckland", "2026-03-02T14:00:00Z"])];
    const s0 = play(settings, base, [["2026-03-01T20:00:00Z"]]).state;
    const viaScheduler = catchUpStreak(
      catchUpStreak(s0, settings, base, at("2026-03-02T10:00:00Z")).state,
      settings,
      withAuckland,
      at("2026-03-02T14:00:00Z"),
    ).state;
    const direct = catchUpStreak(s0, settings, withAuckland, at("2026-03-02T14:00:00Z")).state;
    expect(viaScheduler).toEqual(direct);
  });
});

describe("freezes", () => {
  const utc: TimeZoneChange[] = [];
  it("are consumed one per missed period at its end, then the streak is lost", () => {
    const settings = cfg({ freezes: { initialGrant: 2, maxFreezes: 3, autoEarn: null } });
    const s = play(settings, utc, [["2026-03-01T10:00:00Z"], ["2026-03-02T10:00:00Z"]]).state;
    expect(describeStreak(s, settings, utc, at("2026-03-04T12:00:00Z"))).toEqual({
      length: 2,
      frequency: "daily",
      started: "2026-03-01",
      periodStart: "2026-03-04",
      periodEnd: "2026-03-04",
      expires: "2026-03-04",
      freezes: 1,
      maxFreezes: 3,
    });
    const { state, events } = catchUpStreak(s, settings, utc, at("2026-03-06T00:00:00Z"));
    expect(events).toEqual([
      { type: "streak.freeze_consumed", at: at("2026-03-04T00:00:00Z"), consumed: 1, freezes: 1 },
      { type: "streak.freeze_consumed", at: at("2026-03-05T00:00:00Z"), consumed: 1, freezes: 0 },
      { type: "streak.lost", at: at("2026-03-06T00:00:00Z"), length: 2 },
    ]);
    expect(hist(state)).toEqual([
      "2026-03-01..2026-03-01:1",
      "2026-03-02..2026-03-02:2",
      "2026-03-03..2026-03-03:2F",
      "2026-03-04..2026-03-04:2F",
      "2026-03-05..2026-03-05:0",
      "2026-03-06..2026-03-06:0",
    ]);
    expect(describeStreak(state, settings, utc, at("2026-03-06T00:00:00Z"))).toEqual({
      length: 0,
      frequency: "daily",
      started: null,
      periodStart: null,
      periodEnd: null,
      expires: null,
      freezes: 0,
      maxFreezes: 3,
    });
  });

  it("above a maximum lowered since are dropped at the next catch-up: only the maximum is left to use", () => {
    const before = cfg({ freezes: { initialGrant: 3, maxFreezes: 3, autoEarn: null } });
    const s = play(before, utc, [["2026-03-01T10:00:00Z"], ["2026-03-02T10:00:00Z"]]).state;
    expect(s.freezes).toBe(3);
    const lowered = cfg({ freezes: { initialGrant: 1, maxFreezes: 1, autoEarn: null } });
    expect(describeStreak(s, lowered, utc, at("2026-03-02T12:00:00Z"))).toMatchObject({ length: 2, freezes: 1, maxFreezes: 1 });
    // Two missed days: one freeze holds the first, the second loses the streak.
    const { state, events } = catchUpStreak(s, lowered, utc, at("2026-03-05T00:00:00Z"));
    expect(events).toEqual([
      { type: "streak.freeze_consumed", at: at("2026-03-04T00:00:00Z"), consumed: 1, freezes: 0 },
      { type: "streak.lost", at: at("2026-03-05T00:00:00Z"), length: 2 },
    ]);
    expect(state.freezes).toBe(0);
  });

  it("hold the length without adding to it; the next met day extends from there", () => {
    const settings = cfg({ freezes: { initialGrant: 1, maxFreezes: 1, autoEarn: null } });
    const r = play(settings, utc, [["2026-03-01T10:00:00Z"], ["2026-03-02T10:00:00Z"], ["2026-03-04T10:00:00Z"]]);
    expect(types(r.events)).toEqual([
      "streak.started@2026-03-01T10:00:00.000Z",
      "streak.extended@2026-03-02T10:00:00.000Z",
      "streak.freeze_consumed@2026-03-04T00:00:00.000Z",
      "streak.extended@2026-03-04T10:00:00.000Z",
    ]);
    expect(r.state.length).toBe(3);
    expect(r.state.freezes).toBe(0);
  });

  it("are never used without a streak, nor when the tenant has freezes off (lost at once, no freeze fields)", () => {
    const withFreezes = cfg({ freezes: { initialGrant: 2, maxFreezes: 2, autoEarn: null } });
    const idle = catchUpStreak(play(withFreezes, utc, [["2026-03-01T10:00:00Z", 1, OTHER]]).state, withFreezes, utc, at("2026-03-10T00:00:00Z"));
    expect(idle.events).toEqual([]);
    expect(idle.state.freezes).toBe(2);
    const off = cfg();
    const s = play(off, utc, [["2026-03-01T10:00:00Z"]]).state;
    const { events } = catchUpStreak({ ...s, freezes: 5 }, off, utc, at("2026-03-03T00:00:00Z"));
    expect(events).toEqual([{ type: "streak.lost", at: at("2026-03-03T00:00:00Z"), length: 1 }]);
    expect(describeStreak(s, off, utc, at("2026-03-01T12:00:00Z"))).toEqual({
      length: 1,
      frequency: "daily",
      started: "2026-03-01",
      periodStart: "2026-03-01",
      periodEnd: "2026-03-01",
      expires: "2026-03-02",
    });
  });

  it("are earned every N days since the user's creation, capped at the maximum, earning before consuming at the same instant", () => {
    const settings = cfg({ freezes: { initialGrant: 0, maxFreezes: 2, autoEarn: { amount: 1, intervalDays: 7 } } });
    const s0 = createStreakState(settings, CREATED);
    expect(nextStreakDueAt(s0, settings, utc)?.toISOString()).toBe("2026-01-08T00:00:00.000Z");
    const january = catchUpStreak(s0, settings, utc, at("2026-01-31T00:00:00Z"));
    expect(january.events).toEqual([
      { type: "streak.freeze_earned", at: at("2026-01-08T00:00:00Z"), earned: 1, freezes: 1 },
      { type: "streak.freeze_earned", at: at("2026-01-15T00:00:00Z"), earned: 1, freezes: 2 },
    ]);
    expect(january.state.freezesEarnedUntil).toEqual(at("2026-01-29T00:00:00Z"));
    expect(nextStreakDueAt(january.state, settings, utc)).toBeNull(); // at the maximum, no streak
    // A streak on 02-01 and 02-02, then nothing: 02-03 uses a freeze at 02-04 00:00.
    const streak = play(settings, utc, [["2026-02-01T10:00:00Z"], ["2026-02-02T10:00:00Z"]], january.state).state;
    const first = catchUpStreak(streak, settings, utc, at("2026-02-04T00:00:00Z"));
    expect(first.events).toEqual([{ type: "streak.freeze_consumed", at: at("2026-02-04T00:00:00Z"), consumed: 1, freezes: 1 }]);
    // The interval that passed at the maximum (01-29) earned nothing; the next one is 02-05, when 02-04 also ends.
    expect(nextStreakDueAt(first.state, settings, utc)?.toISOString()).toBe("2026-02-05T00:00:00.000Z");
    const second = catchUpStreak(first.state, settings, utc, at("2026-02-06T00:00:00Z"));
    expect(second.events).toEqual([
      { type: "streak.freeze_earned", at: at("2026-02-05T00:00:00Z"), earned: 1, freezes: 2 },
      { type: "streak.freeze_consumed", at: at("2026-02-05T00:00:00Z"), consumed: 1, freezes: 1 },
      { type: "streak.freeze_consumed", at: at("2026-02-06T00:00:00Z"), consumed: 1, freezes: 0 },
    ]);
    expect(describeStreak(second.state, settings, utc, at("2026-02-06T00:00:00Z"))).toMatchObject({
      length: 2,
      freezes: 0,
      maxFreezes: 2,
      freezeAutoEarnInterval: 7,
      freezeAutoEarnAmount: 1,
    });
  });

  it.each([
    [
      "an amount above the room left is capped",
      { initialGrant: 1, maxFreezes: 2, autoEarn: { amount: 3, intervalDays: 7 } },
      CREATED,
      [["2026-01-08T00:00:00Z", 1, 2]],
    ],
    // The state is created a year after the user: no lump for the past year, the next interval on the user's schedule.
    [
      "a state created later earns from then on",
      { initialGrant: 0, maxFreezes: 5, autoEarn: { amount: 1, intervalDays: 7 } },
      at("2025-01-01T00:00:00Z"),
      [["2026-01-07T00:00:00Z", 1, 1]],
    ],
  ] as const)("%s", (_name, freezes, userCreated, expected) => {
    const settings = cfg({ freezes: { ...freezes, autoEarn: freezes.autoEarn ? { ...freezes.autoEarn } : null } });
    const s = createStreakState(settings, userCreated, CREATED);
    const { events } = catchUpStreak(s, settings, [], at("2026-01-10T00:00:00Z"));
    expect(events).toEqual(expected.map(([iso, earned, total]) => ({ type: "streak.freeze_earned", at: at(iso), earned, freezes: total })));
  });

  it("admin grants are capped at the maximum and need freezes enabled", () => {
    const settings = cfg({ freezes: { initialGrant: 1, maxFreezes: 3, autoEarn: null } });
    const s = createStreakState(settings, CREATED);
    expect(grantFreezes(s, settings, 5)).toMatchObject({ granted: 2, state: { freezes: 3 } });
    expect(grantFreezes(s, cfg(), 1).granted).toBe(0);
  });
});

describe("pauses", () => {
  const utc: TimeZoneChange[] = [];
  const daily = cfg({ freezes: { initialGrant: 1, maxFreezes: 1, autoEarn: null } });
  const withPauses = (s: StreakState, ...p: Array<[string, string]>) =>
    p.reduce((acc, [start, end], i) => addPause(acc, { id: `p${i}`, start, end }, utc, at("2026-03-01T00:00:00Z")), s);

  it("hold a daily streak through the paused days (before any freeze), then the first unpaused miss counts", () => {
    const s = withPauses(play(daily, utc, [["2026-03-01T10:00:00Z"], ["2026-03-02T10:00:00Z"]]).state, ["2026-03-03", "2026-03-04"]);
    const { state, events } = catchUpStreak(s, daily, utc, at("2026-03-07T00:00:00Z"));
    expect(events).toEqual([
      { type: "streak.freeze_consumed", at: at("2026-03-06T00:00:00Z"), consumed: 1, freezes: 0 },
      { type: "streak.lost", at: at("2026-03-07T00:00:00Z"), length: 2 },
    ]);
    expect(hist(state, 5)).toEqual([
      "2026-03-03..2026-03-03:2P",
      "2026-03-04..2026-03-04:2P",
      "2026-03-05..2026-03-05:2F",
      "2026-03-06..2026-03-06:0",
      "2026-03-07..2026-03-07:0",
    ]);
    expect(state.pauses).toEqual([]); // pauses that ended before the current period are dropped
  });

  it("do not stop events from counting: a met day during a pause extends the streak", () => {
    const s = withPauses(play(daily, utc, [["2026-03-01T10:00:00Z"]]).state, ["2026-03-02", "2026-03-03"]);
    const r = play(daily, utc, [["2026-03-02T10:00:00Z"]], s);
    expect(r.extended).toEqual([true]);
    expect(hist(catchUpStreak(r.state, daily, utc, at("2026-03-04T00:00:00Z")).state)).toEqual([
      "2026-03-01..2026-03-01:1",
      "2026-03-02..2026-03-02:2",
      "2026-03-03..2026-03-03:2P",
      "2026-03-04..2026-03-04:2",
    ]);
  });

  it.each([
    ["the week's last day (Sunday)", ["2026-03-15", "2026-03-15"], "2026-03-09..2026-03-15:1P", []],
    ["the week's first day (Monday)", ["2026-03-09", "2026-03-09"], "2026-03-09..2026-03-15:1P", []],
    ["only the Monday after", ["2026-03-16", "2026-03-20"], "2026-03-09..2026-03-15:0", ["streak.lost@2026-03-16T00:00:00.000Z"]],
    ["only the Sunday before", ["2026-03-01", "2026-03-08"], "2026-03-09..2026-03-15:0", ["streak.lost@2026-03-16T00:00:00.000Z"]],
  ] as const)("weekly: a pause on %s", (_name, [start, end], entry, lost) => {
    const weekly = cfg({ frequency: "weekly" });
    const s = withPauses(play(weekly, utc, [["2026-03-04T10:00:00Z"]]).state, [start, end]);
    const { state, events } = catchUpStreak(s, weekly, utc, at("2026-03-16T00:00:00Z"));
    expect(types(events)).toEqual(lost);
    expect(hist(state, 2)[0]).toBe(entry);
  });

  it("are validated against today in the user's zone, listed while active or upcoming, and removable", () => {
    const auckland = zones(["Pacific/Auckland", "2026-01-01T00:00:00Z"]);
    const s = createStreakState(daily, CREATED);
    const now = at("2026-03-01T20:00:00Z"); // 09:00 on 03-02 in Auckland
    expect(() => addPause(s, { id: "x", start: "2026-03-01", end: "2026-03-05" }, auckland, now)).toThrow(
      "start (2026-03-01) must not be before today in the user's time zone (2026-03-02)",
    );
    expect(() => addPause(s, { id: "x", start: "2026-03-05", end: "2026-03-04" }, auckland, now)).toThrow(
      "end (2026-03-04) must be on or after start (2026-03-05)",
    );
    expect(() => addPause(s, { id: "x", start: "2026-02-30", end: "2026-03-04" }, auckland, now)).toThrow(
      'start must be a date (YYYY-MM-DD), got "2026-02-30"',
    );
    expect(() => addPause(s, { id: "x", start: "2026-03-05", end: "2100-01-01" }, auckland, now)).toThrow(
      'end must be from 2000-01-01 to 2099-12-31, got "2100-01-01"',
    );
    let p = addPause(s, { id: "b", start: "2026-03-10", end: "2026-03-12" }, auckland, now);
    p = addPause(p, { id: "a", start: "2026-03-02", end: "2026-03-02" }, auckland, now);
    expect(() => addPause(p, { id: "a", start: "2026-03-20", end: "2026-03-21" }, auckland, now)).toThrow("a pause with id a already exists");
    expect(activePauses(p, auckland, now).map((x) => x.id)).toEqual(["a", "b"]);
    expect(activePauses(p, auckland, at("2026-03-02T12:00:00Z")).map((x) => x.id)).toEqual(["b"]); // 03-03 in Auckland
    expect(removePause(p, "a").state.pauses.map((x) => x.id)).toEqual(["b"]);
    expect(removePause(p, "zzz").removed).toBe(false);
  });

  it("never overlap for one user: a repeat of the same pause or an overlapping one is refused", () => {
    const auckland = zones(["Pacific/Auckland", "2026-01-01T00:00:00Z"]);
    const now = at("2026-03-01T20:00:00Z");
    const p = addPause(createStreakState(daily, CREATED), { id: "a", start: "2026-03-10", end: "2026-03-12" }, auckland, now);
    expect(() => addPause(p, { id: "b", start: "2026-03-10", end: "2026-03-12" }, auckland, now)).toThrow(
      new DomainError("unprocessable", "the user already has this pause a (2026-03-10 to 2026-03-12); a user's pauses may not overlap"),
    );
    for (const [start, end] of [
      ["2026-03-12", "2026-03-20"],
      ["2026-03-05", "2026-03-10"],
      ["2026-03-11", "2026-03-11"],
      ["2026-03-02", "2026-03-30"],
    ]) {
      expect(() => addPause(p, { id: "b", start: start!, end: end! }, auckland, now)).toThrow(
        "the pause overlaps this user's pause a (2026-03-10 to 2026-03-12)",
      );
    }
    const next = addPause(
      addPause(p, { id: "b", start: "2026-03-13", end: "2026-03-14" }, auckland, now),
      { id: "c", start: "2026-03-02", end: "2026-03-09" },
      auckland,
      now,
    );
    expect(next.pauses.map((x) => x.id)).toEqual(["a", "b", "c"]);
  });
});

describe("expires, extended once per period, and the reference payloads", () => {
  it("emits streak.started with the reference's example fields, then extended once per day", () => {
    const settings = cfg({ freezes: { initialGrant: 0, maxFreezes: 3, autoEarn: { amount: 1, intervalDays: 7 } } });
    const tz = zones(["Europe/London", "2025-04-01T00:00:00Z"]);
    const s = createStreakState(settings, at("2025-04-01T00:00:00Z"));
    const r = play(settings, tz, [["2025-04-02T09:00:00Z"], ["2025-04-02T10:00:00Z"], ["2025-04-03T09:00:00Z"]], s);
    expect(r.extended).toEqual([true, false, true]);
    expect(r.events[0]).toEqual({
      type: "streak.started",
      at: at("2025-04-02T09:00:00Z"),
      streak: {
        length: 1,
        frequency: "daily",
        periodStart: "2025-04-02",
        periodEnd: "2025-04-02",
        started: "2025-04-02",
        expires: "2025-04-03",
        freezes: 0,
        maxFreezes: 3,
        freezeAutoEarnInterval: 7,
        freezeAutoEarnAmount: 1,
      },
    });
    expect(r.events[1]).toMatchObject({
      type: "streak.extended",
      streak: { length: 2, periodStart: "2025-04-03", started: "2025-04-02", expires: "2025-04-04" },
    });
    expect(r.events).toHaveLength(2);
  });

  it("the streak read: extended timestamp, history oldest first with zero-length periods, pauses", () => {
    const weekly = cfg({ frequency: "weekly" });
    const s = play(weekly, [], [["2026-03-04T10:00:00Z"], ["2026-03-11T10:00:00Z"]]).state;
    const read = readStreak(s, weekly, [], at("2026-03-25T12:00:00Z"), 7);
    expect(read.events).toEqual([{ type: "streak.lost", at: at("2026-03-23T00:00:00Z"), length: 2 }]);
    expect(read.streak).toEqual({
      length: 0,
      frequency: "weekly",
      started: null,
      periodStart: null,
      periodEnd: null,
      expires: null,
      extended: null,
      pauses: [],
      streakHistory: [
        { periodStart: "2026-03-02", periodEnd: "2026-03-08", length: 1, usedFreeze: false, usedPause: false },
        { periodStart: "2026-03-09", periodEnd: "2026-03-15", length: 2, usedFreeze: false, usedPause: false },
        { periodStart: "2026-03-16", periodEnd: "2026-03-22", length: 0, usedFreeze: false, usedPause: false },
        { periodStart: "2026-03-23", periodEnd: "2026-03-29", length: 0, usedFreeze: false, usedPause: false },
      ],
    });
    const live = readStreak(s, weekly, [], at("2026-03-12T12:00:00Z"), 1);
    expect(live.streak).toMatchObject({ length: 2, extended: at("2026-03-11T10:00:00Z"), expires: "2026-03-22" });
    expect(live.streak.streakHistory).toEqual([{ periodStart: "2026-03-09", periodEnd: "2026-03-15", length: 2, usedFreeze: false, usedPause: false }]);
    expect(streakHistory(live.state, 0)).toEqual([]);
  });

  it("keeps at most the history limit after a long absence, exactly the last periods", () => {
    const settings = cfg();
    const s = play(settings, [], [["2026-03-01T10:00:00Z"]]).state;
    const { state, events } = catchUpStreak(s, settings, [], at("2036-03-01T00:00:00Z"));
    expect(events).toEqual([{ type: "streak.lost", at: at("2026-03-03T00:00:00Z"), length: 1 }]);
    expect(state.history).toHaveLength(STREAK_HISTORY_LIMIT);
    expect(state.history[0]!.periodStart).toBe("2035-11-22");
    expect(hist(state, 3)).toEqual(["2036-02-28..2036-02-28:0", "2036-02-29..2036-02-29:0", "2036-03-01..2036-03-01:0"]);
    // The same as walking there in two steps.
    const split = catchUpStreak(catchUpStreak(s, settings, [], at("2030-06-15T13:00:00Z")).state, settings, [], at("2036-03-01T00:00:00Z"));
    expect(split.state).toEqual(state);
  });
});

describe("catch-up is deterministic and idempotent", () => {
  const settings = cfg({ freezes: { initialGrant: 1, maxFreezes: 2, autoEarn: { amount: 1, intervalDays: 3 } } });
  const tz = zones(["Europe/London", "2026-01-01T00:00:00Z"], ["Asia/Tokyo", "2026-03-04T12:00:00Z"], ["America/New_York", "2026-03-09T12:00:00Z"]);
  const start = () => {
    const s = play(settings, tz, [["2026-03-01T10:00:00Z"], ["2026-03-02T10:00:00Z"], ["2026-03-03T10:00:00Z"]]).state;
    return addPause(s, { id: "p", start: "2026-03-07", end: "2026-03-07" }, tz, at("2026-03-03T10:00:00Z"));
  };
  const end = at("2026-03-20T00:00:00Z");

  it("a second catch-up to the same instant changes nothing and emits nothing", () => {
    const once = catchUpStreak(start(), settings, tz, end);
    expect(once.events.length).toBeGreaterThan(0);
    const twice = catchUpStreak(once.state, settings, tz, end);
    expect(twice.events).toEqual([]);
    expect(twice.state).toEqual(once.state);
    expect(catchUpStreak(once.state, settings, tz, at("2026-03-10T00:00:00Z")).state).toEqual(once.state); // the past changes nothing
  });

  it.each(["2026-03-03T23:59:59.999Z", "2026-03-04T12:00:00Z", "2026-03-05T00:00:00Z", "2026-03-07T15:00:00Z", "2026-03-09T12:00:00Z", "2026-03-13T00:00:00Z"])(
    "catching up to %s first then to the end equals catching up at once",
    (middle) => {
      const once = catchUpStreak(start(), settings, tz, end);
      const a = catchUpStreak(start(), settings, tz, at(middle));
      const b = catchUpStreak(a.state, settings, tz, end);
      expect(b.state).toEqual(once.state);
      expect([...a.events, ...b.events]).toEqual(once.events);
    },
  );

  it("the state is plain data: no Maps or classes, no keys with '.' or starting with '$'", () => {
    const { state } = catchUpStreak(start(), settings, tz, end);
    const keys: string[] = [];
    const walk = (v: unknown): void => {
      if (v instanceof Date || v === null || typeof v !== "object") return;
      expect([Object.prototype, Array.prototype]).toContain(Object.getPrototypeOf(v));
      for (const [k, x] of Object.entries(v)) {
        keys.push(k);
        walk(x);
      }
    };
    walk(state);
    expect(keys.filter((k) => k.includes(".") || k.startsWith("$"))).toEqual([]);
    expect(structuredClone(state)).toEqual(state);
  });

  it("this scenario: freezes used at Tokyo's and New York's midnights, the pause day held, earning every three days", () => {
    const { state, events } = catchUpStreak(start(), settings, tz, end);
    // Earning instants are 2026-01-01 + 3k days: ..., 03-02, 03-05, 03-08, 03-11, 03-14, 03-17.
    expect(types(events)).toEqual([
      "streak.freeze_consumed@2026-03-04T15:00:00.000Z", // 03-04 missed, ends at Tokyo's midnight: 2 -> 1
      "streak.freeze_earned@2026-03-05T00:00:00.000Z", // 1 -> 2
      "streak.freeze_consumed@2026-03-05T15:00:00.000Z", // 03-05: 2 -> 1
      "streak.freeze_consumed@2026-03-06T15:00:00.000Z", // 03-06: 1 -> 0; 03-07 is paused
      "streak.freeze_earned@2026-03-08T00:00:00.000Z", // 0 -> 1
      "streak.freeze_consumed@2026-03-08T15:00:00.000Z", // 03-08: 1 -> 0
      "streak.lost@2026-03-10T04:00:00.000Z", // 03-09 ends at New York's midnight (EDT) with no freeze
      "streak.freeze_earned@2026-03-11T00:00:00.000Z",
      "streak.freeze_earned@2026-03-14T00:00:00.000Z", // at the maximum: 03-17 earns nothing
    ]);
    expect(hist(state).slice(2, 10)).toEqual([
      "2026-03-03..2026-03-03:3",
      "2026-03-04..2026-03-04:3F",
      "2026-03-05..2026-03-05:3F",
      "2026-03-06..2026-03-06:3F",
      "2026-03-07..2026-03-07:3P",
      "2026-03-08..2026-03-08:3F",
      "2026-03-09..2026-03-09:0",
      "2026-03-10..2026-03-10:0",
    ]);
    expect(state.period).toMatchObject({ start: "2026-03-19", zone: "America/New_York" });
    expect(state.freezes).toBe(2);
  });
});

describe("restore (the length when last lost)", () => {
  const settings = cfg();
  const lostFive = () => {
    const evs: Ev[] = ["01", "02", "03", "04", "05"].map((d) => [`2026-03-${d}T10:00:00Z`]);
    return play(settings, [], evs).state; // 03-06 is missed: lost at 03-07 00:00
  };

  it("gives back the lost length with its start; the current day still has to be met", () => {
    const { state, restored, events } = restoreStreak(lostFive(), settings, [], at("2026-03-08T12:00:00Z"));
    expect(types(events)).toEqual(["streak.lost@2026-03-07T00:00:00.000Z"]);
    expect(restored).toBe(true);
    expect(describeStreak(state, settings, [], at("2026-03-08T12:00:00Z"))).toEqual({
      length: 5,
      frequency: "daily",
      started: "2026-03-01",
      periodStart: "2026-03-08",
      periodEnd: "2026-03-08",
      expires: "2026-03-08",
    });
    const r = play(settings, [], [["2026-03-08T13:00:00Z"]], state);
    expect(types(r.events)).toEqual(["streak.extended@2026-03-08T13:00:00.000Z"]);
    expect(r.state.length).toBe(6);
    expect(restoreStreak(r.state, settings, [], at("2026-03-08T14:00:00Z")).restored).toBe(false); // once
  });

  it("joins the run since the loss", () => {
    const s = play(settings, [], [["2026-03-08T10:00:00Z"]], lostFive()).state;
    const { state } = restoreStreak(s, settings, [], at("2026-03-08T12:00:00Z"));
    expect(describeStreak(state, settings, [], at("2026-03-08T12:00:00Z"))).toMatchObject({ length: 6, started: "2026-03-01", expires: "2026-03-09" });
  });

  it("has nothing to restore for a user who never lost a streak", () => {
    expect(restoreStreak(play(settings, [], [["2026-03-01T10:00:00Z"]]).state, settings, [], at("2026-03-01T12:00:00Z")).restored).toBe(false);
  });
});

describe("timeline edge cases", () => {
  it("a backfill of old events starts the timeline at the first event", () => {
    const settings = cfg();
    const s = createStreakState(settings, at("2026-06-01T00:00:00Z"));
    const r = play(settings, [], [["2025-01-01T10:00:00Z"], ["2025-01-02T10:00:00Z"], ["2025-01-03T10:00:00Z"]], s);
    expect(r.extended).toEqual([true, true, true]);
    expect(describeStreak(r.state, settings, [], at("2025-01-03T12:00:00Z"))).toMatchObject({ length: 3, started: "2025-01-01", periodStart: "2025-01-03" });
  });

  it("an event stamped before the last catch-up counts toward the current period (the clock never runs backwards)", () => {
    const settings = cfg();
    const s = catchUpStreak(play(settings, [], [["2026-03-01T10:00:00Z"]]).state, settings, [], at("2026-03-02T00:00:30Z")).state;
    const r = play(settings, [], [["2026-03-01T23:59:00Z"]], s);
    expect(r.extended).toEqual([true]);
    expect(describeStreak(r.state, settings, [], at("2026-03-02T00:01:00Z"))).toMatchObject({ length: 2, started: "2026-03-01", periodStart: "2026-03-02" });
    // Counted on the streak's clock, not before the catch-up that judged the day before.
    expect(types(r.events)).toEqual(["streak.extended@2026-03-02T00:00:30.000Z"]);
    expect(r.state.lastExtendedAt).toEqual(at("2026-03-02T00:00:30Z"));
  });

  it("late events after a loss start the new streak when the loss was judged, not before it", () => {
    const settings = cfg();
    const lost = catchUpStreak(play(settings, [], [["2026-03-01T10:00:00Z"]]).state, settings, [], at("2026-03-03T09:00:00Z"));
    expect(types(lost.events)).toEqual(["streak.lost@2026-03-03T00:00:00.000Z"]);
    const r = play(settings, [], [["2026-03-02T11:00:00Z"]], lost.state);
    expect(types(r.events)).toEqual(["streak.started@2026-03-03T09:00:00.000Z"]);
    expect(describeStreak(r.state, settings, [], at("2026-03-03T10:00:00Z"))).toMatchObject({ length: 1, started: "2026-03-03", periodStart: "2026-03-03" });
  });

  it("a state of another frequency that was not computed again (streak-frequency.ts) restarts; the next event anchors the new periods", () => {
    const daily = cfg();
    const weekly = cfg({ frequency: "weekly" });
    const s = play(daily, [], [["2026-03-02T10:00:00Z"], ["2026-03-03T10:00:00Z"]]).state;
    expect(describeStreak(s, weekly, [], at("2026-03-03T12:00:00Z"))).toMatchObject({ length: 0, frequency: "weekly", periodStart: null });
    const r = play(weekly, [], [["2026-03-04T10:00:00Z"]], s);
    expect(r.extended).toEqual([true]);
    expect(describeStreak(r.state, weekly, [], at("2026-03-04T12:00:00Z"))).toMatchObject({ length: 1, periodStart: "2026-03-02", periodEnd: "2026-03-08" });
  });

  it("nothing is due for a user without a streak and without freezes to earn", () => {
    const settings = cfg();
    expect(nextStreakDueAt(createStreakState(settings, CREATED), settings, [])).toBeNull();
    const s = play(settings, [], [["2026-03-01T10:00:00Z"]]).state;
    expect(nextStreakDueAt(s, settings, [])?.toISOString()).toBe("2026-03-02T00:00:00.000Z");
  });
});

describe("settings lowered since a period's last event", () => {
  const ten = cfg({ metrics: [{ metricId: A, threshold: 10 }] });
  const three = cfg({ metrics: [{ metricId: A, threshold: 3 }] });

  it("a period already enough by the new threshold counts at its end without another event", () => {
    // Two days met at 10, then 5 of 10 on the third; the threshold is lowered to 3 that day.
    const r = play(
      ten,
      [],
      [
        ["2026-03-01T10:00:00Z", 10],
        ["2026-03-02T10:00:00Z", 10],
        ["2026-03-03T10:00:00Z", 5],
      ],
    );
    expect(r.extended).toEqual([true, true, false]);
    const caught = catchUpStreak(r.state, three, [], at("2026-03-04T00:00:30Z"));
    expect(types(caught.events)).toEqual(["streak.extended@2026-03-03T23:59:59.999Z"]);
    expect(describeStreak(caught.state, three, [], at("2026-03-04T00:00:30Z"))).toMatchObject({ length: 3, started: "2026-03-01", expires: "2026-03-04" });
    expect(caught.state.lastExtendedAt?.toISOString()).toBe("2026-03-03T23:59:59.999Z");
    expect(hist(caught.state)).toEqual(["2026-03-01..2026-03-01:1", "2026-03-02..2026-03-02:2", "2026-03-03..2026-03-03:3", "2026-03-04..2026-03-04:3"]);
    // By the old threshold the same catch-up loses the streak: the settings in force decide.
    expect(types(catchUpStreak(r.state, ten, [], at("2026-03-04T00:00:30Z")).events)).toEqual(["streak.lost@2026-03-04T00:00:00.000Z"]);
  });

  it("the next event of any metric, even one the streak does not count, extends the streak at once", () => {
    const r = play(
      ten,
      [],
      [
        ["2026-03-02T10:00:00Z", 10],
        ["2026-03-03T10:00:00Z", 5],
      ],
    );
    const next = applyStreakEvent(r.state, three, { metricId: OTHER, value: 1, at: at("2026-03-03T12:00:00Z") }, []);
    expect(next.extended).toBe(true);
    expect(types(next.events)).toEqual(["streak.extended@2026-03-03T12:00:00.000Z"]);
    expect(next.streak).toMatchObject({ length: 2, expires: "2026-03-04" });
    // With unchanged settings such an event changes nothing.
    expect(applyStreakEvent(r.state, ten, { metricId: OTHER, value: 1, at: at("2026-03-03T12:00:00Z") }, []).extended).toBe(false);
  });

  it("a user without a streak starts one on the last moment of that period, even when caught up long after", () => {
    const r = play(ten, [], [["2026-03-03T10:00:00Z", 5]]);
    const caught = catchUpStreak(r.state, three, [], at("2026-03-10T12:00:00Z"));
    expect(types(caught.events)).toEqual(["streak.started@2026-03-03T23:59:59.999Z", "streak.lost@2026-03-05T00:00:00.000Z"]);
    expect(caught.state.lastLost).toMatchObject({ length: 1, started: "2026-03-03", periodStart: "2026-03-04" });
    expect(hist(caught.state, 3)).toEqual(["2026-03-08..2026-03-08:0", "2026-03-09..2026-03-09:0", "2026-03-10..2026-03-10:0"]);
  });

  it("evaluation mode any instead of all counts a period that met one of two thresholds", () => {
    const both = cfg({
      metrics: [
        { metricId: A, threshold: 10 },
        { metricId: B, threshold: 5 },
      ],
    });
    const r = play(
      both,
      [],
      [
        ["2026-03-02T10:00:00Z", 10, A],
        ["2026-03-02T11:00:00Z", 5, B],
        ["2026-03-03T10:00:00Z", 10, A],
      ],
    );
    expect(r.extended).toEqual([false, true, false]);
    const caught = catchUpStreak(r.state, { ...both, evaluationMode: "any" }, [], at("2026-03-04T00:00:30Z"));
    expect(caught.state.length).toBe(2);
  });

  it("a day off still counts for nothing, and a period cut short by a zone move counts when the new settings are met", () => {
    // 2026-03-07 is a Saturday.
    const offSaturday = { ...three, daysOff: [6] };
    const r = play(
      ten,
      [],
      [
        ["2026-03-06T10:00:00Z", 10],
        ["2026-03-07T10:00:00Z", 5],
      ],
    );
    const caught = catchUpStreak(r.state, offSaturday, [], at("2026-03-08T00:00:30Z"));
    expect(caught.events).toEqual([]);
    expect(caught.state.length).toBe(1);
    // 5 of 10 in UTC on 03-03, then the user moves to Tokyo, where it is already 03-04.
    const moved = play(
      ten,
      [],
      [
        ["2026-03-02T10:00:00Z", 10],
        ["2026-03-03T10:00:00Z", 5],
      ],
    );
    const tokyo = zones(["UTC", "2026-01-01T00:00:00Z"], ["Asia/Tokyo", "2026-03-03T16:00:00Z"]);
    const followed = catchUpStreak(moved.state, three, tokyo, at("2026-03-03T16:00:30Z"));
    expect(types(followed.events)).toEqual(["streak.extended@2026-03-03T15:59:59.999Z"]);
    expect(describeStreak(followed.state, three, tokyo, at("2026-03-03T16:00:30Z"))).toMatchObject({ length: 2, periodStart: "2026-03-04" });
  });
});

describe("a metric made the streak metric during a period", () => {
  it("counts that metric's earlier events of the period, at the next event or at the period's end", () => {
    const onA = cfg({ metrics: [{ metricId: A, threshold: 5 }] });
    const onB = cfg({ metrics: [{ metricId: B, threshold: 5 }] });
    const r = play(
      onA,
      [],
      [
        ["2026-03-02T10:00:00Z", 5, A],
        ["2026-03-03T09:00:00Z", 3, B],
        ["2026-03-03T10:00:00Z", 3, B],
      ],
    );
    expect(r.extended).toEqual([true, false, false]);
    // The tenant switches to B (threshold 5): the 6 of B already done on 03-03 count.
    expect(types(catchUpStreak(r.state, onB, [], at("2026-03-04T00:00:30Z")).events)).toEqual(["streak.extended@2026-03-03T23:59:59.999Z"]);
    const next = applyStreakEvent(r.state, onB, { metricId: A, value: 1, at: at("2026-03-03T12:00:00Z") }, []);
    expect(next).toMatchObject({ extended: true, streak: { length: 2 } });
    // Events of the old metric in the period count no more once it is not a streak metric.
    const onlyA = play(
      onA,
      [],
      [
        ["2026-03-02T10:00:00Z", 5, A],
        ["2026-03-03T09:00:00Z", 4, A],
      ],
    );
    expect(types(catchUpStreak(onlyA.state, onB, [], at("2026-03-04T00:00:30Z")).events)).toEqual(["streak.lost@2026-03-04T00:00:00.000Z"]);
  });
});
