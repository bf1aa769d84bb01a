import { describe, expect, it } from "vitest";
import { recordDailyChange, type DailyChanges } from "../../../engine/domain/history.js";
import type { TimeZoneChange } from "../../../engine/domain/user.js";
import type { StreakSettings } from "./streak-config.js";
import { localDateIn, zoneAt } from "./streak-calendar.js";
import {
  applyStreakEvent,
  catchUpStreak,
  createStreakState,
  describeStreak,
  MAX_CARRIED_HOLDS,
  rememberEndedPauses,
  streakHistory,
  type StreakState,
} from "./streak.js";
import { followStreakFrequency, userStreak } from "./streak-frequency.js";

const A = "0b6a3c1e-5f2d-4c8a-9e7b-00000000000a";
const B = "0b6a3c1e-5f2d-4c8a-9e7b-00000000000b";
const CREATED = new Date("2024-01-01T00:00:00Z");

const cfg = (over: Partial<StreakSettings> = {}): StreakSettings => ({
  frequency: "daily",
  metrics: [{ metricId: A, threshold: 1 }],
  evaluationMode: "all",
  freezes: null,
  ...over,
});
const at = (iso: string) => new Date(iso);
type Ev = [iso: string, value?: number, metricId?: string];

/**
 * A user as the engine keeps them: the streak after each event under `settings`, and each metric's
 * change per local day (recorded as engine/domain/event.ts does, in the zone in force).
 */
function live(settings: StreakSettings, evs: Ev[], tzHistory: TimeZoneChange[] = []) {
  let state = createStreakState(settings, CREATED);
  const metrics: Record<string, { daily: DailyChanges }> = {};
  for (const [iso, value = 1, metricId = A] of evs) {
    state = applyStreakEvent(state, settings, { metricId, value, at: at(iso) }, tzHistory).state;
    const day = localDateIn(at(iso), zoneAt(tzHistory, at(iso)));
    metrics[metricId] = { daily: recordDailyChange(metrics[metricId]?.daily ?? {}, day, String(value)) };
  }
  return { state, metrics, tzHistory };
}
/** The same user, caught up to `iso` under the settings they were lived with. */
function asOf(user: ReturnType<typeof live>, settings: StreakSettings, iso: string) {
  return { ...user, state: catchUpStreak(user.state, settings, user.tzHistory, at(iso)).state };
}
/** The switch as of the user's last update (`now`: a later moment, when it is first needed). */
const follow = (
  user: { state: StreakState; metrics: Record<string, { daily: DailyChanges }>; tzHistory: TimeZoneChange[] },
  settings: StreakSettings,
  now?: string,
) => followStreakFrequency(user.state, settings, user.tzHistory, user.metrics, now ? at(now) : user.state.asOf);
const hist = (s: StreakState, n = 200) =>
  streakHistory(s, n).map((p) => `${p.periodStart}..${p.periodEnd}:${p.length}${p.usedFreeze ? "F" : ""}${p.usedPause ? "P" : ""}`);
/** Noon UTC on each date from `from` for `days` days. */
const everyDay = (from: string, days: number, value = 1): Ev[] =>
  Array.from({ length: days }, (_, i) => [new Date(Date.parse(`${from}T12:00:00Z`) + i * 86_400_000).toISOString(), value]);

const daily = cfg();
const weekly = cfg({ frequency: "weekly" });
const monthly = cfg({ frequency: "monthly" });

