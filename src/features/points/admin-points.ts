import { randomUUID } from "node:crypto";
import type { Collection, Document } from "mongodb";
import type { BulkResult } from "../../engine/domain/bulk.js";
import { DomainError, notFound } from "../../engine/domain/errors.js";
import * as points from "./domain/points-config.js";
import { createResources, creationClock, getResource, UPDATE_ATTEMPTS, type ResourceScope, type ResourceSpec } from "../account/admin-resources.js";
import type { ServiceContext } from "../../engine/context.js";
import { describeReferrers } from "../../engine/references.js";
import { findUser } from "../../engine/store/user-documents.js";
import { writeIfCurrent } from "../../engine/store/conditional-write.js";
import { rescheduleTenantUsers } from "../../workers/due-work.js";
import { announceBoostDeletion } from "../webhooks/webhook-boosts.js";
import { reopenedBoostAnnouncements } from "../webhooks/domain/webhooks.js";

/**
 * The scope of a points system's triggers, levels or boosts; the system must exist in the tenant
 * (else 404). `changing`: a call that creates or edits them, refused (422) on an archived system,
 * where nothing it configures can act again (reading and deleting what it holds stay possible).
 */
export async function systemScope(ctx: ServiceContext, tenantId: string, systemId: string, changing = false): Promise<ResourceScope> {
  const system = await ctx.database.collections.pointsSystems.findOne({ _id: systemId as never, tenantId }, { projection: { _id: 1, status: 1 } });
  if (!system) throw notFound(`Points system "${systemId}" not found`);
  if (changing && system.status === "archived")
    throw new DomainError("unprocessable", `${points.archivedSystemMessage(systemId)}: its triggers, levels and boosts no longer change`);
  return nestedScope(tenantId, systemId);
}

function nestedScope(tenantId: string, systemId: string): ResourceScope {
  return { tenantId, parent: { field: "systemId", id: systemId } };
}

export const pointsSystemSpec: ResourceSpec<points.PointsSystemConfig, points.PointsSystemDraft, points.PointsSystemChanges> = {
  noun: "Points system",
  collection: (ctx) => ctx.database.collections.pointsSystems,
  checkDraft: async (_ctx, _scope, draft) => points.checkSystemDraft(draft),
  build: points.buildSystem,
  checkChanges: async (_ctx, _scope, current, changes) =>
    current.status === "archived" ? `${points.archivedSystemMessage(current.id)}: it no longer changes` : points.checkSystemChanges(changes),
  applyChanges: points.applySystemChanges,
  duplicateMessage: (system) => `Key "${system.key}" is already in use by another points system`,
};

export const pointsLevelSpec: ResourceSpec<points.PointsLevelConfig, points.PointsLevelDraft, points.PointsLevelChanges> = {
  noun: "Level",
  collection: (ctx) => ctx.database.collections.pointsLevels,
  async checkDraft(ctx, scope, draft) {
    return points.checkLevelDraft(draft) ?? (await findLevelConflict(ctx, scope, draft, null));
  },
  build: points.buildLevel,
  async checkChanges(ctx, scope, current, changes) {
    return (
      points.checkLevelChanges(changes) ?? (await findLevelConflict(ctx, scope, { key: current.key, points: changes.points ?? current.points }, current.id))
    );
  },
  applyChanges: points.applyLevelChanges,
  // Reached only when a concurrent write took the key or threshold after the check above.
  duplicateMessage: (level) => `Key "${level.key}" or threshold ${level.points} is already used by another level of this points system`,
  sort: { points: 1, _id: 1 },
};

