import type { Collection } from "mongodb";
import type { UserState } from "../domain/user.js";
import { possiblePageIds, readPages, rotateList, TAIL_MAX, PAGE_SIZE, type PageIndex, type Rotation, type UserPageDocument } from "./list-pages.js";
import type { VersionedUser } from "./user-documents.js";
import { MAX_RECENT_AWARDS, type PointsAward } from "../../features/points/domain/points.js";
import { HISTORY_LIMIT, type LeaderboardHistoryItem } from "../../features/leaderboards/domain/leaderboard-entries.js";
import { longestStreak, STREAK_HISTORY_LIMIT, type StreakPeriodRecord, type StreakState } from "../../features/streaks/domain/streak.js";

/**
 * The lists of a state kept in pages past their recent items (engine/store/list-pages.ts): each
 * points system's awards (the reads show MAX_RECENT_AWARDS), each leaderboard's rank history
 * (HISTORY_LIMIT, and none older than the retention's oldest date) and the streak's judged periods
 * (STREAK_HISTORY_LIMIT). Keyed `<kind>:<ID>`.
 */
interface PagedKind<T> {
  prefix: string;
  keep: number;
  lists(state: UserState): Record<string, readonly T[]>;
  /** The state with the lists given replaced (IDs the state holds). */
  replace(state: UserState, lists: Record<string, T[]>): UserState;
  /** Each page's newest date, for lists whose items expire (rank history). */
  newestOf?: (items: readonly T[]) => string;
}

const awardsKind: PagedKind<PointsAward> = {
  prefix: "awards:",
  keep: MAX_RECENT_AWARDS,
  lists: (state) => Object.fromEntries(Object.entries(state.points).map(([id, system]) => [id, system.awards])),
  replace: (state, lists) => ({
    ...state,
    points: { ...state.points, ...Object.fromEntries(Object.entries(lists).map(([id, awards]) => [id, { ...state.points[id]!, awards }])) },
  }),
};

const rankHistoryKind: PagedKind<LeaderboardHistoryItem> = {
  prefix: "history:",
  keep: HISTORY_LIMIT,
  lists: (state) => Object.fromEntries(Object.entries(state.leaderboards).map(([id, entry]) => [id, entry.history])),
  replace: (state, lists) => ({
    ...state,
    leaderboards: {
      ...state.leaderboards,
      ...Object.fromEntries(Object.entries(lists).map(([id, history]) => [id, { ...state.leaderboards[id]!, history }])),
    },
  }),
  newestOf: (items) => items.reduce((max, item) => (item.date > max ? item.date : max), ""),
};

/** The ID of a streak's history list: a new one for each series (a frequency switch restarts it, dropping the old pages). */
const streakHistoryId = (streak: StreakState) => (streak.historySeries ? `history${streak.historySeries}` : "history");

const streakHistoryKind: PagedKind<StreakPeriodRecord> = {
  prefix: "streak:",
  keep: STREAK_HISTORY_LIMIT,
  lists: (state): Record<string, readonly StreakPeriodRecord[]> => (state.streak ? { [streakHistoryId(state.streak)]: state.streak.history } : {}),
  // States stored before the longest length was kept derive it from their history: kept before periods move.
  replace: (state, lists) => ({
    ...state,
    streak: { ...state.streak!, history: lists[streakHistoryId(state.streak!)]!, longest: state.streak!.longest ?? longestStreak(state.streak!) },
  }),
};

const PAGED_KINDS = [awardsKind, rankHistoryKind, streakHistoryKind] as ReadonlyArray<PagedKind<unknown>>;

/** One list's pages changed by a write. */
export type PageChange = { key: string } & Rotation<unknown>;

/**
 * Keeps each paged list in the document to its recent TAIL_MAX items or fewer, the older ones in
 * pages, and drops the pages no read needs: past the kind's count, older than `oldestRankDate`
 * (rank history), or of lists the state no longer holds. Unchanged parts stay the same objects.
 */
