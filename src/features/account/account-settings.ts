import { applySettingsUpdate, checkSettingsUpdate, type AccountSettings, type SettingsUpdate } from "./domain/settings.js";
import { invalidArgument } from "../../engine/domain/errors.js";
import { settingsFromDocument } from "../../engine/store/config-cache.js";
import type { ServiceContext } from "../../engine/context.js";

/** The tenant's account settings, read by `_id` (the defaults until set). */
export async function getAccountSettings(ctx: ServiceContext, tenantId: string): Promise<AccountSettings> {
  return settingsFromDocument(await ctx.database.collections.accountSettings.findOne({ _id: tenantId }));
}

/**
 * Changes the settings sent and keeps the rest. An invalid change is refused as a whole and changes
 * nothing. The document is replaced by `_id` (upsert); concurrent updates of one tenant's settings
 * are serialized in the process (the last one wins across instances, as any configuration write).
 */
export async function updateAccountSettings(ctx: ServiceContext, tenantId: string, update: SettingsUpdate): Promise<AccountSettings> {
  const problem = checkSettingsUpdate(update);
  if (problem) throw invalidArgument(problem);
  return ctx.userLocks.run(`settings/${tenantId}`, async () => {
    const next = applySettingsUpdate(await getAccountSettings(ctx, tenantId), update);
    await ctx.database.collections.accountSettings.replaceOne({ _id: tenantId }, { tenantId, ...next, updated: ctx.now() }, { upsert: true });
    ctx.config.invalidate();
    return next;
  });
}

/** An environment of the deployment (the reference's `admin.environments`). */
export interface EnvironmentInfo {
  key: string;
  name: string;
  priority: number;
}

/**
 * A self-hosted deployment is one environment: itself, named by its configuration
 * (`ENVIRONMENT_KEY`, `ENVIRONMENT_NAME`; "production" and "Production" by default), priority 1.
 * Another environment (staging, say) is another deployment with its own database and keys.
 */
export function listEnvironments(ctx: ServiceContext): EnvironmentInfo[] {
  const { key, name } = ctx.environment ?? { key: "production", name: "Production" };
  return [{ key, name, priority: 1 }];
}
