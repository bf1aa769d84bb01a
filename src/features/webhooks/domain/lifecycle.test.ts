import { describe, expect, it } from "vitest";
import { DEFAULT_LIFECYCLE_SCHEDULE, localTime, planLifecycle, type LifecycleOptions } from "./lifecycle.js";
import { completeChange, type EngineConfig } from "../../../engine/domain/reactions.js";
import { applyStreakEvent, createStreakState } from "../../streaks/domain/streak.js";
import type { StreakSettings } from "../../streaks/domain/streak-config.js";
import { createUserState, type UserState } from "../../../engine/domain/user.js";
import { sha256 } from "../../../engine/sha256.js";

const ALL = new Set(["emails.recap_due", "emails.reactivation_due", "emails.streak_reminder_due", "emails.achievement_due"]);
const at = (iso: string) => new Date(iso);
const options = (extra: Partial<LifecycleOptions> = {}): LifecycleOptions => ({ subscribed: ALL, streak: null, ...extra });

/** A user with an e-mail in `tz`, with metric events on the given local days (the last one at `lastEventAt`). */
function user(tz: string | null, days: string[], lastEventAt: Date | null, extra: Partial<UserState> = {}): UserState {
  const created = at("2025-01-01T00:00:00Z");
  return {
    ...createUserState("u1", created),
    email: "u1@example.com",
    tz,
    tzHistory: tz ? [{ tz, from: created }] : [],
    metrics: days.length > 0 ? { m: { total: String(days.length), daily: Object.fromEntries(days.map((d) => [d, "1"])) } } : {},
    lastEventAt,
    ...extra,
  };
}

/** Plans at `now` and applies the marks, as a write would. */
function visit(state: UserState, now: Date, opts: LifecycleOptions = options()) {
  const plan = planLifecycle(state, opts, now);
  return { plan, state: { ...state, lifecycle: plan.marks } };
}

