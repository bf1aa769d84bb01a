import { describe, expect, it } from "vitest";
import {
  applyTriggerChanges,
  boostStatus,
  buildBoost,
  buildSystem,
  buildTrigger,
  checkBoostChanges,
  checkBoostDraft,
  checkLevelChanges,
  checkLevelDraft,
  checkSystemChanges,
  checkSystemDraft,
  checkTriggerChanges,
  checkTriggerDraft,
  findDuplicateLevel,
  type PointsBoostDraft,
  type PointsLevelDraft,
  type PointsSystemDraft,
  type PointsTriggerChanges,
  type PointsTriggerDraft,
} from "./points-config.js";

const now = new Date("2026-03-10T12:00:00Z");
const plan = { attributeId: "attr-plan", attributeValue: "pro" };

describe("points systems", () => {
  const base: PointsSystemDraft = { key: "xp", name: "XP" };
  it.each<[string, Partial<PointsSystemDraft>, string | null]>([
    ["a minimal system", {}, null],
    ["the reference key pattern", { key: "XP_points-2" }, null],
    ["an empty key", { key: "" }, "key is required"],
    ["a key with a space", { key: "x p" }, 'key "x p" is invalid: use letters, digits, hyphens and underscores, at most 100 characters'],
    ["a key with a dot", { key: "x.p" }, 'key "x.p" is invalid: use letters, digits, hyphens and underscores, at most 100 characters'],
    ["a blank name", { name: "  " }, "name is required"],
    ["a name of 256 characters", { name: "n".repeat(256) }, "name must be at most 255 characters"],
    ["a name of 255 characters", { name: "n".repeat(255) }, null],
    ["a description of 1,000 characters", { description: "d".repeat(1000) }, null],
    ["a description of 1,001 characters", { description: "d".repeat(1001) }, "description must be at most 1000 characters"],
    ["maxPoints 0", { maxPoints: 0 }, "maxPoints must be null or an integer >= 1, got 0"],
    ["fractional maxPoints", { maxPoints: 1.5 }, "maxPoints must be null or an integer >= 1, got 1.5"],
    ["maxPoints 1", { maxPoints: 1 }, null],
    ["maxPoints null", { maxPoints: null }, null],
    ["a relative badge URL", { badge: { url: "/img.png" } }, 'badge.url must be an absolute http or https URL, got "/img.png"'],
    ["a data badge URL", { badge: { url: "javascript:alert(1)" } }, 'badge.url must be an absolute http or https URL, got "javascript:alert(1)"'],
    ["an https badge", { badge: { url: "https://example.com/xp.png" } }, null],
  ])("%s", (_name, patch, problem) => {
    expect(checkSystemDraft({ ...base, ...patch })).toBe(problem);
  });

  it("are built active, with an empty description and null badge and maxPoints", () => {
    expect(buildSystem(base, "s1", now)).toEqual({
      id: "s1",
      key: "xp",
      name: "XP",
      description: "",
      status: "active",
      badge: null,
      maxPoints: null,
      created: now,
      updated: now,
    });
  });

  it("check only the fields an update sets", () => {
    expect(checkSystemChanges({})).toBeNull();
    expect(checkSystemChanges({ maxPoints: null, badge: null })).toBeNull();
    expect(checkSystemChanges({ name: "" })).toBe("name is required");
    expect(checkSystemChanges({ maxPoints: -3 })).toBe("maxPoints must be null or an integer >= 1, got -3");
    expect(checkSystemChanges({ description: "d".repeat(1001) })).toBe("description must be at most 1000 characters");
  });
});

