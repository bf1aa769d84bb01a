import { describe, expect, it } from "vitest";
import type { AchievementConfig } from "./achievement-config.js";
import { completeAchievements, isVisibleTo, progressKeyOf, rarityOf } from "./achievements.js";
import { createUserState, type UserState } from "../../../engine/domain/user.js";

const at = new Date("2026-05-01T10:00:00Z");
let counter = 0;
const newId = () => `c${++counter}`;

function achievement(id: string, fields: Partial<AchievementConfig>): AchievementConfig {
  return {
    id,
    key: id,
    name: id,
    description: null,
    badgeUrl: null,
    trigger: "metric",
    status: "active",
    metricId: null,
    metricValue: null,
    streakLength: null,
    achievementIds: [],
    userAttributes: [],
    eventAttributes: [],
    created: at,
    updated: at,
    ...fields,
  };
}

function user(total: string, attributes: Record<string, string> = {}): UserState {
  return { ...createUserState("u", at), attributes, metrics: { words: { total, daily: {} } } };
}

const novice = achievement("novice", { metricId: "words", metricValue: 500 });
const expert = achievement("expert", { metricId: "words", metricValue: 1000 });
const onboarding = achievement("onboarding", { trigger: "api" });
const master = achievement("master", { trigger: "achievement", achievementIds: ["novice", "onboarding"] });
const week = achievement("week", { trigger: "streak", streakLength: 7 });
const mobile = achievement("mobile", { metricId: "words", metricValue: 1, eventAttributes: [{ key: "source", value: "mobile" }] });
const pro = achievement("pro", { metricId: "words", metricValue: 1, userAttributes: [{ key: "plan", value: "pro" }] });
const ALL = [novice, expert, onboarding, master, week, mobile, pro];
const wordsEvent = (attributes: Record<string, string> = {}, value = 1) => ({ event: { metricId: "words", value, attributes } });

function ids(result: { completed: AchievementConfig[] }) {
  return result.completed.map((a) => a.id);
}