describe("recap", () => {
  it("is due at 09:00 local on the Monday after an active week, across the spring DST change (Europe/Paris)", () => {
    // Active Wednesday 2026-03-25; clocks go forward on Sunday 2026-03-29, so Monday 09:00 is 07:00 UTC.
    const recaps = options({ subscribed: new Set(["emails.recap_due"]) });
    const u = user("Europe/Paris", ["2026-03-25"], at("2026-03-25T10:00:00Z"));
    const before = planLifecycle(u, recaps, at("2026-03-28T12:00:00Z"));
    expect(before.due).toEqual([]);
    expect(before.next).toEqual({ at: at("2026-03-30T07:00:00Z"), type: "emails.recap_due" });
    expect(planLifecycle(u, recaps, at("2026-03-30T06:59:59Z")).due).toEqual([]);

    const sent = visit(u, at("2026-03-30T07:00:00Z"), recaps);
    expect(sent.plan.due.filter((d) => d.type === "emails.recap_due")).toEqual([
      { type: "emails.recap_due", key: "2026-03-23", recap: { periodStart: "2026-03-23", periodEnd: "2026-03-29" } },
    ]);
    // A second pass (a retry, another scheduler pass) sends nothing more; nothing else is scheduled for a recap.
    const again = planLifecycle(sent.state, recaps, at("2026-03-30T07:01:00Z"));
    expect(again.due).toEqual([]);
    expect(again.next).toBeNull();
  });

  it("is in the user's own zone: Monday 09:00 in Auckland is Sunday 20:00 UTC", () => {
    const u = user("Pacific/Auckland", ["2026-06-10"], at("2026-06-10T01:00:00Z"));
    const plan = planLifecycle(u, options({ subscribed: new Set(["emails.recap_due"]) }), at("2026-06-12T00:00:00Z"));
    expect(plan.next).toEqual({ at: at("2026-06-14T21:00:00Z"), type: "emails.recap_due" }); // NZST, UTC+12
    const due = planLifecycle(u, options({ subscribed: new Set(["emails.recap_due"]) }), at("2026-06-14T21:00:00Z")).due;
    expect(due).toEqual([{ type: "emails.recap_due", key: "2026-06-08", recap: { periodStart: "2026-06-08", periodEnd: "2026-06-14" } }]);
  });

  it("monthly: at 09:00 on the 1st for the month before, on the day US clocks go back (New York)", () => {
    const u = user("America/New_York", ["2026-10-31"], at("2026-10-31T15:00:00Z"));
    const monthly = options({ subscribed: new Set(["emails.recap_due"]), schedule: { ...DEFAULT_LIFECYCLE_SCHEDULE, recapPeriod: "monthly" } });
    expect(planLifecycle(u, monthly, at("2026-10-31T20:00:00Z")).next).toEqual({ at: at("2026-11-01T14:00:00Z"), type: "emails.recap_due" }); // EST, UTC-5
    expect(planLifecycle(u, monthly, at("2026-11-01T14:00:00Z")).due).toEqual([
      { type: "emails.recap_due", key: "2026-10-01", recap: { periodStart: "2026-10-01", periodEnd: "2026-10-31" } },
    ]);
  });

  it("is not due for a week without activity, and a missed one is not sent a period late", () => {
    const u = user("UTC", ["2026-03-04"], at("2026-03-04T10:00:00Z"));
    const recaps = options({ subscribed: new Set(["emails.recap_due"]) });
    // Week of 03-02 was active: its recap is due Monday 03-09 09:00. Seen only on 03-17 (two weeks later): skipped.
    const late = planLifecycle(u, recaps, at("2026-03-17T12:00:00Z"));
    expect(late.due).toEqual([]);
    expect(late.next).toBeNull();
    // The week boundary: Sunday 23:59 local belongs to the week before.
    const sunday = user("UTC", ["2026-03-08"], at("2026-03-08T23:59:00Z"));
    expect(planLifecycle(sunday, recaps, at("2026-03-09T09:00:00Z")).due).toEqual([
      { type: "emails.recap_due", key: "2026-03-02", recap: { periodStart: "2026-03-02", periodEnd: "2026-03-08" } },
    ]);
  });

  it("follows a move: a user who moved from Paris to Tokyo gets it at 09:00 Tokyo time", () => {
    const moved = user("Europe/Paris", ["2026-03-04"], at("2026-03-04T10:00:00Z"));
    const u = { ...moved, tz: "Asia/Tokyo", tzHistory: [...moved.tzHistory, { tz: "Asia/Tokyo", from: at("2026-03-06T00:00:00Z") }] };
    expect(planLifecycle(u, options({ subscribed: new Set(["emails.recap_due"]) }), at("2026-03-07T00:00:00Z")).next).toEqual({
      at: at("2026-03-09T00:00:00Z"),
      type: "emails.recap_due",
    });
  });

  it("a user active in the current week only is scheduled for next Monday", () => {
    const u = user(null, ["2026-03-10"], at("2026-03-10T10:00:00Z")); // no zone: UTC
    const plan = planLifecycle(u, options({ subscribed: new Set(["emails.recap_due"]) }), at("2026-03-10T10:00:00Z"));
    expect(plan.next).toEqual({ at: at("2026-03-16T09:00:00Z"), type: "emails.recap_due" });
  });
});