describe("points triggers", () => {
  const metric: PointsTriggerDraft = { type: "metric", points: 10, metricId: "m1", metricThreshold: 5 };
  it.each<[string, PointsTriggerDraft, string | null]>([
    ["a metric trigger", metric, null],
    ["a deducting trigger", { ...metric, points: -5 }, null],
    ["zero points", { ...metric, points: 0 }, "points must be a non-zero integer (negative values deduct), got 0"],
    ["fractional points", { ...metric, points: 1.5 }, "points must be a non-zero integer (negative values deduct), got 1.5"],
    ["no type", { points: 1 }, 'type is required: "metric", "achievement", "streak", "time" or "user_creation"'],
    ["an archived status", { ...metric, status: "archived" }, 'status must be "active" or "inactive", got "archived"'],
    ["a metric trigger without metric", { type: "metric", points: 1, metricThreshold: 1 }, "metricId is required for metric triggers"],
    ["a metric trigger with an empty metric", { ...metric, metricId: "" }, "metricId is required for metric triggers"],
    ["a metric trigger without threshold", { type: "metric", points: 1, metricId: "m1" }, "metricThreshold is required for metric triggers"],
    ["a metric threshold of 0", { ...metric, metricThreshold: 0 }, "metricThreshold must be an integer >= 1, got 0"],
    ["a metric trigger with a streak length", { ...metric, streakLength: 3 }, "streakLength is only allowed on streak triggers, not on metric triggers"],
    ["event filters on a metric trigger", { ...metric, eventAttributes: [{ attributeId: "e1", attributeValue: "web" }] }, null],
    ["a streak trigger", { type: "streak", points: 50, streakLength: 7 }, null],
    ["a streak trigger without length", { type: "streak", points: 50 }, "streakLength is required for streak triggers"],
    ["a streak length of 0", { type: "streak", points: 50, streakLength: 0 }, "streakLength must be an integer >= 1, got 0"],
    [
      "a streak trigger with a metric",
      { type: "streak", points: 50, streakLength: 7, metricId: "m1" },
      "metricId is only allowed on metric triggers, not on streak triggers",
    ],
    [
      "event filters on a streak trigger",
      { type: "streak", points: 5, streakLength: 7, eventAttributes: [plan] },
      "eventAttributes are only allowed on metric triggers",
    ],
    ["an achievement trigger", { type: "achievement", points: 100, achievementId: "a1" }, null],
    ["an achievement trigger without achievement", { type: "achievement", points: 100 }, "achievementId is required for achievement triggers"],
    ["a time trigger", { type: "time", points: 10, timeUnit: "hours", timeInterval: 3 }, null],
    ["a time trigger without unit", { type: "time", points: 10, timeInterval: 3 }, "timeUnit is required for time triggers"],
    ["a time trigger without interval", { type: "time", points: 10, timeUnit: "days" }, "timeInterval is required for time triggers"],
    ["a time interval of -1", { type: "time", points: 10, timeUnit: "days", timeInterval: -1 }, "timeInterval must be an integer >= 1, got -1"],
    ["a user creation trigger", { type: "user_creation", points: 100 }, null],
    [
      "a user creation trigger with a time unit",
      { type: "user_creation", points: 100, timeUnit: "days" },
      "timeUnit is only allowed on time triggers, not on user_creation triggers",
    ],
    ["user filters on any trigger", { type: "user_creation", points: 100, userAttributes: [plan] }, null],
    ["a metric trigger that blocks events", { ...metric, points: -20, blockIfOutOfPoints: true }, null],
    [
      "a user creation trigger that would block",
      { type: "user_creation", points: -5, blockIfOutOfPoints: true },
      "blockIfOutOfPoints is only allowed on metric triggers, not on user_creation triggers",
    ],
    [
      "a time trigger that would block",
      { type: "time", points: -1, timeUnit: "hours", timeInterval: 1, blockIfOutOfPoints: true },
      "blockIfOutOfPoints is only allowed on metric triggers, not on time triggers",
    ],
    ["a time trigger that does not block", { type: "time", points: -1, timeUnit: "hours", timeInterval: 1, blockIfOutOfPoints: false }, null],
    ["a filter without value", { ...metric, userAttributes: [{ attributeId: "a", attributeValue: "" }] }, "userAttributes[0].attributeValue is required"],
    ["a filter without attribute", { ...metric, eventAttributes: [{ attributeId: "", attributeValue: "x" }] }, "eventAttributes[0].attributeId is required"],
    [
      "the same attribute twice",
      { ...metric, userAttributes: [plan, { ...plan, attributeValue: "free" }] },
      'userAttributes[1]: attribute "attr-plan" is filtered twice',
    ],
  ])("%s", (_name, draft, problem) => {
    expect(checkTriggerDraft(draft)).toBe(problem);
  });

  it("are built inactive, not blocking, with empty filters and only their own settings", () => {
    expect(buildTrigger({ type: "streak", points: 5, streakLength: 3 }, "t1", now)).toEqual({
      id: "t1",
      type: "streak",
      points: 5,
      status: "inactive",
      streakLength: 3,
      userAttributes: [],
      eventAttributes: [],
      blockIfOutOfPoints: false,
      created: now,
      updated: now,
      owedFrom: now,
    });
  });

  const current = buildTrigger(metric, "t1", now);
  const active = { ...current, status: "active" as const };
  it.each<[string, typeof current, PointsTriggerChanges, string | null]>([
    ["a new points value", current, { points: 20 }, null],
    ["zero points", current, { points: 0 }, "points must be a non-zero integer (negative values deduct), got 0"],
    ["a setting of another type", current, { streakLength: 3 }, "streakLength is only allowed on streak triggers, not on metric triggers"],
    ["a type change with the new settings", current, { type: "streak", streakLength: 3 }, null],
    ["a type change without the new settings", current, { type: "time", timeUnit: "days" }, "timeInterval is required for time triggers"],
    ["a type change of an active trigger", active, { type: "streak", streakLength: 3 }, "type can only be changed while the trigger is inactive"],
    ["activation", current, { status: "active" }, null],
    ["a blocking metric trigger turned into a streak trigger", { ...current, blockIfOutOfPoints: true }, { type: "streak", streakLength: 3 }, null],
    [
      "blocking set on an achievement trigger",
      buildTrigger({ type: "achievement", points: -10, achievementId: "a1" }, "t3", now),
      { blockIfOutOfPoints: true },
      "blockIfOutOfPoints is only allowed on metric triggers, not on achievement triggers",
    ],
    [
      "a deactivation of an achievement trigger stored blocking before that was refused",
      { ...buildTrigger({ type: "achievement", points: -10, achievementId: "a1" }, "t3", now), blockIfOutOfPoints: true },
      { status: "inactive" },
      null,
    ],
    ["an archived status", current, { status: "archived" }, 'status must be "active" or "inactive", got "archived"'],
  ])("update: %s", (_name, trigger, changes, problem) => {
    expect(checkTriggerChanges(trigger, changes)).toBe(problem);
  });

  it("drop the old type's settings and event filters' null clears them", () => {
    const withFilters = { ...current, eventAttributes: [plan], userAttributes: [plan] };
    const streak = applyTriggerChanges({ ...current, blockIfOutOfPoints: true }, { type: "streak", streakLength: 3 }, now);
    expect(streak).not.toHaveProperty("metricId");
    expect(streak.blockIfOutOfPoints).toBe(false); // it blocks metric events only
    expect(streak).not.toHaveProperty("metricThreshold");
    expect(streak).toMatchObject({ type: "streak", streakLength: 3 });
    expect(applyTriggerChanges(withFilters, { eventAttributes: null, userAttributes: null }, now)).toMatchObject({ eventAttributes: [], userAttributes: [] });
    expect(applyTriggerChanges(withFilters, { points: 3 }, now)).toMatchObject({ points: 3, eventAttributes: [plan], userAttributes: [plan] });
  });

  it("owe time intervals from their activation or a new schedule, not from an edit of their points or filters", () => {
    const later = new Date(now.getTime() + 3_600_000);
    const time = { ...buildTrigger({ type: "time", points: 5, timeUnit: "hours", timeInterval: 1 }, "t2", now), status: "active" as const };
    expect(applyTriggerChanges(time, { points: 9, userAttributes: [plan] }, later).owedFrom).toEqual(now);
    expect(applyTriggerChanges(time, { status: "active" }, later).owedFrom).toEqual(now); // already active
    expect(applyTriggerChanges(time, { timeInterval: 2 }, later).owedFrom).toEqual(later);
    expect(applyTriggerChanges(time, { timeUnit: "days" }, later).owedFrom).toEqual(later);
    const paused = applyTriggerChanges(time, { status: "inactive" }, later);
    expect(paused.owedUntil).toEqual(later); // what came due before it is still paid
    expect(applyTriggerChanges(paused, { points: 3 }, new Date(later.getTime() + 5)).owedUntil).toEqual(later);
    const resumed = applyTriggerChanges(paused, { status: "active" }, new Date(later.getTime() + 1));
    expect([resumed.owedFrom, resumed.owedUntil]).toEqual([new Date(later.getTime() + 1), undefined]);
    expect(applyTriggerChanges(current, { type: "time", timeUnit: "days", timeInterval: 1 }, later).owedFrom).toEqual(later);
    // Stored before `owedFrom` existed: its last update stands in.
    const { owedFrom: _, ...stored } = { ...time, updated: later };
    expect(applyTriggerChanges(stored, { points: 9 }, new Date(later.getTime() + 5)).owedFrom).toEqual(later);
  });
});

