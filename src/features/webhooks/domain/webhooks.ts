/**
 * Webhooks (issue 8): what a notification says. Pure: no I/O, no clock (moments are arguments),
 * IDs and hashing are injected. How a delivery is signed and retried is the adapter's
 * (features/webhooks/webhook-signing.ts, features/webhooks/webhook-delivery-policy.ts).
 *
 * Decisions:
 * - Payloads are the reference's (`openapi-application.json`, `webhooks`), squashed into the top
 *   level of the body (Standard Webhooks allows either), so a receiver written for the reference
 *   reads `type`, `user`, `points`... where it expects them. The envelope adds `id` (also the
 *   `webhook-id` header, stable across retries), `tenantId` (the tenant's own identifier, the
 *   `Tenant-ID` header value; null in the default scope) and `timestamp` (when the event happened;
 *   the boost events' own `timestamp` field has that meaning in the reference already).
 * - A message is built once, when the state change that caused it is written, and its body is
 *   stored as the exact JSON text that is signed and sent: retries send the same bytes.
 * - `points.changed` is sent for every change: the reference fires it at most once per user and
 *   system every fifteen minutes, which would drop intermediate totals; receivers that want less
 *   can unsubscribe or coalesce by user (the body has the total after the change).
 * - Timestamps in bodies are ISO 8601 UTC, without milliseconds when they are zero (as the REST API
 *   renders them).
 */
import type { AchievementConfig } from "../../achievements/domain/achievement-config.js";
import type { AchievementCompletion } from "../../achievements/domain/achievements.js";
import { achievementTriggerFields, awardBoostView, awardTriggerFields, awardTriggerStatus } from "../../../engine/domain/award-views.js";
import { decimalToNumber, type DecimalString } from "../../../engine/domain/decimal.js";
import { toHex, type Sha256 } from "../../../engine/domain/hashing.js";
import type { LeaderboardResult, RankedLeaderboard } from "../../leaderboards/domain/leaderboard-entries.js";
import { statusOf, type LeaderboardRun } from "../../leaderboards/domain/leaderboard-runs.js";
import type { PointsAward, PointsConfig, PointsEvent } from "../../points/domain/points.js";
import type { PointsBoostConfig, PointsLevelConfig, PointsSystemConfig } from "../../points/domain/points-config.js";
import type { StreakDomainEvent, StreakReadView, StreakView } from "../../streaks/domain/streak.js";
import { LIFECYCLE_EVENT_TYPES, lifecycleAllowed, type DueLifecycleMessage } from "./lifecycle.js";
import type { UserState } from "../../../engine/domain/user.js";

// ---------------------------------------------------------------------------------------------
// Event types

/**
 * Every event type an endpoint can subscribe to (the reference's; `emails.*` are due lifecycle
 * messages, features/webhooks/domain/lifecycle.ts). The proto's `event_types` rules list the same types (checked by
 * src/features/webhooks/api/webhook-event-types.test.ts); tests use this list.
 */
