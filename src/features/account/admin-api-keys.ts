import type { BulkResult } from "../../engine/domain/bulk.js";
import type { RateLimitSetting } from "./domain/rate-limits.js";
import { createApiKey, findCaller, listAdminKeys, listApplicationKeys, revokeApiKey, setKeyRateLimit, type ApiKeyInfo, type Caller } from "./store/api-keys.js";
import type { ServiceContext } from "../../engine/context.js";
import { creationClock } from "./admin-resources.js";

/** The caller a presented API key stands for, or null when the key is unknown or revoked. */
export function callerOfKey(ctx: ServiceContext, key: string): Promise<Caller | null> {
  return findCaller(ctx.database.collections.apiKeys, key);
}

/** A page of the tenant's active application keys, oldest first (no secrets). */
export function listTenantApplicationKeys(ctx: ServiceContext, tenantId: string, page: { limit: number; skip: number }): Promise<ApiKeyInfo[]> {
  return listApplicationKeys(ctx.database.collections.apiKeys, tenantId, page);
}

/** The account's active admin keys, oldest first (no secrets). */
export function listAccountAdminKeys(ctx: ServiceContext): Promise<ApiKeyInfo[]> {
  return listAdminKeys(ctx.database.collections.apiKeys);
}

/** Creates an admin key (account-level); the full key is returned once. */
export function createAdminKey(ctx: ServiceContext, rateLimit: RateLimitSetting | null): ReturnType<typeof createApiKey> {
  return createApiKey(ctx.database.collections.apiKeys, "admin", { tenantId: null, userId: null }, ctx.now(), rateLimit);
}

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  userId: string | null;
  rateLimit: RateLimitSetting | null;
}

/** Creates application keys, each acting for one user of the tenant (IDs checked by the proto rule); the full key is returned once. */
export async function createApplicationKeys(
  ctx: ServiceContext,
  tenantId: string,
  items: Array<{ userId: string; rateLimit: RateLimitSetting | null }>,
): Promise<BulkResult<CreatedKey>> {
  const result: BulkResult<CreatedKey> = { done: [], issues: [] };
  const clock = creationClock(ctx); // the keys of one call are listed in the order given
  for (const { userId, rateLimit } of items) {
    const created = await createApiKey(ctx.database.collections.apiKeys, "application", { tenantId, userId }, clock(), rateLimit);
    result.done.push({ ...created, userId });
  }
  return result;
}

/**
 * Revokes keys by ID. Application keys are revoked only within the caller's tenant; an admin key
 * may not revoke itself (that would lock the caller out mid-operation).
 */
export async function revokeKeys(
  ctx: ServiceContext,
  kind: "admin" | "application",
  tenantId: string,
  caller: Caller,
  ids: string[],
): Promise<BulkResult<{ id: string }>> {
  const result: BulkResult<{ id: string }> = { done: [], issues: [] };
  for (const id of ids) {
    if (kind === "admin" && id === caller.keyId) {
      result.issues.push({ id, severity: "error", message: "An admin key cannot revoke itself; use another admin key" });
    } else if (await revokeApiKey(ctx.database.collections.apiKeys, id, kind, tenantId, ctx.now())) {
      result.done.push({ id });
    } else {
      result.issues.push({ id, severity: "error", message: keyNotFound(kind) });
    }
  }
  if (result.done.length > 0) ctx.config.invalidate(); // this instance's key cache forgets them at once
  return result;
}

/** The reference's wording for an application key ("Application API key not found by ID"). */
function keyNotFound(kind: "admin" | "application"): string {
  return `${kind === "admin" ? "Admin" : "Application"} API key not found by ID`;
}

/**
 * Sets keys' own rate limits by ID (null: back to the configured default). Application keys are
 * found only within the caller's tenant. Callers see a change within the key cache's second.
 */
export async function updateKeyRateLimits(
  ctx: ServiceContext,
  kind: "admin" | "application",
  tenantId: string,
  items: Array<{ id: string; rateLimit: RateLimitSetting | null }>,
): Promise<BulkResult<ApiKeyInfo>> {
  const result: BulkResult<ApiKeyInfo> = { done: [], issues: [] };
  for (const { id, rateLimit } of items) {
    const updated = await setKeyRateLimit(ctx.database.collections.apiKeys, id, kind, tenantId, rateLimit);
    if (updated) result.done.push(updated);
    else result.issues.push({ id, severity: "error", message: keyNotFound(kind) });
  }
  if (result.done.length > 0) ctx.config.invalidate();
  return result;
}
