import type { ConfigCache } from "../store/config-cache.js";
import type { Database } from "../store/database.js";
import type { KeyedLock } from "../store/keyed-lock.js";

/**
 * Named points of the event pipeline where tests inject faults (a crash, a concurrent write).
 * "batch-progress": batch processing, just before a batch's progress is saved.
 */
export type PipelinePoint = "before-user-write" | "after-user-write" | "after-idempotency-flush" | "batch-progress";

/** What the use cases need from the outside world; tests pass their own clock and hooks. */
export interface ServiceContext {
  database: Database;
  config: ConfigCache;
  userLocks: KeyedLock;
  now: () => Date;
  /** How long an idempotency key is remembered; null: forever (the default). */
  idempotencyWindowMs: number | null;
  /** Test-only: called at each pipeline point; production leaves it unset. */
  atPipelinePoint?: (point: PipelinePoint, attempt: number) => Promise<void> | void;
}
