/**
 * The points reads of the Application API: a user's points, history and boosts in one system, and
 * a system's triggers, boosts, levels and users per level or per points range. Configuration comes
 * from the config cache (`pointsConfig`), users from their documents.
 *
 * Archived systems (deleted through the Admin API): the system reads answer not found, as for a
 * system that never existed; a user's own points in it (total, awards, history) stay readable,
 * frozen, which is what archiving instead of removing keeps them for.
 */
import { DomainError, notFound } from "../../engine/domain/errors.js";
import { localDate, summarizeChanges, type Aggregation } from "../../engine/domain/history.js";
import {
  applicableBoosts,
  boundedPointsState,
  emptyPointsState,
  totalCap,
  type PointsConfig,
  type PointsState,
  type PointsSystemSnapshot,
} from "./domain/points.js";
import { boostStatus, type BoostStatus, type PointsBoostConfig } from "./domain/points-config.js";
import { parseAttributeFilter, pointsRanges, usersPerLevel, type TotalCounts } from "./domain/points-summary.js";
import { attributesInForce, type UserState } from "../../engine/domain/user.js";
import type { ServiceContext } from "../../engine/context.js";
import { checkAttributeKeys, readUser, withOlderItems } from "../../engine/user-access.js";
import { findUser, standingsOf, storedStatesOfTenant } from "../../engine/store/user-documents.js";
import { standingOf, standingsOfTenant } from "../../engine/store/tenant-standings.js";
import { userIdsOfTenant } from "../../engine/store/tenant-users.js";
import { pagedListKey } from "../../engine/store/user-pages.js";
import { withDueWorkDone } from "../../workers/due-work.js";

/** Whether a read still answers for an archived system. */
type ArchivedSystems = "include" | "exclude";

/** The tenant's points system with this key, with the whole points configuration; else not found. */
export async function findPointsSystem(
  ctx: ServiceContext,
  tenantId: string,
  key: string,
  archived: ArchivedSystems = "exclude",
): Promise<{ snapshot: PointsSystemSnapshot; config: PointsConfig }> {
  const config = await ctx.config.pointsConfig(tenantId);
  // Keys are never reused, not even after archiving, so at most one system has the key.
  const snapshot = config.systems.find((s) => s.system.key === key);
  if (!snapshot || (archived === "exclude" && snapshot.system.status === "archived")) {
    throw notFound(`Points system with key "${key}" not found`);
  }
  return { snapshot, config };
}

/**
 * A user and their state in one system (empty when the system never touched them), with at least
 * its `awards` most recent awards when it has that many (older ones are read from their pages).
 * The state is bounded by the system's current `maxPoints` (`boundedPointsState`), as the user's
 * next event will store it.
 */
export async function readUserPoints(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  key: string,
  awards = 0,
): Promise<{ snapshot: PointsSystemSnapshot; config: PointsConfig; user: UserState; state: PointsState }> {
  // The system first: an unknown key answers the same whoever the user is.
  const { snapshot, config } = await findPointsSystem(ctx, tenantId, key, "include");
  const systemId = snapshot.system.id;
  const stored = await findUser(ctx.database.collections.users, tenantId, userId);
  if (!stored) throw notFound(`User "${userId}" not found`);
  // Time-triggered points due by now are paid first, exactly as the scheduler's visit would pay them.
  const found = await withDueWorkDone(ctx, tenantId, stored);
  const recent = found.state.points[systemId]?.awards.length ?? 0;
  const user = recent < awards ? await withOlderItems(ctx, tenantId, found, [pagedListKey.awards(systemId)]) : found.state;
  const state = boundedPointsState(user.points[systemId] ?? emptyPointsState(), snapshot.system, user, ctx.now());
  return { snapshot, config, user, state };
}

/** A user's points changes per period, in the user's time zone (the metric summary's rules). */
export async function summarizeUserPoints(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  key: string,
  aggregation: Aggregation,
  range: { start: string; end: string },
) {
  const { user, state } = await readUserPoints(ctx, tenantId, userId, key);
  return summarizeChanges(state.daily, String(state.total), aggregation, range.start, range.end, localDate(ctx.now(), user.tz));
}

