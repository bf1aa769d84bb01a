import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { decimalToNumber } from "../../../engine/domain/decimal.js";
import type * as app from "../../../gen/gamification/v1/application_service_pb.js";
import type { ServiceContext } from "../../../engine/context.js";
import { recordEvent } from "../../../engine/record-event.js";
import type { MetricConfig } from "../../metrics/domain/metric.js";
import type { UserState } from "../../../engine/domain/user.js";
import type { AchievementConfig } from "../../achievements/domain/achievement-config.js";
import { isVisibleTo } from "../../achievements/domain/achievements.js";
import { completeApiAchievement, listAchievementStats, listUserAchievements } from "../../achievements/achievement-reads.js";
import { listStreakLengths, readUserStreak } from "../../streaks/streak-reads.js";
import { noStreakView } from "../../streaks/domain/streak.js";
import { readUserPreferences, updateUserPreferences } from "../user-preferences.js";
import { listStreakRankings } from "../../streaks/streak-rankings.js";
import { preferencesToProto, preferencesUpdateFromProto } from "./preferences-convert.js";
import { StreakRankingType } from "../../../gen/gamification/v1/application_service_pb.js";
import { findMetricByKeyOrFail, readUser, summarizeUserMetric, writeUser } from "../../../engine/user-access.js";
import { achievementToProto, pointsChangesToProto, streakFields, streakToProto, userToProto, userUpsertFromProto } from "../../../transport/convert.js";
import { DomainError } from "../../../engine/domain/errors.js";
import { checkUserScope, type CallScope, type ScopedService } from "../../../transport/guard.js";
import { setRestStatus } from "../../../transport/rest-status.js";
import { leaderboardChangesToProto, leaderboardFields } from "../../leaderboards/api/leaderboard-service.js";
import { readUserWrapped, type WrappedRead } from "../wrapped-reads.js";
import type { WrappedFigure, WrappedPeriod, WrappedStanding } from "../domain/wrapped.js";
import type { AchievementView } from "../../achievements/achievement-reads.js";
import type { RankedLeaderboard } from "../../leaderboards/domain/leaderboard-entries.js";
import { runOnDate } from "../../leaderboards/domain/leaderboard-runs.js";
import { streakFrequencies } from "../../../transport/enum-mapping.js";
import { reservedKeyProblem } from "../../batches/event-batches.js";

