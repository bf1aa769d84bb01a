import {
  achievementSettings,
  checkAchievementDraft,
  checkAchievementReferences,
  mergeAchievementChanges,
  redefinesProgress,
  type AchievementChanges,
  type AchievementConfig,
  type AchievementDraft,
  type AchievementReferences,
  type AchievementSettings,
} from "./domain/achievement-config.js";
import type { ResourceScope, ResourceSpec } from "../account/admin-resources.js";
import type { ServiceContext } from "../../engine/context.js";
import { backfillAchievement } from "./achievement-reads.js";
import { describeReferrers } from "../../engine/references.js";

/**
 * The tenant's user and event attributes by ID and by key: achievement filters are stored by key,
 * the Admin API names them by ID too. Read from the database, not the one-second configuration
 * cache: an attribute another instance has just created is known (accepted by ID, shown with its ID).
 */
export interface AttributeDirectory {
  keyOf(type: "user" | "event", id: string): string | undefined;
  idOf(type: "user" | "event", key: string): string | undefined;
}

export async function loadAttributeDirectory(ctx: ServiceContext, tenantId: string): Promise<AttributeDirectory> {
  const [user, event] = await Promise.all([ctx.config.storedAttributes(tenantId, "user"), ctx.config.storedAttributes(tenantId, "event")]);
  const of = (type: "user" | "event") => (type === "user" ? user : event);
  return {
    keyOf: (type, id) => [...of(type)].find(([, attributeId]) => attributeId === id)?.[0],
    idOf: (type, key) => of(type).get(key),
  };
}

/** Loads what a configuration refers to: only what it needs, always within the tenant. */
async function loadReferences(ctx: ServiceContext, tenantId: string, settings: AchievementSettings): Promise<AchievementReferences> {
  const { collections } = ctx.database;
  const metric = settings.metricId === null ? null : await collections.metrics.findOne({ _id: settings.metricId, tenantId });
  const prerequisites = new Map<string, string[]>();
  if (settings.achievementIds.length > 0) {
    // The whole prerequisite graph of the tenant, to find cycles; configuration is small.
    const docs = await collections.achievements.find({ tenantId }, { projection: { achievementIds: 1 } }).toArray();
    for (const doc of docs) prerequisites.set(doc._id as unknown as string, (doc.achievementIds as string[] | undefined) ?? []);
  }
  return {
    metricIds: new Set(metric ? [metric._id] : []),
    userAttributeKeys: await ctx.config.storedAttributes(tenantId, "user"),
    eventAttributeKeys: await ctx.config.storedAttributes(tenantId, "event"),
    prerequisites,
  };
}

async function checkComplete(ctx: ServiceContext, scope: ResourceScope, draft: AchievementDraft, id: string | null): Promise<string | null> {
  const problem = checkAchievementDraft(draft, id);
  if (problem) return problem;
  const settings = achievementSettings(draft);
  return checkAchievementReferences(settings, id, await loadReferences(ctx, scope.tenantId, settings));
}

/**
 * Achievements: keys unique per tenant; every rule of the domain plus the tenant's own metrics,
 * attributes and prerequisites. An update is checked as the whole achievement it results in.
 * (Two concurrent updates could each pass the cycle check and close a cycle together; admin
 * writes are rare and a cycle only makes those achievements uncompletable, never corrupts data.)
 */
export const achievementSpec: ResourceSpec<AchievementConfig, AchievementDraft, AchievementChanges> = {
  noun: "Achievement",
  collection: (ctx) => ctx.database.collections.achievements,
  checkDraft: (ctx, scope, draft) => checkComplete(ctx, scope, draft, null),
  build: (draft, id, now) => ({ id, ...achievementSettings(draft), created: now, updated: now }),
  async checkChanges(ctx, scope, current, changes) {
    return checkComplete(ctx, scope, mergeAchievementChanges(current, changes), current.id);
  },
  applyChanges(current, changes, now) {
    const next = achievementSettings(mergeAchievementChanges(current, changes));
    const generation = (current.progressGeneration ?? 0) + (redefinesProgress(current, next) ? 1 : 0);
    return { ...current, ...next, ...(generation > 0 && { progressGeneration: generation }), updated: now };
  },
  duplicateMessage: (achievement) => `Key "${achievement.key}" is already in use by another achievement`,
  checkDelete: (ctx, scope, achievement) => describeReferrers(ctx, scope.tenantId, "achievement", achievement.id, achievement.key),
  // Saving an active achievement backdates it to every user who already qualifies (no notifications).
  afterSave: async (ctx, scope, achievement) => {
    await backfillAchievement(ctx, scope.tenantId, achievement);
  },
};
