import { withDueWorkDone } from "../../workers/due-work.js";
import { invalidArgument, notFound } from "../../engine/domain/errors.js";
import type { LeaderboardStatus } from "./domain/leaderboard-config.js";
import { entryOf, groupInRun, historyOfRun, type LeaderboardHistoryItem, type RankedLeaderboard } from "./domain/leaderboard-entries.js";
import { groupKey, groupValuesOf, rankWithin } from "./domain/leaderboard-ranking.js";
import { currentRun, runOnDate, statusOf, type LeaderboardRun } from "./domain/leaderboard-runs.js";
import type { DecimalString } from "../../engine/domain/decimal.js";
import { checkDate } from "../../engine/domain/plain-dates.js";
import { isOptedOutOfLeaderboards } from "../users/domain/preferences.js";
import { attributesInForce, zoneInForce, type UserState } from "../../engine/domain/user.js";
import { findUser, type VersionedUser } from "../../engine/store/user-documents.js";
import { pagedListKey } from "../../engine/store/user-pages.js";
import type { ServiceContext } from "../../engine/context.js";
import { leaderboardScope, rankingsOf } from "./ranking-updates.js";
import { withOlderItems } from "../../engine/user-access.js";

/** A leaderboard as the Application API shows it: with its status now. */
export interface VisibleLeaderboard {
  leaderboard: RankedLeaderboard;
  status: Exclude<LeaderboardStatus, "inactive">;
}

export interface RankingRow {
  userId: string;
  userName: string | null;
  rank: number;
  value: DecimalString;
}

export type GroupValues = Array<{ key: string; value: string }>;

/** Rankings shown per page when `limit` is not given (the reference's default). */
const DEFAULT_LIMIT = 10;
/** History days shown when `numEvents` is not given (the reference's default). */
const DEFAULT_HISTORY = 10;

/** The tenant's scheduled and active leaderboards (and finished ones when asked), oldest first. */
export async function listVisibleLeaderboards(ctx: ServiceContext, tenantId: string, includeFinished: boolean): Promise<VisibleLeaderboard[]> {
  const now = ctx.now();
  const visible = (await ctx.config.leaderboards(tenantId)).flatMap((leaderboard) => {
    const status = statusOf(leaderboard.config, now);
    return status === "inactive" ? [] : [{ leaderboard, status }];
  });
  return visible.filter((v) => includeFinished || v.status !== "finished");
}

/** A leaderboard users may see (any status but inactive), by key; not found otherwise. */
export async function findVisibleLeaderboard(ctx: ServiceContext, tenantId: string, key: string): Promise<VisibleLeaderboard> {
  const leaderboard = (await ctx.config.leaderboards(tenantId)).find((l) => l.config.key === key);
  const status = leaderboard ? statusOf(leaderboard.config, ctx.now()) : "inactive";
  if (!leaderboard || status === "inactive") throw notFound(`Leaderboard with key "${key}" not found`);
  return { leaderboard, status };
}

/**
 * The run a read names (any of its days), or the current run (today in `tz`: UTC for the rankings,
 * the user's zone for a user's own standing); an error for a day outside the leaderboard.
 */
function resolveRun(ctx: ServiceContext, leaderboard: RankedLeaderboard, run: string | undefined, tz: string | null = null): LeaderboardRun {
  const { config } = leaderboard;
  if (run === undefined) return currentRun(config, ctx.now(), tz);
  const notADate = checkDate("run", run);
  if (notADate) throw invalidArgument(notADate);
  const found = runOnDate(config, run);
  if (!found) {
    throw invalidArgument(`run ${run} is not a day of leaderboard "${config.key}" (from ${config.start} to ${config.end ?? "no end"})`);
  }
  return found;
}

