import { setTimeout as sleep } from "node:timers/promises";
import { randomUUID } from "node:crypto";
import type { Collection, Document } from "mongodb";
import { forgetCachedTenant } from "../../engine/store/user-documents.js";
import { deleteTenantListings } from "../../engine/store/tenant-users.js";
import { forgetKeysStartingWith } from "../../engine/store/keyed-buckets.js";
import { forgetTenantListings } from "../webhooks/webhook-outbox.js";
import type { BulkResult } from "../../engine/domain/bulk.js";
import { checkCustomerId, type TenantConfig } from "./domain/tenant.js";
import { checkName } from "../../engine/domain/rules.js";
import { isDuplicateKeyError } from "../../engine/store/database.js";
import { LIVE_TENANTS, liveTenant, tenantFromDocument } from "./store/tenants.js";
import type { ServiceContext } from "../../engine/context.js";
import { creationClock } from "./admin-resources.js";
import type { Logger } from "pino";
import { rankingsOf } from "../leaderboards/ranking-updates.js";

export async function createTenants(ctx: ServiceContext, drafts: Array<{ customerId: string; name: string }>): Promise<BulkResult<TenantConfig>> {
  const result: BulkResult<TenantConfig> = { done: [], issues: [] };
  const clock = creationClock(ctx); // the tenants of one call are listed in the order given
  for (const [index, draft] of drafts.entries()) {
    const problem = checkCustomerId(draft.customerId) ?? checkName(draft.name);
    if (problem) {
      result.issues.push({ index, severity: "error", message: problem });
      continue;
    }
    const now = clock();
    const tenant: TenantConfig = { id: randomUUID(), ...draft, status: "active", created: now, updated: now };
    try {
      const { id, ...rest } = tenant;
      await ctx.database.collections.tenants.insertOne({ _id: id, ...rest });
      result.done.push(tenant);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      result.issues.push({ index, severity: "error", message: await customerIdTakenMessage(ctx, draft.customerId, "create") });
    }
  }
  ctx.config.invalidate();
  return result;
}

/** Why a customer ID is taken: another tenant has it, or a tenant being deleted still does (lists leave it out). */
async function customerIdTakenMessage(ctx: ServiceContext, customerId: string, retry: "create" | "use"): Promise<string> {
  const taken = await ctx.database.collections.tenants.findOne({ customerId }, { projection: { deleting: 1 } });
  return taken?.deleting
    ? `Customer ID "${customerId}" belongs to a tenant being deleted; ${retry} it again once the deletion has finished`
    : `Customer ID "${customerId}" already exists in this environment`;
}