export const pointsTriggerSpec: ResourceSpec<points.PointsTriggerConfig, points.PointsTriggerDraft, points.PointsTriggerChanges> = {
  noun: "Points trigger",
  collection: (ctx) => ctx.database.collections.pointsTriggers,
  async checkDraft(ctx, scope, draft) {
    return points.checkTriggerDraft(draft) ?? (await findMissingReference(ctx, scope.tenantId, draft));
  },
  build: points.buildTrigger,
  async checkChanges(ctx, scope, current, changes) {
    return (
      points.checkTriggerChanges(current, changes) ??
      (await findMissingReference(ctx, scope.tenantId, points.applyTriggerChanges(current, changes, current.updated)))
    );
  },
  applyChanges: points.applyTriggerChanges,
  // Triggers and boosts have no unique index besides their random ID.
  duplicateMessage: () => "Points trigger already exists",
  // An active time trigger pays users who exist already too: their stored due times predate it. An
  // edit that leaves an active one's schedule as it was (points, a filter) visits nobody.
  afterSave: async (ctx, scope, trigger, previous) => {
    if (trigger.type !== "time" || trigger.status !== "active") return;
    const sameSchedule =
      previous?.type === "time" && previous.status === "active" && previous.timeUnit === trigger.timeUnit && previous.timeInterval === trigger.timeInterval;
    if (!sameSchedule) await rescheduleTenantUsers(ctx, scope.tenantId);
  },
};

export const pointsBoostSpec: ResourceSpec<points.PointsBoostConfig, points.PointsBoostDraft, points.PointsBoostChanges> = {
  noun: "Points boost",
  collection: (ctx) => ctx.database.collections.pointsBoosts,
  async checkDraft(ctx, scope, draft) {
    const problem = points.checkBoostDraft(draft) ?? (await findMissingReference(ctx, scope.tenantId, { userAttributes: draft.userAttributes }));
    if (problem || !draft.userId) return problem;
    const user = await findUser(ctx.database.collections.users, scope.tenantId, draft.userId);
    if (!user) return `User "${draft.userId}" does not exist`;
    // A boost that could never apply would still be announced (points.boost_started names the user).
    return user.state.control ? `User "${draft.userId}" is in the control group (experimentation settings), which earns no points` : null;
  },
  build: points.buildBoost,
  async checkChanges(ctx, scope, current, changes) {
    return points.checkBoostChanges(current, changes) ?? (await findMissingReference(ctx, scope.tenantId, { userAttributes: changes.userAttributes ?? [] }));
  },
  // An end moved to today or later lets a boost announced as finished go live again: announced again.
  applyChanges: (current, changes, now) => reopenedBoostAnnouncements(points.applyBoostChanges(current, changes, now), now),
  duplicateMessage: () => "Points boost already exists",
  // The boost check's marks: an edit that read them before the check recorded what it announced
  // is checked again, so its reopening is decided on what was announced.
  versionFields: ["webhookStartedAt", "webhookFinishedAt", "webhookRound"],
  // Receivers told that a boost started learn that it finished.
  beforeDelete: (ctx, scope, boost) => announceBoostDeletion(ctx, scope.tenantId, scope.parent!.id, boost),
};

/** A level's key or threshold already used by another level of the same system, or null. */
async function findLevelConflict(
  ctx: ServiceContext,
  scope: ResourceScope,
  level: { key: string; points: number },
  exceptId: string | null,
): Promise<string | null> {
  const filter: Document = { tenantId: scope.tenantId, systemId: scope.parent!.id, $or: [{ key: level.key }, { points: level.points }] };
  if (exceptId !== null) filter._id = { $ne: exceptId };
  const other = await ctx.database.collections.pointsLevels.findOne(filter);
  if (!other) return null;
  return other.key === level.key ? points.levelKeyTaken(level.key) : points.levelThresholdTaken(level.points);
}

/**
 * What a trigger or boost names that is not configuration of the same tenant: the metric, the
 * achievement, and the attributes of its filters (user attributes for `userAttributes`, event
 * attributes for `eventAttributes`). Another tenant's IDs are as unknown as made-up ones.
 */
