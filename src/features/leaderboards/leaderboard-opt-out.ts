import { localDate } from "../../engine/domain/history.js";
import { zoneInForce } from "../../engine/domain/user.js";
import type { DecimalString } from "../../engine/domain/decimal.js";
import { isRunFinal, runOnDate, statusOf, type LeaderboardRun } from "./domain/leaderboard-runs.js";
import type { EngineConfig } from "../../engine/domain/reactions.js";
import type { UserState } from "../../engine/domain/user.js";
import type { ServiceContext } from "../../engine/context.js";
import { entryOutcome, leaderboardScope, rankingsOf } from "./ranking-updates.js";
import { entryOf, historyOfRun, type LeaderboardEntry, type LeaderboardResult, type RankedLeaderboard } from "./domain/leaderboard-entries.js";
import { groupValuesOf } from "./domain/leaderboard-ranking.js";
import type { EntryChange } from "./store/leaderboard-rankings.js";
import type { LeaderboardConfig } from "./domain/leaderboard-config.js";
import { leaveStreakRankings } from "../streaks/streak-rankings.js";

/**
 * A user opting out of leaderboards, or back in (the `leaderboards.optOut` preference; see
 * features/users/domain/preferences.ts). Both work from the user's own document, never a scan over users:
 * - Opting out removes the user from the ranking of the run and group their document records for
 *   each leaderboard (their latest run: the current one, or the last they took part in), from any
 *   earlier run their recent history ranks them in that is not final yet, and from both streak
 *   rankings; the others close up exactly (the store's removal). Earlier runs keep
 *   their final standings in the store, but public reads of them skip opted-out users
 *   (features/leaderboards/leaderboard-reads.ts).
 * - Opting back in writes the user's recorded value into the ranking of the run recorded, in the
 *   group recorded, of each active leaderboard where that run is current (in the user's zone) or not
 *   final yet, and their lines in earlier runs not final yet; values of runs that became final
 *   while they were out are not restored. The streak rankings follow at the same
 *   change (`rankStreak` finds nothing written and writes both lengths).
 * Both return the rank moves on the active boards' current runs, for `leaderboard.rank_changed`.
 * Both are absolute ranking writes, so a decision retried after a version conflict repeats them harmlessly.
 */
export async function leaveLeaderboards(
  ctx: ServiceContext,
  tenantId: string,
  engine: EngineConfig,
  state: UserState,
): Promise<{ state: UserState; moves: LeaderboardResult[] }> {
  const rankings = rankingsOf(ctx);
  const boards = new Map((engine.leaderboards ?? []).map((l) => [l.config.id, l]));
  const now = ctx.now();
  const moves: LeaderboardResult[] = [];
  await Promise.all(
    Object.entries(state.leaderboards).flatMap(([id, entry]) => {
      const board = boards.get(id);
      const config = board?.config;
      const current = board && entry.value !== null ? currentRunOf(board, entry, state, now) : null;
      const lines = entry.value === null ? [] : [{ run: entry.run, group: entry.group }];
      // The ranking of the entry's own definition (one from before a redefinition is gone, or going).
      return [
        ...lines.map(async ({ run, group }) => {
          const change = await rankings.removeEntry(leaderboardScope(tenantId, { id, rankingGeneration: entry.generation }, run, group), state.userId, {
            maxParticipants: config?.maxParticipants,
          });
          // The value stays the user's (their own reads show it), only the rank goes.
          if (current && change.changed) moves.push(rankMove(board!, current, entry.group, change, { value: entry.value }));
        }),
        ...(config ? earlierLiveLines(entry, config, now) : []).map(({ run, group }) =>
          rankings.removeEntry(leaderboardScope(tenantId, { id, rankingGeneration: entry.generation }, run, group), state.userId, {
            maxParticipants: config?.maxParticipants,
          }),
        ),
      ];
    }),
  );
  return { state: await leaveStreakRankings(ctx, tenantId, state), moves };
}

/** See `leaveLeaderboards`: the user's recorded values of the current runs go back into the rankings. */
export async function rejoinLeaderboards(
  ctx: ServiceContext,
  tenantId: string,
  engine: EngineConfig,
  state: UserState,
  at: Date,
): Promise<LeaderboardResult[]> {
  const rankings = rankingsOf(ctx);
  const moves: LeaderboardResult[] = [];
  await Promise.all(
    (engine.leaderboards ?? []).flatMap((board) => {
      const { config } = board;
      const entry = entryOf(state, config);
      if (!entry || statusOf(config, at) !== "active") return [];
      const current = entry.value !== null ? currentRunOf(board, entry, state, at) : null;
      // The entry's run may have ended in the user's zone since they opted out (their midnight
      // passed, no event since) while others still play it: they go back into it too.
      const live = entry.value !== null && (current !== null || !isRunFinal(config, entry.run, at));
      const back = live
        ? [
            rankings
              .upsertEntry(leaderboardScope(tenantId, config, entry.run, entry.group), state.userId, entry.value!, at, {
                maxParticipants: config.maxParticipants,
              })
              .then((change) => {
                if (current && change.changed) moves.push(rankMove(board, current, entry.group, change, { previousValue: entry.value }));
              }),
          ]
        : [];
      return [
        ...back,
        ...earlierLiveLines(entry, config, at).map(({ run, group, value }) =>
          rankings.upsertEntry(leaderboardScope(tenantId, config, run, group), state.userId, value, at, { maxParticipants: config.maxParticipants }),
        ),
      ];
    }),
  );
  return moves;
}

/** The run of `at` (in the user's zone) when it is the entry's run of an active leaderboard: the line whose rank the user sees. */
function currentRunOf(board: RankedLeaderboard, entry: LeaderboardEntry, state: UserState, at: Date): LeaderboardRun | null {
  if (statusOf(board.config, at) !== "active") return null;
  const run = runOnDate(board.config, localDate(at, zoneInForce(state, at)));
  return run?.runStart === entry.run ? run : null;
}

/**
 * An opt-out's or opt-in's move of the current run's rank, for `leaderboard.rank_changed` as an
 * event's move is: the user's value is the same on both sides (it did not change, their rank did).
 */
function rankMove(
  board: RankedLeaderboard,
  run: LeaderboardRun,
  group: string,
  change: EntryChange,
  value: { value: DecimalString | null } | { previousValue: DecimalString | null },
): LeaderboardResult {
  const groupValues = groupValuesOf(group).map((v, i) => ({ key: board.breakdownKeys[i]!, value: v }));
  return { leaderboard: board, run, groupValues, outcome: { ...entryOutcome(change), ...value } };
}

/**
 * The user's lines in runs before their entry's that are not final yet, with the value and group of
 * their latest history item of each: after a zone moved west, or an admin's backdated event, the
 * user also stands in the run before, which other users still play. Opting out leaves them too, and
 * opting back in restores them.
 */
function earlierLiveLines(entry: LeaderboardEntry, config: LeaderboardConfig, now: Date): Array<{ run: string; group: string; value: string }> {
  const runs = new Set(entry.history.filter((h) => h.run < entry.run && !isRunFinal(config, h.run, now)).map((h) => h.run));
  return [...runs].flatMap((run) => {
    const last = historyOfRun(entry, run, 1)[0];
    return last && last.value !== null ? [{ run, group: last.group ?? entry.group, value: last.value }] : [];
  });
}
