import { describe, expect, it } from "vitest";
import { checkStreakReferences, checkStreakSettings, streakSettings, type StreakSettingsDraft } from "./streak-config.js";

const daily: StreakSettingsDraft = { frequency: "daily", metrics: [{ metricId: "m1", threshold: 500 }] };
const freezes = { initialGrant: 1, maxFreezes: 3, autoEarn: { amount: 1, intervalDays: 7 } };

describe("checkStreakSettings", () => {
  it.each<[string, StreakSettingsDraft]>([
    ["one metric", daily],
    [
      "several metrics, any of them",
      {
        frequency: "weekly",
        evaluationMode: "any",
        metrics: [
          { metricId: "m1", threshold: 1 },
          { metricId: "m2", threshold: 0.5 },
        ],
      },
    ],
    ["freezes with automatic earning", { ...daily, freezes }],
    ["freezes without earning, the most allowed", { ...daily, freezes: { initialGrant: 100, maxFreezes: 100, autoEarn: null } }],
    ["freezes switched off", { ...daily, freezes: null }],
  ])("accepts %s", (_name, draft) => expect(checkStreakSettings(draft)).toBeNull());

  it.each<[StreakSettingsDraft, string]>([
    [{ metrics: daily.metrics }, 'frequency is required: "daily", "weekly" or "monthly"'],
    [{ frequency: "daily", metrics: [] }, "metrics must list at least one metric and its threshold"],
    [{ frequency: "daily", metrics: [{ metricId: "", threshold: 1 }] }, "metrics[0].metricId is required"],
    [
      { frequency: "daily", metrics: [{ metricId: "m1", threshold: 0 }] },
      "metrics[0].threshold must be a number greater than 0 and at most 1000000000000000 (the largest total), got 0",
    ],
    [
      { frequency: "daily", metrics: [{ metricId: "m1", threshold: Number.NaN }] },
      "metrics[0].threshold must be a number greater than 0 and at most 1000000000000000 (the largest total), got NaN",
    ],
    [
      { frequency: "daily", metrics: [{ metricId: "m1", threshold: 1e16 }] },
      "metrics[0].threshold must be a number greater than 0 and at most 1000000000000000 (the largest total), got 10000000000000000",
    ],
    [
      {
        frequency: "daily",
        metrics: [
          { metricId: "m1", threshold: 1 },
          { metricId: "m1", threshold: 2 },
        ],
      },
      'metrics[1].metricId "m1" is listed more than once: give each metric one threshold',
    ],
    [{ ...daily, freezes: { ...freezes, maxFreezes: 101 } }, "freezes.maxFreezes must be a whole number from 0 to 100, got 101"],
    [{ ...daily, freezes: { ...freezes, maxFreezes: -1 } }, "freezes.maxFreezes must be a whole number from 0 to 100, got -1"],
    [{ ...daily, freezes: { ...freezes, initialGrant: -1 } }, "freezes.initialGrant must be a whole number of at least 0, got -1"],
    [{ ...daily, freezes: { ...freezes, initialGrant: 4 } }, "freezes.initialGrant (4) must not exceed freezes.maxFreezes (3)"],
    [{ ...daily, freezes: { ...freezes, autoEarn: { amount: 0, intervalDays: 7 } } }, "freezes.autoEarn.amount must be a whole number of at least 1, got 0"],
    [
      { ...daily, freezes: { ...freezes, autoEarn: { amount: 1, intervalDays: 0 } } },
      "freezes.autoEarn.intervalDays must be a whole number of at least 1, got 0",
    ],
  ])("refuses %j: %s", (draft, message) => expect(checkStreakSettings(draft)).toBe(message));
});

describe("streakSettings", () => {
  it("evaluates all conditions unless told otherwise; freezes off unless given", () => {
    expect(streakSettings(daily)).toEqual({
      frequency: "daily",
      metrics: [{ metricId: "m1", threshold: 500 }],
      evaluationMode: "all",
      freezes: null,
      customizationEnabled: false,
      daysOff: [],
    });
  });
});

describe("checkStreakReferences", () => {
  it.each<[string[], string | null]>([
    [["m1", "m2"], null],
    [["m2"], 'metrics[0].metricId "m1" is not a metric of this tenant'],
  ])("with the tenant's metrics %j", (known, message) => expect(checkStreakReferences(streakSettings(daily), new Set(known))).toBe(message));
});
