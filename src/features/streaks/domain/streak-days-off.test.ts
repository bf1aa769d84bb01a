import { describe, expect, it } from "vitest";
import { effectiveStreakSettings, emptyPreferences } from "../../users/domain/preferences.js";
import type { StreakSettings } from "./streak-config.js";
import {
  applyStreakEvent,
  catchUpStreak,
  createStreakState,
  describeStreak,
  isDayOff,
  resetStreak,
  streakHistory,
  type StreakDomainEvent,
  type StreakState,
} from "./streak.js";
import type { TimeZoneChange } from "../../../engine/domain/user.js";

// 2026-03-01 is a Sunday: 03-06 Friday, 03-07 Saturday, 03-08 Sunday (US DST begins), 03-09 Monday.
const A = "0b6a3c1e-5f2d-4c8a-9e7b-00000000000a";
const CREATED = new Date("2026-01-01T00:00:00Z");
const at = (iso: string) => new Date(iso);
const weekendOff = (over: Partial<StreakSettings> = {}): StreakSettings => ({
  frequency: "daily",
  metrics: [{ metricId: A, threshold: 1 }],
  evaluationMode: "all",
  freezes: { initialGrant: 2, maxFreezes: 2, autoEarn: null },
  daysOff: [0, 6],
  ...over,
});
const zones = (...entries: Array<[string, string]>): TimeZoneChange[] => entries.map(([tz, from]) => ({ tz, from: new Date(from) }));

/** Events at the given instants (value 1 of metric A), in order. */
function play(settings: StreakSettings, tz: TimeZoneChange[], instants: string[], state: StreakState = createStreakState(settings, CREATED)) {
  const events: StreakDomainEvent[] = [];
  for (const iso of instants) {
    const r = applyStreakEvent(state, settings, { metricId: A, value: 1, at: at(iso) }, tz);
    state = r.state;
    events.push(...r.events);
  }
  return { state, events };
}
const types = (events: StreakDomainEvent[]) => events.map((e) => `${e.type}@${e.at.toISOString()}`);