describe("completeAchievements", () => {
  it.each([
    ["below the threshold", "499.99", {}, []],
    ["exactly at the threshold", "500", {}, ["novice"]],
    ["crossing two thresholds at once", "1000.5", {}, ["novice", "expert"]],
  ])("metric totals: %s", (_name, total, attributes, expected) => {
    expect(ids(completeAchievements(user(total), [novice, expert], wordsEvent(attributes), at, newId))).toEqual(expected);
  });

  it("completes each achievement at most once, keeping the first completion time", () => {
    const first = completeAchievements(user("600"), [novice], wordsEvent(), at, newId);
    const later = new Date("2026-06-01T00:00:00Z");
    const second = completeAchievements(first.state, [novice], wordsEvent(), later, newId);
    expect(second.completed).toEqual([]);
    expect(second.state.achievements.novice?.achievedAt).toEqual(at);
  });

  it("needs an event of the achievement's metric, matching its event attribute filters", () => {
    expect(ids(completeAchievements(user("600"), [novice], { event: { metricId: "pages", value: 1, attributes: {} } }, at, newId))).toEqual([]);
    expect(ids(completeAchievements(user("5"), [mobile], wordsEvent({ source: "web" }), at, newId))).toEqual([]);
    expect(ids(completeAchievements(user("5"), [mobile], wordsEvent({ source: "mobile" }), at, newId))).toEqual(["mobile"]);
  });

  it("counts only the events matching an achievement's event attribute filters, not the metric's total", () => {
    const fiveOnWeb = achievement("five-web", { metricId: "words", metricValue: 5, eventAttributes: [{ key: "source", value: "web" }] });
    // 100 from the app, then 1 from the web: the total passed 5 long ago, the matching events did not.
    let state = completeAchievements(user("100"), [fiveOnWeb], wordsEvent({ source: "app" }, 100), at, newId).state;
    const oneOnWeb = completeAchievements(
      { ...state, metrics: { words: { total: "101", daily: {} } } },
      [fiveOnWeb],
      wordsEvent({ source: "web" }, 1),
      at,
      newId,
    );
    expect(ids(oneOnWeb)).toEqual([]);
    expect(oneOnWeb.state.achievementProgress).toEqual({ "five-web": "1" });
    state = oneOnWeb.state;
    for (const value of [2.5, 1]) state = completeAchievements(state, [fiveOnWeb], wordsEvent({ source: "web" }, value), at, newId).state;
    expect(state.achievementProgress).toEqual({ "five-web": "4.5" });
    const reached = completeAchievements(state, [fiveOnWeb], wordsEvent({ source: "web" }, 0.5), at, newId);
    expect(ids(reached)).toEqual(["five-web"]);
    expect(reached.state.achievementProgress).toEqual({}); // held: nothing more to count
    expect(completeAchievements(reached.state, [fiveOnWeb], wordsEvent({ source: "web" }, 1), at, newId).state.achievementProgress).toEqual({});
  });

  it("starts the count over when the achievement was redefined (progressGeneration): earlier progress is dropped, not read", () => {
    const fiveOnWeb = achievement("five-web", { metricId: "words", metricValue: 5, eventAttributes: [{ key: "source", value: "web" }] });
    const four = completeAchievements(user("4"), [fiveOnWeb], wordsEvent({ source: "web" }, 4), at, newId).state;
    expect(four.achievementProgress).toEqual({ "five-web": "4" });
    const redefined = { ...fiveOnWeb, progressGeneration: 1 };
    expect(progressKeyOf(redefined)).toBe("five-web.1");
    const one = completeAchievements(four, [redefined], wordsEvent({ source: "web" }, 1), at, newId);
    expect(ids(one)).toEqual([]);
    expect(one.state.achievementProgress).toEqual({ "five-web.1": "1" });
    const done = completeAchievements(one.state, [redefined], wordsEvent({ source: "web" }, 4), at, newId);
    expect(ids(done)).toEqual(["five-web"]);
    expect(done.state.achievementProgress).toEqual({});
    // Another achievement whose ID starts alike keeps its own progress.
    const other = { ...four, achievementProgress: { "five-web": "4", "five-website": "2" } };
    expect(completeAchievements(other, [redefined], wordsEvent({ source: "web" }, 1), at, newId).state.achievementProgress).toEqual({
      "five-website": "2",
      "five-web.1": "1",
    });
  });

  it("applies user attribute filters to every trigger", () => {
    expect(ids(completeAchievements(user("5", { plan: "free" }), [pro], wordsEvent(), at, newId))).toEqual([]);
    expect(ids(completeAchievements(user("5", { plan: "pro" }), [pro], wordsEvent(), at, newId))).toEqual(["pro"]);
  });

  it("completes API achievements only when asked, and composites when their last prerequisite completes", () => {
    const afterMetric = completeAchievements(user("500"), ALL, wordsEvent(), at, newId);
    expect(ids(afterMetric)).toEqual(["novice"]);
    const afterApi = completeAchievements(afterMetric.state, ALL, { apiAchievementId: "onboarding" }, at, newId);
    expect(ids(afterApi)).toEqual(["onboarding", "master"]);
  });

  it("completes streak achievements at their length", () => {
    expect(ids(completeAchievements(user("0"), [week], { streakLength: 6 }, at, newId))).toEqual([]);
    expect(ids(completeAchievements(user("0"), [week], { streakLength: 7 }, at, newId))).toEqual(["week"]);
  });

  it("never newly completes inactive or locked achievements", () => {
    const inactive = { ...novice, status: "inactive" as const };
    const locked = { ...novice, status: "locked" as const };
    expect(ids(completeAchievements(user("900"), [inactive, locked], wordsEvent(), at, newId))).toEqual([]);
  });

  it("backdates metric achievements on the stored total, and those with event filters on what matching events counted", () => {
    expect(ids(completeAchievements(user("700"), [novice, mobile, onboarding], { backfill: true }, at, newId))).toEqual(["novice"]);
    // Four counted on the web toward ten, then ten lowered to four: backdated on the count.
    const tenOnWeb = achievement("ten-web", { metricId: "words", metricValue: 10, eventAttributes: [{ key: "source", value: "web" }] });
    const four = completeAchievements(user("4"), [tenOnWeb], wordsEvent({ source: "web" }, 4), at, newId).state;
    const lowered = { ...tenOnWeb, metricValue: 4 };
    expect(ids(completeAchievements(four, [lowered], { backfill: true }, at, newId))).toEqual(["ten-web"]);
    expect(ids(completeAchievements(four, [{ ...tenOnWeb, metricValue: 5 }], { backfill: true }, at, newId))).toEqual([]);
  });

  it("completes a filtered achievement only on an event it applies to, even when what it counted already reaches its value", () => {
    const tenOnWeb = achievement("ten-web", { metricId: "words", metricValue: 10, eventAttributes: [{ key: "source", value: "web" }] });
    const lowered = { ...tenOnWeb, metricValue: 4 };
    const four = completeAchievements(user("4"), [tenOnWeb], wordsEvent({ source: "web" }, 4), at, newId).state;
    expect(ids(completeAchievements(four, [lowered], wordsEvent({ source: "app" }, 1), at, newId))).toEqual([]);
    expect(ids(completeAchievements(four, [lowered], { streakLength: 3 }, at, newId))).toEqual([]);
    expect(ids(completeAchievements(four, [lowered], wordsEvent({ source: "web" }, 0), at, newId))).toEqual(["ten-web"]);
  });
});

describe("rarity and visibility", () => {
  it.each([
    [0, 0, 0],
    [1, 3, 33.33],
    [2, 3, 66.67],
    [5, 5, 100],
  ])("%i of %i users is %d%%", (completions, users, expected) => expect(rarityOf(completions, users)).toBe(expected));

  it("shows active achievements, and locked ones only to their holders", () => {
    const locked = { ...novice, status: "locked" as const };
    const holder = { ...user("0"), achievements: { novice: { achievedAt: at, completionId: "c" } } };
    expect([isVisibleTo(novice, null), isVisibleTo(locked, user("0")), isVisibleTo(locked, holder)]).toEqual([true, false, true]);
    expect(isVisibleTo({ ...novice, status: "inactive" }, holder)).toBe(false);
  });
});
