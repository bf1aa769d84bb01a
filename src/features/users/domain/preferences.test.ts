import { describe, expect, it } from "vitest";
import { applyPreferencesPatch, checkPreferencesPatch, emptyPreferences, isOptedOutOfLeaderboards, type PreferencesPatch } from "./preferences.js";
import { checkStreakSettings, patchStreakSettings, type StreakSettings } from "../../streaks/domain/streak-config.js";

const M = "metric-1";
const tenant: StreakSettings = {
  frequency: "daily",
  metrics: [{ metricId: M, threshold: 1 }],
  evaluationMode: "all",
  freezes: null,
  customizationEnabled: true,
  daysOff: [],
};

describe("checkPreferencesPatch", () => {
  it.each<[string, PreferencesPatch]>([
    ["notification channels", { notifications: { recap: ["email"], streak_reminder: [], achievement_completed: ["email", "push"] } }],
    ["streak overrides", { streak: { evaluationMode: "any", metrics: [{ metricId: M, threshold: 2.5 }], daysOff: [0, 6] } }],
    ["no days off", { streak: { daysOff: [] } }],
  ])("accepts %s", (_name, patch) => expect(checkPreferencesPatch(patch, tenant)).toBeNull());

  it.each<[PreferencesPatch, StreakSettings | null, string]>([
    [
      { notifications: { sms: ["email"] } },
      tenant,
      "notifications.sms is not a notification type: use achievement_completed, recap, reactivation, streak_reminder",
    ],
    [{ notifications: { recap: ["fax"] } }, tenant, 'notifications.recap[0] must be "email" or "push", got "fax"'],
    [{ notifications: { recap: ["push", "push"] } }, tenant, 'notifications.recap[1] ("push") is listed more than once'],
    [{ streak: { daysOff: [7] } }, tenant, "streak.daysOff[0] must be a weekday from 0 (Sunday) to 6 (Saturday), got 7"],
    [{ streak: { metrics: [{ metricId: "other", threshold: 1 }] } }, tenant, 'streak.metrics[0].key "other" is not one of the tenant\'s streak metrics'],
    [
      { streak: { metrics: [{ metricId: M, threshold: 0 }] } },
      tenant,
      "streak.metrics[0].threshold must be a number greater than 0 and at most 1000000000000000, got 0",
    ],
    [
      { streak: { evaluationMode: "any" } },
      { ...tenant, customizationEnabled: false },
      "Streak customization is not enabled for this tenant: evaluationMode, metrics and daysOff need customizationEnabled in the streak settings",
    ],
    [
      { streak: { daysOff: [1] } },
      null,
      "Streak customization is not enabled for this tenant: evaluationMode, metrics and daysOff need customizationEnabled in the streak settings",
    ],
  ])("refuses %j", (patch, settings, message) => expect(checkPreferencesPatch(patch, settings)).toBe(message));

  it("lets a user turn streaks off without customization", () => {
    expect(checkPreferencesPatch({ streak: { enabled: false } }, { ...tenant, customizationEnabled: false })).toBeNull();
  });
});

describe("applyPreferencesPatch", () => {
  it("sets the kinds sent, keeps the others, and replaces the streak preferences as a whole", () => {
    const first = applyPreferencesPatch(emptyPreferences(), {
      notifications: { recap: ["email"], reactivation: ["push"] },
      streak: { evaluationMode: "any", daysOff: [6, 0] },
    });
    expect(first).toEqual({ notifications: { recap: ["email"], reactivation: ["push"] }, streak: { evaluationMode: "any", daysOff: [0, 6] } });
    const second = applyPreferencesPatch(first, { notifications: { recap: [] }, streak: { enabled: false } });
    expect(second).toEqual({ notifications: { recap: [], reactivation: ["push"] }, streak: { enabled: false } });
    expect(applyPreferencesPatch(second, {})).toEqual(second);
  });
});

describe("streak settings: days off and the clients' partial update", () => {
  it("checks days off: weekdays 0 to 6, once each, daily streaks only", () => {
    const daily = { frequency: "daily" as const, metrics: [{ metricId: M, threshold: 1 }] };
    expect(checkStreakSettings({ ...daily, daysOff: [0, 6] })).toBeNull();
    expect(checkStreakSettings({ ...daily, daysOff: [-1] })).toBe("daysOff[0] must be a weekday from 0 (Sunday) to 6 (Saturday), got -1");
    expect(checkStreakSettings({ ...daily, daysOff: [2, 2] })).toBe("daysOff[1] (2) is listed more than once");
    expect(checkStreakSettings({ ...daily, frequency: "weekly", daysOff: [0] })).toBe('daysOff must be empty unless the frequency is "daily" (it is "weekly")');
  });

  it("keeps what a PATCH does not send; null freezes turn them off; leaving daily clears the days off", () => {
    const current: StreakSettings = { ...tenant, daysOff: [0, 6], freezes: { initialGrant: 1, maxFreezes: 2, autoEarn: null } };
    expect(patchStreakSettings(current, { evaluationMode: "any" })).toEqual({ ...current, evaluationMode: "any" });
    expect(patchStreakSettings(current, { freezes: null }).freezes).toBeNull();
    expect(patchStreakSettings(current, { frequency: "weekly" })).toMatchObject({ frequency: "weekly", daysOff: [] });
    expect(patchStreakSettings(null, { frequency: "daily" })).toMatchObject({
      frequency: "daily",
      metrics: [],
      freezes: null,
      customizationEnabled: false,
      daysOff: [],
    });
  });
});

describe("leaderboard opt-out", () => {
  it("is off until set, set and cleared by an update that names it, kept by one that does not", () => {
    const none = emptyPreferences();
    expect(isOptedOutOfLeaderboards(none)).toBe(false);
    const out = applyPreferencesPatch(none, { leaderboards: { optOut: true } });
    expect(isOptedOutOfLeaderboards(out)).toBe(true);
    expect(isOptedOutOfLeaderboards(applyPreferencesPatch(out, { notifications: { recap: [] } }))).toBe(true);
    expect(isOptedOutOfLeaderboards(applyPreferencesPatch(out, { leaderboards: {} }))).toBe(true);
    expect(isOptedOutOfLeaderboards(applyPreferencesPatch(out, { leaderboards: { optOut: false } }))).toBe(false);
  });
});