export const WEBHOOK_EVENT_TYPES = [
  "achievement.completed",
  "points.changed",
  "points.level_changed",
  "points.boost_started",
  "points.boost_finished",
  "streak.started",
  "streak.extended",
  "streak.lost",
  "streak.freeze_consumed",
  "streak.freeze_earned",
  "leaderboard.started",
  "leaderboard.changed",
  "leaderboard.finished",
  "leaderboard.rank_changed",
  ...LIFECYCLE_EVENT_TYPES,
  "user.deleted",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** What the engine needs to notify a tenant's endpoints: which types anyone listens to, and the tenant's name for itself. */
export interface WebhookSettings {
  /** The tenant's `customerId` (the `Tenant-ID` header value); null in the account's default scope. */
  tenant: string | null;
  /** Event types at least one enabled endpoint of the tenant subscribes to. Others are not even built. */
  subscribed: ReadonlySet<WebhookEventType>;
}

/**
 * A webhook message waiting to be handed to delivery: stored in the user document (the outbox) in
 * the same write as the state change that caused it, so no crash can separate the two.
 */
export interface OutboxMessage {
  /** `msg_` and 32 hex digits: the `webhook-id` and the body's `id`. */
  id: string;
  type: WebhookEventType;
  /** When the event happened. */
  at: Date;
  /** The exact JSON text that is signed and sent. */
  body: string;
}

// ---------------------------------------------------------------------------------------------
// Payload shapes (the reference's schemas)

type Json = string | number | boolean | null | Json[] | { [key: string]: Json | undefined };

/** The reference `User`. */
export type UserPayload = {
  id: string;
  email: string | null;
  name: string | null;
  tz: string | null;
  deviceTokens: string[];
  subscribeToEmails: boolean;
  attributes: Record<string, string>;
  control: boolean;
  created: string;
  updated: string;
};

/** The reference `PointsResponse` (a points system's fields). */
export type PointsSystemPayload = {
  id: string;
  key: string;
  name: string;
  description: string | null;
  badgeUrl: string | null;
  maxPoints: number | null;
};

/** The reference `PointsLevel`. */
export type PointsLevelPayload = {
  id: string;
  key: string;
  name: string;
  description: string;
  badgeUrl: string | null;
  points: number;
};

/** The reference `PointsBoostWebhookPayload`. */
export type PointsBoostPayload = {
  id: string;
  name: string;
  status: "active" | "finished";
  userId: string | null;
  pointsSystemId: string;
  pointsSystemKey: string;
  pointsSystemName: string;
  start: string;
  end: string | null;
  multiplier: number;
  rounding: "down" | "up" | "nearest";
};

/** The reference `LeaderboardResponse` fields shared by the leaderboard events. */
export type LeaderboardPayload = {
  id: string;
  name: string;
  key: string;
  rankBy: "points" | "streak" | "metric";
  metricKey?: string;
  metricName?: string;
  pointsSystemKey?: string;
  pointsSystemName?: string;
  description: string | null;
  start: string;
  end: string | null;
  startTime: string | null;
  endTime: string | null;
  maxParticipants: number | null;
  /** Deprecated in the reference: the one breakdown attribute's key (null with none or several). */
  breakdownAttribute: string | null;
  breakdownAttributes: string[];
  runUnit: "day" | "month" | "year" | null;
  runInterval: number | null;
  /** The user attribute filters by key (a user must match all to take part). */
  userAttributes: Array<{ key: string; value: string }>;
};

/** The reference `LeaderboardRanking`. */
export type LeaderboardRankingPayload = {
  userId: string;
  userName: string | null;
  rank: number;
  value: number;
};

/** The fields of each event type, without the envelope. */
export interface WebhookPayloads {
  "achievement.completed": { user: UserPayload; achievement: Record<string, Json> };
  "points.changed": { user: UserPayload; points: Record<string, Json> };
  "points.level_changed": {
    user: UserPayload;
    points: PointsSystemPayload & { total: number };
    previousLevel: PointsLevelPayload | null;
    newLevel: PointsLevelPayload | null;
  };
  "points.boost_started": { boost: PointsBoostPayload };
  "points.boost_finished": { boost: PointsBoostPayload };
  "streak.started": { user: UserPayload; streak: StreakView };
  "streak.extended": { user: UserPayload; streak: StreakView };
  "streak.lost": { user: UserPayload; length: number };
  "streak.freeze_consumed": { user: UserPayload; consumed: number; freezes: number };
  "streak.freeze_earned": { user: UserPayload; earned: number; freezes: number };
  "leaderboard.started": {
    leaderboard: LeaderboardPayload & {
      status: "active" | "scheduled" | "finished";
      rankings: LeaderboardRankingPayload[];
      breakdownAttributeValues?: Array<{ key: string; value: string }>;
    };
  };
  "leaderboard.changed": {
    leaderboard: LeaderboardPayload & {
      status: "active" | "scheduled" | "finished";
      rankings: LeaderboardRankingPayload[];
      breakdownAttributeValues?: Array<{ key: string; value: string }>;
    };
  };
  "leaderboard.finished": {
    leaderboard: LeaderboardPayload & {
      status: "active" | "scheduled" | "finished";
      rankings: LeaderboardRankingPayload[];
      breakdownAttributeValues?: Array<{ key: string; value: string }>;
    };
  };
  "leaderboard.rank_changed": {
    user: UserPayload;
    leaderboard: LeaderboardPayload & {
      rank: number | null;
      value: number | null;
      previousRank: number | null;
      previousValue: number | null;
      breakdownAttributeValues?: Array<{ key: string; value: string }>;
    };
  };
  "emails.recap_due": { user: UserPayload; recap: { periodStart: string; periodEnd: string } };
  "emails.reactivation_due": { user: UserPayload; reactivation: { messageNumber: number; daysSinceLastActive: number } };
  "emails.streak_reminder_due": { user: UserPayload; streak: StreakReadPayload };
  "emails.achievement_due": { user: UserPayload; achievement: Record<string, Json> };
  /** A user was erased (DELETE /admin/v1/users/{id}, docs/privacy.md): their ID only. */
  "user.deleted": { user: { id: string } };
}

/** The reference `StreakResponse` (the streak read), as JSON. */
export type StreakReadPayload = Omit<StreakReadView, "extended" | "streakHistory" | "pauses"> & {
  extended: string | null;
  streakHistory: Array<{ periodStart: string; periodEnd: string; length: number; usedFreeze: boolean; usedPause: boolean; resetAt?: string }>;
  pauses: Array<{ id: string; start: string; end: string }>;
};

export function streakReadPayload(streak: StreakReadView): StreakReadPayload {
  return {
    ...streak,
    extended: streak.extended ? isoTime(streak.extended) : null,
    streakHistory: streak.streakHistory.map(({ resetAt, peakBeforeReset: _peak, ...p }) => ({ ...p, ...(resetAt && { resetAt: isoTime(resetAt) }) })),
    pauses: streak.pauses.map((p) => ({ id: p.id, start: p.start, end: p.end })),
  };
}

/** ISO 8601 in UTC as the REST API renders timestamps: milliseconds only when not zero. */
export function isoTime(at: Date): string {
  return at.toISOString().replace(".000Z", "Z");
}

export function userPayload(user: UserState): UserPayload {
  return {
    id: user.userId,
    email: user.email,
    name: user.name,
    tz: user.tz,
    deviceTokens: user.deviceTokens,
    subscribeToEmails: user.subscribeToEmails,
    attributes: user.attributes,
    control: user.control,
    created: isoTime(user.created),
    updated: isoTime(user.updated),
  };
}

/** The reference `UserAchievementResponse`: the fields of the achievement's trigger only, and when it was completed. */
export function achievementPayload(
  a: AchievementConfig,
  completion: AchievementCompletion,
  metricNames: Readonly<Record<string, string>> = {},
): Record<string, Json> {
  const { eventAttributes, ...triggerFields } = achievementTriggerFields(a, (id) => metricNames[id]);
  return {
    id: a.id,
    name: a.name,
    trigger: a.trigger,
    description: a.description,
    badgeUrl: a.badgeUrl,
    key: a.key,
    ...triggerFields,
    userAttributes: a.userAttributes.map((f) => ({ key: f.key, value: f.value })),
    ...(eventAttributes && { eventAttributes: eventAttributes.map((f) => ({ key: f.key, value: f.value })) }),
    achievedAt: isoTime(completion.achievedAt),
  };
}

export function pointsSystemPayload(system: PointsSystemConfig): PointsSystemPayload {
  return {
    id: system.id,
    key: system.key,
    name: system.name,
    description: system.description || null,
    badgeUrl: system.badge?.url ?? null,
    maxPoints: system.maxPoints,
  };
}

export function levelPayload(level: PointsLevelConfig | null): PointsLevelPayload | null {
  if (!level) return null;
  return { id: level.id, key: level.key, name: level.name, description: level.description, badgeUrl: level.badge?.url ?? null, points: level.points };
}

/** The reference `PointsAward`, as the event response shows it (boosts only when some applied). */
export function awardPayload(award: PointsAward): Record<string, Json> {
  const t = award.trigger;
  const trigger: Record<string, Json> = {
    id: t.id,
    type: t.type,
    points: t.points,
    ...awardTriggerFields(t),
    status: awardTriggerStatus(t),
    userAttributes: t.userAttributes ?? [],
    ...(t.type === "metric" && { eventAttributes: t.eventAttributes ?? [] }),
    ...(t.created && { created: isoTime(t.created) }),
    ...(t.updated && { updated: isoTime(t.updated) }),
  };
  const out: Record<string, Json> = { id: award.id, awarded: award.awarded, date: isoTime(award.date), total: award.total, trigger };
  if (award.boosts.length > 0) out.boosts = award.boosts.map(awardBoostView);
  return out;
}

export function boostPayload(
  boost: PointsBoostConfig,
  system: Pick<PointsSystemConfig, "id" | "key" | "name">,
  status: "active" | "finished",
): PointsBoostPayload {
  return {
    id: boost.id,
    name: boost.name,
    status,
    userId: boost.userId,
    pointsSystemId: system.id,
    pointsSystemKey: system.key,
    pointsSystemName: system.name,
    start: boost.start,
    end: boost.end,
    multiplier: boost.multiplier,
    rounding: boost.rounding,
  };
}

// ---------------------------------------------------------------------------------------------
// Messages

/** A message ID from a UUID (the dashes dropped: IDs are signed as `id.timestamp.body`, so no `.` either). */
export function messageIdFrom(uuid: string): string {
  return `msg_${uuid.replaceAll("-", "").toLowerCase()}`;
}

/** A deterministic message ID for a fact that must be announced once (e.g. "boost X started"). */
export function deterministicMessageId(fact: string, sha256: Sha256): string {
  return `msg_${toHex(sha256(fact)).slice(0, 32)}`;
}

/**
 * The users a webhook body names: a `user` object's `id`, and every `userId` field (a leaderboard's
 * rankings, a boost), anywhere in it. Structural, so an ID that happens to equal some other value
 * (a tenant's ID, a level's key) names no one.
 */
export function usersNamedIn(json: string): string[] {
  const named = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== "object") return;
    for (const [key, v] of Object.entries(value)) {
      if (key === "userId" && typeof v === "string") named.add(v);
      const id = key === "user" ? (v as { id?: unknown } | null)?.id : undefined;
      if (typeof id === "string") named.add(id);
      walk(v);
    }
  };
  try {
    walk(JSON.parse(json));
  } catch {
    // Not JSON: names no one.
  }
  return [...named];
}

