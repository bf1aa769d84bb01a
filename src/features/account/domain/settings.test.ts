import { describe, expect, it } from "vitest";
import type { AchievementConfig } from "../../achievements/domain/achievement-config.js";
import { applyEvent } from "../../../engine/domain/event.js";
import { newUserState, nextDueAt, react, type EngineConfig } from "../../../engine/domain/reactions.js";
import { applySettingsUpdate, checkSettingsUpdate, DEFAULT_SETTINGS, experimentBucket, isBrandColor, isInControlGroup } from "./settings.js";
import { sha256 } from "../../../engine/sha256.js";

describe("brand colours", () => {
  it("accept #RGB, #RRGGBB, rgb() and rgba() within range", () => {
    for (const ok of ["#abc", "#A1B2C3", "rgb(0,0,0)", "rgb( 255 , 10, 9 )", "rgba(1,2,3,0.5)", "rgba(1,2,3,1)", "rgba(1,2,3,0)"])
      expect([ok, isBrandColor(ok)]).toEqual([ok, true]);
    for (const bad of ["red", "#abcd", "#12345", "rgb(256,0,0)", "rgb(1,2)", "rgba(1,2,3,1.5)", "rgba(1,2,3)", " #abc"])
      expect([bad, isBrandColor(bad)]).toEqual([bad, false]);
  });
});

describe("settings updates", () => {
  it("change only what is given; null clears an image", () => {
    const withLogo = applySettingsUpdate(DEFAULT_SETTINGS, {
      branding: { appName: "Acme", logo: { url: "https://a.example/l.png" } },
      aggregationPeriod: "monthly",
    });
    expect(withLogo).toEqual({
      ...DEFAULT_SETTINGS,
      branding: { ...DEFAULT_SETTINGS.branding, appName: "Acme", logo: { url: "https://a.example/l.png" } },
      aggregationPeriod: "monthly",
    });
    const cleared = applySettingsUpdate(withLogo, { branding: { logo: null, appName: undefined }, experimentation: { controlRatio: 10 } });
    expect(cleared.branding).toEqual({ ...withLogo.branding, logo: null });
    expect(cleared.experimentation).toEqual({ controlRatio: 10, userActivationWindow: 14 });
  });

  it("are checked field by field", () => {
    expect(checkSettingsUpdate({ branding: { appUrl: "" }, experimentation: { controlRatio: 100, userActivationWindow: 365 } })).toBeNull();
    expect(checkSettingsUpdate({ branding: { appUrl: "javascript:alert(1)" } })).toMatch(/appUrl/);
    expect(checkSettingsUpdate({ branding: { appIcon: { url: "/relative.png" } } })).toMatch(/appIcon\.url/);
    expect(checkSettingsUpdate({ branding: { appName: " padded" } })).toMatch(/appName/);
    expect(checkSettingsUpdate({ experimentation: { controlRatio: 12.5 } })).toMatch(/controlRatio/);
    expect(checkSettingsUpdate({ experimentation: { userActivationWindow: 366 } })).toMatch(/userActivationWindow/);
  });
});

describe("the control group", () => {
  it("is decided by a stable hash bucket of the user ID", () => {
    expect(experimentBucket("user-1", sha256)).toBe(experimentBucket("user-1", sha256));
    const buckets = Array.from({ length: 1000 }, (_, i) => experimentBucket(`user-${i}`, sha256));
    expect(Math.min(...buckets)).toBe(0);
    expect(Math.max(...buckets)).toBe(99);
    const inTen = buckets.filter((b) => b < 10).length;
    expect(inTen).toBeGreaterThan(60); // about a tenth of a thousand IDs
    expect(inTen).toBeLessThan(140);
    expect(isInControlGroup("user-1", 0, sha256)).toBe(false);
    expect(isInControlGroup("user-1", 100, sha256)).toBe(true);
    expect(isInControlGroup("user-1", experimentBucket("user-1", sha256), sha256)).toBe(false);
    expect(isInControlGroup("user-1", experimentBucket("user-1", sha256) + 1, sha256)).toBe(true);
  });

  it("earns nothing from an event: no streak, achievement, points or due work", () => {
    const first: AchievementConfig = {
      id: "a1",
      key: "first",
      name: "First",
      trigger: "metric",
      metricId: "m1",
      metricValue: 1,
      status: "active",
      userAttributes: [],
      eventAttributes: [],
    } as unknown as AchievementConfig;
    const config: EngineConfig = {
      achievements: [first],
      points: { systems: [], attributeKeys: {} },
      streak: { frequency: "daily", metrics: [{ metricId: "m1", threshold: 1 }], evaluationMode: "all", freezes: null },
      newId: () => "id",
      sha256,
      controlRatio: 100,
    };
    const now = new Date("2026-05-01T12:00:00Z");
    const user = newUserState("u1", now, config);
    expect(user.control).toBe(true);
    const { state, outcome } = applyEvent(user, { eventId: "e", metricId: "m1", at: now, user: { id: "u1" }, value: 5, attributes: {} }, now, config, true);
    expect(outcome.total).toBe("5");
    // The streak shown is a zero-length one of the tenant's frequency; none is stored.
    expect(outcome.reactions).toMatchObject({ achievements: [], points: [], streak: { length: 0, frequency: "daily", extended: false }, streakEvents: [] });
    expect([state.achievements, state.streak, state.activity]).toEqual([{}, null, { "2026-05-01": "1" }]);
    expect(nextDueAt(state, config)).toBeNull();
    // The same user outside the control group earns the achievement and starts a streak.
    const earner = applyEvent(
      { ...user, control: false },
      { eventId: "e", metricId: "m1", at: now, user: { id: "u1" }, value: 5, attributes: {} },
      now,
      config,
      true,
    );
    expect([earner.outcome.reactions.achievements.length, earner.outcome.reactions.streak?.length]).toEqual([1, 1]);
    expect(react(state, { apiAchievementId: "a1", userCreated: false }, config, now).reactions.achievements).toEqual([]);
  });
});
