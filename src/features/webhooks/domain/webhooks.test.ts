import { describe, expect, it } from "vitest";
import type { AchievementConfig } from "../../achievements/domain/achievement-config.js";
import { applyEvent as applyEventOnly, type MetricEvent } from "../../../engine/domain/event.js";
import { applyTimeTriggers, type PointsConfig } from "../../points/domain/points.js";
import type { PointsBoostConfig, PointsLevelConfig, PointsSystemConfig, PointsTriggerConfig } from "../../points/domain/points-config.js";
import { completeChange, eventsOf, react as reactOnly, type EngineConfig, type ReactionTrigger } from "../../../engine/domain/reactions.js";
import { createUserState, type UserState } from "../../../engine/domain/user.js";
import {
  checkEndpointUrl,
  checkEventTypes,
  createMessage,
  decideBoostNotices,
  decideDeletedBoostNotices,
  reopenedBoostAnnouncements,
  type BoostAnnouncements,
  bodyNamesUser,
  deterministicMessageId,
  isoTime,
  messagesForUserEvents,
  type WebhookEventType,
  type WebhookSettings,
  usersNamedIn,
} from "./webhooks.js";
import { sha256 } from "../../../engine/sha256.js";

const T0 = new Date("2026-05-01T10:00:00Z");
let counter = 0;
const newId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, "0")}`;

const xp: PointsSystemConfig = {
  id: "sys-xp",
  key: "xp",
  name: "XP",
  description: "",
  status: "active",
  badge: null,
  maxPoints: null,
  created: T0,
  updated: T0,
};
const level = (key: string, points: number): PointsLevelConfig => ({
  id: `lvl-${key}`,
  key,
  name: key.toUpperCase(),
  points,
  description: `${key} level`,
  badge: null,
  created: T0,
  updated: T0,
});
const bronze = level("bronze", 0);
const silver = level("silver", 40);
const wordsTrigger: PointsTriggerConfig = {
  id: "trg-words",
  type: "metric",
  points: 10,
  status: "active",
  metricId: "words",
  metricThreshold: 100,
  userAttributes: [],
  eventAttributes: [],
  blockIfOutOfPoints: false,
  created: T0,
  updated: T0,
};
const achievementTrigger: PointsTriggerConfig = {
  ...wordsTrigger,
  id: "trg-ach",
  type: "achievement",
  points: 60,
  metricId: undefined,
  metricThreshold: undefined,
  achievementId: "ach-api",
};
const points: PointsConfig = {
  systems: [{ system: xp, triggers: [wordsTrigger, achievementTrigger], levels: [bronze, silver], boosts: [] }],
  attributeKeys: {},
  metricNames: { words: "Words written" },
};
const apiAchievement: AchievementConfig = {
  id: "ach-api",
  key: "onboarded",
  name: "Onboarded",
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
  created: T0,
  updated: T0,
};

function settings(...types: WebhookEventType[]): WebhookSettings {
  return { tenant: "acme", subscribed: new Set(types) };
}

function engine(webhooks?: WebhookSettings): EngineConfig {
  return { achievements: [apiAchievement], points, streak: null, newId, sha256, webhooks };
}

const ann = (): UserState => ({ ...createUserState("ann", T0), email: "ann@example.com", attributes: { plan: "pro" } });
const bodies = (state: UserState) => state.outbox.map((m) => JSON.parse(m.body));

// The engine's reactions completed as the pipeline's applier completes them (no leaderboards here).
function applyEvent(state: UserState, event: MetricEvent, now: Date, config: EngineConfig, userCreated: boolean) {
  const applied = applyEventOnly(state, event, now, config, userCreated);
  return { ...applied, state: completeChange(applied.state, eventsOf(applied.outcome.reactions), config, event.at) };
}
function react(state: UserState, trigger: ReactionTrigger, config: EngineConfig, at: Date) {
  const reacted = reactOnly(state, trigger, config, at);
  return { ...reacted, state: completeChange(reacted.state, eventsOf(reacted.reactions), config, at) };
}

describe("messages built by the engine", () => {
  it("puts an event's level change in the outbox with the reference payload inside the envelope", () => {
    const { state } = applyEvent(
      ann(),
      { eventId: "e1", metricId: "words", at: T0, user: { id: "ann" }, value: 500, attributes: {} },
      T0,
      engine(settings("points.level_changed")),
      false,
    );
    expect(state.outbox).toHaveLength(1);
    const message = state.outbox[0]!;
    expect(message).toMatchObject({ type: "points.level_changed", at: T0 });
    expect(message.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(JSON.parse(message.body)).toEqual({
      type: "points.level_changed",
      id: message.id,
      tenantId: "acme",
      timestamp: "2026-05-01T10:00:00Z",
      user: {
        id: "ann",
        email: "ann@example.com",
        name: null,
        tz: null,
        deviceTokens: [],
        subscribeToEmails: true,
        attributes: { plan: "pro" },
        control: false,
        created: "2026-05-01T10:00:00Z",
        updated: "2026-05-01T10:00:00Z",
      },
      points: { id: "sys-xp", key: "xp", name: "XP", description: null, badgeUrl: null, maxPoints: null, total: 50 },
      // A user without points holds no level yet, not even the 0-point one (a total must exceed a threshold).
      previousLevel: null,
      newLevel: { id: "lvl-silver", key: "silver", name: "SILVER", description: "silver level", badgeUrl: null, points: 40 },
    });
  });

  it("builds only the types someone subscribes to, and nothing without subscribers", () => {
    const event = { eventId: "e1", metricId: "words", at: T0, user: { id: "ann" }, value: 500, attributes: {} };
    expect(applyEvent(ann(), event, T0, engine(), false).state.outbox).toEqual([]);
    expect(applyEvent(ann(), event, T0, engine(settings("streak.lost")), false).state.outbox).toEqual([]);
    const both = applyEvent(ann(), event, T0, engine(settings("points.changed", "points.level_changed")), false).state;
    expect(both.outbox.map((m) => m.type)).toEqual(["points.changed", "points.level_changed"]);
    // As in the event response, points.changed carries the new level when the level changed.
    expect(bodies(both)[0].points).toMatchObject({ key: "xp", total: 50, added: 50, level: { key: "silver" }, awards: [{ awarded: 50, total: 50 }] });
    expect(bodies(both)[0].points.awards[0].trigger).toEqual({
      id: "trg-words",
      type: "metric",
      points: 10,
      metricId: "words",
      metricName: "Words written",
      metricThreshold: 100,
      // The reference's PointsTrigger fields that its client requires (as the event response shows them).
      status: "active",
      userAttributes: [],
      // A metric trigger's event filters, as the event response shows them (none here).
      eventAttributes: [],
      created: "2026-05-01T10:00:00Z",
      updated: "2026-05-01T10:00:00Z",
    });
  });

  it("gives each points.changed of a scheduler's visit the level of its own change (one change per day the intervals came due)", () => {
    const daily: PointsTriggerConfig = {
      ...wordsTrigger,
      id: "trg-daily",
      type: "time",
      points: 25,
      metricId: undefined,
      metricThreshold: undefined,
      timeUnit: "days",
      timeInterval: 1,
    };
    const config = { ...engine(settings("points.changed")), points: { ...points, systems: [{ ...points.systems[0]!, triggers: [daily] }] } };
    const user = ann();
    // Four days later: 25 (bronze), 50 (silver), 75, 100.
    const paid = applyTimeTriggers(user.points, config.points, user, new Date(T0.getTime() + 4 * 86_400_000 + 60_000), newId);
    const state = completeChange({ ...user, points: paid.states }, { pointsEvents: paid.events }, config, T0);
    expect(bodies(state).map((b) => [b.points.total, b.points.level?.key ?? null])).toEqual([
      [25, "bronze"],
      [50, "silver"],
      [75, null],
      [100, null],
    ]);
  });

  it("announces an API achievement completion and the level it causes, in causal order", () => {
    const { state } = react(ann(), { apiAchievementId: "ach-api", userCreated: false }, engine(settings("achievement.completed", "points.level_changed")), T0);
    expect(state.outbox.map((m) => m.type)).toEqual(["achievement.completed", "points.level_changed"]);
    const [completed, levelChanged] = bodies(state);
    expect(completed.achievement).toEqual({
      id: "ach-api",
      name: "Onboarded",
      trigger: "api",
      description: null,
      badgeUrl: null,
      key: "onboarded",
      userAttributes: [],
      achievedAt: "2026-05-01T10:00:00Z",
    });
    expect([levelChanged.previousLevel, levelChanged.newLevel.key, levelChanged.points.total]).toEqual([null, "silver", 60]);
  });

  it("keeps earlier messages and gives every message its own ID", () => {
    const first = react(ann(), { apiAchievementId: "ach-api", userCreated: false }, engine(settings("achievement.completed")), T0).state;
    const event = { eventId: "e2", metricId: "words", at: T0, user: { id: "ann" }, value: 100, attributes: {} };
    const second = applyEvent(first, event, T0, engine(settings("achievement.completed", "points.changed")), false).state;
    expect(second.outbox.map((m) => m.type)).toEqual(["achievement.completed", "points.changed"]);
    expect(new Set(second.outbox.map((m) => m.id)).size).toBe(2);
  });

  it("turns streak events into their reference payloads, dated when they happened", () => {
    const lostAt = new Date("2026-05-03T00:00:00Z");
    const messages = messagesForUserEvents(
      ann(),
      {
        streakEvents: [
          { type: "streak.freeze_consumed", at: T0, consumed: 1, freezes: 2 },
          { type: "streak.lost", at: lostAt, length: 7 },
          {
            type: "streak.started",
            at: T0,
            streak: { length: 1, frequency: "daily", started: "2026-05-01", periodStart: "2026-05-01", periodEnd: "2026-05-01", expires: "2026-05-02" },
          },
        ],
      },
      settings("streak.freeze_consumed", "streak.lost", "streak.started"),
      points,
      T0,
      newId,
      sha256,
    );
    const json = messages.map((m) => JSON.parse(m.body));
    expect(json.map((b) => [b.type, b.timestamp])).toEqual([
      ["streak.freeze_consumed", "2026-05-01T10:00:00Z"],
      ["streak.lost", "2026-05-03T00:00:00Z"],
      ["streak.started", "2026-05-01T10:00:00Z"],
    ]);
    expect([json[0].consumed, json[0].freezes, json[1].length, json[2].streak.expires]).toEqual([1, 2, 7, "2026-05-02"]);
    expect(json.every((b) => b.user.id === "ann" && b.tenantId === "acme")).toBe(true);
  });
});

describe("envelope", () => {
  it("puts type, id, tenant and time first, then the reference fields; null tenant in the default scope", () => {
    const message = createMessage(
      "streak.lost",
      { user: { id: "u" } as never, length: 3 },
      { id: "msg_1", tenant: null, at: new Date("2026-01-02T03:04:05.678Z") },
    );
    expect(message.body).toBe('{"type":"streak.lost","id":"msg_1","tenantId":null,"timestamp":"2026-01-02T03:04:05.678Z","user":{"id":"u"},"length":3}');
    expect(isoTime(new Date("2026-01-02T03:04:05.000Z"))).toBe("2026-01-02T03:04:05Z");
  });

  it("derives stable IDs for facts announced once", () => {
    expect(deterministicMessageId("t/boost/b1/points.boost_started", sha256)).toBe(deterministicMessageId("t/boost/b1/points.boost_started", sha256));
    expect(deterministicMessageId("t/boost/b1/points.boost_started", sha256)).not.toBe(deterministicMessageId("t/boost/b1/points.boost_finished", sha256));
    expect(deterministicMessageId("x", sha256)).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});

describe("endpoints", () => {
  it.each([
    ["https://example.com/hooks", null],
    ["http://127.0.0.1:8080/x", null],
    ["ftp://example.com/", /http or https/],
    ["https://user:pw@example.com/", /credentials/],
    ["https://example.com/#frag", /fragment/],
    ["/relative", /absolute/],
    [`https://example.com/${"a".repeat(2048)}`, /at most 2048/],
  ])("checks the URL %s", (url, expected) => {
    const problem = checkEndpointUrl(url);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it("checks event types", () => {
    expect(checkEventTypes(["points.changed", "leaderboard.rank_changed"])).toBeNull();
    expect(checkEventTypes([])).toMatch(/at least one/);
    expect(checkEventTypes(["points.changed", "emails.weekly_digest"])).toMatch(/Unknown event types: emails.weekly_digest/);
    expect(checkEventTypes(["emails.recap_due", "emails.reactivation_due", "emails.streak_reminder_due", "emails.achievement_due"])).toBeNull();
    expect(checkEventTypes(["points.changed", "points.changed"])).toMatch(/repeat/);
  });
});

