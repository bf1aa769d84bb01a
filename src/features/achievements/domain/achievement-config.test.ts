import { describe, expect, it } from "vitest";
import {
  achievementSettings,
  checkAchievementDraft,
  checkAchievementReferences,
  findPrerequisiteCycle,
  mergeAchievementChanges,
  redefinesProgress,
  type AchievementDraft,
  type AchievementReferences,
  type AchievementSettings,
} from "./achievement-config.js";

const metric: AchievementDraft = { name: "1,000 words", key: "words-1000", trigger: "metric", metricId: "m1", metricValue: 1000 };

describe("checkAchievementDraft", () => {
  it.each<[string, AchievementDraft]>([
    ["a metric achievement", metric],
    ["with filters", { ...metric, userAttributes: [{ key: "plan", value: "pro" }], eventAttributes: [{ key: "source", value: "web" }] }],
    ["a streak achievement", { name: "Week", key: "week", trigger: "streak", streakLength: 7 }],
    ["an API achievement", { name: "Profile", key: "profile_done", trigger: "api", badgeUrl: "https://cdn.example.com/b.png", description: "Filled in" }],
    ["a composite achievement", { name: "Master", key: "master", trigger: "achievement", achievementIds: ["a", "b"] }],
  ])("accepts %s", (_name, draft) => expect(checkAchievementDraft(draft)).toBeNull());

  it.each<[AchievementDraft, string]>([
    [{ ...metric, name: " " }, "name is required"],
    [{ ...metric, name: "x".repeat(256) }, "name must be at most 255 characters"],
    [{ ...metric, key: "" }, "key is required"],
    [{ ...metric, key: "has space" }, 'key "has space" is invalid: use letters, digits, hyphens and underscores, at most 100 characters'],
    [{ ...metric, description: "d".repeat(1001) }, "description must be at most 1000 characters"],
    [{ ...metric, badgeUrl: "not a url" }, 'badgeUrl "not a url" is not an absolute URL'],
    [{ ...metric, badgeUrl: "ftp://example.com/b.png" }, 'badgeUrl "ftp://example.com/b.png" must be an http or https URL'],
    [{ name: "x", key: "x" }, 'trigger is required: "metric", "streak", "api" or "achievement"'],
    [{ ...metric, metricId: undefined }, "metricId is required for a metric achievement"],
    [{ ...metric, metricValue: undefined }, "metricValue is required for a metric achievement"],
    [{ ...metric, metricValue: 0 }, "metricValue must be a number greater than 0 and at most 1000000000000000 (the largest total), got 0"],
    [
      { ...metric, metricValue: Number.POSITIVE_INFINITY },
      "metricValue must be a number greater than 0 and at most 1000000000000000 (the largest total), got Infinity",
    ],
    [
      { ...metric, metricValue: 1e15 + 2 },
      "metricValue must be a number greater than 0 and at most 1000000000000000 (the largest total), got 1000000000000002",
    ],
    [{ ...metric, streakLength: 3 }, "streakLength is only allowed for streak achievements, not metric achievements"],
    [{ name: "S", key: "s", trigger: "streak" }, "streakLength is required for a streak achievement"],
    [{ name: "S", key: "s", trigger: "streak", streakLength: 0 }, "streakLength must be a whole number of at least 1, got 0"],
    [{ name: "S", key: "s", trigger: "streak", streakLength: 1.5 }, "streakLength must be a whole number of at least 1, got 1.5"],
    [{ name: "S", key: "s", trigger: "streak", streakLength: 2, metricId: "m1" }, "metricId is only allowed for metric achievements, not streak achievements"],
    [
      { name: "S", key: "s", trigger: "streak", streakLength: 2, eventAttributes: [{ key: "source", value: "web" }] },
      "eventAttributes is only allowed for metric achievements, not streak achievements",
    ],
    [{ name: "A", key: "a", trigger: "api", achievementIds: ["x"] }, "achievementIds is only allowed for achievement achievements, not api achievements"],
    [{ name: "C", key: "c", trigger: "achievement" }, "achievementIds must list at least one prerequisite achievement for an achievement trigger"],
    [{ name: "C", key: "c", trigger: "achievement", achievementIds: ["a", "a"] }, 'achievementIds lists "a" more than once'],
    [{ ...metric, userAttributes: [{ key: "", value: "pro" }] }, "userAttributes[0].key is required"],
    [{ ...metric, userAttributes: [{ key: "plan", value: "" }] }, "userAttributes[0].value is required"],
    [{ ...metric, userAttributes: [{ key: "plan", value: "v".repeat(256) }] }, "userAttributes[0].value must be at most 255 characters"],
    [
      {
        ...metric,
        eventAttributes: [
          { key: "source", value: "web" },
          { key: "source", value: "app" },
        ],
      },
      'eventAttributes[1].key "source" is repeated: filter each attribute once',
    ],
  ])("refuses %j: %s", (draft, message) => expect(checkAchievementDraft(draft)).toBe(message));

  it("refuses an achievement that is its own prerequisite", () => {
    expect(checkAchievementDraft({ name: "C", key: "c", trigger: "achievement", achievementIds: ["self"] }, "self")).toBe(
      "achievementIds must not include the achievement itself",
    );
  });
});