/** Whether a webhook body names the user (`usersNamedIn`). */
export function bodyNamesUser(json: string, userId: string): boolean {
  return json.includes(JSON.stringify(userId).slice(1, -1)) && usersNamedIn(json).includes(userId); // the first test is cheap
}

/**
 * Wraps a payload in the envelope: `type`, `id`, `tenantId`, `timestamp`, then the reference fields.
 */
export function createMessage<T extends WebhookEventType>(
  type: T,
  payload: WebhookPayloads[T],
  meta: { id: string; tenant: string | null; at: Date },
): OutboxMessage {
  const body = JSON.stringify({ type, id: meta.id, tenantId: meta.tenant, timestamp: isoTime(meta.at), ...payload });
  return { id: meta.id, type, at: meta.at, body };
}

/**
 * The reference `LeaderboardResponse` of a leaderboard, with the dates of a run when given (the
 * event and webhook shapes show the current run's dates; the configuration's otherwise).
 */
export function leaderboardPayload(ranked: RankedLeaderboard, run?: LeaderboardRun): LeaderboardPayload {
  const c = ranked.config;
  return {
    id: c.id,
    name: c.name,
    key: c.key,
    rankBy: c.rankBy,
    ...(ranked.metric && { metricKey: ranked.metric.key, metricName: ranked.metric.name }),
    ...(ranked.pointsSystem && { pointsSystemKey: ranked.pointsSystem.key, pointsSystemName: ranked.pointsSystem.name }),
    description: c.description,
    start: run?.runStart ?? c.start,
    end: run ? run.runEnd : c.end,
    startTime: c.startTime,
    endTime: c.endTime,
    maxParticipants: c.maxParticipants,
    breakdownAttribute: ranked.breakdownKeys.length === 1 ? ranked.breakdownKeys[0]! : null,
    breakdownAttributes: ranked.breakdownKeys,
    runUnit: c.runUnit,
    runInterval: c.runInterval,
    userAttributes: ranked.userFilters.map(({ key, value }) => ({ key, value })),
  };
}