describe("boost announcements", () => {
  const boost = (fields: Partial<PointsBoostConfig>): PointsBoostConfig => ({
    id: "b1",
    name: "Double",
    start: "2026-05-10",
    end: "2026-05-12",
    multiplier: 2,
    rounding: "down",
    userId: null,
    userAttributes: [],
    archived: false,
    created: T0,
    updated: T0,
    ...fields,
  });
  const at = (iso: string) => new Date(iso);

  it("announces the start once the start day has come, and the finish once the end day has passed", () => {
    const b = boost({});
    expect(decideBoostNotices(b, { started: false }, at("2026-05-09T23:59:59Z"))).toEqual({ announce: [], markStarted: false, markFinished: false });
    expect(decideBoostNotices(b, { started: false }, at("2026-05-10T00:00:30Z"))).toEqual({
      announce: [{ type: "points.boost_started", at: at("2026-05-10T00:00:00Z") }],
      markStarted: true,
      markFinished: false,
    });
    expect(decideBoostNotices(b, { started: true }, at("2026-05-12T23:00:00Z")).announce).toEqual([]);
    expect(decideBoostNotices(b, { started: true }, at("2026-05-13T00:00:10Z"))).toEqual({
      announce: [{ type: "points.boost_finished", at: at("2026-05-12T23:59:59Z") }],
      markStarted: false,
      markFinished: true,
    });
  });

  it("dates the start of a boost created while running at its creation; never finishes an open-ended one", () => {
    const created = at("2026-05-11T08:00:00Z");
    const b = boost({ end: null, created });
    expect(decideBoostNotices(b, { started: false }, at("2026-05-11T08:00:05Z")).announce).toEqual([{ type: "points.boost_started", at: created }]);
    expect(decideBoostNotices(b, { started: true }, at("2030-01-01T00:00:00Z"))).toEqual({ announce: [], markStarted: false, markFinished: false });
  });

  it("announces both, in order, when a boost ran entirely between two checks, and neither for one created after it ended", () => {
    expect(decideBoostNotices(boost({}), { started: false }, at("2026-06-01T00:00:00Z")).announce.map((a) => a.type)).toEqual([
      "points.boost_started",
      "points.boost_finished",
    ]);
    expect(decideBoostNotices(boost({ created: at("2026-05-20T00:00:00Z") }), { started: false }, at("2026-05-20T00:01:00Z"))).toEqual({
      announce: [],
      markStarted: true,
      markFinished: true,
    });
  });

  it("finishes a boost announced as started whose start an edit moved later, at the edit, and reopens it for its new start", () => {
    const edited = at("2026-05-11T09:00:00Z");
    const moved = boost({ start: "2026-05-15", updated: edited });
    expect(decideBoostNotices(moved, { started: true }, at("2026-05-11T09:00:05Z"))).toEqual({
      announce: [{ type: "points.boost_finished", at: edited }],
      markStarted: false,
      markFinished: false,
      reopen: true,
    });
    expect(decideBoostNotices(moved, { started: false }, at("2026-05-11T09:00:05Z"))).toEqual({ announce: [], markStarted: false, markFinished: false });
  });

  it("reopens a boost announced as finished whose end an edit moved to today or later, in a new round", () => {
    const today = at("2026-05-14T10:00:00Z");
    const announced = { webhookStartedAt: at("2026-05-10T00:00:10Z"), webhookFinishedAt: at("2026-05-13T00:00:10Z") };
    const extended: PointsBoostConfig & BoostAnnouncements = { ...boost({ end: "2026-05-14" }), ...announced };
    const { webhookStartedAt, webhookFinishedAt, webhookRound, webhookRoundOpenedAt, ...rest } = reopenedBoostAnnouncements(extended, today);
    expect([webhookStartedAt, webhookFinishedAt, webhookRound, webhookRoundOpenedAt]).toEqual([undefined, undefined, 1, today]);
    expect(rest).toEqual(boost({ end: "2026-05-14" }));
    expect(reopenedBoostAnnouncements({ ...extended, end: null, webhookRound: 1 }, today).webhookRound).toBe(2);
    // The new round starts at the edit that opened it, not at the start day long past.
    const reopened = { ...boost({ end: null }), webhookRound: 1, webhookRoundOpenedAt: at("2026-05-14T09:00:00Z") };
    expect(decideBoostNotices(reopened, { started: false }, today).announce).toEqual([{ type: "points.boost_started", at: at("2026-05-14T09:00:00Z") }]);
    // A round whose dates were moved wholly into the past before it went live: announced neither way.
    const never = { ...boost({ start: "2026-05-01", end: "2026-05-02" }), webhookRound: 1, webhookRoundOpenedAt: at("2026-05-12T09:00:00Z") };
    expect(decideBoostNotices(never, { started: false }, today)).toEqual({ announce: [], markStarted: true, markFinished: true });
    // Still over, archived, or not finished: as it was.
    for (const unchanged of [
      { ...extended, end: "2026-05-13" },
      { ...extended, archived: true },
      { ...boost({ end: null }), webhookStartedAt: announced.webhookStartedAt },
    ]) {
      expect(reopenedBoostAnnouncements(unchanged, today)).toBe(unchanged);
    }
  });

  it("finishes a started boost whose end an edit moved before its start was announced at that edit, never before its start", () => {
    const startedAt = at("2026-05-14T08:00:30Z");
    const edited = at("2026-05-14T09:30:00Z");
    const movedBack = { ...boost({ start: "2026-05-10", end: "2026-05-12", updated: edited }), webhookStartedAt: startedAt };
    expect(decideBoostNotices(movedBack, { started: true }, at("2026-05-14T09:31:00Z")).announce).toEqual([{ type: "points.boost_finished", at: edited }]);
  });

  it("finishes a running boost that is deleted at the deletion; one that already ended at its end; one never announced not at all", () => {
    const deletedAt = at("2026-05-11T12:00:00Z");
    expect(decideDeletedBoostNotices(boost({}), { started: true }, deletedAt)).toEqual({
      announce: [{ type: "points.boost_finished", at: deletedAt }],
      markStarted: false,
      markFinished: true,
    });
    expect(decideDeletedBoostNotices(boost({}), { started: true }, at("2026-05-14T09:00:00Z")).announce).toEqual([
      { type: "points.boost_finished", at: at("2026-05-12T23:59:59Z") },
    ]);
    expect(decideDeletedBoostNotices(boost({}), { started: false }, deletedAt).announce).toEqual([]);
    expect(decideDeletedBoostNotices(boost({}), { started: false }, at("2026-05-01T12:00:00Z")).announce).toEqual([]);
    expect(decideDeletedBoostNotices(boost({ end: null }), { started: true }, at("2030-01-01T00:00:00Z")).announce).toEqual([
      { type: "points.boost_finished", at: at("2030-01-01T00:00:00Z") },
    ]);
  });

  it("finishes a running boost that is archived, and forgets one archived before it started", () => {
    const archivedAt = at("2026-05-11T12:00:00Z");
    expect(decideBoostNotices(boost({ archived: true, updated: archivedAt }), { started: true }, at("2026-05-11T12:00:30Z")).announce).toEqual([
      { type: "points.boost_finished", at: archivedAt },
    ]);
    expect(decideBoostNotices(boost({ archived: true }), { started: false }, at("2026-05-01T12:00:00Z"))).toEqual({
      announce: [],
      markStarted: true,
      markFinished: true,
    });
  });
});