describe("points levels", () => {
  const base: PointsLevelDraft = { key: "bronze", name: "Bronze", points: 100 };
  it.each<[string, Partial<PointsLevelDraft>, string | null]>([
    ["a level", {}, null],
    ["a threshold of 0", { points: 0 }, null],
    ["a negative threshold", { points: -1 }, "points must be an integer >= 0, got -1"],
    ["a fractional threshold", { points: 0.5 }, "points must be an integer >= 0, got 0.5"],
    ["an invalid key", { key: "bronze!" }, 'key "bronze!" is invalid: use letters, digits, hyphens and underscores, at most 100 characters'],
    ["no name", { name: "" }, "name is required"],
    ["a bad badge", { badge: { url: "" } }, 'badge.url must be an absolute http or https URL, got ""'],
    ["a description of 1,001 characters", { description: "d".repeat(1001) }, "description must be at most 1000 characters"],
  ])("%s", (_name, patch, problem) => {
    expect(checkLevelDraft({ ...base, ...patch })).toBe(problem);
  });

  it("report repeated keys and thresholds within one list", () => {
    expect(findDuplicateLevel([base, { key: "silver", points: 500 }])).toBeNull();
    expect(findDuplicateLevel([base, { key: "bronze", points: 500 }])).toBe('levels[1]: Key "bronze" is already in use by another level of this points system');
    expect(findDuplicateLevel([base, { key: "silver", points: 100 }])).toBe(
      "levels[1]: points 100 is already the threshold of another level of this points system; thresholds must be unique",
    );
  });

  it("check only the fields an update sets", () => {
    expect(checkLevelChanges({ badge: null })).toBeNull();
    expect(checkLevelChanges({ points: -5 })).toBe("points must be an integer >= 0, got -5");
    expect(checkLevelChanges({ description: "d".repeat(1001) })).toBe("description must be at most 1000 characters");
  });
});

