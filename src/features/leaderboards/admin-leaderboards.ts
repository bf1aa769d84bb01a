import {
  checkLeaderboardDraft,
  checkLeaderboardReferences,
  checkLockedChanges,
  checkStatusDates,
  datesOnEarth,
  leaderboardSettings,
  mergeLeaderboardChanges,
  rankingIdOf,
  redefinesRanking,
  statusRulesApply,
  utcDay,
  type LeaderboardChanges,
  type LeaderboardConfig,
  type LeaderboardDraft,
  type LeaderboardInForce,
  type LeaderboardSettings,
} from "./domain/leaderboard-config.js";
import type { ResourceScope, ResourceSpec } from "../account/admin-resources.js";
import type { ServiceContext } from "../../engine/context.js";
import { rankingsOf } from "./ranking-updates.js";
import { archivedSystemMessage } from "../points/domain/points-config.js";
import { runStartsBetween, statusOf } from "./domain/leaderboard-runs.js";
import { rescheduleTenantUsers } from "../../workers/due-work.js";

/** The leaderboard's status in force at `now`, and the latest date begun anywhere (today or tomorrow in UTC). */
function inForceAt(leaderboard: LeaderboardSettings, now: Date): LeaderboardInForce {
  return { status: statusOf(leaderboard, now), latestDay: datesOnEarth(now).latest };
}

/** Checks the tenant has what the configuration refers to; loads only what it needs. */
async function checkReferences(ctx: ServiceContext, scope: ResourceScope, settings: LeaderboardSettings): Promise<string | null> {
  const { collections } = ctx.database;
  const tenantId = scope.tenantId;
  const metric = settings.metricId === null ? null : await collections.metrics.findOne({ _id: settings.metricId, tenantId });
  const system = settings.pointsSystemId === null ? null : await collections.pointsSystems.findOne({ _id: settings.pointsSystemId as never, tenantId });
  if (system?.status === "archived") return `${archivedSystemMessage(settings.pointsSystemId!)}: nothing ranks by it`;
  return checkLeaderboardReferences(settings, {
    metricIds: new Set(metric ? [metric._id] : []),
    pointsSystemIds: new Set(system ? [system._id as unknown as string] : []),
    userAttributeIds: new Set((await ctx.config.storedAttributes(tenantId, "user")).values()),
  });
}

/**
 * Leaderboards: keys unique per tenant; every rule of the domain plus the tenant's own metrics,
 * points systems and user attributes. An update is checked as the whole leaderboard it results in,
 * and against what the leaderboard's status in force locks (`checkLockedChanges`).
 */
export const leaderboardSpec: ResourceSpec<LeaderboardConfig, LeaderboardDraft, LeaderboardChanges> = {
  noun: "Leaderboard",
  collection: (ctx) => ctx.database.collections.leaderboards,
  async checkDraft(ctx, scope, draft) {
    const now = ctx.now();
    const today = utcDay(now);
    const problem = checkLeaderboardDraft(draft, today);
    if (problem) return problem;
    const settings = leaderboardSettings(draft, today);
    return checkStatusDates(settings, now, true) ?? checkReferences(ctx, scope, settings);
  },
  build: (draft, id, now) => ({ id, ...leaderboardSettings(draft, utcDay(now)), created: now, updated: now }),
  async checkChanges(ctx, scope, current, changes) {
    const now = ctx.now();
    const today = utcDay(now);
    const merged = mergeLeaderboardChanges(current, changes);
    const problem = checkLeaderboardDraft(merged, today) ?? checkLockedChanges(current, merged, inForceAt(current, now));
    if (problem) return problem;
    const settings = leaderboardSettings(merged, today);
    // A rename must not fail because time has moved on; the status rules apply when it or a date changes.
    return (statusRulesApply(changes) ? checkStatusDates(settings, now, false) : null) ?? checkReferences(ctx, scope, settings);
  },
  applyChanges(current, changes, now) {
    const next = leaderboardSettings(mergeLeaderboardChanges(current, changes), utcDay(now));
    const generation = (current.rankingGeneration ?? 0) + (redefinesRanking(current, next) ? 1 : 0);
    return { ...current, ...next, ...(generation > 0 && { rankingGeneration: generation }), updated: now };
  },
  // A streak leaderboard made active ranks the users whose streaks are live already: the scheduler
  // visits the tenant's users next minute and enters them (workers/due-work.ts). Edits of one active
  // already (a rename) visit nobody.
  // A redefined one ranks into new rankings (`rankingIdOf`): those of its previous definition are deleted.
  afterSave: async (ctx, scope, leaderboard, previous) => {
    const now = ctx.now();
    const activeNow = (l: LeaderboardConfig | undefined) => l !== undefined && statusOf(l, now) === "active";
    if (previous && (previous.rankingGeneration ?? 0) !== (leaderboard.rankingGeneration ?? 0)) await deleteRankings(ctx, scope, previous);
    if (leaderboard.rankBy === "streak" && activeNow(leaderboard) && !activeNow(previous)) await rescheduleTenantUsers(ctx, scope.tenantId);
  },
  duplicateMessage: (leaderboard) => `Key "${leaderboard.key}" is already in use by another leaderboard`,
  // Its rankings go with it (every run of its calendar up to now, every group). Users' entries for it
  // stay in their documents, unread, until they are rewritten.
  afterDelete: (ctx, scope, leaderboard) => deleteRankings(ctx, scope, leaderboard),
};

/** Deletes the rankings of a leaderboard as configured: every run of its calendar up to now, every group. */
function deleteRankings(ctx: ServiceContext, scope: ResourceScope, leaderboard: LeaderboardConfig): Promise<void> {
  return rankingsOf(ctx).deleteLeaderboard(
    scope.tenantId,
    rankingIdOf(leaderboard.id, leaderboard.rankingGeneration),
    runStartsBetween(leaderboard, leaderboard.start, utcDay(new Date(ctx.now().getTime() + 86_400_000)), Number.POSITIVE_INFINITY),
  );
}
