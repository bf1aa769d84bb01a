import { randomBytes, randomUUID } from "node:crypto";
import type { BulkResult } from "../../engine/domain/bulk.js";
import { creationClock } from "../account/admin-resources.js";
import { DomainError, invalidArgument, notFound } from "../../engine/domain/errors.js";
import { checkEndpointUrl, checkEventTypes, type WebhookEventType } from "./domain/webhooks.js";
import { formatSecret, SECRET_BYTES } from "./webhook-signing.js";
import {
  deleteEndpoint,
  deliveryStore,
  findDelivery,
  findEndpointDocument,
  findEndpointView,
  findEndpointViews,
  listDeliveries,
  saveDelivery,
  saveEndpoint,
  type DeliveryFilter,
  type WebhookDeliveryDocument,
  type WebhookEndpointDocument,
  type WebhookEndpointView,
} from "./store/webhook-store.js";
import type { ServiceContext } from "../../engine/context.js";
import { userDeliveriesStore, webhookOptions } from "./webhook-outbox.js";
import { listUserDeliveries } from "./store/user-deliveries.js";
import { refusedLiteralHost } from "./webhook-sender.js";

/** An endpoint to create. */
export interface EndpointDraft {
  url: string;
  description?: string;
  eventTypes: string[];
  /** Default true. */
  enabled?: boolean;
  /** Also sign the reference's way (`X-Trophy-Signature`); default false. */
  referenceSignature?: boolean;
}

/** Changes to an endpoint; absent fields stay as they are. An empty description removes it. */
export interface EndpointChanges {
  url?: string;
  description?: string;
  eventTypes?: string[];
  enabled?: boolean;
  referenceSignature?: boolean;
}

/** A created or rotated endpoint with its new secret: the only time a secret is shown. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpointView;
  secret: string;
}

/** Default and longest grace period of a rotated secret (the old one keeps signing meanwhile). */
export const DEFAULT_ROTATION_GRACE_SECONDS = 86_400;
export const MAX_ROTATION_GRACE_SECONDS = 7 * 86_400;
const MAX_DESCRIPTION_LENGTH = 1000;

function viewOf({ secret: _s, previousSecret: _p, ...view }: WebhookEndpointDocument): WebhookEndpointView {
  return view;
}

function newSecret(): string {
  return formatSecret(randomBytes(SECRET_BYTES));
}

/** What is wrong with a URL for this deployment: its form, then (unless allowed) a non-public literal host. */
function checkUrl(ctx: ServiceContext, url: string): string | null {
  const problem = checkEndpointUrl(url);
  if (problem) return problem;
  return webhookOptions(ctx).allowPrivateNetworks ? null : refusedLiteralHost(new URL(url));
}

function checkDescription(description: string | undefined): string | null {
  return description !== undefined && description.length > MAX_DESCRIPTION_LENGTH ? `description must be at most ${MAX_DESCRIPTION_LENGTH} characters` : null;
}

/**
 * Creates endpoints, each with a new signing secret (`whsec_` and 32 random bytes in base64),
 * returned here once and never again. Hosts that are IP literals or `localhost` on a non-public
 * network are refused unless the operator allows private networks; names are checked at every
 * attempt, since what they resolve to can change.
 */
export async function createEndpoints(ctx: ServiceContext, tenantId: string, drafts: EndpointDraft[]): Promise<BulkResult<EndpointWithSecret>> {
  const result: BulkResult<EndpointWithSecret> = { done: [], issues: [] };
  const secrets = webhookOptions(ctx).secrets;
  const clock = creationClock(ctx); // the endpoints of one call are listed in the order given
  for (const [index, draft] of drafts.entries()) {
    const problem = checkUrl(ctx, draft.url) ?? checkEventTypes(draft.eventTypes) ?? checkDescription(draft.description);
    if (problem) {
      result.issues.push({ index, severity: "error", message: problem });
      continue;
    }
    const now = clock();
    const secret = newSecret();
    const doc: WebhookEndpointDocument = {
      _id: randomUUID(),
      tenantId,
      url: draft.url,
      description: draft.description || null,
      eventTypes: draft.eventTypes as WebhookEventType[],
      enabled: draft.enabled ?? true,
      disabledReason: null,
      secret: secrets.seal(secret),
      previousSecret: null,
      previousSecretExpires: null,
      referenceSignature: draft.referenceSignature ?? false,
      version: 1,
      created: now,
      updated: now,
    };
    await saveEndpoint(ctx.database.collections.webhookEndpoints, doc, 0);
    result.done.push({ endpoint: viewOf(doc), secret });
  }
  ctx.config.invalidate();
  return result;
}

