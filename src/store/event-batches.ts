import type { Collection } from "mongodb";

/** An attribute as stored: a pair, because attribute keys sent by callers may not be valid document keys. */
export interface StoredAttribute {
  key: string;
  value: string;
}

/** A submitted event as stored in its batch; fields absent in the request are absent here. */
export interface StoredBatchEvent {
  key: string;
  user: {
    id: string;
    email?: string;
    name?: string;
    tz?: string;
    deviceTokens?: string[];
    subscribeToEmails?: boolean;
    attributes?: StoredAttribute[];
  };
  value: number;
  attributes: StoredAttribute[];
  timestamp?: Date;
  idempotencyKey: string;
}

export type BatchStatus = "queued" | "processing" | "completed";
export type BatchEventOutcome = "applied" | "replayed" | "failed";

export interface BatchEventError {
  index: number;
  idempotencyKey: string;
  message: string;
}

/**
 * A batch's events, written once before the batch document and deleted when it is completed. Kept
 * apart from the batch document so that the frequent progress writes, status reads and the
 * workers' polling never read or rewrite up to 1,000 events (FerretDB rewrites a whole document on
 * every update and reads whole documents to filter them).
 */
export interface EventBatchEventsDocument {
  /** The batch's ID. */
  _id: string;
  tenantId: string;
  /** In submission order. */
  events: StoredBatchEvent[];
  created: Date;
}

/**
 * One document per batch: its status, the outcome of each event, and the lease of the instance
 * working on it. The outcomes are dropped when the batch is completed; the counters and errors stay.
 */
export interface EventBatchDocument {
  _id: string;
  tenantId: string;
  status: BatchStatus;
  total: number;
  applied: number;
  replayed: number;
  failed: number;
  errors: BatchEventError[];
  /** Until completed: the outcome of each event, null while not processed. */
  outcomes?: Array<BatchEventOutcome | null>;
  /**
   * How many times an instance claimed the batch. Also the lease version: a claim must see the
   * value it read, and every write of the lease holder filters on it.
   */
  attempts: number;
  /** The instance holding the lease, or null. */
  leaseOwner: string | null;
  /** The lease ends then; a batch whose lease has ended may be claimed (again). */
  leaseUntil: Date;
  /** Why the latest attempt stopped, when it failed. */
  lastError: string | null;
  created: Date;
  updated: Date;
  completed: Date | null;
}

/** The status as read by callers: everything but the outcomes. */
export type EventBatchStatus = Omit<EventBatchDocument, "outcomes">;

/** The progress of an attempt, written by the lease holder. */
export interface BatchProgress {
  outcomes: Array<BatchEventOutcome | null>;
  errors: BatchEventError[];
}

export interface BatchCollections {
  metricEventBatches: Collection<EventBatchDocument>;
  metricEventBatchEvents: Collection<EventBatchEventsDocument>;
}

/**
 * Stores a batch: its events first, then the batch document, which makes it exist (no
 * transactions: a crash between the two leaves only unreferenced events, deleted by the retention sweep).
 */
export async function insertBatch(c: BatchCollections, batch: EventBatchDocument, events: StoredBatchEvent[]): Promise<void> {
  await c.metricEventBatchEvents.insertOne({ _id: batch._id, tenantId: batch.tenantId, events, created: batch.created });
  await c.metricEventBatches.insertOne(batch);
}

export async function findBatchStatus(batches: Collection<EventBatchDocument>, tenantId: string, id: string): Promise<EventBatchStatus | null> {
  // By `_id` alone (the index), then the tenant checked here: an extra field in the filter is a scan on FerretDB.
  const batch = await batches.findOne({ _id: id }, { projection: { outcomes: 0 } });
  return batch?.tenantId === tenantId ? batch : null;
}

/** A batch's events; null if they are gone (the batch was completed or its tenant deleted). */
export async function findBatchEvents(c: BatchCollections, batch: EventBatchDocument): Promise<StoredBatchEvent[] | null> {
  const stored = await c.metricEventBatchEvents.findOne({ _id: batch._id });
  return stored?.tenantId === batch.tenantId ? stored.events : null;
}