describe("a frequency switch computes the streak again from the user's days", () => {
  it("daily to weekly: 17 days from a Monday are three weeks, the third one met", () => {
    const user = live(daily, everyDay("2026-03-02", 17)); // Monday 2 March to Wednesday 18 March
    expect(user.state.length).toBe(17);
    const s = follow(user, weekly);
    expect(s).toMatchObject({ frequency: "weekly", length: 3, started: "2026-03-02", historySeries: 1 });
    expect(s.period).toMatchObject({ start: "2026-03-16", met: true, sums: { [A]: "3" } });
    expect(hist(s)).toEqual(["2026-03-02..2026-03-08:1", "2026-03-09..2026-03-15:2", "2026-03-16..2026-03-22:3"]);
    expect(describeStreak(s, weekly, [], at("2026-03-18T13:00:00Z"))).toMatchObject({
      length: 3,
      frequency: "weekly",
      periodStart: "2026-03-16",
      periodEnd: "2026-03-22",
      expires: "2026-03-29",
    });
    // Weekly, the third week was met on its Monday: the replay knows the day, not the hour.
    expect(s.lastExtendedAt?.toISOString()).toBe("2026-03-16T00:00:00.000Z");
  });

  it("weekly to daily: a user active on Mondays only has a streak of 1 on a Monday, and the week before is a loss", () => {
    const user = asOf(live(weekly, [["2026-03-02T09:00:00Z"], ["2026-03-09T09:00:00Z"], ["2026-03-16T09:00:00Z"]]), weekly, "2026-03-16T10:00:00Z");
    expect(user.state.length).toBe(3);
    const s = follow(user, daily);
    expect(s).toMatchObject({
      frequency: "daily",
      length: 1,
      started: "2026-03-16",
      lastLost: { length: 1, started: "2026-03-09", periodStart: "2026-03-10" },
    });
    // Days are replayed from their start: the extension is known to the day.
    expect(s.lastExtendedAt?.toISOString()).toBe("2026-03-16T09:00:00.000Z");
    expect(hist(s).slice(0, 3)).toEqual(["2026-03-02..2026-03-02:1", "2026-03-03..2026-03-03:0", "2026-03-04..2026-03-04:0"]);
    expect(hist(s)).toHaveLength(15);
  });

  it("weekly to daily, the stored extension on another day than the replay's: the start of the replayed day", () => {
    const user = asOf(live(weekly, [["2026-03-16T09:00:00Z"], ["2026-03-17T22:00:00Z"]]), weekly, "2026-03-17T23:00:00Z");
    expect(user.state.lastExtendedAt?.toISOString()).toBe("2026-03-16T09:00:00.000Z"); // the week was met on Monday
    const s = follow(user, daily);
    expect(s).toMatchObject({ length: 2, started: "2026-03-16" });
    expect(s.lastExtendedAt?.toISOString()).toBe("2026-03-17T00:00:00.000Z");
  });

  it("a day whose sum is below the threshold is not met (the order of its events is not kept)", () => {
    const user = asOf(live(weekly, [["2026-03-16T09:00:00Z"], ["2026-03-17T09:00:00Z", 1], ["2026-03-17T22:00:00Z", -1]]), weekly, "2026-03-17T23:00:00Z");
    expect(follow(user, daily)).toMatchObject({ length: 1, started: "2026-03-16", period: { start: "2026-03-17", met: false, sums: {} } });
  });

  it("a week's sum meets a weekly threshold that no single day meets; `started` is the day the sum got there", () => {
    const ten = cfg({ metrics: [{ metricId: A, threshold: 10 }] });
    const user = live(ten, [
      ["2026-03-02T12:00:00Z", 4],
      ["2026-03-03T12:00:00Z", 4],
      ["2026-03-04T12:00:00Z", 4],
    ]);
    expect(user.state.length).toBe(0);
    const s = follow(user, { ...ten, frequency: "weekly" });
    expect(s).toMatchObject({ length: 1, started: "2026-03-04", period: { start: "2026-03-02", met: true, sums: { [A]: "12" } } });
    expect(follow({ ...user, state: s }, ten)).toMatchObject({ length: 0, started: null, historySeries: 2 });
  });

  it("two metrics: `all` needs both within the period, `any` one", () => {
    const both = (mode: "all" | "any") =>
      cfg({
        evaluationMode: mode,
        metrics: [
          { metricId: A, threshold: 1 },
          { metricId: B, threshold: 1 },
        ],
      });
    // A on Monday, B on Tuesday: no day has both, the week has both.
    const user = live(both("any"), [
      ["2026-03-02T12:00:00Z", 1, A],
      ["2026-03-03T12:00:00Z", 1, B],
    ]);
    expect(follow(user, { ...both("all"), frequency: "weekly" })).toMatchObject({ length: 1, started: "2026-03-03" });
    expect(follow(user, { ...both("any"), frequency: "weekly" })).toMatchObject({ length: 1, started: "2026-03-02" });
    const weeklyAll = live({ ...both("all"), frequency: "weekly" }, [
      ["2026-03-02T12:00:00Z", 1, A],
      ["2026-03-03T12:00:00Z", 1, B],
    ]);
    expect(follow(weeklyAll, both("all"))).toMatchObject({ length: 0, period: { start: "2026-03-03", met: false } });
    expect(follow(weeklyAll, both("any"))).toMatchObject({ length: 2, started: "2026-03-02" });
  });

  it("there and back: daily to monthly to daily gives the daily streak back", () => {
    const user = live(daily, everyDay("2026-01-20", 40)); // 20 January to 28 February
    const m = follow(user, monthly);
    expect(m).toMatchObject({ length: 2, started: "2026-01-20", period: { start: "2026-02-01", met: true } });
    const back = follow({ ...user, state: m }, daily);
    expect(back).toMatchObject({ frequency: "daily", length: 40, started: "2026-01-20", historySeries: 2 });
    expect(back.period).toEqual(user.state.period);
    expect(hist(back)).toEqual(hist(user.state));
  });

  it("months across the year's end and a leap February", () => {
    const user = live(daily, [["2027-12-31T12:00:00Z"], ["2028-01-15T12:00:00Z"], ["2028-02-29T12:00:00Z"]]);
    const s = follow(asOf(user, daily, "2028-02-29T13:00:00Z"), monthly);
    expect(s).toMatchObject({ length: 3, started: "2027-12-31", period: { start: "2028-02-01" } });
    expect(describeStreak(s, monthly, [], at("2028-02-29T13:00:00Z"))).toMatchObject({ periodEnd: "2028-02-29", expires: "2028-03-31" });
  });

  it("a missed period ends the run; no freeze is consumed for the past, and the freezes held are kept", () => {
    const withFreezes = cfg({ frequency: "weekly", freezes: { initialGrant: 2, maxFreezes: 3, autoEarn: null } });
    // Weeks of 2 and 16 March met, the week of 9 March missed.
    const user = asOf(live(withFreezes, [["2026-03-03T12:00:00Z"], ["2026-03-17T12:00:00Z"]]), withFreezes, "2026-03-17T13:00:00Z");
    expect(user.state).toMatchObject({ length: 2, freezes: 1 }); // a freeze held the missed week
    const s = follow(user, { ...withFreezes, frequency: "daily" });
    expect(s).toMatchObject({ length: 1, started: "2026-03-17", freezes: 1, lastLost: { length: 1, periodStart: "2026-03-04" } });
    // From then on freezes work as always: the next missed day takes one.
    const later = catchUpStreak(s, { ...withFreezes, frequency: "daily" }, [], at("2026-03-19T00:00:01Z"));
    expect(later.state).toMatchObject({ length: 1, freezes: 0 });
    expect(later.events.map((e) => e.type)).toEqual(["streak.freeze_consumed"]);
  });

  it("a pause the user holds holds the periods it covers; days off hold a daily streak", () => {
    const user = live(monthly, [...everyDay("2026-03-02", 4), ...everyDay("2026-03-07", 2)]); // 2-5 and 7-8 March: 6 March missed
    const paused = { ...user, state: { ...user.state, pauses: [{ id: "p1", start: "2026-03-06", end: "2026-03-06" }] } };
    expect(follow(user, daily)).toMatchObject({ length: 2, started: "2026-03-07" });
    const s = follow(paused, daily);
    // The pause held 6 March, and is past on the new current day (8 March): no longer kept.
    expect(s).toMatchObject({ length: 6, started: "2026-03-02", pauses: [] });
    expect(hist(s).slice(3, 5)).toEqual(["2026-03-05..2026-03-05:4", "2026-03-06..2026-03-06:4P"]);
    // 6 March is a Friday: with Fridays off the run is whole without the pause.
    expect(follow(user, cfg({ daysOff: [5] }))).toMatchObject({ length: 6, started: "2026-03-02" });
  });

  it("local days in the user's zone: an Auckland Monday that is a Sunday in UTC", () => {
    const auckland: TimeZoneChange[] = [{ tz: "Pacific/Auckland", from: at("2026-01-01T00:00:00Z") }];
    // 09:00 in Auckland on Sunday 1 March, Monday 2 March, Tuesday 3 March (20:00 UTC the day before).
    const user = live(daily, [["2026-02-28T20:00:00Z"], ["2026-03-01T20:00:00Z"], ["2026-03-02T20:00:00Z"]], auckland);
    const s = follow(user, weekly);
    expect(s).toMatchObject({ length: 2, started: "2026-03-01", period: { start: "2026-03-02", zone: "Pacific/Auckland" } });
    expect(describeStreak(s, weekly, auckland, at("2026-03-02T21:00:00Z"))).toMatchObject({ length: 2, periodStart: "2026-03-02", periodEnd: "2026-03-08" });
  });

  it("only the kept days are known: 800 days of a daily streak make the 107 weeks of the 740 days kept", () => {
    const user = live(daily, everyDay("2024-01-01", 800)); // to 10 March 2026
    expect(user.state.length).toBe(800);
    expect(Object.keys(user.metrics[A]!.daily)).toHaveLength(740); // from 1 March 2024, the month of the day 730 days back;
    const s = follow(user, weekly);
    expect(s).toMatchObject({ length: 107, started: "2024-03-01", period: { start: "2026-03-09" } });
    expect(s.history).toHaveLength(100);
    // The longest length is in weeks too (the longest ranking compares users by it).
    expect(s.longest).toBe(107);
  });

  it("without recorded days the streak restarts: the next event anchors the new periods", () => {
    const user = live(daily, [["2026-03-02T10:00:00Z"]]);
    const s = follow({ ...user, metrics: {} }, weekly);
    expect(s).toMatchObject({ frequency: "weekly", length: 0, period: null, history: [] });
    const next = applyStreakEvent(s, weekly, { metricId: A, value: 1, at: at("2026-03-04T10:00:00Z") }, []);
    expect(next.streak).toMatchObject({ length: 1, periodStart: "2026-03-02" });
  });

  it("the same frequency changes nothing (the same object); a user without a streak gets a new one", () => {
    const user = live(daily, everyDay("2026-03-02", 3));
    expect(follow(user, daily)).toBe(user.state);
    expect(userStreak({ streak: user.state, created: CREATED, tzHistory: [], metrics: user.metrics }, daily, at("2026-03-05T00:00:00Z"))).toBe(user.state);
    expect(userStreak({ streak: null, created: CREATED, tzHistory: [], metrics: user.metrics }, weekly, at("2026-03-05T00:00:00Z"))).toEqual(
      createStreakState(weekly, CREATED, at("2026-03-05T00:00:00Z")),
    );
  });

  it("is deterministic, and catching up after it judges the new periods as any streak", () => {
    const user = live(daily, everyDay("2026-03-02", 10)); // to Wednesday 11 March
    expect(follow(user, weekly)).toEqual(follow(user, weekly));
    const s = follow(user, weekly);
    // The week of 16 March passes without an event: lost when it ends, at the start of 23 March.
    const caught = catchUpStreak(s, weekly, [], at("2026-03-23T00:00:01Z"));
    expect(caught.state).toMatchObject({ length: 0, lastLost: { length: 2, started: "2026-03-02", periodStart: "2026-03-16" } });
    expect(caught.events.map((e) => `${e.type}@${e.at.toISOString()}`)).toEqual(["streak.lost@2026-03-23T00:00:00.000Z"]);
  });
  it("periods that ended between the user's last update and the switch are judged by the replay: no freeze used, no event", () => {
    const freezes = { initialGrant: 2, maxFreezes: 3, autoEarn: null };
    const weeklyFreezes = cfg({ frequency: "weekly", freezes });
    const dailyFreezes = cfg({ freezes });
    // Monday 2 to Wednesday 4 March; the weekly streak is next due when the week ends, so it was last updated on Wednesday.
    const user = live(weeklyFreezes, everyDay("2026-03-02", 3));
    expect(user.state).toMatchObject({ length: 1, freezes: 2, asOf: at("2026-03-04T12:00:00Z") });
    // Switched to daily on Saturday: Thursday and Friday were missed before it.
    const s = follow(user, dailyFreezes, "2026-03-07T12:00:00Z");
    expect(s).toMatchObject({ length: 0, freezes: 2, asOf: at("2026-03-07T12:00:00Z"), lastLost: { length: 3, periodStart: "2026-03-05" } });
    expect(catchUpStreak(s, dailyFreezes, [], at("2026-03-07T12:00:00Z")).events).toEqual([]);
  });

  it("periods the old streak held by a pause that is over, or by a freeze it used, stay held", () => {
    // Daily: 2-8 March, a pause over 9-15 March (past by now, so no longer among the user's pauses), 16-18 March.
    let user = live(daily, everyDay("2026-03-02", 7));
    const paused = { ...user.state, pauses: [{ id: "p1", start: "2026-03-09", end: "2026-03-15" }] };
    const rest = live(daily, everyDay("2026-03-16", 3));
    let state = paused;
    for (const [iso] of everyDay("2026-03-16", 3)) state = applyStreakEvent(state, daily, { metricId: A, value: 1, at: at(iso) }, []).state;
    user = { ...user, state, metrics: { [A]: { daily: { ...user.metrics[A]!.daily, ...rest.metrics[A]!.daily } } } };
    expect([user.state.length, user.state.pauses]).toEqual([10, []]);
    // Weeks of 2 and 16 March met, the week of 9 March held (adding no length).
    expect(follow(user, weekly)).toMatchObject({ length: 2, started: "2026-03-02" });
    // Weekly with a freeze used for the week of 9 March: daily, that week's days are held.
    const withFreezes = cfg({ frequency: "weekly", freezes: { initialGrant: 1, maxFreezes: 1, autoEarn: null } });
    const frozen = asOf(live(withFreezes, [["2026-03-06T12:00:00Z"], ["2026-03-16T12:00:00Z"]]), withFreezes, "2026-03-16T13:00:00Z");
    expect(frozen.state).toMatchObject({ length: 2, freezes: 0 });
    // Friday 6 March, then Saturday 7 and Sunday 8 missed: the daily run ends there; the held week carries nothing over it.
    expect(follow(frozen, daily)).toMatchObject({ length: 1, started: "2026-03-16" });
    const weekend = asOf(live(withFreezes, [...everyDay("2026-03-06", 3), ["2026-03-16T12:00:00Z"]]), withFreezes, "2026-03-16T13:00:00Z");
    expect(follow(weekend, daily)).toMatchObject({ length: 4, started: "2026-03-06" });
  });

  it("switching back and forth holds no more than was held: a day held by a freeze holds its week, and back in daily that day only", () => {
    const freezes = { initialGrant: 1, maxFreezes: 2, autoEarn: null };
    const dailyFreezes = cfg({ freezes });
    const weeklyFreezes = cfg({ frequency: "weekly", freezes });
    // Monday 1 to Sunday 7 November; Monday 8 missed (a freeze held it); 9-14 missed (lost); 15-18.
    const events = [...everyDay("2027-11-01", 7), ...everyDay("2027-11-15", 4)];
    const user = asOf(live(dailyFreezes, events), dailyFreezes, "2027-11-18T13:00:00Z");
    expect(user.state).toMatchObject({ length: 4, started: "2027-11-15", freezes: 0 });
    expect(hist(user.state).slice(7, 9)).toEqual(["2027-11-08..2027-11-08:7F", "2027-11-09..2027-11-09:0"]);

    const asWeekly = follow(user, weeklyFreezes, "2027-11-18T14:00:00Z");
    expect(asWeekly).toMatchObject({ length: 2, started: "2027-11-01" }); // the freeze used holds its week
    expect(hist(asWeekly)).toEqual(["2027-11-01..2027-11-07:1", "2027-11-08..2027-11-14:1F", "2027-11-15..2027-11-21:2"]);

    const back = follow({ ...user, state: asWeekly }, dailyFreezes, "2027-11-18T15:00:00Z");
    expect(back).toMatchObject({ length: 4, started: "2027-11-15" }); // as before the switches, not 11
    expect(hist(back).slice(7, 9)).toEqual(["2027-11-08..2027-11-08:7F", "2027-11-09..2027-11-09:0"]);
    // And again: nothing widens on a second round trip.
    const again = follow({ ...user, state: follow({ ...user, state: back }, weeklyFreezes, "2027-11-18T16:00:00Z") }, dailyFreezes, "2027-11-18T17:00:00Z");
    expect(again).toMatchObject({ length: 4, started: "2027-11-15" });
  });

  it("a carried hold reaching into the new current period holds it live too: a round trip judges it as live did", () => {
    const freezes = { initialGrant: 1, maxFreezes: 1, autoEarn: null };
    const weeklyFreezes = cfg({ frequency: "weekly", freezes });
    const monthlyFreezes = cfg({ frequency: "monthly", freezes });
    // Weeks of 2, 9, 16 and 23 March met; the week of 30 March to 5 April held by the freeze.
    const weeks = [["2026-03-03T12:00:00Z"], ["2026-03-10T12:00:00Z"], ["2026-03-17T12:00:00Z"], ["2026-03-24T12:00:00Z"]] as Ev[];
    const user = asOf(live(weeklyFreezes, weeks), weeklyFreezes, "2026-04-07T09:00:00Z");
    expect(user.state).toMatchObject({ length: 4, freezes: 0 });
    const asMonthly = follow(user, monthlyFreezes, "2026-04-07T09:00:00Z");
    expect(asMonthly.carried).toEqual({ holds: [{ start: "2026-03-30", end: "2026-04-05", by: "freeze" }], judgedFrom: "2026-04-01" });
    // April is missed: the freeze spent on 30 March to 5 April holds it, as it would in a replay.
    const april = catchUpStreak(asMonthly, monthlyFreezes, [], at("2026-05-02T09:00:00Z"));
    expect(april.state).toMatchObject({ length: 1, freezes: 0 });
    expect(hist(april.state).at(-2)).toBe("2026-04-01..2026-04-30:1F");
    expect(april.events.map((e) => e.type)).toEqual([]); // nothing consumed, nothing lost
    const roundTrip = follow(
      { ...user, state: follow({ ...user, state: april.state }, weeklyFreezes, "2026-05-02T09:00:00Z") },
      monthlyFreezes,
      "2026-05-02T09:00:00Z",
    );
    expect(roundTrip.length).toBe(1);
  });

  it("a day a freeze held before a switch stays held through a round trip within its week", () => {
    const freezes = { initialGrant: 1, maxFreezes: 1, autoEarn: null };
    const dailyFreezes = cfg({ freezes });
    const weeklyFreezes = cfg({ frequency: "weekly", freezes });
    // Wednesday 12 to Monday 17 August; Tuesday 18 missed, the freeze spent on it.
    const user = asOf(live(dailyFreezes, everyDay("2026-08-12", 6)), dailyFreezes, "2026-08-19T09:00:00Z");
    expect(user.state).toMatchObject({ length: 6, freezes: 0 });
    const asWeekly = follow(user, weeklyFreezes, "2026-08-19T09:00:00Z");
    expect(follow({ ...user, state: asWeekly }, dailyFreezes, "2026-08-19T09:00:00Z")).toMatchObject({ length: 6, started: "2026-08-12" });
  });

  it("a pause is carried as its own days: a week a 2-day pause held is not seven days held back in daily", () => {
    // Daily: 10 to 16 August; Monday 17 missed: lost. A pause on Wednesday 19 and Thursday 20.
    const start = live(daily, everyDay("2026-08-10", 7));
    const user = asOf({ ...start, state: { ...start.state, pauses: [{ id: "p", start: "2026-08-19", end: "2026-08-20" }] } }, daily, "2026-08-18T09:00:00Z");
    expect(user.state.length).toBe(0);
    const asWeekly = follow(user, weekly, "2026-08-18T09:00:00Z");
    const heldWeek = catchUpStreak(asWeekly, weekly, [], at("2026-08-24T09:00:00Z")).state; // the pause holds the week of 17 August
    expect(hist(heldWeek)).toContain("2026-08-17..2026-08-23:1P");
    expect(heldWeek.carried?.holds).toContainEqual({ start: "2026-08-19", end: "2026-08-20", by: "pause", pauseId: "p" }); // ended: its days kept
    expect(follow({ ...user, state: heldWeek }, daily, "2026-08-24T09:00:00Z")).toMatchObject({ length: 0 });
  });

  it("keeps at most MAX_CARRIED_HOLDS ended pauses, the latest", () => {
    const dayAfterNewYear = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
    const pauses = Array.from({ length: MAX_CARRIED_HOLDS + 5 }, (_, i) => ({ id: `p${i}`, start: dayAfterNewYear(i), end: dayAfterNewYear(i) }));
    const kept = rememberEndedPauses(undefined, pauses, "2026-12-31");
    expect(kept.holds).toHaveLength(MAX_CARRIED_HOLDS);
    expect(kept.holds[0]!.pauseId).toBe("p5");
  });

  it("a pause that ended is carried through an intermediate switch: the path does not decide", () => {
    // Monthly: 1 to 5 and 9 to 15 July, a pause over 6 to 8 July.
    const start = live(monthly, [...everyDay("2026-07-01", 5), ...everyDay("2026-07-09", 7)]);
    const user = asOf({ ...start, state: { ...start.state, pauses: [{ id: "p", start: "2026-07-06", end: "2026-07-08" }] } }, monthly, "2026-07-15T13:00:00Z");
    const now = "2026-07-15T13:00:00Z";
    expect(follow(user, daily, now)).toMatchObject({ length: 12, started: "2026-07-01" });
    expect(follow({ ...user, state: follow(user, weekly, now) }, daily, now)).toMatchObject({ length: 12, started: "2026-07-01" });
    const viaMonthly = follow({ ...user, state: follow({ ...user, state: follow(user, daily, now) }, monthly, now) }, daily, now);
    expect(viaMonthly).toMatchObject({ length: 12, started: "2026-07-01" });
  });

  it("of several streak metrics, a replayed day's decreases count before its increases, whatever the metrics' order", () => {
    const both = (order: string[], frequency: "daily" | "weekly") =>
      cfg({ frequency, evaluationMode: "all", metrics: order.map((metricId) => ({ metricId, threshold: 1 })) });
    // Monday: B +1. Tuesday: B -1, then A +1: at no day's end were both totals at least 1.
    const events: Ev[] = [
      ["2026-03-02T12:00:00Z", 1, B],
      ["2026-03-03T10:00:00Z", -1, B],
      ["2026-03-03T12:00:00Z", 1, A],
    ];
    const user = asOf(live(both([A, B], "daily"), events), both([A, B], "daily"), "2026-03-04T09:00:00Z");
    expect(asOf(live(both([A, B], "weekly"), events), both([A, B], "weekly"), "2026-03-04T09:00:00Z").state.length).toBe(0); // always weekly
    expect(follow(user, both([A, B], "weekly")).length).toBe(0);
    expect(follow(user, both([B, A], "weekly")).length).toBe(0);
  });

  it("a day recorded in a zone whose date was ahead of today's counts as of now, never later", () => {
    const tz: TimeZoneChange[] = [
      { tz: "Asia/Tokyo", from: at("2026-01-01T00:00:00Z") },
      { tz: "America/Los_Angeles", from: at("2026-03-03T00:45:00Z") },
    ];
    // Tuesday 3 March 09:30 in Tokyo, then Monday 2 March 17:00 in Los Angeles.
    const user = live(weekly, [["2026-03-03T00:30:00Z"], ["2026-03-03T01:00:00Z"]], tz);
    const now = at("2026-03-03T01:05:00Z");
    const s = follow(user, daily, now.toISOString());
    expect(s).toMatchObject({ length: 1, asOf: now, period: { start: "2026-03-02", zone: "America/Los_Angeles", met: true, sums: { [A]: "2" } } });
    expect(s.lastExtendedAt!.getTime()).toBeLessThanOrEqual(now.getTime());
  });
});
