import { randomUUID } from "node:crypto";
import type { Document } from "mongodb";
import { invalidArgument, notFound } from "../../engine/domain/errors.js";
import {
  checkStreakReferences,
  checkStreakSettings,
  patchStreakSettings,
  streakSettings,
  type StreakSettings,
  type StreakSettingsDraft,
  type StreakSettingsPatch,
} from "./domain/streak-config.js";
import { isDuplicateKeyError } from "../../engine/store/database.js";
import { storedStreakSettings } from "./store/stored-streak-settings.js";
import type { ServiceContext } from "../../engine/context.js";

/**
 * The stored document: one per tenant (unique `tenantId`). `name` is what a refused metric deletion
 * shows as the referrer.
 */
const DOCUMENT_NAME = "Streak settings";

function fromDocument(doc: Document): StreakSettings {
  return storedStreakSettings(doc);
}

/** The tenant's streak settings; not found until they have been set (no default exists: a streak needs a metric). */
export async function getStreakSettings(ctx: ServiceContext, tenantId: string): Promise<StreakSettings> {
  const doc = await ctx.database.collections.streakSettings.findOne({ tenantId });
  if (!doc) throw notFound("Streak settings have not been set for this tenant; set them with PUT /admin/v1/streaks/settings (UpdateStreakSettings)");
  return fromDocument(doc);
}

/**
 * Replaces the tenant's streak settings, or sets them the first time (`created` true). Invalid
 * settings are refused as a whole and change nothing.
 */
export async function putStreakSettings(
  ctx: ServiceContext,
  tenantId: string,
  draft: StreakSettingsDraft,
): Promise<{ settings: StreakSettings; created: boolean }> {
  const problem = checkStreakSettings(draft);
  if (problem) throw invalidArgument(problem);
  const settings = streakSettings(draft);
  const metricIds = settings.metrics.map((m) => m.metricId);
  const found = await ctx.database.collections.metrics.find({ tenantId, _id: { $in: metricIds } }, { projection: { _id: 1 } }).toArray();
  const unknown = checkStreakReferences(settings, new Set(found.map((m) => m._id)));
  if (unknown) throw invalidArgument(unknown);

  const collection = ctx.database.collections.streakSettings;
  const now = ctx.now();
  // Replace the existing document, or insert the first one; a concurrent first insert loses on the
  // unique index and then replaces the winner's document.
  for (let attempt = 0; ; attempt++) {
    const current = await collection.findOne({ tenantId });
    try {
      if (current) {
        await collection.replaceOne(
          { _id: current._id, tenantId },
          { tenantId, name: DOCUMENT_NAME, ...settings, created: current.created as Date, updated: now },
        );
      } else {
        await collection.insertOne({ _id: randomUUID() as never, tenantId, name: DOCUMENT_NAME, ...settings, created: now, updated: now });
      }
      ctx.config.invalidate();
      return { settings, created: !current };
    } catch (error) {
      if (!isDuplicateKeyError(error) || attempt > 0) throw error;
    }
  }
}

/**
 * Updates the streak settings in the published clients' form (PATCH): the fields given replace
 * theirs, the others keep their values (see `patchStreakSettings`); without settings yet, the
 * frequency and metrics must be given. `created` as for PUT.
 */
export async function patchStreakSettingsOf(
  ctx: ServiceContext,
  tenantId: string,
  patch: StreakSettingsPatch,
): Promise<{ settings: StreakSettings; created: boolean }> {
  const doc = await ctx.database.collections.streakSettings.findOne({ tenantId });
  return putStreakSettings(ctx, tenantId, patchStreakSettings(doc ? fromDocument(doc) : null, patch));
}
