import { localDate } from "../../engine/domain/history.js";
import { runOnDate, statusOf } from "./domain/leaderboard-runs.js";
import type { EngineConfig } from "../../engine/domain/reactions.js";
import type { UserState } from "../../engine/domain/user.js";
import type { ServiceContext } from "../../engine/context.js";
import { leaderboardScope, rankingsOf } from "./ranking-updates.js";
import { entryOf } from "./domain/leaderboard-entries.js";
import { leaveStreakRankings } from "../streaks/streak-rankings.js";

/**
 * A user opting out of leaderboards, or back in (the `leaderboards.optOut` preference; see
 * features/users/domain/preferences.ts). Both work from the user's own document, never a scan over users:
 * - Opting out removes the user from the ranking of the run and group their document records for
 *   each leaderboard (their latest run: the current one, or the last they took part in), and from
 *   both streak rankings; the others close up exactly (the store's removal). Earlier runs keep
 *   their final standings in the store, but public reads of them skip opted-out users
 *   (features/leaderboards/leaderboard-reads.ts).
 * - Opting back in writes the user's recorded value into the ranking of each active leaderboard
 *   whose current run (in the user's zone) is the run recorded, in the group recorded; values of
 *   runs that ended while they were out are not restored. The streak rankings follow at the same
 *   change (`rankStreak` finds nothing written and writes both lengths).
 * Both are absolute ranking writes, so a decision retried after a version conflict repeats them harmlessly.
 */
export async function leaveLeaderboards(ctx: ServiceContext, tenantId: string, engine: EngineConfig, state: UserState): Promise<UserState> {
  const rankings = rankingsOf(ctx);
  const configs = new Map((engine.leaderboards ?? []).map((l) => [l.config.id, l.config]));
  await Promise.all(
    Object.entries(state.leaderboards).map(([id, entry]) => {
      if (entry.value === null) return Promise.resolve(null);
      const maxParticipants = configs.get(id)?.maxParticipants;
      // The ranking of the entry's own definition (one from before a redefinition is gone, or going).
      return rankings.removeEntry(leaderboardScope(tenantId, { id, rankingGeneration: entry.generation }, entry.run, entry.group), state.userId, {
        maxParticipants,
      });
    }),
  );
  return leaveStreakRankings(ctx, tenantId, state);
}

/** See `leaveLeaderboards`: the user's recorded values of the current runs go back into the rankings. */
export async function rejoinLeaderboards(ctx: ServiceContext, tenantId: string, engine: EngineConfig, state: UserState, at: Date): Promise<void> {
  const rankings = rankingsOf(ctx);
  const today = localDate(at, state.tz);
  await Promise.all(
    (engine.leaderboards ?? []).map(({ config }) => {
      const entry = entryOf(state, config);
      if (!entry || entry.value === null || statusOf(config, at) !== "active" || runOnDate(config, today)?.runStart !== entry.run) return Promise.resolve(null);
      return rankings.upsertEntry(leaderboardScope(tenantId, config, entry.run, entry.group), state.userId, entry.value, at, {
        maxParticipants: config.maxParticipants,
      });
    }),
  );
}