describe("days off (daily streaks, the user's weekday)", () => {
  it("weekdays are JavaScript's getDay() of the local date, for daily streaks only", () => {
    expect(["2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09"].map((d) => isDayOff(d, "daily", weekendOff()))).toEqual([false, true, true, false]);
    expect(isDayOff("2026-03-07", "weekly", weekendOff())).toBe(false);
    expect(isDayOff("2026-03-07", "daily", weekendOff({ daysOff: [] }))).toBe(false);
    expect(isDayOff("2026-03-07", "daily", weekendOff({ daysOff: undefined }))).toBe(false);
  });

  it("a missed weekend holds the streak without using a freeze; it expires on Monday", () => {
    const settings = weekendOff();
    const { state } = play(settings, [], ["2026-03-05T12:00:00Z", "2026-03-06T12:00:00Z"]);
    expect(describeStreak(state, settings, [], at("2026-03-06T13:00:00Z"))).toMatchObject({ length: 2, expires: "2026-03-09", freezes: 2 });
    const monday = catchUpStreak(state, settings, [], at("2026-03-09T12:00:00Z"));
    expect(monday.events).toEqual([]);
    expect(monday.state.history.slice(-2).map((p) => [p.periodStart, p.length, p.usedFreeze, p.usedPause])).toEqual([
      ["2026-03-07", 2, false, false],
      ["2026-03-08", 2, false, false],
    ]);
    expect(describeStreak(monday.state, settings, [], at("2026-03-09T12:00:00Z"))).toMatchObject({
      length: 2,
      periodStart: "2026-03-09",
      expires: "2026-03-09",
      freezes: 2,
    });
    // Monday met: 3. Tuesday missed: a freeze holds it (Tuesday is not a day off).
    const tuesday = play(settings, [], ["2026-03-09T12:00:00Z"], monday.state);
    const wednesday = catchUpStreak(tuesday.state, settings, [], at("2026-03-11T00:00:00Z"));
    expect(types(wednesday.events)).toEqual(["streak.freeze_consumed@2026-03-11T00:00:00.000Z"]);
    expect(describeStreak(wednesday.state, settings, [], at("2026-03-11T00:00:00Z"))).toMatchObject({ length: 3, freezes: 1 });
  });

  it("meeting the condition on a day off neither extends nor starts a streak", () => {
    const settings = weekendOff();
    const { state, events } = play(settings, [], ["2026-03-06T12:00:00Z", "2026-03-07T12:00:00Z"]);
    expect(types(events)).toEqual(["streak.started@2026-03-06T12:00:00.000Z"]);
    // Saturday's activity counted for nothing: Monday is still the next day that must be met.
    expect(describeStreak(state, settings, [], at("2026-03-07T13:00:00Z"))).toMatchObject({ length: 1, expires: "2026-03-09" });
    const saturdayOnly = play(settings, [], ["2026-03-07T12:00:00Z"]);
    expect([saturdayOnly.events, saturdayOnly.state.length]).toEqual([[], 0]);
  });

  it("without freezes a missed working day loses the streak at its end, days off or not before it", () => {
    const settings = weekendOff({ freezes: null });
    const { state } = play(settings, [], ["2026-03-06T12:00:00Z"]);
    expect(catchUpStreak(state, settings, [], at("2026-03-09T23:59:59Z")).events).toEqual([]);
    expect(types(catchUpStreak(state, settings, [], at("2026-03-10T00:00:00Z")).events)).toEqual(["streak.lost@2026-03-10T00:00:00.000Z"]);
  });

  it("a week of days off: a streak held never expires nor breaks, and events never extend it", () => {
    const working = weekendOff({ freezes: null });
    const { state } = play(working, [], ["2026-03-02T12:00:00Z"]); // Monday, a working day then
    const settings = weekendOff({ daysOff: [0, 1, 2, 3, 4, 5, 6], freezes: null });
    expect(describeStreak(state, settings, [], at("2026-03-02T13:00:00Z"))).toMatchObject({ length: 1, expires: null });
    const later = catchUpStreak(state, settings, [], at("2026-03-20T12:00:00Z"));
    expect(later.events).toEqual([]);
    expect(describeStreak(later.state, settings, [], at("2026-03-20T12:00:00Z"))).toMatchObject({
      length: 1,
      started: "2026-03-02",
      periodStart: "2026-03-20",
    });
    expect(play(settings, [], ["2026-03-20T12:00:00Z"], later.state).state.length).toBe(1);
  });

  it("a DST change on a day off (New York, Sunday 2026-03-08 has 23 hours): held, then judged at the local midnights", () => {
    const settings = weekendOff({ daysOff: [0], freezes: null });
    const tz = zones(["America/New_York", "2026-01-01T00:00:00Z"]);
    // Saturday 23:30 EST.
    const { state } = play(settings, tz, ["2026-03-08T04:30:00Z"]);
    expect(describeStreak(state, settings, tz, at("2026-03-08T04:31:00Z"))).toMatchObject({ length: 1, periodStart: "2026-03-07", expires: "2026-03-09" });
    // Monday 00:30 EDT: Sunday (a day off) is over and held.
    const monday = catchUpStreak(state, settings, tz, at("2026-03-09T04:30:00Z"));
    expect(monday.events).toEqual([]);
    expect(describeStreak(monday.state, settings, tz, at("2026-03-09T04:30:00Z"))).toMatchObject({
      length: 1,
      periodStart: "2026-03-09",
      expires: "2026-03-09",
    });
    // Monday missed: lost at Tuesday 00:00 EDT (04:00Z), not at a UTC midnight.
    expect(catchUpStreak(monday.state, settings, tz, at("2026-03-10T03:59:59Z")).events).toEqual([]);
    expect(types(catchUpStreak(monday.state, settings, tz, at("2026-03-10T04:00:00Z")).events)).toEqual(["streak.lost@2026-03-10T04:00:00.000Z"]);
  });

  it("is the weekday of the user's own zone: Monday off in Auckland is not the UTC Monday", () => {
    const settings = weekendOff({ daysOff: [1], freezes: null });
    const tz = zones(["Pacific/Auckland", "2026-01-01T00:00:00Z"]);
    // Sunday 03-08 10:00 NZDT.
    const { state } = play(settings, tz, ["2026-03-07T21:00:00Z"]);
    // Tuesday 01:00 NZDT (still Monday in UTC): Monday held; Tuesday must be met.
    expect(describeStreak(state, settings, tz, at("2026-03-09T12:00:00Z"))).toMatchObject({ length: 1, periodStart: "2026-03-10", expires: "2026-03-10" });
    // Tuesday missed: lost at Wednesday 00:00 NZDT (03-10T11:00Z).
    expect(types(catchUpStreak(state, settings, tz, at("2026-03-10T11:00:00Z")).events)).toEqual(["streak.lost@2026-03-10T11:00:00.000Z"]);
  });

  it("follows a zone move: Saturday off is judged in the new zone (London -> New York)", () => {
    const settings = weekendOff({ daysOff: [6], freezes: null });
    const tz = zones(["Europe/London", "2026-01-01T00:00:00Z"], ["America/New_York", "2026-03-06T22:00:00Z"]);
    // Friday 12:00 in London, then the move on Friday evening (17:00 in New York, the same period).
    const { state } = play(settings, tz, ["2026-03-06T12:00:00Z"]);
    // 03-09 03:59:59 UTC is Sunday 23:59:59 EDT: the New York Sunday is not over (the London one
    // is, and would have lost the streak), so nothing is lost yet.
    expect(catchUpStreak(state, settings, tz, at("2026-03-09T03:59:59Z")).events).toEqual([]);
    // The New York Sunday (not a day off) ends at 00:00 EDT (04:00Z): lost.
    expect(types(catchUpStreak(state, settings, tz, at("2026-03-09T04:00:00Z")).events)).toEqual(["streak.lost@2026-03-09T04:00:00.000Z"]);
  });
});

