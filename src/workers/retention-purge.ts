import { purgeIdempotencyRecords } from "../engine/store/idempotency-records.js";
import { leaseStore } from "./store/leases.js";
import { createDailyPurge, type DailyPurge } from "./daily-purge.js";
import { trimEndpointLog } from "../features/webhooks/store/webhook-store.js";
import type { ServiceContext } from "../engine/context.js";

/**
 * Retention work the scheduler runs (at most hourly, by the service's clock, as every daily purge:
 * workers/daily-purge.ts), besides the purges that live with their loops (finished webhook
 * deliveries in the webhook worker, completed batches in the batch worker) and the trims done on a
 * user's next write (rank history, see engine/domain/retention.ts; daily metric history and
 * idempotency keys kept in the document):
 * - idempotency keys moved out of user documents, once their window has ended (only when
 *   IDEMPOTENCY_WINDOW_HOURS is set): per UTC day the keys listed in `idempotency_purge` when they
 *   were moved (engine/store/idempotency-records.ts);
 * - then the webhook endpoint logs' pages whose deliveries the webhook purge deleted
 *   (features/webhooks/store/webhook-store.ts), per endpoint (configuration: few).
 * Every read is by `_id`, or of configuration; nothing grows with users.
 */
const LEASE_NAME = "retention:purge";

export function createRetentionPurge(ctx: ServiceContext, owner: string, leaseMs: number, stopping: () => boolean): DailyPurge {
  const { leases, idempotencyKeys, idempotencyPurge, userPages, webhookEndpoints } = ctx.database.collections;
  return createDailyPurge({
    leases: leaseStore(leases),
    name: LEASE_NAME,
    owner,
    leaseMs,
    now: ctx.now,
    stopping,
    purgeDay: (day) => purgeIdempotencyRecords(idempotencyKeys, userPages, idempotencyPurge, ctx.userLocks, day, ctx.idempotencyWindowMs, ctx.now()),
    afterDays: async () => {
      const endpoints = await webhookEndpoints.find({}, { projection: { _id: 1, tenantId: 1 } }).toArray();
      for (const endpoint of endpoints) await trimEndpointLog(ctx.database.collections, endpoint.tenantId, endpoint._id);
    },
  });
}