export function rotatePagedLists(
  state: UserState,
  index: PageIndex | undefined,
  oldestRankDate: string | null = null,
): { state: UserState; index: PageIndex | undefined; changes: PageChange[] } {
  const changes: PageChange[] = [];
  const nextIndex: PageIndex = {};
  let next = state;
  for (const kind of PAGED_KINDS) {
    const replaced: Record<string, unknown[]> = {};
    const lists = kind.lists(state);
    for (const [id, list] of Object.entries(lists)) {
      const key = kind.prefix + id;
      const range = index?.[key];
      if (list.length <= TAIL_MAX && !range) continue;
      const expiry = kind.newestOf && { newestOf: kind.newestOf, oldestKept: oldestRankDate };
      const rotation = rotateList(list, range, kind.keep, expiry);
      if (rotation.range) nextIndex[key] = rotation.range;
      if (rotation.written.length === 0 && rotation.dropped.length === 0) continue;
      changes.push({ key, ...rotation });
      replaced[id] = rotation.tail;
    }
    for (const [key, range] of Object.entries(index ?? {})) {
      if (key.startsWith(kind.prefix) && !(key.slice(kind.prefix.length) in lists)) {
        const dropped = Array.from({ length: range.next - range.first }, (_, i) => range.first + i);
        changes.push({ key, tail: [], range: null, written: [], dropped });
      }
    }
    if (Object.keys(replaced).length > 0) next = kind.replace(next, replaced);
  }
  return { state: next, index: Object.keys(nextIndex).length > 0 ? nextIndex : undefined, changes };
}

/**
 * The user's state with its paged lists whole again (the paged older items before the recent ones,
 * each kind's count at most): for reads that show more than the recent items. `only`: the lists
 * needed, as `<kind>:<ID>` keys (default all). Rank history older than the retention is the
 * caller's to filter (engine/user-access.ts `withOlderItems`).
 */
export async function withPagedItems(pages: Collection<UserPageDocument>, tenantId: string, user: VersionedUser, only?: readonly string[]): Promise<UserState> {
  let state = user.state;
  for (const kind of PAGED_KINDS) {
    const lists = kind.lists(state);
    const wanted = Object.entries(user.pages ?? {}).filter(
      ([key]) => key.startsWith(kind.prefix) && key.slice(kind.prefix.length) in lists && (!only || only.includes(key)),
    );
    if (wanted.length === 0) continue;
    const whole = await Promise.all(
      wanted.map(async ([key, range]) => {
        const id = key.slice(kind.prefix.length);
        const older = await readPages(pages, tenantId, state.userId, key, range);
        return [id, [...older, ...lists[id]!].slice(-kind.keep)] as const;
      }),
    );
    state = kind.replace(state, Object.fromEntries(whole));
  }
  return state;
}

/** The keys of the paged lists: a points system's awards, a leaderboard's rank history, the streak's periods. */
export const pagedListKey = {
  awards: (systemId: string) => awardsKind.prefix + systemId,
  rankHistory: (leaderboardId: string) => rankHistoryKind.prefix + leaderboardId,
  streakHistory: (streak: StreakState) => streakHistoryKind.prefix + streakHistoryId(streak),
};

/**
 * Every page a user may have: those their document names, and past them the few a write stopped
 * by a crash may have left (also for lists the document names no pages of yet).
 */
export function userPageIds(tenantId: string, user: VersionedUser): string[] {
  const ranges: PageIndex = {};
  for (const kind of PAGED_KINDS) for (const id of Object.keys(kind.lists(user.state))) ranges[kind.prefix + id] = { first: 0, next: 0 };
  Object.assign(ranges, user.pages);
  const perWrite = Math.ceil(Math.max(...PAGED_KINDS.map((k) => k.keep)) / PAGE_SIZE) + 1;
  return Object.entries(ranges).flatMap(([key, range]) => possiblePageIds(tenantId, user.state.userId, key, range, perWrite));
}