describe("points boosts", () => {
  const base: PointsBoostDraft = { name: "Double XP", start: "2026-03-01", multiplier: 2 };
  it.each<[string, Partial<PointsBoostDraft>, string | null]>([
    ["a global boost", {}, null],
    ["a decimal multiplier", { multiplier: 1.5, rounding: "nearest" }, null],
    // Protobuf reads a missing multiplier as 0.
    ["no multiplier (or 0)", { multiplier: 0 }, "multiplier is required: a number greater than 0, less than 100 and not 1"],
    ["a negative multiplier", { multiplier: -2 }, "multiplier must be greater than 0, less than 100 and not 1, got -2"],
    ["a multiplier of 1", { multiplier: 1 }, "multiplier must be greater than 0, less than 100 and not 1, got 1"],
    ["a multiplier of 100", { multiplier: 100 }, "multiplier must be greater than 0, less than 100 and not 1, got 100"],
    ["an infinite multiplier", { multiplier: Number.POSITIVE_INFINITY }, "multiplier must be greater than 0, less than 100 and not 1, got Infinity"],
    ["no name", { name: "" }, "name is required"],
    ["a long name", { name: "b".repeat(256) }, "name must be at most 255 characters"],
    ["no start", { start: "" }, "start is required (YYYY-MM-DD)"],
    ["a timestamp start", { start: "2026-03-01T00:00:00Z" }, 'start must be a date (YYYY-MM-DD), got "2026-03-01T00:00:00Z"'],
    ["an impossible start", { start: "2026-02-30" }, 'start must be a date (YYYY-MM-DD), got "2026-02-30"'],
    ["an end before the start", { end: "2026-02-28" }, "end (2026-02-28) must not be before start (2026-03-01)"],
    ["a one-day boost", { end: "2026-03-01" }, null],
    ["a bad end", { end: "03/05/2026" }, 'end must be a date (YYYY-MM-DD), got "03/05/2026"'],
    ["a start before 2000", { start: "0001-01-01" }, 'start must be from 2000-01-01 to 2099-12-31, got "0001-01-01"'],
    ["an end after 2099", { end: "2100-01-01" }, 'end must be from 2000-01-01 to 2099-12-31, got "2100-01-01"'],
    ["a user-specific boost", { userId: "u1" }, null],
    ["a cohort boost", { userAttributes: [plan] }, null],
    ["both user and cohort", { userId: "u1", userAttributes: [plan] }, "userAttributes cannot be set on a user-specific boost (userId is set)"],
  ])("%s", (_name, patch, problem) => {
    expect(checkBoostDraft({ ...base, ...patch })).toBe(problem);
  });

  it("round down by default", () => {
    expect(buildBoost(base, "b1", now)).toMatchObject({ rounding: "down", end: null, userId: null, userAttributes: [], archived: false });
  });

  it("updates: a user-specific boost takes no cohort filters; the end may be removed", () => {
    const userBoost = buildBoost({ ...base, userId: "u1", end: "2026-03-05" }, "b1", now);
    expect(checkBoostChanges(userBoost, { userAttributes: [plan] })).toBe("userAttributes cannot be set on a user-specific boost");
    expect(checkBoostChanges(userBoost, { userAttributes: null, end: null })).toBeNull();
    expect(checkBoostChanges(userBoost, { start: "2026-03-06" })).toBe("end (2026-03-05) must not be before start (2026-03-06)");
    expect(checkBoostChanges(userBoost, { multiplier: 1 })).toBe("multiplier must be greater than 0, less than 100 and not 1, got 1");
  });

  it.each<[string, string, string | null, boolean, string]>([
    ["before the start day", "2026-03-11", null, false, "scheduled"],
    ["on the start day (UTC)", "2026-03-10", null, false, "active"],
    ["without end", "2026-01-01", null, false, "active"],
    ["on the end day", "2026-03-01", "2026-03-10", false, "active"],
    ["after the end day", "2026-03-01", "2026-03-09", false, "finished"],
    ["archived", "2026-03-01", null, true, "archived"],
  ])("status %s", (_name, start, end, archived, status) => {
    expect(boostStatus({ start, end, archived }, now)).toBe(status);
  });

  it("status follows the UTC day, not the server's zone", () => {
    expect(boostStatus({ start: "2026-03-11", end: null, archived: false }, new Date("2026-03-10T23:59:59Z"))).toBe("scheduled");
    expect(boostStatus({ start: "2026-03-11", end: null, archived: false }, new Date("2026-03-11T00:00:00Z"))).toBe("active");
  });
});