async function findMissingReference(
  ctx: ServiceContext,
  tenantId: string,
  refs: { metricId?: string; achievementId?: string; userAttributes?: points.AttributeFilterConfig[]; eventAttributes?: points.AttributeFilterConfig[] },
): Promise<string | null> {
  const { metrics, achievements, attributes } = ctx.database.collections;
  if (refs.metricId !== undefined && !(await metrics.findOne({ _id: refs.metricId, tenantId }))) {
    return `metricId "${refs.metricId}" is not a metric of this tenant`;
  }
  if (refs.achievementId !== undefined && !(await achievements.findOne({ _id: refs.achievementId as never, tenantId }))) {
    return `achievementId "${refs.achievementId}" is not an achievement of this tenant`;
  }
  for (const [field, type] of [
    ["userAttributes", "user"],
    ["eventAttributes", "event"],
  ] as const) {
    const filters = refs[field] ?? [];
    if (filters.length === 0) continue;
    const docs = await attributes.find({ tenantId, _id: { $in: filters.map((f) => f.attributeId) as never[] } }).toArray();
    for (const [index, filter] of filters.entries()) {
      const attribute = docs.find((doc) => doc._id === (filter.attributeId as unknown));
      if (!attribute) return `${field}[${index}].attributeId "${filter.attributeId}" is not an attribute of this tenant`;
      if (attribute.type !== type) {
        return `${field}[${index}].attributeId "${filter.attributeId}" is the ${attribute.type} attribute "${attribute.key}"; ${field} take ${type} attributes`;
      }
    }
  }
  return null;
}

/** A points system to create with the levels, boosts and triggers to create in it. */
export interface PointsSystemCreation extends points.PointsSystemDraft {
  levels: points.PointsLevelDraft[];
  boosts: points.PointsBoostDraft[];
  triggers: points.PointsTriggerDraft[];
}

export interface CreatedPointsSystem {
  system: points.PointsSystemConfig;
  levels: points.PointsLevelConfig[];
  boosts: points.PointsBoostConfig[];
  triggers: points.PointsTriggerConfig[];
}

/** The nested lists of a system creation, in creation order, with their specs. */
const NESTED = [
  ["levels", pointsLevelSpec],
  ["boosts", pointsBoostSpec],
  ["triggers", pointsTriggerSpec],
] as const;

/**
 * Creates points systems with their nested items. Each system is created with all its nested
 * items or not at all: every item is checked before anything is written, and should a write still
 * fail (a concurrent change), what was written for that system is removed again. A nested item's
 * issue carries the system's index and names the item (`levels[1]: ...`).
 */
export async function createPointsSystems(ctx: ServiceContext, tenantId: string, items: PointsSystemCreation[]): Promise<BulkResult<CreatedPointsSystem>> {
  const result: BulkResult<CreatedPointsSystem> = { done: [], issues: [] };
  const clock = creationClock(ctx); // the systems of one call keep their order too
  for (const [index, { levels, boosts, triggers, ...draft }] of items.entries()) {
    const lists = { levels, boosts, triggers };
    const problem = (await pointsSystemSpec.checkDraft(ctx, { tenantId }, draft)) ?? (await checkNested(ctx, tenantId, lists));
    if (problem) {
      result.issues.push({ index, severity: "error", message: problem });
      continue;
    }
    const made = await createResources(pointsSystemSpec, ctx, { tenantId }, [draft], clock);
    const system = made.done[0];
    if (!system) {
      result.issues.push(...made.issues.map((issue) => ({ ...issue, index })));
      continue;
    }
    const scope = nestedScope(tenantId, system.id);
    const created = { system, levels: [], boosts: [], triggers: [] } as CreatedPointsSystem;
    let failure: string | null = null;
    for (const [field, spec] of NESTED) {
      const outcome = await createResources(spec as ResourceSpec<{ id: string }, unknown, unknown>, ctx, scope, lists[field]);
      Object.assign(created, { [field]: outcome.done });
      const issue = outcome.issues[0];
      if (issue) {
        failure = `${field}[${issue.index}]: ${issue.message}`;
        break;
      }
    }
    if (failure) {
      await removeSystem(ctx, tenantId, system.id);
      result.issues.push({ index, severity: "error", message: failure });
      continue;
    }
    result.done.push(created);
  }
  return result;
}