export async function listEndpoints(ctx: ServiceContext, tenantId: string, page: { limit: number; skip: number }): Promise<WebhookEndpointView[]> {
  return findEndpointViews(ctx.database.collections.webhookEndpoints, tenantId, page);
}

export async function getEndpoint(ctx: ServiceContext, tenantId: string, id: string): Promise<WebhookEndpointView> {
  const endpoint = await findEndpointView(ctx.database.collections.webhookEndpoints, tenantId, id);
  if (!endpoint) throw notFound(`Webhook endpoint "${id}" not found`);
  return endpoint;
}

/**
 * Changes endpoints (version-checked). Enabling an endpoint clears the reason it was disabled for;
 * deliveries that failed meanwhile can be redelivered.
 */
export async function updateEndpoints(
  ctx: ServiceContext,
  tenantId: string,
  updates: Array<{ id: string; changes: EndpointChanges }>,
): Promise<BulkResult<WebhookEndpointView>> {
  const result: BulkResult<WebhookEndpointView> = { done: [], issues: [] };
  for (const { id, changes } of updates) {
    const problem =
      (changes.url !== undefined ? checkUrl(ctx, changes.url) : null) ??
      (changes.eventTypes !== undefined ? checkEventTypes(changes.eventTypes) : null) ??
      checkDescription(changes.description);
    if (problem) {
      result.issues.push({ id, severity: "error", message: problem });
      continue;
    }
    const saved = await changeEndpoint(ctx, tenantId, id, (current, now) => {
      const next = { ...current, updated: now };
      if (changes.url !== undefined) next.url = changes.url;
      if (changes.description !== undefined) next.description = changes.description || null;
      if (changes.eventTypes !== undefined) next.eventTypes = changes.eventTypes as WebhookEventType[];
      if (changes.referenceSignature !== undefined) next.referenceSignature = changes.referenceSignature;
      if (changes.enabled !== undefined) {
        next.enabled = changes.enabled;
        if (changes.enabled) next.disabledReason = null;
      }
      return next;
    });
    if (saved) result.done.push(viewOf(saved));
    else result.issues.push({ id, severity: "error", message: "Webhook endpoint not found by ID" });
  }
  ctx.config.invalidate();
  return result;
}

/** Deletes endpoints with their deliveries and attempt logs. */
export async function deleteEndpoints(ctx: ServiceContext, tenantId: string, ids: string[]): Promise<BulkResult<{ id: string }>> {
  const result: BulkResult<{ id: string }> = { done: [], issues: [] };
  for (const id of ids) {
    if (await deleteEndpoint(ctx.database.collections, tenantId, id)) result.done.push({ id });
    else result.issues.push({ id, severity: "error", message: "Webhook endpoint not found by ID" });
  }
  ctx.config.invalidate();
  return result;
}

/**
 * Gives an endpoint a new signing secret (returned once). The old one keeps signing for the grace
 * period (default a day, at most a week, 0 for none): requests carry both signatures meanwhile, so
 * the receiver can switch secrets without losing a message. A rotation during a grace period
 * replaces the older secret.
 */
export async function rotateSecret(
  ctx: ServiceContext,
  tenantId: string,
  id: string,
  graceSeconds: number = DEFAULT_ROTATION_GRACE_SECONDS,
): Promise<EndpointWithSecret> {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROTATION_GRACE_SECONDS) {
    throw invalidArgument(`gracePeriodSeconds must be an integer from 0 to ${MAX_ROTATION_GRACE_SECONDS}, got ${graceSeconds}`);
  }
  const secrets = webhookOptions(ctx).secrets;
  const secret = newSecret();
  const saved = await changeEndpoint(ctx, tenantId, id, (current, now) => ({
    ...current,
    secret: secrets.seal(secret),
    previousSecret: graceSeconds > 0 ? current.secret : null,
    previousSecretExpires: graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null,
    updated: now,
  }));
  if (!saved) throw notFound(`Webhook endpoint "${id}" not found`);
  return { endpoint: viewOf(saved), secret };
}