describe("reactivation", () => {
  const reactivation = options({ subscribed: new Set(["emails.reactivation_due"]) });
  const messages = (state: UserState, now: Date) => planLifecycle(state, reactivation, now).due;

  it("sends messages 1, 2 and 3 after 3, 7 and 30 days, each once, at the same local time across DST", () => {
    // Last active Thursday 2026-03-26 11:00 Paris (CET, 10:00 UTC); after 03-29 Paris is on CEST.
    let u = user("Europe/Paris", ["2026-03-26"], at("2026-03-26T10:00:00Z"));
    expect(planLifecycle(u, reactivation, at("2026-03-27T00:00:00Z")).next).toEqual({ at: at("2026-03-29T09:00:00Z"), type: "emails.reactivation_due" });
    expect(messages(u, at("2026-03-29T08:59:00Z"))).toEqual([]);

    let step = visit(u, at("2026-03-29T09:00:00Z"), reactivation);
    expect(step.plan.due).toEqual([
      { type: "emails.reactivation_due", key: "2026-03-26T10:00:00.000Z/1", reactivation: { messageNumber: 1, daysSinceLastActive: 3 } },
    ]);
    expect(step.plan.next).toEqual({ at: at("2026-04-02T09:00:00Z"), type: "emails.reactivation_due" });
    u = step.state;
    expect(messages(u, at("2026-03-29T09:05:00Z"))).toEqual([]); // never twice

    step = visit(u, at("2026-04-02T09:00:00Z"), reactivation);
    expect(step.plan.due.map((d) => d.type === "emails.reactivation_due" && d.reactivation)).toEqual([{ messageNumber: 2, daysSinceLastActive: 7 }]);
    u = step.state;
    step = visit(u, at("2026-04-25T09:00:00Z"), reactivation);
    expect(step.plan.due.map((d) => d.type === "emails.reactivation_due" && d.reactivation)).toEqual([{ messageNumber: 3, daysSinceLastActive: 30 }]);
    expect(step.plan.next).toBeNull();
    expect(messages(step.state, at("2026-06-01T00:00:00Z"))).toEqual([]); // the spell's sequence is over

    // Activity starts a new spell: message 1 again three days later.
    const back = { ...step.state, lastEventAt: at("2026-06-01T10:00:00Z"), metrics: { m: { total: "2", daily: { "2026-06-01": "1" } } } };
    expect(planLifecycle(back, reactivation, at("2026-06-01T10:00:00Z")).next).toEqual({ at: at("2026-06-04T10:00:00Z"), type: "emails.reactivation_due" });
  });

  it("sends only the latest step reached when several are overdue, and none to a user never active", () => {
    const u = user("UTC", ["2026-03-01"], at("2026-03-01T12:00:00Z"));
    expect(messages(u, at("2026-03-15T00:00:00Z"))).toEqual([
      { type: "emails.reactivation_due", key: "2026-03-01T12:00:00.000Z/2", reactivation: { messageNumber: 2, daysSinceLastActive: 13 } },
    ]);
    expect(planLifecycle(user("UTC", [], null), reactivation, at("2026-03-15T00:00:00Z"))).toEqual({ due: [], marks: {}, next: null });
  });
});