/** The Application API methods; authentication, validation and tenant scope are done by the guard. */
export function createApplicationMethods(services: ServiceContext): ScopedService<typeof app.ApplicationService> {
  return {
    async trackMetricEvent(req: app.TrackMetricEventRequest, scope: CallScope) {
      checkUserScope(scope, req.user!.id);
      if (req.timestamp && scope.caller.kind !== "admin") {
        throw new DomainError("permission_denied", "Only admin keys may set an event timestamp");
      }
      const idempotencyKey = eventIdempotencyKey(req.idempotencyKey, idempotencyKeyHeader(scope));
      const result = await recordEvent(services, scope.tenantId, {
        metricKey: req.key,
        user: userUpsertFromProto(req.user!.id, req.user),
        value: req.value!,
        attributes: req.attributes,
        timestamp: req.timestamp ? timestampDate(req.timestamp) : undefined,
        idempotencyKey,
      });
      services.observer?.eventRecorded(result.kind, "api");
      setRestStatus(scope.ctx, result.kind === "replayed" ? 202 : 201);
      const { outcome } = result;
      const [metricNames, pointsConfig] = await Promise.all([metricNamesOf(services, scope.tenantId), services.config.pointsConfig(scope.tenantId)]);
      return {
        metricId: outcome.metricId,
        eventId: outcome.eventId,
        total: decimalToNumber(outcome.total),
        achievements: outcome.reactions.achievements.map((a) => achievementToProto(a, metricNames)),
        // Without streak settings, a zero-length streak: the published clients require the object.
        currentStreak: streakToProto(outcome.reactions.streak ?? noStreakView(), outcome.reactions.streak?.extended ?? false),
        points: pointsChangesToProto(outcome.reactions.points, pointsConfig),
        leaderboards: leaderboardChangesToProto(outcome.reactions.leaderboards),
        ...(idempotencyKey !== undefined && { idempotencyKey, idempotentReplayed: result.kind === "replayed" }),
      };
    },

    async getUser(req: app.GetUserRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      return { user: userToProto(await readUser(services, scope.tenantId, req.id)) };
    },
    async createUser(req: app.CreateUserRequest, scope: CallScope) {
      checkUserScope(scope, req.user!.id);
      const user = await writeUser(services, scope.tenantId, "create", userUpsertFromProto(req.user!.id, req.user));
      setRestStatus(scope.ctx, 201);
      return { user: userToProto(user) };
    },
    async identifyUser(req: app.IdentifyUserRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      return { user: userToProto(await writeUser(services, scope.tenantId, "identify", userUpsertFromProto(req.id, req.user))) };
    },
    async updateUser(req: app.UpdateUserRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      return { user: userToProto(await writeUser(services, scope.tenantId, "update", userUpsertFromProto(req.id, req.user))) };
    },
    async listUserMetrics(req: app.ListUserMetricsRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const [user, metrics, achievements] = await Promise.all([
        readUser(services, scope.tenantId, req.id),
        services.config.metrics(scope.tenantId),
        services.config.achievements(scope.tenantId),
      ]);
      return { metrics: metrics.map((m) => userMetricToProto(m, user, achievements)) };
    },
    async getUserMetric(req: app.GetUserMetricRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const [user, metric, achievements] = await Promise.all([
        readUser(services, scope.tenantId, req.id),
        findMetricByKeyOrFail(services, scope.tenantId, req.key),
        services.config.achievements(scope.tenantId),
      ]);
      return { metric: userMetricToProto(metric, user, achievements) };
    },
    async completeAchievement(req: app.CompleteAchievementRequest, scope: CallScope) {
      checkUserScope(scope, req.user!.id);
      const { view, alreadyCompleted, reactions } = await completeApiAchievement(
        services,
        scope.tenantId,
        req.key,
        userUpsertFromProto(req.user!.id, req.user),
      );
      setRestStatus(scope.ctx, alreadyCompleted ? 200 : 201);
      const pointsConfig = await services.config.pointsConfig(scope.tenantId);
      return {
        completionId: view.completion!.completionId,
        achievement: achievementToProto(view, await metricNamesOf(services, scope.tenantId)),
        points: pointsChangesToProto(reactions.points, pointsConfig),
      };
    },
    async listUserAchievements(req: app.ListUserAchievementsRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const views = await listUserAchievements(services, scope.tenantId, req.id, req.includeIncomplete);
      const names = await metricNamesOf(services, scope.tenantId);
      return { achievements: views.map((v) => achievementToProto(v, names)) };
    },
    async getUserStreak(req: app.GetUserStreakRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const streak = await readUserStreak(services, scope.tenantId, req.id, req.historyPeriods);
      return {
        streak: {
          ...streakFields(streak),
          extended: streak.extended ? timestampFromDate(streak.extended) : undefined,
          streakHistory: streak.streakHistory.map(({ resetAt, peakBeforeReset: _peak, ...p }) => ({
            ...p,
            resetAt: resetAt ? timestampFromDate(resetAt) : undefined,
          })),
          pauses: streak.pauses,
        },
      };
    },
    async listStreaks(req: app.ListStreaksRequest, scope: CallScope) {
      if (scope.caller.userId !== null) req.userIds.forEach((id) => checkUserScope(scope, id));
      const rows = await listStreakLengths(services, scope.tenantId, req.userIds);
      return {
        streaks: rows.map((r) => ({ userId: r.userId, streakLength: r.streakLength, extended: r.extended ? timestampFromDate(r.extended) : undefined })),
      };
    },
    async getUserPreferences(req: app.GetUserPreferencesRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      return { preferences: preferencesToProto(await readUserPreferences(services, scope.tenantId, req.id)) };
    },
    async updateUserPreferences(req: app.UpdateUserPreferencesRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const update = preferencesUpdateFromProto(req.preferences);
      return { preferences: preferencesToProto(await updateUserPreferences(services, scope.tenantId, req.id, update)) };
    },
    async listStreakRankings(req: app.ListStreakRankingsRequest, scope: CallScope) {
      const type = req.type === StreakRankingType.LONGEST ? "longest" : "active";
      const rows = await listStreakRankings(services, scope.tenantId, type, req.limit ?? 10);
      return { rankings: rows.map((r) => ({ userId: r.userId, name: r.name ?? undefined, streakLength: r.streakLength })) };
    },
    async listAchievementStats(req: app.ListAchievementStatsRequest, scope: CallScope) {
      const names = await metricNamesOf(services, scope.tenantId);
      return { achievements: (await listAchievementStats(services, scope.tenantId, req.userAttributes)).map((v) => achievementToProto(v, names)) };
    },
    async getUserMetricEventSummary(req: app.GetUserMetricEventSummaryRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const aggregation = (["daily", "weekly", "monthly"] as const)[req.aggregation - 1]!;
      const periods = await summarizeUserMetric(services, scope.tenantId, req.id, req.key, aggregation, { start: req.startDate, end: req.endDate });
      return { periods: periods.map((p) => ({ date: p.date, total: decimalToNumber(p.total), change: decimalToNumber(p.change) })) };
    },
    async getUserWrapped(req: app.GetUserWrappedRequest, scope: CallScope) {
      checkUserScope(scope, req.id);
      const read = await readUserWrapped(services, scope.tenantId, req.id, req.year);
      const names = await metricNamesOf(services, scope.tenantId);
      const { wrapped } = read;
      const period = (p: WrappedPeriod<AchievementView, RankedLeaderboard>) => wrappedPeriodToProto(read, p, names);
      const s = wrapped.entireYear.longestStreak;
      return {
        user: userToProto(read.user),
        activity: {
          daysActive: wrapped.daysActive,
          weeksActive: wrapped.weeksActive,
          monthsActive: wrapped.monthsActive,
          mostActiveDay: { date: wrapped.mostActiveDay.date, ...period(wrapped.mostActiveDay) },
          mostActiveWeek: { start: wrapped.mostActiveWeek.start, end: wrapped.mostActiveWeek.end, ...period(wrapped.mostActiveWeek) },
          mostActiveMonth: { month: wrapped.mostActiveMonth.month, ...period(wrapped.mostActiveMonth) },
          entireYear: {
            ...period(wrapped.entireYear),
            longestStreak: {
              length: s.length,
              frequency: streakFrequencies.toProto(s.frequency),
              periodStart: s.periodStart ?? undefined,
              periodEnd: s.periodEnd ?? undefined,
              started: s.started ?? undefined,
            },
          },
        },
      };
    },
  };
}