describe("a user's own streak preferences (customization)", () => {
  const tenant = weekendOff({ freezes: null, customizationEnabled: true });

  it("the user's days off replace the tenant's: none at all loses the streak over the weekend", () => {
    const mine = effectiveStreakSettings(tenant, { ...emptyPreferences(), streak: { daysOff: [] } })!;
    expect(mine.daysOff).toEqual([]);
    const { state } = play(mine, [], ["2026-03-06T12:00:00Z"]);
    expect(types(catchUpStreak(state, mine, [], at("2026-03-08T00:00:00Z")).events)).toEqual(["streak.lost@2026-03-08T00:00:00.000Z"]);
    // The tenant's rules would have held it.
    expect(catchUpStreak(state, tenant, [], at("2026-03-08T00:00:00Z")).events).toEqual([]);
  });

  it("the user's thresholds and evaluation mode replace the tenant's", () => {
    const B = "0b6a3c1e-5f2d-4c8a-9e7b-00000000000b";
    const two = {
      ...tenant,
      metrics: [
        { metricId: A, threshold: 1 },
        { metricId: B, threshold: 1 },
      ],
    };
    const mine = effectiveStreakSettings(two, { ...emptyPreferences(), streak: { evaluationMode: "any", metrics: [{ metricId: A, threshold: 5 }] } })!;
    expect(mine).toMatchObject({ evaluationMode: "any", metrics: [{ metricId: A, threshold: 5 }] });
    const first = applyStreakEvent(createStreakState(mine, CREATED), mine, { metricId: A, value: 4, at: at("2026-03-02T10:00:00Z") }, []);
    expect(first.extended).toBe(false);
    expect(applyStreakEvent(first.state, mine, { metricId: A, value: 1, at: at("2026-03-02T11:00:00Z") }, []).extended).toBe(true);
  });

  it("overrides apply only while the tenant enables customization; stale metrics fall back to the tenant's", () => {
    const prefs = { ...emptyPreferences(), streak: { evaluationMode: "any" as const, daysOff: [3], metrics: [{ metricId: "gone", threshold: 9 }] } };
    expect(effectiveStreakSettings({ ...tenant, customizationEnabled: false }, prefs)).toEqual({ ...tenant, customizationEnabled: false });
    expect(effectiveStreakSettings(tenant, prefs)).toEqual({ ...tenant, evaluationMode: "any", daysOff: [3] });
    // Days off only mean something for daily streaks.
    expect(effectiveStreakSettings({ ...tenant, frequency: "weekly", daysOff: [] }, prefs)!.daysOff).toEqual([]);
    expect(effectiveStreakSettings(null, prefs)).toBeNull();
    expect(effectiveStreakSettings(tenant, emptyPreferences())).toBe(tenant);
  });

  it("a user who disabled streaks is never extended and keeps no freezes", () => {
    const mine = effectiveStreakSettings(
      { ...tenant, customizationEnabled: false, freezes: { initialGrant: 1, maxFreezes: 1, autoEarn: null } },
      { ...emptyPreferences(), streak: { enabled: false } },
    )!;
    expect(mine).toMatchObject({ metrics: [], freezes: null });
    expect(play(mine, [], ["2026-03-02T10:00:00Z"]).state.length).toBe(0);
  });
});