describe("streak reminder", () => {
  const daily: StreakSettings = { frequency: "daily", metrics: [{ metricId: "m", threshold: 1 }], evaluationMode: "all", freezes: null };
  const reminders = options({ subscribed: new Set(["emails.streak_reminder_due"]), streak: daily });
  const LA = "America/Los_Angeles";

  /** A user in Los Angeles whose streak was extended at the given instants. */
  function streaker(events: Date[]): UserState {
    const u = user(LA, [], events.at(-1) ?? null);
    let streak = createStreakState(daily, u.created, u.created);
    for (const e of events) streak = applyStreakEvent(streak, daily, { metricId: "m", value: 1, at: e }, u.tzHistory).state;
    return { ...u, streak };
  }

  it("is due once at 18:00 local on the last day the streak can be extended, not yet extended", () => {
    // Extended on 2026-03-07 (local); US clocks go forward on 2026-03-08, so 18:00 that day is PDT (01:00 UTC next day).
    const u = streaker([at("2026-03-07T18:00:00Z")]);
    const plan = planLifecycle(u, reminders, at("2026-03-07T20:00:00Z"));
    expect(plan.due).toEqual([]);
    expect(plan.next).toEqual({ at: at("2026-03-09T01:00:00Z"), type: "emails.streak_reminder_due" });
    expect(localTime("2026-03-08", 18, LA)).toEqual(at("2026-03-09T01:00:00Z"));

    const sent = visit(u, at("2026-03-09T01:00:00Z"), reminders);
    expect(sent.plan.due).toHaveLength(1);
    const [due] = sent.plan.due;
    expect(due).toMatchObject({
      type: "emails.streak_reminder_due",
      key: "2026-03-08",
      streak: { length: 1, periodStart: "2026-03-08", expires: "2026-03-08" },
    });
    expect(planLifecycle(sent.state, reminders, at("2026-03-09T02:00:00Z")).due).toEqual([]); // once
  });

  it("does not fire when the streak was already extended today: the next one is tomorrow evening", () => {
    const u = streaker([at("2026-03-07T18:00:00Z"), at("2026-03-08T17:00:00Z")]); // 10:00 PDT on 03-08
    const plan = planLifecycle(u, reminders, at("2026-03-09T01:00:00Z"));
    expect(plan.due).toEqual([]);
    expect(plan.next).toEqual({ at: at("2026-03-10T01:00:00Z"), type: "emails.streak_reminder_due" });
  });

  it("weekly streaks: on Sunday evening, only while the week is not met yet", () => {
    const weekly: StreakSettings = { ...daily, frequency: "weekly" };
    const opts = options({ subscribed: new Set(["emails.streak_reminder_due"]), streak: weekly });
    const u = user("UTC", [], at("2026-03-04T10:00:00Z"));
    const streak = applyStreakEvent(
      createStreakState(weekly, u.created, u.created),
      weekly,
      { metricId: "m", value: 1, at: at("2026-03-04T10:00:00Z") },
      u.tzHistory,
    ).state;
    // Met in the week of 03-02: the week of 03-09 must be met next, by Sunday 03-15.
    const plan = planLifecycle({ ...u, streak }, opts, at("2026-03-10T12:00:00Z"));
    expect(plan.next).toEqual({ at: at("2026-03-15T18:00:00Z"), type: "emails.streak_reminder_due" });
    const met = applyStreakEvent(streak, weekly, { metricId: "m", value: 1, at: at("2026-03-15T17:00:00Z") }, u.tzHistory).state;
    expect(planLifecycle({ ...u, streak: met }, opts, at("2026-03-15T18:00:00Z")).due).toEqual([]);
  });

  it("is not scheduled without a live streak, nor on a paused date", () => {
    expect(planLifecycle(streaker([]), reminders, at("2026-03-08T12:00:00Z")).next).toBeNull();
    const u = streaker([at("2026-03-07T18:00:00Z")]);
    const paused = { ...u, streak: { ...u.streak!, pauses: [{ id: "p", start: "2026-03-08", end: "2026-03-10" }] } };
    expect(planLifecycle(paused, reminders, at("2026-03-08T12:00:00Z")).next).toBeNull();
  });
});

describe("who gets them", () => {
  const u = user("UTC", ["2026-03-04"], at("2026-03-04T10:00:00Z"));
  const now = at("2026-03-09T09:00:00Z"); // recap and reactivation (day 5) are both due

  it("everyone with an e-mail, subscribed, with the kind not disabled, when an endpoint listens", () => {
    expect(planLifecycle(u, options(), now).due.map((d) => d.type)).toEqual(["emails.recap_due", "emails.reactivation_due"]);
    expect(planLifecycle({ ...u, preferences: { notifications: { recap: ["push"] }, streak: null } }, options(), now).due).toHaveLength(2);
  });

  it("not a kind whose channels are empty, nor users without e-mail or unsubscribed, nor types nobody listens to", () => {
    const noRecap = { ...u, preferences: { notifications: { recap: [] }, streak: null } };
    expect(planLifecycle(noRecap, options(), now).due.map((d) => d.type)).toEqual(["emails.reactivation_due"]);
    expect(planLifecycle({ ...u, email: null }, options(), now)).toEqual({ due: [], marks: {}, next: null });
    expect(planLifecycle({ ...u, subscribeToEmails: false }, options(), now)).toEqual({ due: [], marks: {}, next: null });
    // The control group gets no communications (the reference's `control`), and is never scheduled for them.
    expect(planLifecycle({ ...u, control: true }, options(), now)).toEqual({ due: [], marks: {}, next: null });
    expect(planLifecycle({ ...u, control: true }, options(), at("2026-03-05T00:00:00Z")).next).toBeNull();
    expect(planLifecycle(u, options({ subscribed: new Set(["emails.achievement_due"]) }), now)).toEqual({ due: [], marks: {}, next: null });
  });
});

