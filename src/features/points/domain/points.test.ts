import { beforeEach, describe, expect, it } from "vitest";
import { addDecimals, decimalFromNumber } from "../../../engine/domain/decimal.js";
import { summarizeChanges } from "../../../engine/domain/history.js";
import type { PointsBoostConfig, PointsLevelConfig, PointsSystemConfig, PointsTriggerConfig } from "./points-config.js";
import {
  applyPointsForEvent,
  applyTimeTriggers,
  TIME_BACKLOG_DAYS,
  boundedPointsState,
  combineBoosts,
  emptyPointsState,
  levelForTotal,
  MAX_RECENT_AWARDS,
  MAX_TOTAL,
  nextTimeTriggerDueAt,
  recentAwards,
  type PointsApplied,
  type PointsBlocked,
  type PointsConfig,
  type PointsState,
  type PointsSystemSnapshot,
  type PointsTriggerContext,
  type PointsUser,
} from "./points.js";

// ---------------------------------------------------------------------------------------------
// Fixtures

const OLD = new Date("2025-12-01T00:00:00Z"); // configuration created and activated long ago
const CREATED = new Date("2026-01-01T00:00:00Z"); // the user's creation
const AT = new Date("2026-05-01T10:00:00Z");
const HOUR = 3_600_000;
const hoursAfterCreation = (h: number) => new Date(CREATED.getTime() + h * HOUR);

let counter = 0;
const newId = () => `a${++counter}`;
beforeEach(() => {
  counter = 0;
});

const ATTRIBUTE_KEYS = { "attr-plan": "plan", "attr-source": "source" };
const USER: PointsUser = { userId: "u1", attributes: {}, created: CREATED, tz: null, tzHistory: [] };
const PRO: PointsUser = { ...USER, attributes: { plan: "pro" } };

function system(key = "xp", fields: Partial<PointsSystemConfig> = {}): PointsSystemConfig {
  return { id: `sys-${key}`, key, name: key, description: "", status: "active", badge: null, maxPoints: null, created: OLD, updated: OLD, ...fields };
}

function trigger(id: string, fields: Partial<PointsTriggerConfig> & Pick<PointsTriggerConfig, "type" | "points">): PointsTriggerConfig {
  return { id, status: "active", userAttributes: [], eventAttributes: [], blockIfOutOfPoints: false, created: OLD, updated: OLD, ...fields };
}

/** What an award keeps of a trigger (made by `trigger`) besides its type's settings. */
const firedAs = { status: "active", userAttributes: [], created: OLD, updated: OLD };

const metricTrigger = (id: string, points: number, metricThreshold: number, fields: Partial<PointsTriggerConfig> = {}) =>
  trigger(id, { type: "metric", points, metricId: "words", metricThreshold, ...fields });
const timeTrigger = (id: string, points: number, timeInterval: number, timeUnit: "hours" | "days" = "hours", fields: Partial<PointsTriggerConfig> = {}) =>
  trigger(id, { type: "time", points, timeUnit, timeInterval, ...fields });
const PRO_ONLY = [{ attributeId: "attr-plan", attributeValue: "pro" }];

function level(key: string, points: number): PointsLevelConfig {
  return { id: `lvl-${key}`, key, name: key, points, description: "", badge: null, created: OLD, updated: OLD };
}

function boost(id: string, multiplier: number, fields: Partial<PointsBoostConfig> = {}): PointsBoostConfig {
  return {
    id,
    name: id,
    start: "2026-01-01",
    end: null,
    multiplier,
    rounding: "down",
    userId: null,
    userAttributes: [],
    archived: false,
    created: OLD,
    updated: OLD,
    ...fields,
  };
}

function snapshot(triggers: PointsTriggerConfig[], fields: Partial<PointsSystemSnapshot> = {}): PointsSystemSnapshot {
  return { system: system(), triggers, levels: [], boosts: [], ...fields };
}

function config(...systems: PointsSystemSnapshot[]): PointsConfig {
  return { systems, attributeKeys: ATTRIBUTE_KEYS, metricNames: { words: "Words written" }, achievementNames: { ach1: "First post" } };
}