/** Parses `key:value,key:value` into the group of a leaderboard with breakdowns. */
function groupFromFilter(leaderboard: RankedLeaderboard, filter: string): GroupValues {
  const keys = leaderboard.breakdownKeys;
  const { key } = leaderboard.config;
  if (keys.length === 0) throw invalidArgument(`userAttributes applies only to leaderboards with breakdown attributes; "${key}" has none`);
  const given = new Map<string, string>();
  for (const part of filter.split(",")) {
    const colon = part.indexOf(":");
    if (colon <= 0) throw invalidArgument(`userAttributes must be key:value pairs separated by commas, got "${part}"`);
    const name = part.slice(0, colon).trim();
    if (!keys.includes(name)) throw invalidArgument(`userAttributes names "${name}", which is not a breakdown attribute of "${key}" (${keys.join(", ")})`);
    if (given.has(name)) throw invalidArgument(`userAttributes names "${name}" more than once`);
    given.set(name, part.slice(colon + 1).trim());
  }
  const missing = keys.filter((k) => !given.has(k));
  if (missing.length > 0) throw invalidArgument(`userAttributes must give every breakdown attribute of "${key}"; missing: ${missing.join(", ")}`);
  return keys.map((k) => ({ key: k, value: given.get(k)! }));
}

/**
 * A user's group in a run: the group they were ranked in during it (`groupInRun`), else their
 * current attribute values (those in force: `userAttributes` are the tenant's); null when they lack one.
 */
function userGroup(leaderboard: RankedLeaderboard, run: LeaderboardRun, user: UserState, userAttributes: ReadonlyMap<string, string>): GroupValues | null {
  const keys = leaderboard.breakdownKeys;
  const ranked = groupInRun(entryOf(user, leaderboard.config), run.runStart);
  const values = ranked !== undefined ? groupValuesOf(ranked) : keys.map((key) => attributesInForce(user, userAttributes)[key]);
  return values.length === keys.length && values.every((v) => v !== undefined) ? keys.map((key, i) => ({ key, value: values[i]! })) : null;
}

/**
 * The user's state for reading their part in a run: with the leaderboard's older history items
 * (from their pages) only when the document's recent ones hold fewer than `wanted` of that run.
 */
async function withRunHistory(ctx: ServiceContext, tenantId: string, found: VersionedUser, leaderboard: RankedLeaderboard, run: string, wanted: number) {
  const recent = historyOfRun(entryOf(found.state, leaderboard.config), run, wanted).length;
  return recent < wanted ? withOlderItems(ctx, tenantId, found, [pagedListKey.rankHistory(leaderboard.config.id)]) : found.state;
}

function groupOf(values: GroupValues): string {
  return groupKey(values.map((v) => v.value))!;
}

export interface RankingsQuery {
  offset?: number;
  limit?: number;
  run?: string;
  userId?: string;
  userAttributes?: string;
}

/** A page of a run's rankings (ranked participants only), from the top or from a user's position. */
export async function readRankings(ctx: ServiceContext, tenantId: string, key: string, query: RankingsQuery) {
  const visible = await findVisibleLeaderboard(ctx, tenantId, key);
  const { leaderboard } = visible;
  const { config } = leaderboard;
  const run = resolveRun(ctx, leaderboard, query.run);
  let groupValues: GroupValues | null;
  if (query.userAttributes !== undefined) groupValues = groupFromFilter(leaderboard, query.userAttributes);
  else if (leaderboard.breakdownKeys.length === 0) groupValues = [];
  else if (query.userId !== undefined) {
    const [found, userAttributes] = await Promise.all([
      findUser(ctx.database.collections.users, tenantId, query.userId),
      ctx.config.attributes(tenantId, "user"),
    ]);
    // A past run's group is in its history: read it when the recent items lack the run.
    const ranked =
      found && (entryOf(found.state, config)?.run === run.runStart ? found.state : await withRunHistory(ctx, tenantId, found, leaderboard, run.runStart, 1));
    groupValues = ranked ? userGroup(leaderboard, run, ranked, userAttributes) : null;
  } else {
    const example = leaderboard.breakdownKeys.map((k) => `${k}:value`).join(",");
    throw invalidArgument(
      `userAttributes is required for leaderboard "${key}", which is broken down by ${leaderboard.breakdownKeys.join(", ")} (e.g. ${example})`,
    );
  }

  const empty = { ...visible, run, groupValues: groupValues ?? [], participants: 0, rankings: [] as RankingRow[] };
  if (groupValues === null) return empty;
  const scope = leaderboardScope(tenantId, config, run.runStart, groupOf(groupValues));
  const rankings = rankingsOf(ctx);
  let start = query.offset ?? 0;
  if (query.userId !== undefined) {
    const [own, user] = await Promise.all([rankings.rankOf(scope, query.userId), findUser(ctx.database.collections.users, tenantId, query.userId)]);
    // An opted-out user keeps their line in runs that ended before; a page around it would show where it is.
    const hidden = user !== null && isOptedOutOfLeaderboards(user.state.preferences);
    if (!own || hidden || rankWithin(own.position, config.maxParticipants) === null) {
      return { ...empty, participants: Math.min(await rankings.participants(scope), config.maxParticipants) };
    }
    start += own.position - 1;
  }
  const count = Math.max(0, Math.min(query.limit ?? DEFAULT_LIMIT, config.maxParticipants - start));
  const page = await rankings.page(scope, start, count);
  const users = await rankedUsers(
    ctx,
    tenantId,
    page.entries.map((e) => e.userId),
  );
  return {
    ...empty,
    participants: Math.min(page.participants, config.maxParticipants),
    rankings: users.visible(page.entries).map((e) => ({ userId: e.userId, userName: users.names.get(e.userId) ?? null, rank: e.position, value: e.value })),
  };
}

