import { addDecimals, decimalFromNumber, type DecimalString } from "../../../engine/domain/decimal.js";
import type { AttributeFilter } from "../../achievements/domain/achievement-config.js";
import { takesPart, type LeaderboardConfig } from "./leaderboard-config.js";
import { groupKey } from "./leaderboard-ranking.js";
import { isRunFinal, runOf, statusOf, type LeaderboardRun } from "./leaderboard-runs.js";
import { localDate } from "../../../engine/domain/history.js";
import { zoneInForce, type UserState } from "../../../engine/domain/user.js";

/**
 * A user's part in the leaderboards: what a call adds to each leaderboard's run, and the record of
 * rank changes kept in the user document. Pure: the pipeline writes the planned values into the
 * rankings (src/features/leaderboards/ranking-updates.ts) and hands the outcome back here.
 *
 * Decisions:
 * - A metric leaderboard's value is the sum of the metric's event values counted in the run, a
 *   points leaderboard's the sum of the points system's changes in the run (whatever caused them:
 *   events, achievements, time triggers, a first identification), a streak leaderboard's the current
 *   streak length. A change counts when the leaderboard is active and the user's local date and
 *   time at its moment fall in a run and in the daily window (src/features/leaderboards/domain/leaderboard-runs.ts).
 * - A new run starts every user at 0; the value of the previous run stays in that run's ranking.
 * - A change in a run before the one the user's entry holds (an admin's backdated event, a zone
 *   moved west across a run boundary) adds to the user's value in that run, which is their latest
 *   history item of it (or, when the document no longer holds one, the ranking's value); the entry
 *   stays on its later run.
 * - Breakdown groups are read from the user's attributes at the moment of the change. A user whose
 *   group changed within a run moves to the new group with their run value (in an earlier run too,
 *   when its history item names the group); a user lacking a breakdown value takes no part.
 * - A leaderboard redefined while inactive (`redefinesRanking`) starts over: entries of an earlier
 *   definition count as none (`entryOf`).
 * - User attribute filters (`userAttributes`) are read like breakdowns, at the moment of the change:
 *   a user who does not match them all takes no part (their changes are not counted); one who stops
 *   matching keeps the value already ranked.
 * - A lost streak (length 0) leaves the streak leaderboard: it ranks current streaks.
 * - History: one item per leaderboard, run and local day on which the user's own changes moved
 *   their value, holding the rank and value before the day's first change and after its last.
 *   Ranks moved only by other users are not recorded (reads show the live rank). At most
 *   `HISTORY_LIMIT` items per leaderboard are kept, the newest.
 */

/** A leaderboard as the engine and the reads use it: its configuration and what it refers to. */
export interface RankedLeaderboard {
  config: LeaderboardConfig;
  metric: { key: string; name: string } | null;
  pointsSystem: { key: string; name: string } | null;
  /** The keys of the breakdown attributes, in the configured order (configured by ID). */
  breakdownKeys: string[];
  /** The user attribute filters by key (configured by ID); a user must match all to take part. */
  userFilters: AttributeFilter[];
}

export interface LeaderboardHistoryItem {
  /** The run's first day. */
  run: string;
  /** The breakdown group the user was ranked in (`groupKey`); absent without breakdowns (and in items written before it was kept). */
  group?: string;
  /** The user's local date of the changes. */
  date: string;
  previousRank: number | null;
  rank: number | null;
  previousValue: DecimalString | null;
  value: DecimalString | null;
}

/** A user's standing in one leaderboard, as kept in the user document. */
export interface LeaderboardEntry {
  /** The run the value belongs to (its first day). */
  run: string;
  /** The breakdown group (`groupKey`; "" without breakdowns). */
  group: string;
  /** The value within the run; null once the user left the ranking (a lost streak). */
  value: DecimalString | null;
  history: LeaderboardHistoryItem[];
  /** The leaderboard's `rankingGeneration` the entry belongs to; absent: 0. */
  generation?: number;
}

/** The user's entry in a leaderboard as it is defined now: none when it belongs to an earlier definition. */
export function entryOf(state: Pick<UserState, "leaderboards">, config: Pick<LeaderboardConfig, "id" | "rankingGeneration">): LeaderboardEntry | undefined {
  const entry = state.leaderboards[config.id];
  return entry && (entry.generation ?? 0) === (config.rankingGeneration ?? 0) ? entry : undefined;
}