function applied(outcome: PointsApplied | PointsBlocked): PointsApplied {
  if (outcome.kind !== "applied") throw new Error(`expected applied, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function stateWith(total: number, fields: Partial<PointsState> = {}): Record<string, PointsState> {
  return { "sys-xp": { ...emptyPointsState(), total, ...fields } };
}

/** The amounts awarded in a system by one call, oldest first (time triggers may pay several changes: see `applyTimeTriggers`). */
function awardedIn(outcome: PointsApplied, systemId = "sys-xp"): number[] {
  return outcome.changes.filter((c) => c.systemId === systemId).flatMap((c) => c.awards.map((a) => a.awarded));
}

type EventInput = number | { value: number; attributes: Record<string, string> };

/**
 * Sends events of the `words` metric one by one as the event pipeline would (keeping the metric
 * total), and returns the amounts each event awarded in system xp.
 */
function sendEvents(cfg: PointsConfig, inputs: EventInput[], user: PointsUser = USER, startTotal = "0") {
  let states: Record<string, PointsState> = {};
  let metricTotal = startTotal;
  const awards: number[][] = [];
  for (const input of inputs) {
    const { value, attributes } = typeof input === "number" ? { value: input, attributes: {} } : input;
    metricTotal = addDecimals(metricTotal, decimalFromNumber(value)); // exact, as the event pipeline keeps it
    const outcome = applied(applyPointsForEvent(states, cfg, user, { event: { metricId: "words", value, attributes, totalAfter: metricTotal } }, AT, newId));
    states = outcome.states;
    awards.push(awardedIn(outcome));
  }
  return { awards, states };
}

const event = (value: number, totalAfter: string, attributes: Record<string, string> = {}): PointsTriggerContext => ({
  event: { metricId: "words", value, attributes, totalAfter },
});

// ---------------------------------------------------------------------------------------------

describe("metric triggers", () => {
  const cfg = config(snapshot([metricTrigger("t-words", 10, 3)]));

  it.each<[string, EventInput[], number[][]]>([
    ["below the threshold", [1, 1], [[], []]],
    ["reaching the threshold exactly", [1, 1, 1], [[], [], [10]]],
    ["one event crossing two multiples: one award of 2 × points", [7], [[20]]],
    ["the remainder carries over", [2, 2, 2], [[], [10], [10]]],
    ["down then up again awards nothing new (anti-farming)", [3, -3, 3], [[10], [], []]],
    ["a decrease lowers nothing: only new multiples above the high-water mark pay", [3, -1, 1, 1, 1, 1], [[10], [], [], [], [], [10]]],
    ["repeated down and up never pays", [4, -4, 4, -4, 4, 2], [[10], [], [], [], [], [10]]],
    ["a large event crossing many multiples", [300], [[1000]]],
  ])("%s", (_name, values, expected) => {
    expect(sendEvents(cfg, values).awards).toEqual(expected);
  });

  it("counts decimal values exactly: 0.5 + 0.5 crosses a threshold of 1", () => {
    const half = config(snapshot([metricTrigger("t", 7, 1)]));
    expect(sendEvents(half, [0.5, 0.5, 0.25, 0.75]).awards).toEqual([[], [7], [], [7]]);
  });

  it("ten events of 0.1 reach a threshold of 1 exactly on the tenth", () => {
    const awards = sendEvents(config(snapshot([metricTrigger("t", 1, 1)])), Array(10).fill(0.1)).awards;
    expect(awards.slice(0, 9).flat()).toEqual([]);
    expect(awards[9]).toEqual([1]);
  });

  it("keeps the running total and the high-water mark as exact decimals in the state", () => {
    const { states } = sendEvents(cfg, [2.5, -1.2]);
    expect(states["sys-xp"]!.metricProgress).toEqual({ "t-words": { metricId: "words", total: "1.3", highWater: "2.5" } });
    expect(states["sys-xp"]!.total).toBe(0);
  });

  it("an unfiltered trigger lines its multiples up with the metric total, without paying for the past", () => {
    // The user had 999 words when the trigger first counted an event for them.
    const thousand = config(snapshot([metricTrigger("t", 50, 1000)]));
    expect(sendEvents(thousand, [1, 999, 1], USER, "999").awards).toEqual([[50], [], [50]]);
    // 5000 words before: nothing is paid for them, only for the next multiple.
    expect(sendEvents(thousand, [10, 990], USER, "5000").awards).toEqual([[], [50]]);
  });

  it("counts multiples exactly also when the metric total is negative", () => {
    // From -5 to +1 the total passes -3 and 0, two multiples of 3.
    expect(sendEvents(cfg, [-1, 6], USER, "-4").awards).toEqual([[], [20]]);
  });

  it("restarts progress when the trigger is moved to another metric", () => {
    const { states } = sendEvents(cfg, [2]);
    const moved = config(snapshot([metricTrigger("t-words", 10, 3, { metricId: "pages" })]));
    const outcome = applied(applyPointsForEvent(states, moved, USER, { event: { metricId: "pages", value: 1, attributes: {}, totalAfter: "1" } }, AT, newId));
    expect(awardedIn(outcome)).toEqual([]);
    expect(outcome.states["sys-xp"]!.metricProgress["t-words"]).toEqual({ metricId: "pages", total: "1", highWater: "1" });
  });

  it("an unfiltered trigger follows what the metric did while it counted nothing, paying nothing for it", () => {
    // 1 point per word. The user reaches 100 (paid), then, while the trigger is inactive, goes down
    // to 50 and later up to 80; active again, back to 100: nothing new, then 101: one point.
    const perWord = config(snapshot([metricTrigger("t", 1, 1)]));
    const count = (states: Record<string, PointsState>, value: number, totalAfter: string, c = perWord) =>
      applied(applyPointsForEvent(states, c, USER, event(value, totalAfter), AT, newId));
    const { states } = sendEvents(perWord, [100]);
    const back = count(states, 20, "100"); // the metric was at 80 before this event
    expect(awardedIn(back)).toEqual([]);
    expect(awardedIn(count(back.states, 1, "101"))).toEqual([1]);
    // A climb made while the trigger was off is not paid either: 100, off, 150, on, +10 pays 10.
    expect(awardedIn(count(states, 10, "160"))).toEqual([10]);
    // A filtered trigger counts only its own events: the metric's other moves are not its own.
    const mobile = [{ attributeId: "attr-source", attributeValue: "mobile" }];
    const filtered = config(snapshot([metricTrigger("t", 1, 1, { eventAttributes: mobile })]));
    const mobileEvent = (value: number, totalAfter: string) => event(value, totalAfter, { source: "mobile" });
    const first = applied(applyPointsForEvent({}, filtered, USER, mobileEvent(5, "5"), AT, newId));
    expect(awardedIn(applied(applyPointsForEvent(first.states, filtered, USER, mobileEvent(5, "505"), AT, newId)))).toEqual([5]);
    // The metric total is kept only when it is not the trigger's total (a filtered trigger's).
    expect(states["sys-xp"]!.metricProgress["t"]).toEqual({ metricId: "words", total: "100", highWater: "100" });
    expect(first.states["sys-xp"]!.metricProgress["t"]).toEqual({ metricId: "words", total: "5", highWater: "5" });
    const second = applied(applyPointsForEvent(first.states, filtered, USER, mobileEvent(1, "506"), AT, newId));
    expect(second.states["sys-xp"]!.metricProgress["t"]).toEqual({ metricId: "words", total: "6", highWater: "6", metricTotal: "506" });
  });

  it("ignores events of other metrics, inactive triggers and archived systems", () => {
    expect(sendEvents(config(snapshot([metricTrigger("t", 10, 1, { metricId: "pages" })])), [5]).awards).toEqual([[]]);
    const inactive = sendEvents(config(snapshot([metricTrigger("t", 10, 1, { status: "inactive" })])), [5]);
    expect(inactive.awards).toEqual([[]]);
    expect(inactive.states).toEqual({}); // no progress kept either
    const archived = sendEvents(config(snapshot([metricTrigger("t", 10, 1)], { system: system("xp", { status: "archived" }) })), [5]);
    expect(archived.awards).toEqual([[]]);
    expect(archived.states).toEqual({});
  });

  it("deducts with negative points (energy), per threshold", () => {
    const cost = config(snapshot([metricTrigger("t", -2, 1)]));
    const outcome = applied(applyPointsForEvent(stateWith(10), cost, USER, event(3, "3"), AT, newId));
    expect(awardedIn(outcome)).toEqual([-6]);
    expect(outcome.changes[0]).toMatchObject({ total: 4, added: -6 });
  });
});

describe("event attribute filters (metric triggers)", () => {
  const mobile = [{ attributeId: "attr-source", attributeValue: "mobile" }];
  const cfg = config(snapshot([metricTrigger("t", 10, 3, { eventAttributes: mobile })]));
  const m = (value: number) => ({ value, attributes: { source: "mobile" } });
  const w = (value: number) => ({ value, attributes: { source: "web" } });

  it("counts only matching events toward the trigger's threshold, from 0", () => {
    expect(sendEvents(cfg, [m(2), w(5), m(1)], USER, "1000").awards).toEqual([[], [], [10]]);
    expect(sendEvents(cfg, [w(3), { value: 3, attributes: {} }, m(3)]).awards).toEqual([[], [], [10]]);
  });

  it("requires every filter to match", () => {
    const both = config(snapshot([metricTrigger("t", 10, 1, { eventAttributes: [...mobile, { attributeId: "attr-plan", attributeValue: "pro" }] })]));
    expect(sendEvents(both, [m(1), { value: 1, attributes: { source: "mobile", plan: "pro" } }]).awards).toEqual([[], [10]]);
  });

  it("never matches a filter whose attribute ID is unknown (fails closed)", () => {
    const unknown = config(snapshot([metricTrigger("t", 10, 1, { eventAttributes: [{ attributeId: "attr-gone", attributeValue: "x" }] })]));
    expect(sendEvents(unknown, [{ value: 5, attributes: { gone: "x" } }]).awards).toEqual([[]]);
  });
});

describe("user attribute filters (every trigger type)", () => {
  const triggers = [
    metricTrigger("metric", 1, 1, { userAttributes: PRO_ONLY }),
    trigger("achievement", { type: "achievement", points: 2, achievementId: "ach1", userAttributes: PRO_ONLY }),
    trigger("streak", { type: "streak", points: 4, streakLength: 1, userAttributes: PRO_ONLY }),
    trigger("creation", { type: "user_creation", points: 8, userAttributes: PRO_ONLY }),
  ];
  const context: PointsTriggerContext = {
    ...event(1, "1"),
    completedAchievementIds: ["ach1"],
    streakLength: { before: 0, after: 1 },
    userCreated: true,
  };

  it.each<[string, PointsUser, number[]]>([
    ["a matching user", PRO, [8, 1, 2, 4]],
    ["another value", { ...USER, attributes: { plan: "free" } }, []],
    ["no value", USER, []],
  ])("%s", (_name, user, expected) => {
    expect(awardedIn(applied(applyPointsForEvent({}, config(snapshot(triggers)), user, context, AT, newId)))).toEqual(expected);
  });

  it("awards keep the trigger's filters by attribute key, as the Application API shows them", () => {
    const awards = applied(applyPointsForEvent({}, config(snapshot(triggers)), PRO, context, AT, newId)).changes[0]!.awards;
    expect(awards.map((a) => a.trigger.userAttributes)).toEqual(triggers.map(() => [{ key: "plan", value: "pro" }]));
  });

  it("a metric trigger counts no events of a user who does not match", () => {
    const cfg = config(snapshot([metricTrigger("t", 10, 3, { userAttributes: PRO_ONLY })]));
    const free = sendEvents(cfg, [2, 2], USER);
    expect(free.awards).toEqual([[], []]);
    expect(free.states).toEqual({});
  });

  it("time triggers: intervals pass unpaid while the user does not match", () => {
    const cfg = config(snapshot([timeTrigger("t", 5, 3, "hours", { userAttributes: PRO_ONLY })]));
    const unpaid = applyTimeTriggers({}, cfg, USER, hoursAfterCreation(4), newId);
    expect(unpaid.changes).toEqual([]);
    expect(unpaid.states["sys-xp"]!.timeSettledAt).toEqual({ t: hoursAfterCreation(3) });
    // Now a pro user: nothing is owed for the interval that passed; the next one pays.
    expect(applyTimeTriggers(unpaid.states, cfg, PRO, hoursAfterCreation(5), newId).changes).toEqual([]);
    expect(awardedIn(applyTimeTriggers(unpaid.states, cfg, PRO, hoursAfterCreation(6), newId))).toEqual([5]);
  });
});

describe("streak triggers", () => {
  const cfg = config(snapshot([trigger("t", { type: "streak", points: 50, streakLength: 3 })]));
  it.each<[number, number, number[]]>([
    [1, 2, []],
    [2, 3, [50]],
    [3, 4, []],
    [5, 6, [50]],
    [8, 9, [50]],
    [0, 7, [100]], // two milestones reached in one call: one award
    [9, 1, []], // a new streak
    [2, 2, []],
  ])("from %i to %i awards %j", (before, after, expected) => {
    expect(awardedIn(applied(applyPointsForEvent({}, cfg, USER, { streakLength: { before, after } }, AT, newId)))).toEqual(expected);
  });

  // A restore joins a lost streak with the run since, which was paid as its own lengths: only the
  // milestones the joined run reaches beyond both pay.
  it.each<[number, number, number[]]>([
    [5, 1, [50]], // the run since's 1 makes 6, never reached: paid now
    [4, 1, []], // 5: no milestone
    [4, 3, []], // 5, 6 and 7 hold one milestone, as the run since's 1, 2 and 3 did (paid at 3)
    [2, 5, [50]], // 3 to 7 hold two; the run since paid one
    [7, 0, []], // nothing since: the lost length comes back, paid already
  ])("a restore of %i joined with a run since of %i awards %j", (lost, since, expected) => {
    const streakLength = { before: lost, after: lost + since, paidRun: since };
    expect(awardedIn(applied(applyPointsForEvent({}, cfg, USER, { streakLength }, AT, newId)))).toEqual(expected);
  });
});

describe("achievement and user creation triggers", () => {
  const cfg = config(
    snapshot([trigger("t-ach", { type: "achievement", points: 100, achievementId: "ach1" }), trigger("t-new", { type: "user_creation", points: 25 })]),
  );

  it.each<[string, PointsTriggerContext, number[]]>([
    ["the achievement completed", { completedAchievementIds: ["ach1"] }, [100]],
    ["another achievement", { completedAchievementIds: ["ach2"] }, []],
    ["the user created", { userCreated: true }, [25]],
    ["both, creation first", { userCreated: true, completedAchievementIds: ["ach2", "ach1"] }, [25, 100]],
    ["nothing", {}, []],
  ])("%s", (_name, context, expected) => {
    expect(awardedIn(applied(applyPointsForEvent({}, cfg, USER, context, AT, newId)))).toEqual(expected);
  });

  it("awards user creation once per user", () => {
    const first = applied(applyPointsForEvent({}, cfg, USER, { userCreated: true }, AT, newId));
    expect(first.states["sys-xp"]!.userCreationAwardedAt).toEqual({ "t-new": AT });
    expect(awardedIn(applied(applyPointsForEvent(first.states, cfg, USER, { userCreated: true }, AT, newId)))).toEqual([]);
  });
});

describe("time triggers", () => {
  const every3h = config(snapshot([timeTrigger("t", 5, 3)]));

  it.each<[string, number, number[]]>([
    ["before the first interval", 2.99, []],
    ["at the first interval", 3, [5]],
    ["several intervals at once: an award each", 10, [5, 5, 5]],
  ])("%s", (_name, hours, expected) => {
    expect(awardedIn(applyTimeTriggers({}, every3h, USER, hoursAfterCreation(hours), newId))).toEqual(expected);
  });

  it("pays each interval once, counted from the user's creation", () => {
    const first = applyTimeTriggers({}, every3h, USER, hoursAfterCreation(4), newId);
    expect(first.states["sys-xp"]!.timeSettledAt).toEqual({ t: hoursAfterCreation(3) });
    expect(applyTimeTriggers(first.states, every3h, USER, hoursAfterCreation(5.9), newId).changes).toEqual([]);
    const second = applyTimeTriggers(first.states, every3h, USER, hoursAfterCreation(12), newId);
    expect(awardedIn(second)).toEqual([5, 5, 5]); // the intervals due at 6, 9 and 12 hours
    expect(second.states["sys-xp"]!.timeSettledAt).toEqual({ t: hoursAfterCreation(12) });
  });

  it("counts days as 24 hours", () => {
    const every2d = config(snapshot([timeTrigger("t", 1, 2, "days")]));
    expect(awardedIn(applyTimeTriggers({}, every2d, USER, hoursAfterCreation(47), newId))).toEqual([]);
    expect(awardedIn(applyTimeTriggers({}, every2d, USER, hoursAfterCreation(48), newId))).toEqual([1]);
    expect(awardedIn(applyTimeTriggers({}, every2d, USER, hoursAfterCreation(24 * 7), newId))).toEqual([1, 1, 1]); // one a day it came due
  });

  it("pays the intervals due before a deactivation that were not paid yet, and none after it", () => {
    // Made inactive at 7.5 hours; paid at 10: the intervals due at 3 and 6 hours, not 9.
    const deactivated = config(snapshot([timeTrigger("t", 5, 3, "hours", { status: "inactive", owedUntil: hoursAfterCreation(7.5) })]));
    const paid = applyTimeTriggers({}, deactivated, USER, hoursAfterCreation(10), newId);
    expect(awardedIn(paid)).toEqual([5, 5]);
    expect(nextTimeTriggerDueAt({}, deactivated, USER)).toEqual(hoursAfterCreation(3));
    expect(nextTimeTriggerDueAt(paid.states, deactivated, USER)).toBeNull(); // nothing more is owed
    // Inactive from its creation: nothing.
    const never = config(snapshot([timeTrigger("t", 5, 3, "hours", { status: "inactive" })]));
    expect(awardedIn(applyTimeTriggers({}, never, USER, hoursAfterCreation(10), newId))).toEqual([]);
    expect(nextTimeTriggerDueAt({}, never, USER)).toBeNull();
  });

  it("does not pay intervals due before the trigger's activation", () => {
    const activated = config(snapshot([timeTrigger("t", 5, 1, "hours", { updated: hoursAfterCreation(50.5) })]));
    expect(awardedIn(applyTimeTriggers({}, activated, USER, hoursAfterCreation(52.5), newId))).toEqual([5, 5]);
    // Reactivation after a pause: the paused intervals are not owed either.
    const paid = applyTimeTriggers({}, every3h, USER, hoursAfterCreation(3), newId).states;
    const reactivated = config(snapshot([timeTrigger("t", 5, 3, "hours", { updated: hoursAfterCreation(100) })]));
    expect(awardedIn(applyTimeTriggers(paid, reactivated, USER, hoursAfterCreation(103), newId))).toEqual([5]);
  });

  it("an edit after intervals came due (points, filters) keeps them owed: `owedFrom`, not `updated`, bounds them", () => {
    const edited = config(snapshot([timeTrigger("t", 7, 3, "hours", { owedFrom: OLD, updated: hoursAfterCreation(10) })]));
    expect(awardedIn(applyTimeTriggers({}, edited, USER, hoursAfterCreation(10), newId))).toEqual([7, 7, 7]); // due at 3, 6 and 9 hours
    const activatedAt10 = config(snapshot([timeTrigger("t", 7, 3, "hours", { owedFrom: hoursAfterCreation(10), updated: hoursAfterCreation(11) })]));
    expect(awardedIn(applyTimeTriggers({}, activatedAt10, USER, hoursAfterCreation(12), newId))).toEqual([7]);
  });

  it("ignores inactive time triggers and never fires time triggers from events", () => {
    const inactive = config(snapshot([timeTrigger("t", 5, 1, "hours", { status: "inactive" })]));
    expect(applyTimeTriggers({}, inactive, USER, hoursAfterCreation(10), newId)).toEqual({ kind: "applied", states: {}, changes: [], events: [], steps: [] });
    expect(awardedIn(applied(applyPointsForEvent({}, every3h, USER, event(1, "1"), hoursAfterCreation(10), newId)))).toEqual([]);
  });

  it("dates each award when its interval came due: one change per local day of the user and UTC day", () => {
    // Los Angeles (UTC-8 in January): created at 00:00 UTC, the 16:00 local of December 31st.
    const angeleno: PointsUser = { ...USER, tz: "America/Los_Angeles" };
    const paid = applyTimeTriggers({}, every3h, angeleno, hoursAfterCreation(31), newId);
    // Due at 3 and 6 hours (Dec 31 local, Jan 1 UTC), at 9 to 21 hours (Jan 1 local and UTC),
    // at 24 to 30 hours (Jan 1 local, Jan 2 UTC): one change each, ranked at its last interval;
    // every award dated when it came due, not at 31 hours.
    expect(paid.steps.map((s) => s.at)).toEqual([hoursAfterCreation(6), hoursAfterCreation(21), hoursAfterCreation(30)]);
    expect(paid.steps.map((s) => s.changes[0]!.awards.map((a) => a.date))).toEqual([
      [3, 6].map(hoursAfterCreation),
      [9, 12, 15, 18, 21].map(hoursAfterCreation),
      [24, 27, 30].map(hoursAfterCreation),
    ]);
    expect(paid.changes).toEqual(paid.steps.flatMap((s) => s.changes));
    expect(paid.events.map((e) => e.type === "points.changed" && e.added)).toEqual([10, 25, 15]);
    expect(paid.states["sys-xp"]!.daily).toEqual({ "2025-12-31": "10", "2026-01-01": "40" });
    // Paid on time, an interval is dated when it came due, not at the visit a minute later.
    const onTime = applyTimeTriggers({}, every3h, USER, new Date(hoursAfterCreation(3).getTime() + 60_000), newId);
    expect(onTime.steps.map((s) => s.at)).toEqual([hoursAfterCreation(3)]);
  });

  it("splits a day's change where `splitAfter` says (a leaderboard's daily window opening or closing)", () => {
    const opensAt9 = (at: Date) => (at < hoursAfterCreation(9) ? hoursAfterCreation(9).getTime() : null);
    const paid = applyTimeTriggers({}, every3h, USER, hoursAfterCreation(13), newId, opensAt9);
    expect(paid.steps.map((s) => s.at)).toEqual([hoursAfterCreation(6), hoursAfterCreation(12)]);
  });

  it(`pays intervals owed for more than ${TIME_BACKLOG_DAYS} days as one unboosted award, then one each`, () => {
    const daily = config(snapshot([timeTrigger("t", 1, 1, "days")], { boosts: [boost("b", 2, { start: "2026-01-10", end: "2026-01-10" })] }));
    const paid = applyTimeTriggers({}, daily, USER, hoursAfterCreation(24 * (TIME_BACKLOG_DAYS + 9)), newId);
    expect(awardedIn(paid)).toEqual([9, ...Array<number>(TIME_BACKLOG_DAYS).fill(1)]); // not 18: the boost of January 10th is one day's
    expect(paid.steps[0]!.at).toEqual(hoursAfterCreation(24 * 9));
    expect(paid.steps.at(-1)!.at).toEqual(hoursAfterCreation(24 * (TIME_BACKLOG_DAYS + 9)));
    // Two triggers in the system: a lump each, in their order.
    const two = config(snapshot([timeTrigger("t", 1, 1, "days"), timeTrigger("h", 2, 12)]));
    const both = applyTimeTriggers({}, two, USER, hoursAfterCreation(24 * (TIME_BACKLOG_DAYS + 9)), newId);
    expect(awardedIn(both).slice(0, 3)).toEqual([9, 36, 2]);
  });

  it.each<[string, PointsTriggerConfig[], number | null]>([
    ["a refill and a deduction (an energy system)", [timeTrigger("refill", 2, 1), timeTrigger("cost", -5, 3)], 10],
    ["a deduction to the floor and a grant", [timeTrigger("drain", -4, 1), timeTrigger("grant", 3, 2)], null],
    ["three schedules and a cap", [timeTrigger("a", 7, 5), timeTrigger("b", -3, 2), timeTrigger("c", 1, 1, "days")], 20],
  ])("a catch-up ends where visits on time would have: %s", (_name, triggers, maxPoints) => {
    const cfg = config(snapshot(triggers, { system: system("xp", { maxPoints }) }));
    const total = (states: Record<string, PointsState>) => states["sys-xp"]?.total ?? 0;
    for (const hours of [5, 23, 51, 24 * 9 + 7]) {
      let onTime: Record<string, PointsState> = {};
      for (let h = 1; h <= hours; h++) onTime = applyTimeTriggers(onTime, cfg, USER, hoursAfterCreation(h), newId).states;
      expect(total(applyTimeTriggers({}, cfg, USER, hoursAfterCreation(hours), newId).states), `${hours} hours`).toBe(total(onTime));
    }
  });

  it("tells the scheduler when the next interval is due", () => {
    const two = config(
      snapshot([timeTrigger("t3h", 5, 3), timeTrigger("t1d", 5, 1, "days", { status: "inactive" })]),
      snapshot([timeTrigger("t2h", 1, 2)], { system: system("gems") }),
    );
    expect(nextTimeTriggerDueAt({}, two, USER)).toEqual(hoursAfterCreation(2));
    const after = applyTimeTriggers({}, two, USER, hoursAfterCreation(2.5), newId);
    expect(nextTimeTriggerDueAt(after.states, two, USER)).toEqual(hoursAfterCreation(3));
    const later = applyTimeTriggers(after.states, two, USER, hoursAfterCreation(3), newId);
    expect(nextTimeTriggerDueAt(later.states, two, USER)).toEqual(hoursAfterCreation(4));
    // With nothing settled yet, the first interval; a due time before now means intervals wait.
    expect(nextTimeTriggerDueAt({}, every3h, USER)).toEqual(hoursAfterCreation(3));
    expect(nextTimeTriggerDueAt({}, config(snapshot([metricTrigger("m", 1, 1)])), USER)).toBeNull();
  });
});

describe("boosts", () => {
  const withBoosts = (boosts: PointsBoostConfig[], points = 10) =>
    config(snapshot([trigger("t", { type: "achievement", points, achievementId: "ach1" })], { boosts }));
  const award = (cfg: PointsConfig, user: PointsUser = USER, at: Date = AT) =>
    awardedIn(applied(applyPointsForEvent({}, cfg, user, { completedAchievementIds: ["ach1"] }, at, newId)));

  it("stack by multiplication: 2, 1.5 and 3 give 9", () => {
    expect(combineBoosts([boost("a", 2), boost("b", 1.5), boost("c", 3)]).multiplier.toFixed()).toBe("9");
    const outcome = applied(
      applyPointsForEvent({}, withBoosts([boost("a", 2), boost("b", 1.5), boost("c", 3)]), USER, { completedAchievementIds: ["ach1"] }, AT, newId),
    );
    expect(awardedIn(outcome)).toEqual([90]);
    expect(outcome.changes[0]!.awards[0]!.boosts.map((b) => b.id)).toEqual(["a", "b", "c"]);
  });

  it.each<[string, number, number, "down" | "up" | "nearest", number]>([
    ["down", 5, 1.5, "down", 7],
    ["up", 5, 1.5, "up", 8],
    ["nearest, a half", 5, 1.5, "nearest", 8],
    ["down, exact decimal (3 × 1.1 = 3.3)", 3, 1.1, "down", 3],
    ["up, exact decimal (3 × 1.1 = 3.3)", 3, 1.1, "up", 4],
    ["nearest below a half", 3, 1.1, "nearest", 3],
    ["nearest above a half", 3, 1.25, "nearest", 4],
    ["a multiplier below 1, down", 3, 0.5, "down", 1],
    ["up, already whole (10 × 1.1 = 11)", 10, 1.1, "up", 11],
  ])("rounding %s: %i × %d → %i", (_name, points, multiplier, rounding, expected) => {
    expect(award(withBoosts([boost("b", multiplier, { rounding })], points))).toEqual([expected]);
  });

  it.each<[string, PointsBoostConfig[], number]>([
    // 1 × 1.5 × 1.5 = 2.25: up would give 3, nearest 2.
    [
      "decimal boosts disagreeing: the most conservative mode (nearest over up)",
      [boost("a", 1.5, { rounding: "up" }), boost("b", 1.5, { rounding: "nearest" })],
      2,
    ],
    ["down beats everything", [boost("a", 1.5, { rounding: "up" }), boost("b", 1.5, { rounding: "down" })], 2],
    // 1 × 2 × 1.25 = 2.5: the 2× boost's default "down" has no say (rounding is for decimal multipliers).
    ["an integer multiplier's rounding has no say", [boost("a", 2, { rounding: "down" }), boost("b", 1.25, { rounding: "up" })], 3],
    ["nor when it says up", [boost("a", 2, { rounding: "up" }), boost("b", 1.1, { rounding: "down" })], 2],
  ])("mixed rounding: %s", (_name, boosts, expected) => {
    expect(award(withBoosts(boosts, 1))).toEqual([expected]);
  });

  it.each<[string, PointsBoostConfig, PointsUser, Date, number]>([
    ["global", boost("b", 2), USER, AT, 20],
    ["cohort, matching", boost("b", 2, { userAttributes: PRO_ONLY }), PRO, AT, 20],
    ["cohort, not matching", boost("b", 2, { userAttributes: PRO_ONLY }), USER, AT, 10],
    ["user-specific, this user", boost("b", 2, { userId: "u1" }), USER, AT, 20],
    ["user-specific, another user", boost("b", 2, { userId: "u2" }), USER, AT, 10],
    ["on its start day (UTC)", boost("b", 2, { start: "2026-05-01" }), USER, new Date("2026-05-01T00:00:00Z"), 20],
    ["the day before its start (scheduled)", boost("b", 2, { start: "2026-05-02" }), USER, new Date("2026-05-01T23:59:59Z"), 10],
    ["on its end day (inclusive)", boost("b", 2, { end: "2026-05-01" }), USER, new Date("2026-05-01T23:59:59.999Z"), 20],
    ["the day after its end (finished)", boost("b", 2, { end: "2026-04-30" }), USER, AT, 10],
    ["archived", boost("b", 2, { archived: true }), USER, AT, 10],
  ])("targeting and window: %s", (_name, b, user, at, expected) => {
    expect(award(withBoosts([b]), user, at)).toEqual([expected]);
  });

  it("never multiply deductions", () => {
    const cfg = config(snapshot([metricTrigger("t", -5, 1)], { boosts: [boost("b", 2)] }));
    const outcome = applied(applyPointsForEvent(stateWith(100), cfg, USER, event(1, "1"), AT, newId));
    expect(awardedIn(outcome)).toEqual([-5]);
    expect(outcome.changes[0]!.awards[0]!.boosts).toEqual([]);
  });

  it("multiply time trigger awards at the moment each interval came due, not when it is paid", () => {
    const cfg = config(snapshot([timeTrigger("t", 5, 1)], { boosts: [boost("b", 3, { start: "2026-01-02" })] }));
    expect(awardedIn(applyTimeTriggers({}, cfg, USER, hoursAfterCreation(2), newId))).toEqual([5, 5]);
    // 23 hourly intervals came due on January 1st, before the boost, 3 on the 2nd (5 × 3).
    expect(awardedIn(applyTimeTriggers({}, cfg, USER, hoursAfterCreation(26), newId))).toEqual([...Array<number>(23).fill(5), 15, 15, 15]);
  });
});

describe("maxPoints and the floor at zero", () => {
  const capped = (points: number, fields: Partial<PointsTriggerConfig> = {}, boosts: PointsBoostConfig[] = []) =>
    config(snapshot([metricTrigger("t", points, 1, fields)], { system: system("xp", { maxPoints: 100 }), boosts }));

  it.each<[string, PointsConfig, number, number[], number]>([
    ["a grant that fits", capped(10), 90, [10], 100],
    ["a grant cut to fit the cap", capped(10), 95, [5], 100],
    ["a boosted grant cut to fit the cap", capped(10, {}, [boost("b", 3)]), 80, [20], 100],
    ["no award at the cap (none recorded)", capped(10), 100, [], 100],
    ["no award above a lowered cap, which bounds the total", capped(10), 120, [], 100],
    ["a deduction from the lowered cap", capped(-10), 120, [-10], 90],
    ["a deduction that fits", capped(-10), 10, [-10], 0],
    ["a deduction cut to stop at 0", capped(-10), 3, [-3], 0],
    ["no deduction at 0 (none recorded)", capped(-10), 0, [], 0],
  ])("%s", (_name, cfg, total, expected, expectedTotal) => {
    const outcome = applied(applyPointsForEvent(stateWith(total), cfg, USER, event(1, "1"), AT, newId));
    expect(awardedIn(outcome)).toEqual(expected);
    expect(outcome.states["sys-xp"]!.total).toBe(expectedTotal);
    if (expected.length === 0) {
      expect(outcome.changes).toEqual([]);
      expect(outcome.events).toEqual([]);
      expect(outcome.states["sys-xp"]!.awards).toEqual([]);
    }
  });

  it("stores a total bounded by a lowered cap at the next settling, with the cut in the daily history", () => {
    const lowered = config(snapshot([metricTrigger("t", 10, 1)], { system: system("xp", { maxPoints: 5 }) }));
    const before = stateWith(530, { daily: { "2026-04-30": "530" } });
    const outcome = applied(applyPointsForEvent(before, lowered, USER, event(1, "1"), AT, newId));
    const state = outcome.states["sys-xp"]!;
    expect(state).toEqual({ ...before["sys-xp"], total: 5, metricProgress: state.metricProgress, daily: { "2026-04-30": "530", "2026-05-01": "-525" } });
    expect(summarizeChanges(state.daily, String(state.total), "daily", "2026-04-30", "2026-05-01", "2026-05-01")).toEqual([
      { date: "2026-04-30", total: "530", change: "530" },
      { date: "2026-05-01", total: "5", change: "-525" },
    ]);
    // The cut is no award: nothing to answer or announce.
    expect(outcome.changes).toEqual([]);
    expect(outcome.events).toEqual([]);
    // Reads show what the next settling stores.
    expect(boundedPointsState(before["sys-xp"]!, { maxPoints: 5 }, USER, AT)).toEqual({ ...state, metricProgress: {} });
  });

  it("leaves a state within the cap as it is", () => {
    const within = stateWith(5)["sys-xp"]!;
    expect(boundedPointsState(within, { maxPoints: 5 }, USER, AT)).toBe(within);
    expect(boundedPointsState(within, { maxPoints: null }, USER, AT)).toBe(within);
  });

  it("keeps totals exact integers: an enormous event is capped at the largest safe integer", () => {
    const outcome = applied(applyPointsForEvent({}, config(snapshot([metricTrigger("t", 7, 1)])), USER, event(1e20, "1e20"), AT, newId));
    expect(awardedIn(outcome)).toEqual([MAX_TOTAL]);
    expect(Number.isSafeInteger(outcome.states["sys-xp"]!.total)).toBe(true);
  });
});

describe("blockIfOutOfPoints", () => {
  const energy = snapshot([metricTrigger("t-cost", -5, 1, { blockIfOutOfPoints: true })], { system: system("energy") });
  const states = (total: number) => ({ "sys-energy": { ...emptyPointsState(), total } });

  it.each<[number, "applied" | "blocked", number | null]>([
    [10, "applied", 5],
    [5, "applied", 0],
    [4, "blocked", null],
    [0, "blocked", null],
  ])("with %i points the deduction of 5 is %s", (total, kind, after) => {
    const outcome = applyPointsForEvent(states(total), config(energy), USER, event(1, "1"), AT, newId);
    expect(outcome.kind).toBe(kind);
    if (outcome.kind === "applied") expect(outcome.states["sys-energy"]!.total).toBe(after);
  });

  it("refuses the whole call, in every system, with a specific message", () => {
    const xp = snapshot([metricTrigger("t-xp", 10, 1)]);
    const outcome = applyPointsForEvent(states(4), config(xp, energy), USER, event(1, "1"), AT, newId);
    expect(outcome).toEqual({
      kind: "blocked",
      systemId: "sys-energy",
      systemKey: "energy",
      triggerId: "t-cost",
      message: 'Not enough points in points system "energy": this would deduct 5 points and the user has 4',
    });
  });

  it("blocks metric events only: a user creation trigger stored with it before it was refused there deducts down to 0", () => {
    const storedBefore = trigger("t-new", { type: "user_creation", points: -5, blockIfOutOfPoints: true });
    const outcome = applyPointsForEvent({}, config(snapshot([storedBefore], { system: system("energy") })), USER, { userCreated: true }, AT, newId);
    expect(outcome.kind).toBe("applied");
  });

  it("does not block a deduction that fires nothing (below the threshold)", () => {
    const every10 = snapshot([metricTrigger("t-cost", -5, 10, { blockIfOutOfPoints: true })], { system: system("energy") });
    expect(applyPointsForEvent(states(0), config(every10), USER, event(1, "1"), AT, newId).kind).toBe("applied");
  });
});

describe("levels", () => {
  const levels = [level("bronze", 0), level("silver", 50), level("gold", 100)];

  it.each<[number, string | null]>([
    [0, null], // a 0-point level comes with the first points
    [1, "bronze"],
    [50, "bronze"], // the total must exceed the threshold (>)
    [51, "silver"],
    [100, "silver"],
    [101, "gold"],
    [5000, "gold"],
  ])("a total of %i holds %s", (total, key) => {
    expect(levelForTotal(total, levels)?.key ?? null).toBe(key);
  });

  it("no levels, or no threshold reached: null", () => {
    expect(levelForTotal(10, [])).toBeNull();
    expect(levelForTotal(10, [level("silver", 50)])).toBeNull();
  });

  const cfg = config(snapshot([metricTrigger("up", 1, 1), metricTrigger("down", -1, 1, { metricId: "spent" })], { levels }));
  const gain = (states: Record<string, PointsState>) => applied(applyPointsForEvent(states, cfg, USER, event(1, "1"), AT, newId));
  const lose = (states: Record<string, PointsState>) =>
    applied(applyPointsForEvent(states, cfg, USER, { event: { metricId: "spent", value: 1, attributes: {}, totalAfter: "1" } }, AT, newId));
  const at = (total: number, levelKey: string | null) => stateWith(total, { levelId: levelKey === null ? null : `lvl-${levelKey}` });

  it.each<[string, () => PointsApplied, string | null, string | null]>([
    ["up across a boundary: 50 → 51", () => gain(at(50, "bronze")), "bronze", "silver"],
    ["up to a boundary: 49 → 50", () => gain(at(49, "bronze")), null, null],
    ["up above a boundary: 51 → 52", () => gain(at(51, "silver")), null, null],
    ["down across a boundary: 51 → 50", () => lose(at(51, "silver")), "silver", "bronze"],
    ["down above a boundary: 52 → 51", () => lose(at(52, "silver")), null, null],
    // A user without points holds no level; their first point reaches the 0-point level (the
    // reference's event response example: total 10, added 10, level bronze at 0 points).
    ["the first points reach the 0-point level", () => gain({}), null, "bronze"],
  ])("%s", (_name, run, previous, next) => {
    const outcome = run();
    const change = outcome.changes[0]!;
    const levelEvents = outcome.events.filter((e) => e.type === "points.level_changed");
    if (next === null && previous === null) {
      expect(change.levelChanged).toBeUndefined();
      expect(levelEvents).toEqual([]);
    } else {
      expect(change.levelChanged).toEqual({
        previous: previous === null ? null : levels.find((l) => l.key === previous),
        next: levels.find((l) => l.key === next),
      });
      expect(levelEvents).toEqual([
        {
          type: "points.level_changed",
          userId: "u1",
          systemId: "sys-xp",
          systemKey: "xp",
          total: change.total,
          previousLevel: change.levelChanged!.previous,
          newLevel: change.levelChanged!.next,
        },
      ]);
      expect(outcome.states["sys-xp"]!.levelId).toBe(`lvl-${next}`);
    }
  });

  describe("after the levels changed (the stored level is stale)", () => {
    // The user reached 100 with no levels; reads have shown the current level ever since.
    const reached = (levelId: string | null) => stateWith(100, { levelId });
    const withLevels = (...list: PointsLevelConfig[]) =>
      config(snapshot([metricTrigger("up", 10, 1), metricTrigger("down", -10, 1, { metricId: "spent" })], { levels: list }));
    const spent = { event: { metricId: "spent", value: 1, attributes: {}, totalAfter: "1" } };
    const levelChanges = (outcome: PointsApplied) => ({
      response: outcome.changes[0]!.levelChanged,
      events: outcome.events.filter((e) => e.type === "points.level_changed"),
    });

    it.each<[string, PointsLevelConfig[], string | null, PointsTriggerContext]>([
      ["a level added below the total", [level("l50", 50)], null, event(1, "1")],
      ["every level deleted", [], "lvl-l50", event(1, "1")],
      ["the held level deleted, the total still below every other", [level("l500", 500)], "lvl-l50", event(1, "1")],
      ["a level added below the total, the total going down but staying above it", [level("l50", 50)], null, spent],
      ["the held level's threshold raised above the total", [level("l50", 150)], "lvl-l50", event(1, "1")],
    ])("%s: no level change", (_name, levels, storedLevelId, context) => {
      const outcome = applied(applyPointsForEvent(reached(storedLevelId), withLevels(...levels), USER, context, AT, newId));
      expect(levelChanges(outcome)).toEqual({ response: undefined, events: [] });
      expect(outcome.states["sys-xp"]!.levelId).toBe(levelForTotal(outcome.changes[0]!.total, levels)?.id ?? null);
    });

    it("reports a change from the level the total had under the current levels", () => {
      const levels = [level("l50", 50), level("l105", 105)];
      const outcome = applied(applyPointsForEvent(reached(null), withLevels(...levels), USER, event(1, "1"), AT, newId));
      expect(levelChanges(outcome)).toEqual({
        response: { previous: levels[0], next: levels[1] },
        events: [expect.objectContaining({ type: "points.level_changed", total: 110, previousLevel: levels[0], newLevel: levels[1] })],
      });
    });

    it("reports a fall to no level from the current level, never null to null", () => {
      const levels = [level("l95", 95)];
      const outcome = applied(applyPointsForEvent(reached("lvl-gone"), withLevels(...levels), USER, spent, AT, newId));
      expect(levelChanges(outcome)).toEqual({
        response: { previous: levels[0], next: null },
        events: [expect.objectContaining({ type: "points.level_changed", total: 90, previousLevel: levels[0], newLevel: null })],
      });
    });
  });

  it("judges the level of a total bounded by a lowered cap", () => {
    // Stored 530, cap lowered to 101: reads show 101 at gold; a deduction to 91 is a fall to silver.
    const cfg = config(snapshot([metricTrigger("down", -10, 1, { metricId: "spent" })], { system: system("xp", { maxPoints: 101 }), levels }));
    const spent = { event: { metricId: "spent", value: 1, attributes: {}, totalAfter: "1" } };
    const outcome = applied(applyPointsForEvent(at(530, "gold"), cfg, USER, spent, AT, newId));
    expect(outcome.changes[0]).toMatchObject({ total: 91, added: -10, levelChanged: { previous: levels[2], next: levels[1] } });
  });

  it("follows a total down to no level at all", () => {
    const noZero = config(snapshot([metricTrigger("down", -10, 1)], { levels: [level("silver", 50)] }));
    const outcome = applied(applyPointsForEvent(at(55, "silver"), noZero, USER, event(1, "1"), AT, newId));
    expect(outcome.changes[0]!.levelChanged).toEqual({ previous: level("silver", 50), next: null });
    expect(outcome.states["sys-xp"]!.levelId).toBeNull();
  });
});

describe("award records, events and history", () => {
  it("records each award with its trigger, boosts and the total after it, and emits points.changed", () => {
    const cfg = config(
      snapshot([metricTrigger("t-words", 10, 100), trigger("t-ach", { type: "achievement", points: 5, achievementId: "ach1" })], {
        boosts: [boost("b2", 2, { name: "Double", end: "2026-05-31" })],
      }),
    );
    const outcome = applied(applyPointsForEvent(stateWith(1), cfg, USER, { ...event(250, "250"), completedAchievementIds: ["ach1"] }, AT, newId));
    const boostRecord = { id: "b2", name: "Double", start: "2026-01-01", end: "2026-05-31", multiplier: 2, rounding: "down" };
    const awards = [
      {
        id: "a1",
        awarded: 40,
        date: AT,
        total: 41,
        trigger: { id: "t-words", type: "metric", points: 10, metricId: "words", metricName: "Words written", metricThreshold: 100, ...firedAs },
        boosts: [boostRecord],
      },
      {
        id: "a2",
        awarded: 10,
        date: AT,
        total: 51,
        trigger: { id: "t-ach", type: "achievement", points: 5, achievementId: "ach1", achievementName: "First post", ...firedAs },
        boosts: [boostRecord],
      },
    ];
    expect(outcome.changes).toEqual([{ systemId: "sys-xp", systemKey: "xp", total: 51, added: 50, awards }]);
    expect(outcome.events).toEqual([{ type: "points.changed", userId: "u1", systemId: "sys-xp", systemKey: "xp", total: 51, added: 50, awards }]);
    expect(outcome.states["sys-xp"]!.awards).toEqual(awards);
  });

  it("records streak and time triggers with the reference's field names", () => {
    const streak = applied(
      applyPointsForEvent(
        {},
        config(snapshot([trigger("s", { type: "streak", points: 3, streakLength: 7 })])),
        USER,
        { streakLength: { before: 6, after: 7 } },
        AT,
        newId,
      ),
    );
    expect(streak.changes[0]!.awards[0]!.trigger).toEqual({ id: "s", type: "streak", points: 3, streakLengthThreshold: 7, ...firedAs });
    const time = applyTimeTriggers({}, config(snapshot([timeTrigger("h", 1, 2), timeTrigger("d", 1, 1, "days")])), USER, hoursAfterCreation(24), newId);
    // Twelve intervals of "h" (2 to 24 hours), and "d" at 24 hours, after "h" (created first).
    const hourly = { id: "h", type: "time", points: 1, timeUnit: "hour", timeInterval: 2, ...firedAs };
    expect(time.changes.flatMap((c) => c.awards.map((a) => a.trigger))).toEqual([
      ...Array(12).fill(hourly),
      { id: "d", type: "time", points: 1, timeUnit: "day", timeInterval: 1, ...firedAs },
    ]);
  });

  it(`keeps the latest ${MAX_RECENT_AWARDS} awards, served newest first`, () => {
    const { states } = sendEvents(config(snapshot([metricTrigger("t", 1, 1)])), Array(105).fill(1));
    const state = states["sys-xp"]!;
    expect(state.total).toBe(105);
    expect(state.awards).toHaveLength(MAX_RECENT_AWARDS);
    expect(state.awards[0]!.total).toBe(6);
    expect(recentAwards(state, 3).map((a) => a.total)).toEqual([105, 104, 103]);
    expect(recentAwards(state).length).toBe(100);
  });

  it("records net changes per local day for summaries", () => {
    const cfg = config(snapshot([metricTrigger("t", 10, 1), metricTrigger("cost", -3, 1, { metricId: "spent" })]));
    const tokyo: PointsUser = { ...USER, tz: "Asia/Tokyo" };
    let states = applied(applyPointsForEvent({}, cfg, tokyo, event(1, "1"), new Date("2026-03-01T10:00:00Z"), newId)).states;
    states = applied(applyPointsForEvent(states, cfg, tokyo, event(1, "2"), new Date("2026-03-01T16:00:00Z"), newId)).states; // 2 March in Tokyo
    const spent = { event: { metricId: "spent", value: 1, attributes: {}, totalAfter: "1" } };
    states = applied(applyPointsForEvent(states, cfg, tokyo, spent, new Date("2026-03-01T17:00:00Z"), newId)).states;
    const state = states["sys-xp"]!;
    expect(state.daily).toEqual({ "2026-03-01": "10", "2026-03-02": "7" });
    expect(summarizeChanges(state.daily, String(state.total), "daily", "2026-03-01", "2026-03-02", "2026-03-02")).toEqual([
      { date: "2026-03-01", total: "10", change: "10" },
      { date: "2026-03-02", total: "17", change: "7" },
    ]);
  });

  it("leaves systems the call did not touch as they were, and answers only systems that changed", () => {
    const before = { "sys-gems": { ...emptyPointsState(), total: 7 } };
    const cfg = config(snapshot([metricTrigger("t", 1, 1)]), snapshot([metricTrigger("g", 1, 1, { metricId: "pages" })], { system: system("gems") }));
    const outcome = applied(applyPointsForEvent(before, cfg, USER, event(1, "1"), AT, newId));
    expect(outcome.states["sys-gems"]).toBe(before["sys-gems"]);
    expect(outcome.changes.map((c) => c.systemKey)).toEqual(["xp"]);
  });
});

describe("an energy system", () => {
  // +5 energy a day, at most 10; each API call costs 2 and is refused when the user cannot pay.
  const energy = config(
    snapshot(
      [
        timeTrigger("refill", 5, 1, "days"),
        trigger("cost", { type: "metric", points: -2, metricId: "api-calls", metricThreshold: 1, blockIfOutOfPoints: true }),
      ],
      {
        system: system("energy", { maxPoints: 10 }),
      },
    ),
  );
  let calls = 0;
  function call(states: Record<string, PointsState>, at: Date) {
    const outcome = applyPointsForEvent(
      states,
      energy,
      USER,
      { event: { metricId: "api-calls", value: 1, attributes: {}, totalAfter: String(calls + 1) } },
      at,
      newId,
    );
    if (outcome.kind === "applied") calls += 1; // a refused event does not count toward the metric
    return outcome;
  }
  const total = (states: Record<string, PointsState>) => states["sys-energy"]?.total ?? 0;

  it("earns by time, spends by events, is refused when empty and refills", () => {
    let states: Record<string, PointsState> = {};
    expect(call(states, hoursAfterCreation(1)).kind).toBe("blocked"); // nothing earned yet

    states = applyTimeTriggers(states, energy, USER, hoursAfterCreation(24), newId).states;
    expect(total(states)).toBe(5);
    const spends: Array<number | "blocked"> = [];
    for (let i = 0; i < 3; i++) {
      const outcome = call(states, hoursAfterCreation(25 + i));
      if (outcome.kind === "blocked") spends.push("blocked");
      else {
        states = outcome.states;
        spends.push(total(states));
      }
    }
    expect(spends).toEqual([3, 1, "blocked"]);

    states = applyTimeTriggers(states, energy, USER, hoursAfterCreation(48), newId).states;
    expect(total(states)).toBe(6);
    const spent = call(states, hoursAfterCreation(49));
    expect(spent.kind === "applied" && awardedIn(spent, "sys-energy")).toEqual([-2]);
    states = (spent as PointsApplied).states;

    // Five idle days refill to the cap, not beyond: 4 + 5 on the first day, 1 on the second, then nothing.
    const refill = applyTimeTriggers(states, energy, USER, hoursAfterCreation(24 * 7), newId);
    expect(awardedIn(refill, "sys-energy")).toEqual([5, 1]);
    expect(total(refill.states)).toBe(10);
    expect(nextTimeTriggerDueAt(refill.states, energy, USER)).toEqual(hoursAfterCreation(24 * 8));
  });
});