/** What a call (or scheduled work) caused for one user, as the engine reports it. */
export interface UserEvents {
  /** Leaderboards whose ranking changed; `leaderboard.rank_changed` is sent where the rank moved. */
  leaderboardResults?: readonly LeaderboardResult[];
  achievements?: ReadonlyArray<{ achievement: AchievementConfig; completion: AchievementCompletion }>;
  pointsEvents?: readonly PointsEvent[];
  streakEvents?: readonly StreakDomainEvent[];
}

/**
 * The messages one user's changes cause, in causal order (streak, achievements, points), for the
 * types someone subscribes to. `user` is the state after the change; `at` dates points events
 * (streak events and completions carry their own moment).
 */
export function messagesForUserEvents(
  user: UserState,
  events: UserEvents,
  settings: WebhookSettings | undefined,
  points: PointsConfig,
  at: Date,
  newId: () => string,
  sha256: Sha256,
): OutboxMessage[] {
  if (!settings || settings.subscribed.size === 0) return [];
  const wanted = (type: WebhookEventType) => settings.subscribed.has(type);
  const messages: OutboxMessage[] = [];
  let userJson: UserPayload | undefined;
  const u = () => (userJson ??= userPayload(user));
  const add = <T extends WebhookEventType>(type: T, payload: () => WebhookPayloads[T], moment: Date) => {
    if (wanted(type)) messages.push(createMessage(type, payload(), { id: messageIdFrom(newId()), tenant: settings.tenant, at: moment }));
  };

  for (const e of events.streakEvents ?? []) {
    switch (e.type) {
      case "streak.started":
      case "streak.extended":
        add(e.type, () => ({ user: u(), streak: e.streak }), e.at);
        break;
      case "streak.lost":
        add(e.type, () => ({ user: u(), length: e.length }), e.at);
        break;
      case "streak.freeze_consumed":
        add(e.type, () => ({ user: u(), consumed: e.consumed, freezes: e.freezes }), e.at);
        break;
      case "streak.freeze_earned":
        add(e.type, () => ({ user: u(), earned: e.earned, freezes: e.freezes }), e.at);
        break;
    }
  }
  for (const { achievement, completion } of events.achievements ?? []) {
    add("achievement.completed", () => ({ user: u(), achievement: achievementPayload(achievement, completion, points.metricNames) }), completion.achievedAt);
    if (lifecycleAllowed(user, "emails.achievement_due", settings.subscribed)) {
      const fact = lifecycleFact(settings.tenant, user.userId, "emails.achievement_due", `${achievement.id}/${isoTime(completion.achievedAt)}`);
      const payload = { user: u(), achievement: achievementPayload(achievement, completion, points.metricNames) };
      messages.push(
        createMessage("emails.achievement_due", payload, { id: deterministicMessageId(fact, sha256), tenant: settings.tenant, at: completion.achievedAt }),
      );
    }
  }
  const pointsEvents = events.pointsEvents ?? [];
  for (const [index, e] of pointsEvents.entries()) {
    const system = points.systems.find((s) => s.system.id === e.systemId)?.system;
    if (!system) continue;
    if (e.type === "points.changed") {
      // As in the event response: `level` only when this change moved the user to another level,
      // which its level change, right after it, tells (a scheduler's visit may pay several changes
      // of one system, one per day they came due).
      const next = pointsEvents[index + 1];
      const levelChange = next?.type === "points.level_changed" && next.systemId === e.systemId ? next : undefined;
      add(
        "points.changed",
        () => {
          const json: Record<string, Json> = { ...pointsSystemPayload(system), total: e.total };
          if (levelChange?.type === "points.level_changed") json.level = levelPayload(levelChange.newLevel);
          return { user: u(), points: { ...json, added: e.added, awards: e.awards.map(awardPayload) } };
        },
        at,
      );
    } else {
      add(
        "points.level_changed",
        () => ({
          user: u(),
          points: { ...pointsSystemPayload(system), total: e.total },
          previousLevel: levelPayload(e.previousLevel),
          newLevel: levelPayload(e.newLevel),
        }),
        at,
      );
    }
  }
  for (const { leaderboard, run, groupValues, outcome } of events.leaderboardResults ?? []) {
    if (outcome.previousRank === outcome.rank) continue;
    const number = (v: DecimalString | null) => (v === null ? null : decimalToNumber(v));
    add(
      "leaderboard.rank_changed",
      () => ({
        user: u(),
        leaderboard: {
          ...leaderboardPayload(leaderboard, run),
          status: statusOf(leaderboard.config, at),
          rank: outcome.rank,
          value: number(outcome.value),
          previousRank: outcome.previousRank,
          previousValue: number(outcome.previousValue),
          ...(groupValues.length > 0 && { breakdownAttributeValues: groupValues }),
        },
      }),
      at,
    );
  }
  return messages;
}