describe("reset", () => {
  it("sets the length to zero, keeps the longest, and the same period can start a new streak", () => {
    const settings = weekendOff({ freezes: null });
    const { state } = play(settings, [], ["2026-03-02T10:00:00Z", "2026-03-03T10:00:00Z"]);
    const reset = resetStreak(state, settings, [], at("2026-03-03T12:00:00Z"));
    expect(reset.reset).toBe(true);
    expect(reset.state).toMatchObject({ length: 0, started: null, lastExtendedAt: null, lastLost: null, longest: 2 });
    expect(describeStreak(reset.state, settings, [], at("2026-03-03T12:00:00Z"))).toMatchObject({ length: 0, expires: null });
    // The period's history entry shows the reset, now and once the period is judged, and the
    // length the period had reached before it (met on the 3rd: 2).
    expect(streakHistory(reset.state, 1)).toEqual([
      {
        periodStart: "2026-03-03",
        periodEnd: "2026-03-03",
        length: 0,
        usedFreeze: false,
        usedPause: false,
        resetAt: at("2026-03-03T12:00:00Z"),
        peakBeforeReset: 2,
      },
    ]);
    expect(catchUpStreak(reset.state, settings, [], at("2026-03-04T00:00:00Z")).state.history.at(-1)).toMatchObject({ length: 0, peakBeforeReset: 2 });
    // A period not met before the reset reached nothing the history does not show already.
    const unmet = resetStreak(state, settings, [], at("2026-03-04T12:00:00Z"));
    expect(streakHistory(unmet.state, 2)).toEqual([
      { periodStart: "2026-03-03", periodEnd: "2026-03-03", length: 2, usedFreeze: false, usedPause: false },
      { periodStart: "2026-03-04", periodEnd: "2026-03-04", length: 0, usedFreeze: false, usedPause: false, resetAt: at("2026-03-04T12:00:00Z") },
    ]);
    expect(
      catchUpStreak(reset.state, settings, [], at("2026-03-05T00:00:00Z")).state.history.map((p) => [p.periodStart, p.resetAt?.toISOString() ?? null]),
    ).toEqual([
      ["2026-03-02", null],
      ["2026-03-03", "2026-03-03T12:00:00.000Z"],
      ["2026-03-04", null],
    ]);
    const again = applyStreakEvent(reset.state, settings, { metricId: A, value: 1, at: at("2026-03-03T13:00:00Z") }, []);
    expect([again.extended, again.state.length, again.state.started]).toEqual([true, 1, "2026-03-03"]);
    expect(resetStreak(createStreakState(settings, CREATED), settings, [], at("2026-03-03T12:00:00Z")).reset).toBe(false);
  });
});
