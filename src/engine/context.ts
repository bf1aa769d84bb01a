import type { ErasedUsers } from "../features/batches/erased-users.js";
import type { ConfigCache } from "./store/config-cache.js";
import type { Database } from "./store/database.js";
import type { KeyedLock } from "./store/keyed-lock.js";
import type { TenantCalls } from "./tenant-calls.js";
import type { SecretCodec } from "../features/webhooks/store/webhook-secrets.js";

/**
 * Named points of the event pipeline where tests inject faults (a crash, a concurrent write).
 * "batch-progress": batch processing, just before a batch's progress is saved.
 * "after-outbox-handover": webhook messages were copied to deliveries, not yet removed from the user.
 * "erase-step": a user erasure finished step 1 (planned), 2 (user deleted) or 3 (rankings erased).
 */
export type PipelinePoint =
  "before-user-write" | "after-user-write" | "after-idempotency-flush" | "batch-progress" | "after-outbox-handover" | "erase-step" | "tenant-deletion";

/** How webhooks are delivered (see features/webhooks/webhook-worker.ts); every field has a default. */
export interface WebhookOptions {
  /** How signing secrets are kept at rest. */
  secrets: SecretCodec;
  /** Allow endpoints on loopback, private, link-local and other non-public addresses (default false). */
  allowPrivateNetworks: boolean;
  /** Delay before each attempt of a round, in ms (the first is normally 0). */
  retryScheduleMs: readonly number[];
  /** Timeout of one attempt, from connecting to the answer's status line (15 s). */
  timeoutMs: number;
  /** How long finished deliveries and their attempt logs are kept, in ms (30 days). */
  retentionMs: number;
}

/** How long records are kept (see workers/retention-purge.ts); absent fields take their defaults. */
export interface RetentionOptions {
  /** Completed admin batches of events (status, counters, errors), in ms (7 days). */
  batchMs: number;
  /** Leaderboard rank history items in user documents, in days; null: by count only (the newest 100 per leaderboard). */
  rankHistoryDays: number | null;
}

export const DEFAULT_RETENTION: RetentionOptions = { batchMs: 7 * 86_400_000, rankHistoryDays: null };

/** What became of a webhook delivery's turn: an attempt's result, or why none was made. */
export type WebhookAttemptResult = "delivered" | "retrying" | "failed" | "gone" | "skipped" | "deferred";

/** What the pipeline reports as it works (server/metrics.ts counts it); absent: nothing is reported. */
export interface PipelineObserver {
  /** A metric event applied, or replayed for a repeated idempotency key; from the API or an admin batch. */
  eventRecorded(kind: "applied" | "replayed", source: "api" | "batch"): void;
  webhookAttempted(result: WebhookAttemptResult): void;
}

/** What the use cases need from the outside world; tests pass their own clock and hooks. */
export interface ServiceContext {
  database: Database;
  config: ConfigCache;
  userLocks: KeyedLock;
  /** The API calls in progress per tenant (counted by transport/guard.ts); a tenant's deletion waits for them. */
  tenantCalls: TenantCalls;
  now: () => Date;
  /** How long an idempotency key is remembered; null: forever (the default). */
  idempotencyWindowMs: number | null;
  /** This deployment as an environment (key, name); absent: "production", "Production". */
  environment?: { key: string; name: string };
  /** Webhook delivery settings; defaults when absent. */
  webhooks?: WebhookOptions;
  /** Retention of batch records and rank history; defaults when absent (webhook deliveries: `webhooks.retentionMs`). */
  retention?: Partial<RetentionOptions>;
  /** Wakes this instance's webhook worker (a user write left messages in an outbox; a message was redelivered). */
  wakeWebhooks?: () => void;
  /** Operational counters (metrics); absent: nothing is reported. */
  observer?: PipelineObserver;
  /** Users erased on this instance, for its batches in progress (features/batches/erased-users.ts); absent: none tracked. */
  erasedUsers?: ErasedUsers;
  /** Test-only: called at each pipeline point; production leaves it unset. */
  atPipelinePoint?: (point: PipelinePoint, attempt: number) => Promise<void> | void;
}
