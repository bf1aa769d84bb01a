import { randomUUID } from "node:crypto";
import type { Document } from "mongodb";
import { DomainError, invalidArgument, notFound } from "../../engine/domain/errors.js";
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
import { rescheduleTenantUsers } from "../../workers/due-work.js";

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
export function putStreakSettings(ctx: ServiceContext, tenantId: string, draft: StreakSettingsDraft): Promise<{ settings: StreakSettings; created: boolean }> {
  return writeStreakSettings(ctx, tenantId, () => draft);
}

/**
 * Updates the streak settings in the published clients' form (PATCH): the fields given replace
 * theirs, the others keep their values (see `patchStreakSettings`); without settings yet, the
 * frequency and metrics must be given. `created` as for PUT.
 */
export function patchStreakSettingsOf(
  ctx: ServiceContext,
  tenantId: string,
  patch: StreakSettingsPatch,
): Promise<{ settings: StreakSettings; created: boolean }> {
  return writeStreakSettings(ctx, tenantId, (current) => patchStreakSettings(current, patch));
}

/** Attempts of a settings write that keeps losing to concurrent writers before it gives up (409). */
const WRITE_ATTEMPTS = 5;

/**
 * Reads the settings, derives the next ones from them and writes those only if nothing was written
 * in between (the replace names the `updated` it read; a first insert loses on the unique index),
 * else derives them again from what won: two concurrent PATCHes of different fields both take effect.
 * Writers of this instance take turns (FerretDB applies a replace as a read then a write).
 */
function writeStreakSettings(
  ctx: ServiceContext,
  tenantId: string,
  next: (current: StreakSettings | null) => StreakSettingsDraft,
): Promise<{ settings: StreakSettings; created: boolean }> {
  const collection = ctx.database.collections.streakSettings;
  return ctx.userLocks.run(`${collection.collectionName}:${tenantId}`, async () => {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const current = await collection.findOne({ tenantId });
      const draft = next(current ? fromDocument(current) : null);
      const problem = checkStreakSettings(draft);
      if (problem) throw invalidArgument(problem);
      const settings = streakSettings(draft);
      const metricIds = settings.metrics.map((m) => m.metricId);
      const found = await ctx.database.collections.metrics.find({ tenantId, _id: { $in: metricIds } }, { projection: { _id: 1 } }).toArray();
      const unknown = checkStreakReferences(settings, new Set(found.map((m) => m._id)));
      if (unknown) throw invalidArgument(unknown);

      const now = ctx.now();
      if (current) {
        const replaced = await collection.replaceOne(
          { _id: current._id, tenantId, updated: current.updated as Date },
          { tenantId, name: DOCUMENT_NAME, ...settings, created: current.created as Date, updated: now },
        );
        if (replaced.matchedCount === 0) continue;
      } else {
        try {
          await collection.insertOne({ _id: randomUUID() as never, tenantId, name: DOCUMENT_NAME, ...settings, created: now, updated: now });
        } catch (error) {
          if (isDuplicateKeyError(error)) continue;
          throw error;
        }
      }
      ctx.config.invalidate();
      // Freeze earning switched on or sped up: users' stored due times predate it. A new frequency:
      // each user's streak is computed again for it (streak-frequency.ts) at a visit within the
      // minute, so streak leaderboards and due times follow without waiting for each user's next call.
      const before = current ? fromDocument(current) : null;
      const earning = settings.freezes?.autoEarn;
      const earned = before?.freezes?.autoEarn;
      const earningSpedUp = earning && (earning.intervalDays !== earned?.intervalDays || earning.amount !== earned.amount);
      if (earningSpedUp || (before && before.frequency !== settings.frequency)) await rescheduleTenantUsers(ctx, tenantId);
      return { settings, created: !current };
    }
    throw new DomainError("conflict", "The streak settings kept changing while this request wrote them; send it again");
  });
}