/**
 * The users of a page of a ranking: one lookup by `_id` each, in parallel (an `$in` is a scan on
 * FerretDB), through the store (served from memory for recently used users in single-instance mode).
 * `visible` drops users who opted out of leaderboards: they left the rankings when they opted out,
 * but a run that ended before (or a write that raced the opt-out) may still hold them; a page
 * showing such a run is shorter rather than naming them.
 */
export async function rankedUsers(ctx: ServiceContext, tenantId: string, userIds: readonly string[]) {
  const found = await Promise.all(userIds.map((id) => findUser(ctx.database.collections.users, tenantId, id)));
  const names = new Map(found.flatMap((user) => (user ? [[user.state.userId, user.state.name] as const] : [])));
  const optedOut = new Set(found.flatMap((user) => (user && isOptedOutOfLeaderboards(user.state.preferences) ? [user.state.userId] : [])));
  return { names, visible: <T extends { userId: string }>(rows: readonly T[]): T[] => rows.filter((r) => !optedOut.has(r.userId)) };
}

export interface UserStanding {
  leaderboard: RankedLeaderboard;
  run: LeaderboardRun;
  groupValues: GroupValues;
  rank: number | null;
  value: DecimalString | null;
  history: LeaderboardHistoryItem[];
}

/** A user's rank and value in a run, and their daily history in it. */
export async function readUserStanding(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  key: string,
  query: { run?: string; numEvents?: number },
): Promise<UserStanding> {
  const { leaderboard } = await findVisibleLeaderboard(ctx, tenantId, key);
  const [stored, userAttributes] = await Promise.all([findUser(ctx.database.collections.users, tenantId, userId), ctx.config.attributes(tenantId, "user")]);
  if (!stored) throw notFound(`User "${userId}" not found`);
  // A streak lapsed by now has left its board (and time-triggered points count) before the answer.
  const found = await withDueWorkDone(ctx, tenantId, stored);
  // Without a run: the one the user's events count toward today, in their zone.
  const run = resolveRun(ctx, leaderboard, query.run, zoneInForce(found.state, ctx.now()));
  const wanted = query.numEvents ?? DEFAULT_HISTORY;
  // At least one item of the run, for the group of a past run.
  const user = await withRunHistory(ctx, tenantId, found, leaderboard, run.runStart, Math.max(wanted, 1));
  const entry = entryOf(user, leaderboard.config);
  const groupValues = userGroup(leaderboard, run, user, userAttributes);
  const history = historyOfRun(entry, run.runStart, wanted);
  if (groupValues === null) return { leaderboard, run, groupValues: [], rank: null, value: null, history };
  // Opted out: unranked (null rank), with their own value in the run from their document, as a
  // user beyond `maxParticipants` reads.
  if (isOptedOutOfLeaderboards(user.preferences)) {
    return { leaderboard, run, groupValues, rank: null, value: entry?.run === run.runStart ? entry.value : null, history };
  }
  const own = await rankingsOf(ctx).rankOf(leaderboardScope(tenantId, leaderboard.config, run.runStart, groupOf(groupValues)), userId);
  return {
    leaderboard,
    run,
    groupValues,
    rank: own ? rankWithin(own.position, leaderboard.config.maxParticipants) : null,
    value: own?.value ?? null,
    history,
  };
}
