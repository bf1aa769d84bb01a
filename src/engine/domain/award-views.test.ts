import { describe, expect, it } from "vitest";
import type { AchievementConfig } from "../../features/achievements/domain/achievement-config.js";
import { achievementTriggerFields, awardBoostView, awardTriggerFields } from "./award-views.js";

const at = new Date("2026-03-01T00:00:00Z");
const base: AchievementConfig = {
  id: "a1",
  key: "a1",
  name: "A1",
  description: null,
  badgeUrl: null,
  trigger: "metric",
  status: "active",
  metricId: "m1",
  metricValue: 10,
  streakLength: 7,
  achievementIds: ["a0"],
  userAttributes: [{ key: "plan", value: "pro" }],
  eventAttributes: [{ key: "source", value: "web" }],
  created: at,
  updated: at,
};
const names = (id: string) => ({ m1: "Words" })[id];

describe("achievementTriggerFields", () => {
  it("shows the fields of the achievement's own trigger type only", () => {
    expect(achievementTriggerFields(base, names)).toEqual({
      metricId: "m1",
      metricValue: 10,
      metricName: "Words",
      eventAttributes: [{ key: "source", value: "web" }],
    });
    expect(achievementTriggerFields({ ...base, trigger: "streak" }, names)).toEqual({ streakLength: 7 });
    expect(achievementTriggerFields({ ...base, trigger: "achievement" }, names)).toEqual({ achievementIds: ["a0"] });
    expect(achievementTriggerFields({ ...base, trigger: "api" }, names)).toEqual({});
  });

  it("leaves out what is not set, and a metric name that is not known", () => {
    expect(achievementTriggerFields({ ...base, trigger: "streak", streakLength: null }, names)).toEqual({});
    expect(achievementTriggerFields({ ...base, metricId: "gone", metricValue: null }, names)).toEqual({
      metricId: "gone",
      eventAttributes: [{ key: "source", value: "web" }],
    });
  });
});

describe("award views", () => {
  it("show the trigger fields that are set, in the reference's order, and boosts as active", () => {
    const fields = awardTriggerFields({ id: "t1", type: "time", points: 5, timeInterval: 2, timeUnit: "day", status: "active", userAttributes: [] });
    expect(Object.entries(fields)).toEqual([
      ["timeUnit", "day"],
      ["timeInterval", 2],
    ]);
    expect(awardBoostView({ id: "b1", name: "Double", start: "2026-03-01", end: null, multiplier: 2, rounding: "down" })).toEqual({
      id: "b1",
      name: "Double",
      status: "active",
      start: "2026-03-01",
      end: null,
      multiplier: 2,
      rounding: "down",
    });
  });
});