export async function listTenants(ctx: ServiceContext, page: { limit: number; skip: number }): Promise<TenantConfig[]> {
  const docs = await ctx.database.collections.tenants.find(LIVE_TENANTS).sort({ created: 1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
  return docs.map(tenantFromDocument);
}

export async function getTenant(ctx: ServiceContext, id: string): Promise<TenantConfig | null> {
  return liveTenant(await ctx.database.collections.tenants.findOne({ _id: id }));
}

/** What is wrong with a tenant update's fields, or null; the reference asks for at least one of them. */
function tenantUpdateProblem(customerId: string | undefined, name: string | undefined): string | null {
  if (customerId === undefined && name === undefined) return "An update must include at least one of customerId or name";
  return (customerId !== undefined ? checkCustomerId(customerId) : null) ?? (name !== undefined ? checkName(name) : null);
}

export async function updateTenants(
  ctx: ServiceContext,
  updates: Array<{ id: string; customerId?: string; name?: string }>,
): Promise<BulkResult<TenantConfig>> {
  const result: BulkResult<TenantConfig> = { done: [], issues: [] };
  for (const { id, customerId, name } of updates) {
    const current = await getTenant(ctx, id);
    if (!current) {
      result.issues.push({ id, severity: "error", message: "Tenant not found by ID" });
      continue;
    }
    const problem = tenantUpdateProblem(customerId, name);
    if (problem) {
      result.issues.push({ id, severity: "error", message: problem });
      continue;
    }
    const next: TenantConfig = { ...current, customerId: customerId ?? current.customerId, name: name ?? current.name, updated: ctx.now() };
    try {
      // $set, not a replacement: a deletion that began meanwhile keeps its mark.
      await ctx.database.collections.tenants.updateOne({ _id: id }, { $set: { customerId: next.customerId, name: next.name, updated: next.updated } });
      result.done.push(next);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      result.issues.push({ id, severity: "error", message: await customerIdTakenMessage(ctx, next.customerId, "use") });
    }
  }
  ctx.config.invalidate();
  return result;
}

/** The longest a deletion waits for the tenant's calls in progress (one that hangs does not block it). */
const DRAIN_MS = 30_000;

/**
 * With several instances (versioned writes), how long after the mark, beyond the configuration
 * cache's bound (within which other instances stop admitting the tenant's calls), the deletion waits
 * before the data goes, so that the calls they admitted before finish first: without it, their
 * writes landed after the data went and stayed behind, out of reach.
 */
const OTHER_INSTANCES_CALLS_MS = 2_000;

/**
 * Deletes tenants with all their data and configuration. The tenant is first marked as being
 * deleted (from then on it answers to no one), then its data goes, then its document: a deletion a
 * crash cut short is finished at the next start (`finishUnfinishedTenantDeletions`) or by deleting
 * the tenant again.
 */
export async function deleteTenants(ctx: ServiceContext, ids: string[]): Promise<BulkResult<{ id: string }>> {
  const result: BulkResult<{ id: string }> = { done: [], issues: [] };
  const { tenants } = ctx.database.collections;
  const marked: string[] = [];
  for (const id of ids) {
    const mark = await tenants.updateOne({ _id: id }, { $set: { deleting: ctx.now() } });
    if (mark.matchedCount === 1) marked.push(id);
    else result.issues.push({ id, severity: "error", message: "Tenant not found by ID" });
  }
  ctx.config.invalidate(); // this instance stops serving the tenants before their data goes
  // Calls that found a tenant before the mark finish first, so none writes after its data goes;
  // other instances' too (one wait for all the tenants of the call).
  await Promise.all(marked.map((id) => ctx.tenantCalls.drained(id, DRAIN_MS)));
  if (marked.length > 0 && ctx.database.writeMode !== "single-instance") await sleep(ctx.config.ttlMs + OTHER_INSTANCES_CALLS_MS);
  for (const id of marked) {
    await ctx.atPipelinePoint?.("tenant-deletion", 0);
    await finishTenantDeletion(ctx, id);
    result.done.push({ id });
  }
  ctx.config.invalidate();
  return result;
}

/** Finishes the deletions of tenants a crash cut short (run at start-up). */
export async function finishUnfinishedTenantDeletions(ctx: ServiceContext, logger: Logger): Promise<void> {
  const { tenants } = ctx.database.collections;
  for (const { _id: id } of await tenants.find({ deleting: { $exists: true } }, { projection: { _id: 1 } }).toArray()) {
    await finishTenantDeletion(ctx, id);
    logger.info({ tenantId: id }, "finished an unfinished tenant deletion");
  }
  ctx.config.invalidate();
}

/** Deletes a marked tenant's data, then its document (the mark goes last, so a crash leaves it to find). */
async function finishTenantDeletion(ctx: ServiceContext, id: string): Promise<void> {
  const { collections } = ctx.database;
  // Usage markers are keyed by metric ID alone: deleted first, while the metrics still name them.
  const metrics = await collections.metrics.find({ tenantId: id }, { projection: { _id: 1 } }).toArray();
  await Promise.all(metrics.map(({ _id }) => collections.metricUsage.deleteOne({ _id })));
  // Every collection but tenants holds tenant-scoped documents (admin keys have tenantId null);
  // ranking roots name their tenant in their _id only.
  await Promise.all([
    ...Object.entries(collections)
      .filter(([name]) => name !== "tenants" && name !== "leases")
      .map(([, collection]) => (collection as Collection<Document>).deleteMany({ tenantId: id })),
    rankingsOf(ctx).deleteTenant(id),
    deleteTenantListings(collections.tenantUsers, id), // keyed by the tenant's ID, not by a field
    // Pending work names its users by key only (`<tenantId>/<userId>...`): due minutes, purge days.
    forgetKeysStartingWith(collections.dueUsers, ctx.userLocks, `${id}/`),
    forgetKeysStartingWith(collections.dueUsers, ctx.userLocks, `${id}/`, "users"),
    forgetKeysStartingWith(collections.idempotencyPurge, ctx.userLocks, `${id}/`),
    forgetTenantListings(ctx, id),
  ]);
  forgetCachedTenant(collections.users, id);
  await collections.tenants.deleteOne({ _id: id });
}