describe("bodyNamesUser", () => {
  const body = (payload: object) => JSON.stringify({ type: "x", id: "msg_1", tenantId: "acme", timestamp: "2026-01-01T00:00:00Z", ...payload });
  it.each([
    ["a user payload", body({ user: { id: "u1", name: "acme" } }), "u1", true],
    [
      "a ranking line",
      body({
        leaderboard: {
          key: "k",
          rankings: [
            { userId: "u2", rank: 1 },
            { userId: "u1", rank: 2 },
          ],
        },
      }),
      "u1",
      true,
    ],
    ["a boost's user", body({ boost: { id: "b", userId: "u1" } }), "u1", true],
    ["another user", body({ user: { id: "u10" } }), "u1", false],
    ["the same text in another field (the tenant's ID, a name)", body({ user: { id: "u2", name: "acme" } }), "acme", false],
    ["not JSON", "u1", "u1", false],
  ])("%s", (_case, json, userId, expected) => {
    expect(bodyNamesUser(json, userId)).toBe(expected);
  });

  it("lists every user a body names, once each (usersNamedIn)", () => {
    const json = body({ user: { id: "u1", name: "n" }, leaderboard: { rankings: [{ userId: "u2" }, { userId: "u1" }] }, boost: { userId: "u3" } });
    expect(usersNamedIn(json).sort()).toEqual(["u1", "u2", "u3"]);
    expect(usersNamedIn(body({ user: { id: 7 }, userId: null }))).toEqual([]);
    expect(usersNamedIn("not JSON")).toEqual([]);
  });
});
