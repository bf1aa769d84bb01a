import type { OutboxMessage } from "./domain/webhooks.js";
import { createSecretCodec } from "./store/webhook-secrets.js";
import { deliveryId, deliveryStore, insertDeliveries, type WebhookDeliveryDocument } from "./store/webhook-store.js";
import { DEFAULT_RETRY_SCHEDULE_MS } from "./webhook-delivery-policy.js";
import type { ServiceContext, WebhookOptions } from "../../engine/context.js";
import { clearOutboxPending } from "./store/pending-outboxes.js";
import { LISTING_PURGE_PREFIX, listUserDeliveries, type UserDeliveriesStore } from "./store/user-deliveries.js";
import { forgetKeysStartingWith } from "../../engine/store/keyed-buckets.js";
import { changeUserState } from "../../engine/user-state.js";

/** Messages a user document may hold before the next write of the user hands them over itself. */
export const OUTBOX_LIMIT = 100;

const DEFAULT_OPTIONS: WebhookOptions = {
  secrets: createSecretCodec(null),
  allowPrivateNetworks: false,
  retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
  timeoutMs: 15_000,
  retentionMs: 30 * 86_400_000,
};

export function webhookOptions(ctx: ServiceContext): WebhookOptions {
  return ctx.webhooks ?? DEFAULT_OPTIONS;
}

/** A delivery to attempt at once. */
export function newDelivery(tenantId: string, endpointId: string, message: OutboxMessage, now: Date): WebhookDeliveryDocument {
  return {
    _id: deliveryId(message.id, endpointId),
    tenantId,
    endpointId,
    messageId: message.id,
    type: message.type,
    body: message.body,
    eventAt: message.at,
    status: "pending",
    ready: true,
    dueMinute: null,
    nextAttemptAt: now,
    roundAttempts: 0,
    attemptCount: 0,
    attempts: [],
    lastError: null,
    leaseOwner: null,
    version: 1,
    created: now,
    updated: now,
    finishedAt: null,
    purgeDay: null,
  };
}

/**
 * Hands messages over to delivery: one delivery per message and enabled endpoint of the tenant
 * subscribed to its type (fan-out happens here, not when the message is built, so the event path
 * never reads endpoints). Idempotent: a delivery that exists already (a hand-over repeated after a
 * crash) is left alone. Returns how many deliveries it stored.
 */
export async function handOverMessages(ctx: ServiceContext, tenantId: string, messages: readonly OutboxMessage[]): Promise<number> {
  if (messages.length === 0) return 0;
  const { endpoints } = await ctx.config.webhooks(tenantId);
  const now = ctx.now();
  const docs = messages.flatMap((m) => endpoints.filter((e) => e.eventTypes.includes(m.type)).map((e) => newDelivery(tenantId, e.id, m, now)));
  if (docs.length === 0) return 0;
  // Listed under the users they name first (an export or erasure finds them by `_id`), then stored.
  await listUserDeliveries(userDeliveriesStore(ctx), docs, now);
  await insertDeliveries(deliveryStore(ctx.database, ctx.userLocks), docs);
  return docs.length;
}

/** Where the deliveries naming each user are listed (store/user-deliveries.ts). */
export function userDeliveriesStore(ctx: ServiceContext): UserDeliveriesStore {
  const { webhookUserDeliveries, webhookPurge } = ctx.database.collections;
  return { listings: webhookUserDeliveries, purge: webhookPurge, locks: ctx.userLocks, retentionMs: webhookOptions(ctx).retentionMs };
}

/** A deleted tenant's user listings leave the purge days that name them (the listings go by `tenantId`). */
export function forgetTenantListings(ctx: ServiceContext, tenantId: string): Promise<void> {
  return forgetKeysStartingWith(ctx.database.collections.webhookPurge, ctx.userLocks, `${LISTING_PURGE_PREFIX}${tenantId}/`);
}

/**
 * Moves a user's outbox to delivery: the messages are handed over (idempotently), then removed
 * from the user document by a write of the user, so a message is never lost (a
 * crash in between repeats the hand-over, which creates nothing twice) and messages added
 * meanwhile by another writer stay for the next round. Returns how many messages were moved.
 */
export async function drainOutbox(ctx: ServiceContext, tenantId: string, userId: string): Promise<number> {
  return changeUserState(ctx, tenantId, userId, async (stored) => {
    if (!stored || stored.state.outbox.length === 0) {
      // A marker without messages: its user write never happened (a crash or a conflict) or was drained already.
      const { pendingOutboxes } = ctx.database.collections;
      await clearOutboxPending(pendingOutboxes, tenantId, userId, stored?.version ?? 0, ctx.database.writeMode);
      return { write: null, result: 0 };
    }
    // Side effects in `decide` are safe here: the messages are committed, and the hand-over is idempotent.
    await handOverMessages(ctx, tenantId, stored.state.outbox);
    await ctx.atPipelinePoint?.("after-outbox-handover", 0);
    return { write: { ...stored.state, outbox: [] }, result: stored.state.outbox.length };
  });
}