/**
 * The group a user was ranked in during a run: the entry's when it is that run's, else that of
 * their latest history item of it; undefined when the document does not say.
 */
export function groupInRun(entry: LeaderboardEntry | undefined, run: string): string | undefined {
  if (!entry) return undefined;
  return entry.run === run ? entry.group : entry.history.findLast((h) => h.run === run)?.group;
}

export const HISTORY_LIMIT = 100;

/** What one call changed that leaderboards rank by. */
export interface LeaderboardContribution {
  metric?: { metricId: string; value: number };
  /** Points added (negative: deducted) per points system. */
  points?: ReadonlyArray<{ systemId: string; added: number }>;
  /** The streak length after the call; undefined when streaks are not configured. */
  streakLength?: number;
}

/** A change to write into one leaderboard's ranking. */
export interface PlannedEntry {
  leaderboard: RankedLeaderboard;
  run: LeaderboardRun;
  group: string;
  groupValues: Array<{ key: string; value: string }>;
  /** The value to set; null: leave the ranking. */
  value: DecimalString | null;
  /** Where the user was ranked before, when it is another scope of the same run (a group change). */
  leave: { run: string; group: string } | null;
  /**
   * Set when the run is before the one the user's entry holds; the entry stays on its run.
   * `addToRanked`: the document holds no history of this run, so `value` is the change, added to
   * the ranking's value when written.
   */
  earlierRun: { addToRanked: boolean } | null;
}

/** What writing a planned entry did (from the rankings store). */
export interface EntryOutcome {
  changed: boolean;
  previousRank: number | null;
  rank: number | null;
  previousValue: DecimalString | null;
  value: DecimalString | null;
  /** The value to beat to enter (the lowest ranked value when full), null while there is room. */
  threshold: DecimalString | null;
}

/** A leaderboard the call changed, for the response and for `leaderboard.rank_changed`. */
export interface LeaderboardResult {
  leaderboard: RankedLeaderboard;
  run: LeaderboardRun;
  groupValues: Array<{ key: string; value: string }>;
  outcome: EntryOutcome;
}

/** The contribution of a call from what it did: the event, the points changes and the streak. */
export function contributionOf(
  event: { metricId: string; value: number } | undefined,
  points: ReadonlyArray<{ systemId: string; added: number }>,
  streakLength: number | undefined,
): LeaderboardContribution {
  return { metric: event && { metricId: event.metricId, value: event.value }, points, streakLength };
}

/**
 * The ranking writes a call needs: per active leaderboard the call contributes to, the user's run,
 * group and new value. Nothing for a leaderboard whose value would not change, nor, with
 * `finalBy`, one whose run of `at` was final by then (a change paid late, after its run's
 * rankings were announced).
 */
export function planLeaderboardEntries(
  state: UserState,
  leaderboards: readonly RankedLeaderboard[],
  contribution: LeaderboardContribution,
  at: Date,
  finalBy?: Date,
): PlannedEntry[] {
  const plans: PlannedEntry[] = [];
  for (const leaderboard of leaderboards) {
    const { config } = leaderboard;
    const change = changeFor(config, contribution);
    if (change === null || statusOf(config, at) !== "active" || !takesPart(leaderboard.userFilters ?? [], state.attributes)) continue;
    const run = runOf(config, at, zoneInForce(state, at));
    if (run === null || (finalBy !== undefined && isRunFinal(config, run.runStart, finalBy))) continue;
    const values = leaderboard.breakdownKeys.map((key) => state.attributes[key]);
    const group = groupKey(values);
    if (group === null) continue;
    const entry = entryOf(state, config);
    const earlier = entry !== undefined && run.runStart < entry.run;
    const current = entry && entry.run === run.runStart ? entry : undefined;
    // The user's value in the run before the call; undefined: only the ranking knows it (an earlier
    // run whose history the document no longer holds).
    const last = earlier ? historyOfRun(entry, run.runStart, 1)[0] : current;
    const before = earlier ? last?.value : (current?.value ?? null);
    const value = change.kind === "absolute" ? change.value : addDecimals(before ?? "0", change.delta);
    const ledGroup = groupInRun(entry, run.runStart);
    const leave = ledGroup !== undefined && ledGroup !== group && (last?.value ?? null) !== null ? { run: run.runStart, group: ledGroup } : null;
    if (value === null && (before ?? null) === null) continue; // a lost streak that was not ranked
    if (leave === null && before === value) continue;
    const groupValues = leaderboard.breakdownKeys.map((key, i) => ({ key, value: values[i]! }));
    const earlierRun = earlier ? { addToRanked: before === undefined && change.kind === "delta" } : null;
    plans.push({ leaderboard, run, group, groupValues, value, leave, earlierRun });
  }
  return plans;
}