describe("achievementSettings", () => {
  it("applies defaults: inactive, null description and badge, empty lists", () => {
    expect(achievementSettings(metric)).toEqual({
      key: "words-1000",
      name: "1,000 words",
      description: null,
      badgeUrl: null,
      trigger: "metric",
      status: "inactive",
      metricId: "m1",
      metricValue: 1000,
      streakLength: null,
      achievementIds: [],
      userAttributes: [],
      eventAttributes: [],
    });
  });
});

describe("mergeAchievementChanges", () => {
  const current: AchievementSettings = {
    ...achievementSettings(metric),
    description: "Write a lot",
    userAttributes: [{ key: "plan", value: "pro" }],
    eventAttributes: [{ key: "source", value: "web" }],
  };

  it("changes only what is set", () => {
    expect(mergeAchievementChanges(current, { name: "Renamed", status: "active" })).toMatchObject({
      name: "Renamed",
      status: "active",
      description: "Write a lot",
      metricId: "m1",
      userAttributes: [{ key: "plan", value: "pro" }],
    });
  });

  it("drops the previous trigger's fields when the trigger changes", () => {
    const merged = mergeAchievementChanges(current, { trigger: "streak", streakLength: 3 });
    expect(merged).toMatchObject({ trigger: "streak", streakLength: 3, metricId: undefined, metricValue: undefined, eventAttributes: [] });
    expect(checkAchievementDraft(merged)).toBeNull();
  });

  it("removes optional values set to null", () => {
    const merged = mergeAchievementChanges(current, { description: null, userAttributes: null, eventAttributes: [] });
    expect(merged).toMatchObject({ userAttributes: [], eventAttributes: [], metricId: "m1" });
    expect(merged.description).toBeUndefined();
  });
});

describe("checkAchievementReferences", () => {
  const refs: AchievementReferences = {
    metricIds: new Set(["m1"]),
    userAttributeKeys: new Set(["plan"]),
    eventAttributeKeys: new Set(["source"]),
    prerequisites: new Map([
      ["a", []],
      ["b", ["a"]],
      ["c", ["b"]],
    ]),
  };
  const composite = (ids: string[]) => achievementSettings({ name: "C", key: "c", trigger: "achievement", achievementIds: ids });

  it.each<[string, AchievementSettings, string | null, string | null]>([
    ["known references", achievementSettings({ ...metric, userAttributes: [{ key: "plan", value: "pro" }] }), null, null],
    ["an unknown metric", achievementSettings({ ...metric, metricId: "other" }), null, 'metricId "other" is not a metric of this tenant'],
    [
      "an event attribute key used as a user attribute",
      achievementSettings({ ...metric, userAttributes: [{ key: "source", value: "web" }] }),
      null,
      `userAttributes[0].key "source" is not one of this tenant's user attributes`,
    ],
    [
      "an unknown event attribute",
      achievementSettings({ ...metric, eventAttributes: [{ key: "medium", value: "x" }] }),
      null,
      `eventAttributes[0].key "medium" is not one of this tenant's event attributes`,
    ],
    ["an unknown prerequisite", composite(["a", "zz"]), null, 'achievementIds: "zz" is not an achievement of this tenant'],
    ["a new composite", composite(["c"]), null, null],
    ["an update closing a cycle", composite(["c"]), "a", "achievementIds would make a cycle of prerequisites: a -> c -> b -> a"],
  ])("%s", (_name, settings, id, message) => expect(checkAchievementReferences(settings, id, refs)).toBe(message));
});

describe("findPrerequisiteCycle", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", []],
    ["d", ["a", "c"]],
  ]);
  it.each<[string, string[], string[] | null]>([
    ["c", ["d"], ["c", "d", "a", "b", "c"]],
    ["c", ["a"], ["c", "a", "b", "c"]],
    ["a", ["c"], null],
    ["d", ["b"], null],
    ["new", ["a", "d"], null],
  ])("%s with prerequisites %j", (id, prerequisites, cycle) => expect(findPrerequisiteCycle(id, prerequisites, graph)).toEqual(cycle));
});

describe("redefinesProgress", () => {
  const current: AchievementSettings = {
    ...achievementSettings(metric),
    eventAttributes: [
      { key: "source", value: "web" },
      { key: "device", value: "ios" },
    ],
  };
  const after = (changes: Parameters<typeof mergeAchievementChanges>[1]) => achievementSettings(mergeAchievementChanges(current, changes));
  it.each<[string, Parameters<typeof mergeAchievementChanges>[1], boolean]>([
    ["another metric", { metricId: "m2" }, true],
    ["another filter value", { eventAttributes: [{ key: "source", value: "app" }] }, true],
    ["no filters", { eventAttributes: null }, true],
    ["another trigger", { trigger: "api" }, true],
    [
      "the same filters in another order",
      {
        eventAttributes: [
          { key: "device", value: "ios" },
          { key: "source", value: "web" },
        ],
      },
      false,
    ],
    ["a new threshold, name, status or user filter", { metricValue: 10, name: "N", status: "active", userAttributes: [{ key: "plan", value: "pro" }] }, false],
  ])("%s: %s", (_name, changes, expected) => {
    expect(redefinesProgress(current, after(changes))).toBe(expected);
  });
});