/** What is wrong with the nested items of a new system (each checked as if created in it), or null. */
async function checkNested(ctx: ServiceContext, tenantId: string, lists: Pick<PointsSystemCreation, "levels" | "boosts" | "triggers">): Promise<string | null> {
  const scope = nestedScope(tenantId, randomUUID()); // the system does not exist yet: nothing conflicts within it
  for (const [field, spec] of NESTED) {
    for (const [index, draft] of (lists[field] as unknown[]).entries()) {
      const problem = await (spec as ResourceSpec<{ id: string }, unknown, unknown>).checkDraft(ctx, scope, draft);
      if (problem) return `${field}[${index}]: ${problem}`;
    }
  }
  return points.findDuplicateLevel(lists.levels);
}

async function removeSystem(ctx: ServiceContext, tenantId: string, systemId: string): Promise<void> {
  const { pointsSystems, pointsLevels, pointsBoosts, pointsTriggers } = ctx.database.collections;
  await Promise.all([pointsLevels, pointsBoosts, pointsTriggers].map((c) => c.deleteMany({ tenantId, systemId })));
  await pointsSystems.deleteOne({ _id: systemId as never, tenantId });
  ctx.config.invalidate();
}

/**
 * Deletes points systems the way the reference does: the system is archived (status `archived`),
 * not removed, so users' totals and award history keep naming an existing system and the key is
 * not reused by a different system. Refused while other configuration (a leaderboard ranking by
 * the system) still refers to it, since archiving would silently freeze that configuration.
 */
export async function archivePointsSystems(ctx: ServiceContext, tenantId: string, ids: string[]): Promise<BulkResult<{ id: string }>> {
  const result: BulkResult<{ id: string }> = { done: [], issues: [] };
  for (const id of ids) {
    const problem = await archivePointsSystem(ctx, tenantId, id);
    if (problem) result.issues.push({ id, severity: "error", message: problem });
    else result.done.push({ id });
  }
  ctx.config.invalidate();
  return result;
}

/** Archives one system, written only if it was not updated since it was checked (as updates are: `updateResources`); the issue, or null. */
async function archivePointsSystem(ctx: ServiceContext, tenantId: string, id: string): Promise<string | null> {
  const systems = ctx.database.collections.pointsSystems as unknown as Collection<Document & { _id: string }>;
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    const system = await getResource(pointsSystemSpec, ctx, { tenantId }, id);
    if (!system) return "Points system not found by ID";
    if (system.status === "archived") return "Points system is already archived";
    const referred = await describeReferrers(ctx, tenantId, "points_system", id, system.key);
    if (referred) return referred;
    // Its boosts first (a crash in between leaves the system to archive again): a running one
    // finishes, announced by the boost check as any archived boost is.
    await ctx.database.collections.pointsBoosts.updateMany({ tenantId, systemId: id, archived: false }, { $set: { archived: true, updated: ctx.now() } });
    const update = { $set: { status: "archived", updated: ctx.now() } };
    if (await writeIfCurrent(systems, ctx.database.writeMode, ctx.userLocks, id, { tenantId, updated: system.updated }, { update })) return null;
  }
  return "Points system kept changing while this request archived it; send the request again";
}

/**
 * Deletes the boosts made for one user alone, in every points system (a user's erasure). Read from
 * the database, not the config cache, so one made on another instance a moment ago goes too.
 */
export async function deleteUserBoosts(ctx: ServiceContext, tenantId: string, userId: string): Promise<void> {
  const { deletedCount } = await ctx.database.collections.pointsBoosts.deleteMany({ tenantId, userId });
  if (deletedCount > 0) ctx.config.invalidate();
}