/**
 * Claims the oldest batch that is queued, or being processed under a lease that has ended (its
 * instance crashed or stalled). Two steps, because FerretDB has no atomic read-modify-write: read a
 * candidate with its `attempts`, then update it only if `attempts` and the ended lease are still as
 * read, and check the written document is ours. Real MongoDB makes the update atomic; on FerretDB
 * two instances could still both win a race. Even then each event goes through its idempotency key
 * and the user's version-checked write (so it is as safe as two clients sending the same keyed event
 * to two instances), and the batch document keeps the writes of the last claimer only, since every
 * holder's write filters on owner and attempt.
 */
export async function claimBatch(
  batches: Collection<EventBatchDocument>,
  owner: string,
  now: Date,
  leaseMs: number,
): Promise<EventBatchDocument | null> {
  const candidate = await batches.findOne(
    { status: { $in: ["queued", "processing"] }, leaseUntil: { $lt: now } },
    { sort: { created: 1, _id: 1 }, projection: { _id: 1, attempts: 1 } },
  );
  if (!candidate) return null;
  const claimed = await batches.findOneAndUpdate(
    { _id: candidate._id, attempts: candidate.attempts, leaseUntil: { $lt: now } },
    { $set: { status: "processing", leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs), updated: now }, $inc: { attempts: 1 } },
    { returnDocument: "after" },
  );
  if (!claimed || claimed.leaseOwner !== owner || claimed.attempts !== candidate.attempts + 1) return null;
  return claimed;
}

/** Counters of the outcomes so far. */
export function countOutcomes(outcomes: ReadonlyArray<BatchEventOutcome | null>): { applied: number; replayed: number; failed: number } {
  const counts = { applied: 0, replayed: 0, failed: 0 };
  for (const outcome of outcomes) if (outcome !== null) counts[outcome]++;
  return counts;
}

/** The lease holder's write filter: nothing is written once the lease was lost (or the batch deleted). */
function heldBy(batch: EventBatchDocument) {
  return { _id: batch._id, leaseOwner: batch.leaseOwner, attempts: batch.attempts };
}

/** Saves progress and extends the lease. False when the lease was lost. */
export async function saveProgress(
  batches: Collection<EventBatchDocument>,
  batch: EventBatchDocument,
  progress: BatchProgress,
  now: Date,
  leaseMs: number,
): Promise<boolean> {
  const result = await batches.updateOne(heldBy(batch), {
    $set: { ...progress, ...countOutcomes(progress.outcomes), leaseUntil: new Date(now.getTime() + leaseMs), updated: now },
  });
  return result.matchedCount === 1;
}

/** Saves progress and gives the lease up; the batch may be claimed again from `retryAt` on. */
export async function releaseBatch(
  batches: Collection<EventBatchDocument>,
  batch: EventBatchDocument,
  progress: BatchProgress,
  now: Date,
  retryAt: Date,
  lastError: string | null,
): Promise<boolean> {
  const result = await batches.updateOne(heldBy(batch), {
    $set: { ...progress, ...countOutcomes(progress.outcomes), leaseOwner: null, leaseUntil: retryAt, lastError, updated: now },
  });
  return result.matchedCount === 1;
}

/** Marks the batch completed with its final counters and errors, then deletes its events. */
export async function completeBatch(c: BatchCollections, batch: EventBatchDocument, progress: BatchProgress, now: Date): Promise<boolean> {
  const result = await c.metricEventBatches.updateOne(heldBy(batch), {
    $set: { status: "completed", errors: progress.errors, ...countOutcomes(progress.outcomes), leaseOwner: null, updated: now, completed: now },
    $unset: { outcomes: "" },
  });
  if (result.matchedCount !== 1) return false;
  await c.metricEventBatchEvents.deleteOne({ _id: batch._id });
  return true;
}

/**
 * Deletes batches completed before `before`, and events stored before it that no batch needs
 * (left by a crash between the two inserts of a submission, or between completion and deletion).
 * Events of a batch not completed are kept, however old.
 */
export async function deleteCompletedBefore(c: BatchCollections, before: Date): Promise<void> {
  await c.metricEventBatches.deleteMany({ status: "completed", completed: { $lt: before } });
  const old = await c.metricEventBatchEvents.find({ created: { $lt: before } }, { projection: { _id: 1 } }).toArray();
  if (old.length === 0) return;
  const active = await c.metricEventBatches.find({ _id: { $in: old.map((d) => d._id) }, status: { $ne: "completed" } }, { projection: { _id: 1 } }).toArray();
  const keep = new Set(active.map((d) => d._id));
  await c.metricEventBatchEvents.deleteMany({ _id: { $in: old.map((d) => d._id).filter((id) => !keep.has(id)) } });
}
