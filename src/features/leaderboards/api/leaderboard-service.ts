import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { decimalToNumber, type DecimalString } from "../../../engine/domain/decimal.js";
import type { LeaderboardResult, RankedLeaderboard } from "../domain/leaderboard-entries.js";
import type { LeaderboardRun } from "../domain/leaderboard-runs.js";
import { LeaderboardChangeSchema, LeaderboardStatus, type LeaderboardChange } from "../../../gen/gamification/v1/leaderboard_pb.js";
import type * as ls from "../../../gen/gamification/v1/leaderboard_service_pb.js";
import type { ServiceContext } from "../../../engine/context.js";
import * as reads from "../leaderboard-reads.js";
import { checkUserScope } from "../../../transport/guard.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import { rankBys, runUnits, statuses } from "./leaderboard-admin-service.js";

const number = (value: DecimalString | null) => (value === null ? undefined : decimalToNumber(value));

/**
 * The fields every leaderboard shape shares (the reference `LeaderboardResponse`); with a run, its
 * first and last day stand for `start` and `end`, as the reference's per-run shapes show them.
 */
export function leaderboardFields(ranked: RankedLeaderboard, run?: LeaderboardRun) {
  const c = ranked.config;
  return {
    id: c.id,
    name: c.name,
    key: c.key,
    rankBy: rankBys.toProto(c.rankBy),
    breakdownAttribute: ranked.breakdownKeys.length === 1 ? ranked.breakdownKeys[0] : undefined,
    breakdownAttributes: ranked.breakdownKeys,
    metricKey: ranked.metric?.key,
    metricName: ranked.metric?.name,
    pointsSystemKey: ranked.pointsSystem?.key,
    pointsSystemName: ranked.pointsSystem?.name,
    description: c.description ?? undefined,
    start: run ? run.runStart : c.start,
    end: (run ? run.runEnd : c.end) ?? undefined,
    startTime: c.startTime ?? undefined,
    endTime: c.endTime ?? undefined,
    maxParticipants: c.maxParticipants,
    runUnit: c.runUnit === null ? undefined : runUnits.toProto(c.runUnit),
    runInterval: c.runInterval ?? 0, // the spec: "0 when there is no run" (the reference: null)
    userAttributes: ranked.userFilters ?? [],
  };
}

/** The event response's entry for a leaderboard the call changed. */
export function leaderboardChangeToProto(result: LeaderboardResult): LeaderboardChange {
  const { outcome } = result;
  return create(LeaderboardChangeSchema, {
    ...leaderboardFields(result.leaderboard, result.run),
    // The value to beat to enter; 0 while the ranking has room.
    threshold: decimalToNumber(outcome.threshold ?? "0"),
    rank: outcome.rank ?? undefined,
    previousRank: outcome.previousRank ?? undefined,
    breakdownAttributeValues: result.groupValues,
    breakdownAttributeValue: result.groupValues.length === 1 ? result.groupValues[0]!.value : undefined,
    status: LeaderboardStatus.ACTIVE,
  });
}

/** The event response's `leaderboards` map: by key, only the leaderboards the call changed. */
export function leaderboardChangesToProto(results: readonly LeaderboardResult[]): Record<string, LeaderboardChange> {
  return Object.fromEntries(results.map((r) => [r.leaderboard.config.key, leaderboardChangeToProto(r)]));
}

/**
 * The LeaderboardService methods (Application API: application or admin keys). Rankings are open
 * to every key of the tenant; a user's standing only to that user's application key.
 */
export function createLeaderboardMethods(services: ServiceContext): ScopedService<typeof ls.LeaderboardService> {
  return {
    async listPublicLeaderboards(
      req: ls.ListPublicLeaderboardsRequest,
      scope: CallScope,
    ): Promise<MessageInitShape<typeof ls.ListPublicLeaderboardsResponseSchema>> {
      const visible = await reads.listVisibleLeaderboards(services, scope.tenantId, req.includeFinished);
      return { leaderboards: visible.map((v) => ({ ...leaderboardFields(v.leaderboard), status: statuses.toProto(v.status) })) };
    },
    async getLeaderboardRankings(
      req: ls.GetLeaderboardRankingsRequest,
      scope: CallScope,
    ): Promise<MessageInitShape<typeof ls.GetLeaderboardRankingsResponseSchema>> {
      const page = await reads.readRankings(services, scope.tenantId, req.key, {
        offset: req.offset,
        limit: req.limit,
        run: req.run,
        userId: req.userId,
        userAttributes: req.userAttributes,
      });
      return {
        leaderboard: {
          ...leaderboardFields(page.leaderboard),
          runStart: page.run.runStart,
          runEnd: page.run.runEnd ?? undefined,
          status: statuses.toProto(page.status),
          rankings: page.rankings.map((r) => ({ userId: r.userId, userName: r.userName ?? undefined, rank: r.rank, value: decimalToNumber(r.value) })),
          breakdownAttributeValues: page.groupValues,
          participants: page.participants,
        },
      };
    },
    async getUserLeaderboard(req: ls.GetUserLeaderboardRequest, scope: CallScope): Promise<MessageInitShape<typeof ls.GetUserLeaderboardResponseSchema>> {
      checkUserScope(scope, req.id);
      const standing = await reads.readUserStanding(services, scope.tenantId, req.id, req.key, { run: req.run, numEvents: req.numEvents });
      return {
        leaderboard: {
          ...leaderboardFields(standing.leaderboard),
          runStart: standing.run.runStart,
          runEnd: standing.run.runEnd ?? undefined,
          rank: standing.rank ?? undefined,
          value: number(standing.value),
          history: standing.history.map((h) => ({
            date: h.date,
            timestamp: `${h.date}T00:00:00.000Z`,
            previousRank: h.previousRank ?? undefined,
            rank: h.rank ?? undefined,
            previousValue: number(h.previousValue),
            value: number(h.value),
          })),
          breakdownAttributeValues: standing.groupValues,
        },
      };
    },
  };
}
