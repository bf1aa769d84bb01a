import { DomainError } from "./domain/errors.js";
import type { LeaderboardContribution, LeaderboardResult } from "../features/leaderboards/domain/leaderboard-entries.js";
import { completeChange, plannedDueAt, type EngineConfig } from "./domain/reactions.js";
import { withAttributeIds, withAttributesInForce, type UserState } from "./domain/user.js";
import type { UserEvents } from "../features/webhooks/domain/webhooks.js";
import { findUser, withLoadedState, type VersionedUser } from "./store/user-documents.js";
import type { ServiceContext } from "./context.js";
import { rankUserChanges } from "../features/leaderboards/ranking-updates.js";
import { commitUserChange, startDueEntry } from "./user-commit.js";
import { rankStreak } from "../features/streaks/streak-rankings.js";

/** What a change decides: the next state to write (or none) and the result to return. */
export type UserChange<T> = { write: UserState; result: T } | { write: null; result: T };

/**
 * Work a change must see done before it decides (workers/due-work.ts `dueWorkFirst`): the state to
 * write for it, or null when nothing is due.
 */
export type CatchUp = (stored: VersionedUser, now: Date) => Promise<UserState | null>;

/** How often a version conflict (another instance wrote the user meanwhile) is retried. */
const MAX_ATTEMPTS = 10;

/**
 * Changes one user's state safely: under the user's lock (one writer per user in this process),
 * load, decide, and write with the version that was read, so writers on other instances never
 * overwrite each other; a conflict reloads and decides again. `decide` must be free of side effects
 * other than what it returns, since it may run more than once. With `catchUp`, work due for the
 * stored user is written first, on its own (as the scheduler's visit would have), and the change
 * decides on the state it left.
 *
 * The write itself, with what must be stored alongside it, is `commitUserChange` (user-commit.ts).
 */
export async function changeUserState<T, P = undefined>(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  decide: (stored: VersionedUser | null, now: Date, prefetched: P) => Promise<UserChange<T>>,
  options: {
    /** A read to run in parallel with loading the user (saves a round trip). */
    prefetch?: () => Promise<P>;
    catchUp?: CatchUp;
  } = {},
): Promise<T> {
  const { prefetch = async () => undefined as P, catchUp } = options;
  return ctx.userLocks.run(`${tenantId}/${userId}`, async () => {
    let caughtUpOnce = false;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // Values set for an earlier attribute with a key used again are not the user's: decisions
      // never see them, and the write drops them (engine/domain/user.ts `attributesInForce`).
      const [loaded, userAttributes, prefetched] = await Promise.all([
        findUser(ctx.database.collections.users, tenantId, userId),
        ctx.config.attributes(tenantId, "user"),
        prefetch(),
      ]);
      const stored = loaded && withLoadedState(loaded, withAttributesInForce(loaded.state, userAttributes));
      const now = ctx.now();
      const caughtUp = catchUp && stored && !caughtUpOnce ? await catchUp(stored, now) : null;
      if (caughtUp) {
        // Written, or lost to a concurrent writer (then tried again): the next round decides on what is stored.
        caughtUpOnce = await commitUserChange(ctx, tenantId, stored, withAttributeIds(caughtUp, userAttributes), attempt);
        continue;
      }
      const change = await decide(stored, now, prefetched);
      if (change.write === null) return change.result;
      const write = withAttributeIds(change.write, userAttributes);
      if (await commitUserChange(ctx, tenantId, stored, write, attempt)) return change.result;
    }
    throw new DomainError("conflict", "The user was modified concurrently too many times; retry the request");
  });
}

/** A part of a change dated before it, for leaderboards (see `PlannedUserChange.earlier`). */
export interface EarlierContribution {
  contribution: LeaderboardContribution;
  at: Date;
  finalBy?: Date;
}

/** What a decision made of a user, for `applyUserChange` to carry out. */
export interface PlannedUserChange {
  /** The user's next state, without the leaderboard entries, webhook messages and due time still to come. */
  state: UserState;
  /** What happened, for webhooks (leaderboard changes are added here). */
  events: UserEvents;
  /** What the change moves on leaderboards (a metric delta, points, the streak's length). */
  contribution: LeaderboardContribution;
  /**
   * What parts of the change dated before `at` move on leaderboards (time-triggered points paid
   * after they came due), oldest first: each is ranked in the run of its own moment, before
   * `contribution`; with `finalBy`, not in a run already final then (in none).
   */
  earlier?: ReadonlyArray<EarlierContribution>;
  /** The moment of the change: the event's time, or now. */
  at: Date;
  /**
   * True: the change's rankings on streak leaderboards send no `leaderboard.rank_changed` (a
   * scheduler visit that left the streak's length as it was, entering the user where they were missing).
   */
  quietStreakLeaderboards?: boolean;
}

/**
 * The one way every decision about a user (events, user writes, API achievements, backdating,
 * streak reads, the scheduler, streak admin) is carried out before its write: its leaderboard
 * rankings are written (so a streak that lapses on a read leaves its board at once), then the
 * webhook messages and the next due time are added. Runs inside `changeUserState`'s decision.
 */
export async function applyUserChange(
  ctx: ServiceContext,
  tenantId: string,
  engine: EngineConfig,
  change: PlannedUserChange,
): Promise<{ state: UserState; leaderboards: LeaderboardResult[] }> {
  const now = ctx.now();
  const completedAt = now > change.at ? now : change.at;
  // The due time depends on neither leaderboards nor webhook messages: its bucket entry is written
  // beside the ranking writes.
  startDueEntry(ctx, tenantId, change.state.userId, change.state.dueAt, plannedDueAt(change.state, engine, completedAt));
  // The control group takes part in no leaderboard.
  const control = change.state.control;
  const contribution = control ? {} : change.contribution;
  let before = change.state;
  const earlierResults: LeaderboardResult[] = [];
  for (const earlier of control ? [] : (change.earlier ?? [])) {
    const ranked = await rankUserChanges(ctx, tenantId, engine, before, earlier.contribution, earlier.at, earlier.finalBy);
    before = ranked.state;
    earlierResults.push(...ranked.leaderboards);
  }
  // The tenant's streak rankings follow every change of the streak's length; they depend on the
  // streak alone, so they are written beside the leaderboards (their inserts share round trips).
  const [ranked, streakRanked] = await Promise.all([
    rankUserChanges(ctx, tenantId, engine, before, contribution, change.at),
    rankStreak(ctx, tenantId, before, change.at),
  ]);
  const leaderboards = [...earlierResults, ...ranked.leaderboards];
  const state = completeChange(
    { ...ranked.state, streakRanks: streakRanked.streakRanks },
    {
      ...change.events,
      leaderboardResults: [
        ...(change.events.leaderboardResults ?? []),
        ...(change.quietStreakLeaderboards ? leaderboards.filter((r) => r.leaderboard.config.rankBy !== "streak") : leaderboards),
      ],
    },
    engine,
    change.at,
    completedAt,
  );
  return { state, leaderboards };
}