/** What a lifecycle message's ID derives from: the tenant, the user, the type and its period (or step, date, completion). */
function lifecycleFact(tenant: string | null, userId: string, type: string, key: string): string {
  return JSON.stringify(["lifecycle", tenant, userId, type, key]);
}

/**
 * The messages of the lifecycle messages due now (features/webhooks/domain/lifecycle.ts `planLifecycle`), dated `now`
 * (the reference's `timestamp`: when it was sent). Only types someone subscribes to; IDs derive
 * from the user and the period, so the same message always has the same ID.
 */
export function lifecycleMessages(
  user: UserState,
  due: readonly DueLifecycleMessage[],
  settings: WebhookSettings | undefined,
  now: Date,
  sha256: Sha256,
): OutboxMessage[] {
  if (!settings || due.length === 0) return [];
  const messages: OutboxMessage[] = [];
  const u = userPayload(user);
  for (const d of due) {
    if (!settings.subscribed.has(d.type)) continue;
    const meta = { id: deterministicMessageId(lifecycleFact(settings.tenant, user.userId, d.type, d.key), sha256), tenant: settings.tenant, at: now };
    switch (d.type) {
      case "emails.recap_due":
        messages.push(createMessage(d.type, { user: u, recap: d.recap }, meta));
        break;
      case "emails.reactivation_due":
        messages.push(createMessage(d.type, { user: u, reactivation: d.reactivation }, meta));
        break;
      case "emails.streak_reminder_due":
        messages.push(createMessage(d.type, { user: u, streak: streakReadPayload(d.streak) }, meta));
        break;
    }
  }
  return messages;
}

