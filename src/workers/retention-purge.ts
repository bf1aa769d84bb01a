import { purgeIdempotencyRecords } from "../engine/store/idempotency-records.js";
import { dayOf } from "../engine/store/keyed-buckets.js";
import { advanceLease, claimLease } from "./store/leases.js";
import { trimEndpointLog } from "../features/webhooks/store/webhook-store.js";
import type { ServiceContext } from "../engine/context.js";

/**
 * Retention work the scheduler runs (at most hourly, by the service's clock), besides the purges
 * that already live with their loops (finished webhook deliveries in the webhook worker, completed
 * batches in the batch worker, both by day buckets) and the trims done on a user's next write (rank
 * history, see engine/domain/retention.ts; daily metric history and idempotency keys kept in the document):
 * - idempotency keys moved out of user documents, once their window has ended (only when
 *   IDEMPOTENCY_WINDOW_HOURS is set): per UTC day the keys listed in `idempotency_purge` when they
 *   were moved (engine/store/idempotency-records.ts); a lease's cursor is the last day purged, so days missed while
 *   no instance ran are purged later;
 * - the webhook endpoint logs' pages whose deliveries the webhook purge deleted (features/webhooks/store/webhook-store.ts),
 *   per endpoint (configuration: few).
 * Every read is by `_id`, or of configuration; nothing grows with users.
 */
const LEASE_NAME = "retention:purge";
const PURGE_EVERY_MS = 3_600_000;

/** What one round did (for tests and logs). */
export interface RetentionRound {
  idempotencyKeys: number;
  endpointLogPages: number;
}

/** A purge to call from a background loop: it does its round when an hour has passed since the last. */
export function createRetentionPurge(ctx: ServiceContext, owner: string, leaseMs: number): () => Promise<RetentionRound | null> {
  let lastRound: number | null = null;
  return async () => {
    const now = ctx.now();
    if (lastRound !== null && now.getTime() - lastRound < PURGE_EVERY_MS) return null;
    lastRound = now.getTime();
    return purgeExpiredRecords(ctx, owner, leaseMs);
  };
}

/** One round of the retention work, if this instance gets the lease; null otherwise. */
export async function purgeExpiredRecords(ctx: ServiceContext, owner: string, leaseMs: number): Promise<RetentionRound | null> {
  const { leases, idempotencyKeys, idempotencyPurge, webhookEndpoints } = ctx.database.collections;
  const now = ctx.now();
  const lease = await claimLease(leases, LEASE_NAME, owner, now, leaseMs);
  if (!lease) return null;
  const round: RetentionRound = { idempotencyKeys: 0, endpointLogPages: 0 };
  const today = dayOf(now);
  // Nothing can be due before the first round: a key is listed for a day after it was moved.
  for (let day = lease.cursor === null ? today : lease.cursor + 1; day <= today; day++) {
    round.idempotencyKeys += await purgeIdempotencyRecords(idempotencyKeys, idempotencyPurge, ctx.userLocks, day, ctx.idempotencyWindowMs, now);
    if (!(await advanceLease(leases, lease, day, ctx.now(), leaseMs))) return round;
  }
  const endpoints = await webhookEndpoints.find({}, { projection: { _id: 1, tenantId: 1 } }).toArray();
  for (const endpoint of endpoints) round.endpointLogPages += await trimEndpointLog(ctx.database.collections, endpoint.tenantId, endpoint._id);
  return round;
}