/** One period of a year in review: figures by key, achievements, best leaderboard standings. */
function wrappedPeriodToProto(read: WrappedRead, period: WrappedPeriod<AchievementView, RankedLeaderboard>, metricNames: ReadonlyMap<string, string>) {
  const figure = (f: WrappedFigure) => ({
    currentTotal: decimalToNumber(f.currentTotal),
    changeThisPeriod: decimalToNumber(f.change),
    percentChange: f.percentChange,
  });
  const standing = (s: WrappedStanding<RankedLeaderboard>) => ({
    ...leaderboardFields(s.leaderboard),
    runStart: s.run,
    runEnd: runOnDate(s.leaderboard.config, s.run)?.runEnd ?? undefined,
    rank: s.rank,
    value: s.value === null ? undefined : decimalToNumber(s.value),
    history: s.history.map((h) => ({
      date: h.date,
      timestamp: `${h.date}T00:00:00.000Z`,
      previousRank: h.previousRank ?? undefined,
      rank: h.rank ?? undefined,
      previousValue: h.previousValue === null ? undefined : decimalToNumber(h.previousValue),
      value: h.value === null ? undefined : decimalToNumber(h.value),
    })),
  });
  const mapValues = <T, U>(record: Record<string, T>, f: (key: string, value: T) => U) =>
    Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(k, v)]));
  return {
    metrics: mapValues(period.metrics, (key, f) => {
      const metric = read.metrics.get(key)!;
      return { name: metric.name, units: metric.units || undefined, ...figure(f), byAttribute: {} };
    }),
    points: mapValues(period.points, (key, f) => {
      const system = read.pointsSystems.get(key)!;
      return { name: system.name, description: system.description || undefined, ...figure(f) };
    }),
    achievements: period.achievements.map((v) => achievementToProto(v, metricNames)),
    leaderboards: mapValues(period.leaderboards, (_key, s) => standing(s)),
  };
}

/** A user's progress on a metric, with the metric's achievements visible to the user. */
function userMetricToProto(metric: MetricConfig, user: UserState, achievements: readonly AchievementConfig[]) {
  const names = new Map([[metric.id, metric.name]]);
  const own = achievements.filter((a) => a.trigger === "metric" && a.metricId === metric.id && isVisibleTo(a, user));
  return {
    id: metric.id,
    key: metric.key,
    name: metric.name,
    current: decimalToNumber(user.metrics[metric.id]?.total ?? "0"),
    achievements: own.map((achievement) => achievementToProto({ achievement, completion: user.achievements[achievement.id] ?? null }, names)),
    status: "active",
  };
}

async function metricNamesOf(services: ServiceContext, tenantId: string): Promise<Map<string, string>> {
  return new Map((await services.config.metrics(tenantId)).map((m) => [m.id, m.name]));
}

/**
 * The `Idempotency-Key` header, held to the body field's rule (at most 255 characters). A header
 * sent empty is refused: a client whose key generation failed would otherwise lose its protection
 * without a word.
 */
function idempotencyKeyHeader(scope: CallScope): string | null {
  const sent = scope.ctx.requestHeader.get("idempotency-key");
  if (sent === null) return null;
  const header = asUtf8(sent);
  const length = [...header].length;
  if (header.trim() === "") throw new DomainError("invalid_argument", "The Idempotency-Key header must not be empty; leave it out to send no key");
  if (length > 255) throw new DomainError("invalid_argument", `The Idempotency-Key header must be at most 255 characters, got ${length}`);
  return header;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A header value as its sender wrote it: Node reads header bytes as Latin-1, while clients send
 * text beyond ASCII in UTF-8 (the body's key is UTF-8 too, so the two compare). Bytes that are not
 * UTF-8 stay as read.
 */
function asUtf8(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}

/** The event's key: the body's or the header's; both sent must agree (one of them would be ignored). */
function eventIdempotencyKey(body: string, header: string | null): string | undefined {
  if (body !== "" && header !== null && body !== header) {
    throw new DomainError("invalid_argument", `The Idempotency-Key header ("${header}") and the body's idempotencyKey ("${body}") differ; send one key`);
  }
  const key = body || header || undefined;
  const problem = key === undefined ? null : reservedKeyProblem(key);
  if (problem) throw new DomainError("invalid_argument", problem);
  return key;
}
