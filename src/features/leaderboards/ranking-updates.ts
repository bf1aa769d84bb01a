import {
  entryOf,
  planLeaderboardEntries,
  recordLeaderboardOutcomes,
  type EntryOutcome,
  type LeaderboardContribution,
  type LeaderboardResult,
  type PlannedEntry,
} from "./domain/leaderboard-entries.js";
import { addDecimals } from "../../engine/domain/decimal.js";
import { isOptedOutOfLeaderboards } from "../users/domain/preferences.js";
import type { EngineConfig } from "../../engine/domain/reactions.js";
import type { UserState } from "../../engine/domain/user.js";
import type { Database } from "../../engine/store/database.js";
import {
  createLeaderboardRankings,
  rankingCollectionsOf,
  type EntryChange,
  type LeaderboardRankings,
  type RankingScope,
} from "./store/leaderboard-rankings.js";
import type { ServiceContext } from "../../engine/context.js";
import { rankingIdOf, type LeaderboardConfig } from "./domain/leaderboard-config.js";

const stores = new WeakMap<Database, LeaderboardRankings>();

/** The rankings store of the service's database: one per process, so its write queues are shared. */
export function rankingsOf(ctx: Pick<ServiceContext, "database">): LeaderboardRankings {
  let store = stores.get(ctx.database);
  if (!store) {
    // The only writer of the database (single-instance mode): roots are cached and exact.
    store = createLeaderboardRankings(rankingCollectionsOf(ctx.database.collections), { exclusive: ctx.database.writeMode === "single-instance" });
    stores.set(ctx.database, store);
  }
  return store;
}

export function rankingScope(tenantId: string, leaderboardId: string, run: string, group: string): RankingScope {
  return { tenantId, leaderboardId, run, group };
}

/** The ranking of a run and group of a leaderboard as it is defined now (`rankingIdOf`). */
export function leaderboardScope(tenantId: string, config: Pick<LeaderboardConfig, "id" | "rankingGeneration">, run: string, group: string): RankingScope {
  return rankingScope(tenantId, rankingIdOf(config.id, config.rankingGeneration), run, group);
}

/**
 * Brings the user's leaderboard rankings up to a call's changes and records the outcome (entries,
 * history) in the state about to be written; the results go to `completeChange` for webhooks.
 * `finalBy`: see `planLeaderboardEntries` (late time-triggered points skip runs final by then).
 *
 * Runs inside `changeUserState`'s decision, BEFORE the user write, so the ranks it learns go into
 * the same write as the change (history and webhook messages cannot be lost). The ranking writes
 * set absolute values, so repeating them changes nothing: a decision retried after a version
 * conflict writes the values of the new decision, and an event retried after a crash between the
 * ranking write and the user write (with its idempotency key) sets the same value again. Without a
 * retry such a crash leaves the ranking ahead of the user's state until the user's next change to
 * that leaderboard (documented in docs/features.md, Leaderboards).
 */
export async function rankUserChanges(
  ctx: ServiceContext,
  tenantId: string,
  engine: EngineConfig,
  state: UserState,
  contribution: LeaderboardContribution,
  at: Date,
  finalBy?: Date,
): Promise<{ state: UserState; leaderboards: LeaderboardResult[] }> {
  const plans = planLeaderboardEntries(state, engine.leaderboards ?? [], contribution, at, finalBy);
  if (plans.length === 0) return { state, leaderboards: [] };
  // Opted out: the values are still counted in the user's document (they return with them) but
  // written to no ranking, with no history and no result (so no webhook names the user).
  if (isOptedOutOfLeaderboards(state.preferences))
    return {
      state: recordLeaderboardOutcomes(
        state,
        plans,
        plans.map(() => UNRANKED),
        at,
      ).state,
      leaderboards: [],
    };
  const outcomes = await Promise.all(
    plans.map(async (plan): Promise<EntryOutcome> => {
      const written = await writePlan(ctx, tenantId, state.userId, plan, at);
      // The user's state is the truth: every planned entry changed the user's value (the ranking may
      // already hold it, written by an attempt that crashed before its user write), and the value
      // before is the state's (in an earlier run, the ranking's).
      if (plan.earlierRun) return { ...written, changed: true };
      const entry = entryOf(state, plan.leaderboard.config);
      return { ...written, changed: true, previousValue: entry && entry.run === plan.run.runStart ? entry.value : null };
    }),
  );
  const recorded = recordLeaderboardOutcomes(state, plans, outcomes, at);
  return { state: recorded.state, leaderboards: recorded.results };
}

const UNRANKED: EntryOutcome = { changed: false, previousRank: null, rank: null, previousValue: null, value: null, threshold: null };

async function writePlan(ctx: ServiceContext, tenantId: string, userId: string, plan: PlannedEntry, at: Date): Promise<EntryOutcome> {
  const rankings = rankingsOf(ctx);
  const { config } = plan.leaderboard;
  const options = { maxParticipants: config.maxParticipants };
  // A move to another group: the rank before is the one in the group left.
  const left = plan.leave ? await rankings.removeEntry(leaderboardScope(tenantId, config, plan.leave.run, plan.leave.group), userId, options) : null;
  const scope = leaderboardScope(tenantId, config, plan.run.runStart, plan.group);
  // An earlier run the document keeps no history of: the change adds to the ranked value. (Unlike
  // the absolute writes, an attempt retried after this write counts the change again.)
  const value =
    plan.earlierRun?.addToRanked && plan.value !== null ? addDecimals((await rankings.rankOf(scope, userId))?.value ?? "0", plan.value) : plan.value;
  const change = value === null ? await rankings.removeEntry(scope, userId, options) : await rankings.upsertEntry(scope, userId, value, at, options);
  return { ...entryOutcome(change), previousRank: left ? left.previousRank : change.previousRank };
}

/** What a ranking write did, as a leaderboard result reports it. */
export function entryOutcome(change: EntryChange): EntryOutcome {
  return {
    changed: change.changed,
    previousRank: change.previousRank,
    rank: change.rank,
    previousValue: change.previousValue,
    value: change.value,
    threshold: change.threshold ?? null,
  };
}