/**
 * Whether a user's streak of `streakLength` (as of `at`) is not what their entries on the active
 * streak leaderboards hold: a board that became active, or a run that began, after their last
 * change, or a streak lost since. The scheduler's visit then writes it (workers/due-work.ts).
 */
export function entersStreakLeaderboards(state: UserState, leaderboards: readonly RankedLeaderboard[], streakLength: number, at: Date): boolean {
  if (state.control) return false; // the control group takes part in no leaderboard
  return planLeaderboardEntries(state, leaderboards, { streakLength }, at).length > 0;
}

type Change = { kind: "delta"; delta: DecimalString } | { kind: "absolute"; value: DecimalString | null };

function changeFor(config: LeaderboardConfig, contribution: LeaderboardContribution): Change | null {
  switch (config.rankBy) {
    case "metric":
      return contribution.metric && contribution.metric.metricId === config.metricId
        ? { kind: "delta", delta: decimalFromNumber(contribution.metric.value) }
        : null;
    case "points": {
      const changes = (contribution.points ?? []).filter((p) => p.systemId === config.pointsSystemId);
      if (changes.length === 0) return null;
      return { kind: "delta", delta: changes.reduce((sum, p) => addDecimals(sum, decimalFromNumber(p.added)), "0") };
    }
    case "streak":
      if (contribution.streakLength === undefined) return null;
      return { kind: "absolute", value: contribution.streakLength > 0 ? String(contribution.streakLength) : null };
  }
}

/**
 * The user state after the planned writes: each leaderboard's entry and its history. Returns the
 * leaderboards whose ranking changed, in plan order.
 */
export function recordLeaderboardOutcomes(
  state: UserState,
  plans: readonly PlannedEntry[],
  outcomes: readonly EntryOutcome[],
  at: Date,
): { state: UserState; results: LeaderboardResult[] } {
  const entries = { ...state.leaderboards };
  const results: LeaderboardResult[] = [];
  const date = localDate(at, zoneInForce(state, at));
  plans.forEach((plan, i) => {
    const outcome = outcomes[i]!;
    const { config } = plan.leaderboard;
    const previous = entryOf({ leaderboards: entries }, config);
    const history = outcome.changed ? addHistory(previous?.history ?? [], plan, date, outcome) : (previous?.history ?? []);
    const generation = config.rankingGeneration ? { generation: config.rankingGeneration } : {};
    entries[config.id] = plan.earlierRun ? { ...previous!, history } : { run: plan.run.runStart, group: plan.group, value: plan.value, history, ...generation };
    if (outcome.changed) results.push({ leaderboard: plan.leaderboard, run: plan.run, groupValues: plan.groupValues, outcome });
  });
  return { state: { ...state, leaderboards: entries }, results };
}

function addHistory(history: readonly LeaderboardHistoryItem[], plan: PlannedEntry, date: string, outcome: EntryOutcome): LeaderboardHistoryItem[] {
  const run = plan.run.runStart;
  // The day's item, usually the last (not when an earlier run changed after later ones).
  const sameDay = history.findLastIndex((h) => h.run === run && h.date === date);
  const group = plan.group === "" ? {} : { group: plan.group };
  if (sameDay >= 0) return history.map((h, i) => (i === sameDay ? { ...h, ...group, rank: outcome.rank, value: outcome.value } : h));
  const item: LeaderboardHistoryItem = {
    run,
    ...group,
    date,
    previousRank: outcome.previousRank,
    rank: outcome.rank,
    previousValue: outcome.previousValue,
    value: outcome.value,
  };
  return [...history, item].slice(-HISTORY_LIMIT);
}

/** The history items of one run, oldest first, at most `limit` (the newest). */
export function historyOfRun(entry: LeaderboardEntry | undefined, run: string, limit: number): LeaderboardHistoryItem[] {
  if (!entry || limit <= 0) return [];
  return entry.history.filter((h) => h.run === run).slice(-limit);
}