describe("completeChange", () => {
  const achievement = {
    id: "ach-1",
    key: "first",
    name: "First",
    description: null,
    badgeUrl: null,
    trigger: "api",
    status: "active",
    metricId: null,
    metricValue: null,
    streakLength: null,
    achievementIds: [],
    userAttributes: [],
    eventAttributes: [],
  } as never;
  const config = (types: string[]): EngineConfig => ({
    achievements: [],
    points: { systems: [], attributeKeys: {}, metricNames: {} },
    streak: null,
    newId: () => "00000000-0000-4000-8000-000000000001",
    sha256,
    webhooks: { tenant: "acme", subscribed: new Set(types) as never },
  });

  it("puts due lifecycle messages in the outbox with their marks, with stable IDs, and sets the next due time", () => {
    const u = user("UTC", ["2026-03-04"], at("2026-03-04T10:00:00Z"));
    const now = at("2026-03-09T09:00:30Z");
    const next = completeChange(u, {}, config(["emails.recap_due"]), now);
    expect(next.outbox.map((m) => JSON.parse(m.body))).toEqual([
      {
        type: "emails.recap_due",
        id: next.outbox[0]!.id,
        tenantId: "acme",
        timestamp: "2026-03-09T09:00:30Z",
        user: expect.objectContaining({ id: "u1", email: "u1@example.com" }),
        recap: { periodStart: "2026-03-02", periodEnd: "2026-03-08" },
      },
    ]);
    expect(next.lifecycle).toEqual({ recap: "2026-03-02" });
    expect(next.dueAt).toBeNull(); // nothing else ahead (not active this week)
    expect(completeChange(u, {}, config(["emails.recap_due"]), now).outbox[0]!.id).toBe(next.outbox[0]!.id);
    expect(completeChange(next, {}, config(["emails.recap_due"]), now).outbox).toHaveLength(1); // nothing added
  });

  it("sends nothing while an import's wait lasts: the user is judged when it ends, with the events imported by then", () => {
    // An import's first event, dated ten days back: a reactivation would be due at once.
    const now = at("2026-03-14T18:40:00Z");
    const quietUntil = at("2026-03-14T18:50:00Z");
    const imported = user("UTC", ["2026-03-04"], at("2026-03-04T12:00:00Z"), { backfillQuietUntil: quietUntil });
    const waiting = completeChange(imported, {}, config(["emails.reactivation_due"]), at("2026-03-04T12:00:00Z"), now);
    expect([waiting.outbox, waiting.lifecycle, waiting.dueAt]).toEqual([[], {}, quietUntil]);
    // Its next event, an hour ago, arrives within the wait; when it ends the user is active: nothing to send.
    const caughtUp = { ...waiting, lastEventAt: at("2026-03-14T17:40:00Z"), metrics: { m: { total: "2", daily: { "2026-03-04": "1", "2026-03-14": "1" } } } };
    const visited = completeChange(caughtUp, {}, config(["emails.reactivation_due"]), quietUntil, quietUntil);
    expect(visited.outbox).toEqual([]);
    expect(visited.dueAt).toEqual(at("2026-03-17T17:40:00Z"));
    // An import that stops there is judged when the wait ends.
    expect(completeChange(waiting, {}, config(["emails.reactivation_due"]), quietUntil, quietUntil).outbox.map((m) => m.type)).toEqual([
      "emails.reactivation_due",
    ]);
  });

  it("adds emails.achievement_due with the completion, unless the preference disables it", () => {
    const u = user("UTC", [], null);
    const completion = { id: "c1", achievedAt: at("2026-03-09T10:00:00Z") } as never;
    const events = { achievements: [{ achievement, completion }] };
    const sent = completeChange(u, events, config(["emails.achievement_due"]), at("2026-03-09T10:00:00Z"));
    expect(sent.outbox.map((m) => [m.type, JSON.parse(m.body).achievement.key])).toEqual([["emails.achievement_due", "first"]]);
    const off = { ...u, preferences: { notifications: { achievement_completed: [] }, streak: null } };
    expect(completeChange(off, events, config(["emails.achievement_due"]), at("2026-03-09T10:00:00Z")).outbox).toEqual([]);
  });
});