/** The boosts that apply to the user's points in the system now, earliest start first. */
export async function listUserBoosts(ctx: ServiceContext, tenantId: string, userId: string, key: string): Promise<PointsBoostConfig[]> {
  // An archived system's user reads still answer, as its totals and history do: it boosts nothing.
  const { snapshot, config } = await findPointsSystem(ctx, tenantId, key, "include");
  const user = await readUser(ctx, tenantId, userId);
  // Nor does a boost apply to the control group, which earns no points.
  if (snapshot.system.status === "archived" || user.control) return [];
  return byStart(applicableBoosts(snapshot.boosts, user, ctx.now(), config.attributeKeys));
}

/**
 * The system's global boosts (user-specific ones belong to their user's read), with their status on
 * today's UTC day, earliest start first: scheduled and active ones, finished ones on request,
 * archived ones never.
 */
export async function listGlobalBoosts(
  ctx: ServiceContext,
  tenantId: string,
  key: string,
  includeFinished: boolean,
): Promise<Array<{ boost: PointsBoostConfig; status: Exclude<BoostStatus, "archived"> }>> {
  const { snapshot } = await findPointsSystem(ctx, tenantId, key);
  const now = ctx.now();
  return byStart(snapshot.boosts.filter((b) => b.userId === null))
    .map((boost) => ({ boost, status: boostStatus(boost, now) }))
    .filter(
      (b): b is { boost: PointsBoostConfig; status: Exclude<BoostStatus, "archived"> } =>
        b.status !== "archived" && (includeFinished || b.status !== "finished"),
    );
}

/** Users per level, lowest threshold first; refused when the system has no levels. */
export async function levelSummary(ctx: ServiceContext, tenantId: string, key: string) {
  const { snapshot } = await findPointsSystem(ctx, tenantId, key);
  if (snapshot.levels.length === 0) throw new DomainError("unprocessable", `Points system "${key}" has no levels`);
  return usersPerLevel(await countTotals(ctx, tenantId, snapshot, {}), snapshot.levels);
}

/** Users per points range (the reference's eleven ranges), optionally only users matching `key:value,...`. */
export async function pointsSummary(ctx: ServiceContext, tenantId: string, key: string, userAttributes: string) {
  const { snapshot } = await findPointsSystem(ctx, tenantId, key);
  const filters = parseAttributeFilter(userAttributes);
  await checkAttributeKeys(ctx, tenantId, { user: Object.fromEntries(filters.map((f) => [f.key, f.value])) });
  return pointsRanges(await countTotals(ctx, tenantId, snapshot, Object.fromEntries(filters.map((f) => [f.key, f.value]))));
}

/**
 * How many of the tenant's users (those whose attributes hold every pair of `attributes`) hold each
 * total in the system; a user the system never touched holds 0, and a total stored above a since
 * lowered `maxPoints` counts as the cap, as `GetUserPoints` shows them.
 *
 * This is an aggregate read over the tenant's standings (engine/store/tenant-standings.ts): in
 * single-instance mode read once per process and tenant, then kept exact in memory; in versioned
 * mode read on every call. Reading them walks the tenant's users (their listing, then each document
 * by `_id`, fetching only the packed state, and in documents stored before it was packed the points
 * and the attributes, by projection): one read per user of the tenant.
 */
async function countTotals(ctx: ServiceContext, tenantId: string, snapshot: PointsSystemSnapshot, attributes: Record<string, string>): Promise<TotalCounts> {
  const systemId = snapshot.system.id;
  const cap = totalCap(snapshot.system);
  const counts = new Map<number, number>();
  const { users, tenantUsers } = ctx.database.collections;
  const standings = await standingsOfTenant(standingsOf(users), tenantId, async function* () {
    const userIds = await userIdsOfTenant(tenantUsers, users, ctx.userLocks, tenantId);
    for await (const { userId, stored } of storedStatesOfTenant(users, tenantId, userIds, ["points", "attributes"])) {
      yield { userId, standing: standingOf(stored) };
    }
  });
  const filters = Object.entries(attributes);
  const userAttributes = filters.length > 0 ? await ctx.config.attributes(tenantId, "user") : new Map<string, string>();
  for (const standing of standings) {
    if (filters.length > 0) {
      const held = attributesInForce(standing, userAttributes);
      if (!filters.every(([key, value]) => held[key] === value)) continue;
    }
    const total = Math.min(standing.points[systemId] ?? 0, cap);
    counts.set(total, (counts.get(total) ?? 0) + 1);
  }
  return counts;
}

function byStart<T extends Pick<PointsBoostConfig, "start">>(boosts: readonly T[]): T[] {
  // Stable: boosts starting the same day keep their creation order.
  return [...boosts].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}