/** Applies a change to an endpoint with a version check, retrying on a concurrent change; null when it does not exist. */
async function changeEndpoint(
  ctx: ServiceContext,
  tenantId: string,
  id: string,
  change: (current: WebhookEndpointDocument, now: Date) => WebhookEndpointDocument,
): Promise<WebhookEndpointDocument | null> {
  const endpoints = ctx.database.collections.webhookEndpoints;
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await findEndpointDocument(endpoints, tenantId, id);
    if (!current) return null;
    const next = { ...change(current, ctx.now()), version: current.version + 1 };
    if (await saveEndpoint(endpoints, next, current.version)) return next;
  }
  throw new DomainError("conflict", `Webhook endpoint "${id}" was modified concurrently too many times; retry the request`);
}

// ---------------------------------------------------------------------------------------------
// Deliveries

/** Deliveries, newest first: of an endpoint (which must exist) or of a message. */
export async function listWebhookDeliveries(
  ctx: ServiceContext,
  tenantId: string,
  filter: DeliveryFilter,
  page: { limit: number; skip: number },
): Promise<WebhookDeliveryDocument[]> {
  if (filter.endpointId !== undefined) await getEndpoint(ctx, tenantId, filter.endpointId);
  return listDeliveries(ctx.database.collections, tenantId, filter, page);
}

export async function getWebhookDelivery(ctx: ServiceContext, tenantId: string, endpointId: string, messageId: string): Promise<WebhookDeliveryDocument> {
  const delivery = await findDelivery(ctx.database.collections.webhookDeliveries, tenantId, endpointId, messageId);
  if (!delivery) throw notFound(`Webhook message "${messageId}" has no delivery to endpoint "${endpointId}"`);
  return delivery;
}

/**
 * Sends a message to an endpoint again, with the same `webhook-id` and body and a new round of
 * the full retry schedule: after it failed (every attempt used, or the endpoint was disabled), or
 * again after it was delivered. A pending one waiting for a retry is attempted at once; one being
 * attempted is refused (409). The endpoint must be enabled and still subscribe to the message's type.
 */
export async function redeliverMessage(ctx: ServiceContext, tenantId: string, endpointId: string, messageId: string): Promise<WebhookDeliveryDocument> {
  const endpoint = await getEndpoint(ctx, tenantId, endpointId);
  if (!endpoint.enabled) throw new DomainError("unprocessable", `Webhook endpoint "${endpointId}" is disabled; enable it before redelivering`);
  const deliveries = deliveryStore(ctx.database, ctx.userLocks);
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await getWebhookDelivery(ctx, tenantId, endpointId, messageId);
    if (!endpoint.eventTypes.includes(current.type))
      throw new DomainError("unprocessable", `Webhook endpoint "${endpointId}" no longer subscribes to ${current.type}; subscribe it before redelivering`);
    // Never two attempts at once: one in progress (or cut short by a crash, until its claim runs out) finishes first.
    if (current.status === "pending" && current.leaseOwner !== null) {
      throw new DomainError("conflict", `Webhook message "${messageId}" is being attempted now; redeliver it once the attempt has finished`);
    }
    const now = ctx.now();
    const next: WebhookDeliveryDocument = {
      ...current,
      status: "pending",
      ready: true,
      dueMinute: null,
      nextAttemptAt: now,
      roundAttempts: 0,
      leaseOwner: null,
      finishedAt: null,
      purgeDay: null,
      updated: now,
    };
    // Pending again, it may be kept past its first listing's purge: listed again today.
    await listUserDeliveries(userDeliveriesStore(ctx), [current], now);
    if (await saveDelivery(deliveries, next, current.version)) {
      ctx.wakeWebhooks?.();
      return { ...next, version: current.version + 1 };
    }
  }
  throw new DomainError("conflict", `Webhook message "${messageId}" was modified concurrently too many times; retry the request`);
}