// ---------------------------------------------------------------------------------------------
// Endpoints

/** Longest endpoint URL accepted. */
export const MAX_URL_LENGTH = 2048;

/**
 * What is wrong with an endpoint URL, or null: it must be an absolute `http` or `https` URL
 * without credentials (they would be sent, and shown, with every request) or a fragment.
 */
export function checkEndpointUrl(url: string): string | null {
  if (url.length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `url "${url}" is not an absolute URL`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `url must use http or https, got "${parsed.protocol.slice(0, -1)}"`;
  if (parsed.username !== "" || parsed.password !== "") return "url must not contain credentials (user:password@)";
  if (parsed.hash !== "") return "url must not contain a fragment (#...)";
  if (parsed.hostname === "") return "url must name a host";
  return null;
}

/** What is wrong with a list of subscribed event types, or null. */
export function checkEventTypes(types: readonly string[]): string | null {
  if (types.length === 0) return "eventTypes must name at least one event type";
  const unknown = types.filter((t) => !isWebhookEventType(t));
  if (unknown.length > 0) return `Unknown event types: ${unknown.join(", ")}; known types: ${WEBHOOK_EVENT_TYPES.join(", ")}`;
  if (new Set(types).size !== types.length) return "eventTypes must not repeat a type";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Boost announcements

/** What to announce about a boost now, given what was announced before. */
export interface BoostNotices {
  announce: Array<{ type: "points.boost_started" | "points.boost_finished"; at: Date }>;
  markStarted: boolean;
  markFinished: boolean;
  /** True: the boost can go live again (its dates were edited): what was announced is forgotten, for a new round. */
  reopen?: true;
}

/**
 * Boosts start and finish by the calendar (UTC days, the end day included), not by a write, so a
 * periodic check announces them: `points.boost_started` once the start day has come,
 * `points.boost_finished` once the end day has passed (or the boost was archived while running),
 * each once per boost and round (the caller records what was announced on the boost; an edit of
 * its dates may start a new round: `reopenedBoostAnnouncements`). A boost that was never live
 * while it existed (created after its end, or archived before its start) is announced neither
 * way. A boost that started and finished between two checks (the service was down) gets both, in
 * order. Moments: the start of the start day (or the creation, or in a later round the edit that
 * opened it, if later), the last second of the end day (the reference's example), or the archiving.
 */
export function decideBoostNotices(
  boost: Pick<PointsBoostConfig, "start" | "end" | "archived" | "created" | "updated"> &
    Pick<BoostAnnouncements, "webhookRound" | "webhookRoundOpenedAt" | "webhookStartedAt">,
  announced: { started: boolean },
  now: Date,
): BoostNotices {
  const today = now.toISOString().slice(0, 10);
  const openedAt = boost.webhookRound ? (boost.webhookRoundOpenedAt ?? boost.updated) : boost.created;
  const startAt = new Date(Math.max(Date.parse(`${boost.start}T00:00:00Z`), openedAt.getTime()));
  const endAt = boost.end === null ? null : new Date(`${boost.end}T23:59:59Z`);
  const none: BoostNotices = { announce: [], markStarted: false, markFinished: false };
  const ended = boost.end !== null && today > boost.end;
  if (boost.archived) {
    if (announced.started) return { announce: [{ type: "points.boost_finished", at: boost.updated }], markStarted: false, markFinished: true };
    return { announce: [], markStarted: true, markFinished: true };
  }
  // Announced as started, then moved to a later start: it no longer applies, so it finished; it
  // will be announced again when it starts (a new round).
  if (today < boost.start)
    return announced.started
      ? { announce: [{ type: "points.boost_finished", at: boost.updated }], markStarted: false, markFinished: false, reopen: true }
      : none;
  if (!ended) return announced.started ? none : { announce: [{ type: "points.boost_started", at: startAt }], markStarted: true, markFinished: false };
  // An end an edit moved before the start was announced: it finished at that edit.
  const startedAt = announced.started ? boost.webhookStartedAt : undefined;
  const endedByEdit = startedAt !== undefined && endAt! < startedAt;
  const finished = { type: "points.boost_finished" as const, at: endedByEdit ? new Date(Math.max(boost.updated.getTime(), startedAt.getTime())) : endAt! };
  if (announced.started) return { announce: [finished], markStarted: false, markFinished: true };
  // Live at some moment of its round: it was opened (created, or reopened) before its end.
  const wasLive = openedAt.getTime() <= endAt!.getTime();
  return { announce: wasLive ? [{ type: "points.boost_started", at: startAt }, finished] : [], markStarted: true, markFinished: true };
}

/**
 * A boost whose edit (its dates) lets it go live again after it was announced as finished (an
 * end moved to today or later): what was announced is forgotten, and the next round's messages get
 * IDs of their own (`round`), so `decideBoostNotices` announces it again when it is live.
 */
export function reopenedBoostAnnouncements<T extends Pick<PointsBoostConfig, "end" | "archived"> & BoostAnnouncements>(boost: T, now: Date): T {
  const today = now.toISOString().slice(0, 10);
  if (boost.webhookFinishedAt === undefined || boost.archived || (boost.end !== null && boost.end < today)) return boost;
  return { ...withoutMarks(boost), ...nextRound(boost, now) } as T;
}

/** What a boost is announced with after its marks, for a new round opened at `now`. */
export function nextRound(boost: BoostAnnouncements, now: Date): Required<Pick<BoostAnnouncements, "webhookRound" | "webhookRoundOpenedAt">> {
  return { webhookRound: (boost.webhookRound ?? 0) + 1, webhookRoundOpenedAt: now };
}

function withoutMarks<T extends BoostAnnouncements>(boost: T): Omit<T, "webhookStartedAt" | "webhookFinishedAt"> {
  const { webhookStartedAt: _started, webhookFinishedAt: _finished, ...rest } = boost;
  return rest;
}

/** What the boost check recorded on a boost: what it announced, when, and in which round (see `reopenedBoostAnnouncements`). */
export interface BoostAnnouncements {
  webhookStartedAt?: Date;
  webhookFinishedAt?: Date;
  /** Rounds after the first: a boost announced as finished whose dates were edited so it goes live again. */
  webhookRound?: number;
  /** When the current round (after the first) was opened: its start is not announced before it. */
  webhookRoundOpenedAt?: Date;
}

/**
 * The notices of a boost deleted at `now`: what was due anyway if it had finished (its end day
 * passed, or it was archived); otherwise deleting finishes it now, like archiving: a boost
 * announced as started gets `points.boost_finished`, one never announced gets nothing.
 */
export function decideDeletedBoostNotices(
  boost: Pick<PointsBoostConfig, "start" | "end" | "archived" | "created" | "updated">,
  announced: { started: boolean },
  now: Date,
): BoostNotices {
  const due = decideBoostNotices(boost, announced, now);
  return due.markFinished ? due : decideBoostNotices({ ...boost, archived: true, updated: now }, announced, now);
}
