import type { Collection, UpdateFilter } from "mongodb";
import type { UserUpsert } from "../../../engine/domain/user.js";
import { writeIfCurrent } from "../../../engine/store/conditional-write.js";
import type { Collections, Database } from "../../../engine/store/database.js";
import { addToBucket, clearBucket, readBucket } from "../../../engine/store/keyed-buckets.js";
import type { KeyedLock } from "../../../engine/store/keyed-lock.js";
import type { WriteMode } from "../../../engine/store/user-documents.js";
import { processNow, processNowMs } from "../../../engine/process-clock.js";

/** An attribute as stored: a pair, because attribute keys sent by callers may not be valid document keys. */
export interface StoredAttribute {
  key: string;
  value: string;
}

/** A submitted event as stored in its batch; fields absent in the request are absent here. */
export interface StoredBatchEvent {
  key: string;
  /** The user fields sent, attributes as pairs. */
  user: Omit<UserUpsert, "attributes"> & { attributes?: StoredAttribute[] };
  value: number;
  attributes: StoredAttribute[];
  timestamp?: Date;
  /** Absent when the caller sent none (the event is applied under the batch's own key). */
  idempotencyKey?: string;
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
  /**
   * Claims since the batch last showed it can go on: progress saved, or a clean hand-over (an
   * instance shutting down). Crashes and failed attempts add up here; at MAX_ATTEMPTS the batch
   * gives up. Absent (batches stored before it): `attempts`.
   */
  failedAttempts?: number;
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

/**
 * Batches are reached by `_id` only (on FerretDB's SQLite backend anything else reads the whole
 * collection, and both batch collections grow with every submission). What the worker must find is
 * kept beside them, keyed:
 * - `metric_event_batch_queue`: one marker per batch not completed (`_id` = the batch's), written
 *   before the batch document and removed after its completion; the worker reads it whole (its
 *   size is the pending work) and each candidate batch by `_id`;
 * - `metric_event_batch_purge`: per UTC day, the batches whose retention ends then (keyed buckets,
 *   engine/store/keyed-buckets.ts), added before the write that completes them.
 * Writes of the lease holder and claims are conditional (engine/store/conditional-write.ts).
 */
export interface BatchStore {
  collections: Pick<Collections, "metricEventBatches" | "metricEventBatchEvents" | "metricEventBatchQueue" | "metricEventBatchPurge">;
  mode: WriteMode;
  locks: KeyedLock;
}

export function batchStore(database: Pick<Database, "collections" | "writeMode">, locks: KeyedLock): BatchStore {
  return { collections: database.collections, mode: database.writeMode, locks };
}

/** A batch not completed yet (see BatchStore); `at`: when the marker was written. */
export interface QueuedBatchDocument {
  _id: string;
  created: Date;
  at: Date;
}

/** A marker is written just before its batch: only one this old without a batch is an orphan. */
const QUEUE_MARKER_GRACE_MS = 60_000;

/**
 * Stores a batch: its events first, then its queue marker, then the batch document, which makes it
 * exist (no transactions: a crash in between leaves only an orphan marker and events, which the
 * worker deletes once the marker is older than QUEUE_MARKER_GRACE_MS).
 */
export async function insertBatch(store: BatchStore, batch: EventBatchDocument, events: StoredBatchEvent[]): Promise<void> {
  const c = store.collections;
  await c.metricEventBatchEvents.insertOne({ _id: batch._id, tenantId: batch.tenantId, events, created: batch.created });
  await c.metricEventBatchQueue.insertOne({ _id: batch._id, created: batch.created, at: processNow() });
  await c.metricEventBatches.insertOne(batch);
}

export async function findBatchStatus(batches: Collection<EventBatchDocument>, tenantId: string, id: string): Promise<EventBatchStatus | null> {
  // By `_id` alone (the index), then the tenant checked here: an extra field in the filter is a scan on FerretDB.
  const batch = await batches.findOne({ _id: id }, { projection: { outcomes: 0 } });
  return batch?.tenantId === tenantId ? batch : null;
}

/** A batch's events; null if they are gone (the batch was completed or its tenant deleted). */
export async function findBatchEvents(store: BatchStore, batch: EventBatchDocument): Promise<StoredBatchEvent[] | null> {
  const stored = await store.collections.metricEventBatchEvents.findOne({ _id: batch._id });
  return stored?.tenantId === batch.tenantId ? stored.events : null;
}

/**
 * Claims the oldest batch that is queued, or being processed under a lease that has ended (its
 * instance crashed or stalled): the queue markers in submission order, each batch read by `_id`,
 * and the first claimable one claimed with a write conditional on the `attempts` and lease end read
 * (atomic on MongoDB; on FerretDB one process under its lock). Markers of completed batches, and
 * orphans past their grace time, are removed on the way.
 */
export async function claimBatch(store: BatchStore, owner: string, now: Date, leaseMs: number): Promise<EventBatchDocument | null> {
  const c = store.collections;
  const queue = (await c.metricEventBatchQueue.find({}).toArray()).sort((a, b) => a.created.getTime() - b.created.getTime() || (a._id < b._id ? -1 : 1));
  for (const marker of queue) {
    const batch = await c.metricEventBatches.findOne({ _id: marker._id }, { projection: { _id: 1, attempts: 1, status: 1, leaseUntil: 1 } });
    if (!batch || batch.status === "completed") {
      if (batch || marker.at.getTime() < processNowMs() - QUEUE_MARKER_GRACE_MS) await forgetQueued(store, marker._id, !batch);
      continue;
    }
    if (batch.leaseUntil >= now) continue;
    const claimed = await writeIfCurrent(
      c.metricEventBatches,
      store.mode,
      store.locks,
      batch._id,
      { attempts: batch.attempts, leaseUntil: batch.leaseUntil },
      {
        // Counted as failing until it saves progress or hands the batch over cleanly.
        update: {
          $set: { status: "processing", leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs), updated: now },
          $inc: { attempts: 1, failedAttempts: 1 },
        },
      },
    );
    if (!claimed) continue;
    const doc = await c.metricEventBatches.findOne({ _id: batch._id });
    if (doc && doc.leaseOwner === owner && doc.attempts === batch.attempts + 1) return doc;
  }
  return null;
}

/** Removes a batch's queue marker (and, for an orphan, the events stored before it). */
async function forgetQueued(store: BatchStore, id: string, orphan: boolean): Promise<void> {
  await Promise.all([
    store.collections.metricEventBatchQueue.deleteOne({ _id: id }),
    orphan ? store.collections.metricEventBatchEvents.deleteOne({ _id: id }) : null,
  ]);
}

/** Counters of the outcomes so far. */
export function countOutcomes(outcomes: ReadonlyArray<BatchEventOutcome | null>): { applied: number; replayed: number; failed: number } {
  const counts = { applied: 0, replayed: 0, failed: 0 };
  for (const outcome of outcomes) if (outcome !== null) counts[outcome]++;
  return counts;
}

/** A write of the lease holder: nothing is written once the lease was lost (or the batch deleted). */
function writeAsHolder(store: BatchStore, batch: EventBatchDocument, update: UpdateFilter<EventBatchDocument>): Promise<boolean> {
  return writeIfCurrent(
    store.collections.metricEventBatches,
    store.mode,
    store.locks,
    batch._id,
    { leaseOwner: batch.leaseOwner, attempts: batch.attempts },
    { update },
  );
}

/** Saves progress and extends the lease. False when the lease was lost. */
export async function saveProgress(store: BatchStore, batch: EventBatchDocument, progress: BatchProgress, now: Date, leaseMs: number): Promise<boolean> {
  return writeAsHolder(store, batch, {
    $set: { ...progress, ...countOutcomes(progress.outcomes), failedAttempts: 0, leaseUntil: new Date(now.getTime() + leaseMs), updated: now },
  });
}

/** Saves progress and gives the lease up; the batch may be claimed again from `retryAt` on. */
export async function releaseBatch(
  store: BatchStore,
  batch: EventBatchDocument,
  progress: BatchProgress,
  now: Date,
  retryAt: Date,
  lastError: string | null,
): Promise<boolean> {
  return writeAsHolder(store, batch, {
    $set: {
      ...progress,
      ...countOutcomes(progress.outcomes),
      // A clean hand-over is no failure; a failed attempt stays counted.
      ...(lastError === null && { failedAttempts: 0 }),
      leaseOwner: null,
      leaseUntil: retryAt,
      lastError,
      updated: now,
    },
  });
}

/**
 * Marks the batch completed with its final counters and errors (listed first for the purge of the
 * day its retention ends), then deletes its events and its queue marker.
 */
export async function completeBatch(store: BatchStore, batch: EventBatchDocument, progress: BatchProgress, now: Date, purgeDay: number): Promise<boolean> {
  await addToBucket(store.collections.metricEventBatchPurge, store.locks, purgeDay, batch._id);
  const completed = await writeAsHolder(store, batch, {
    $set: { status: "completed", errors: progress.errors, ...countOutcomes(progress.outcomes), leaseOwner: null, updated: now, completed: now },
    $unset: { outcomes: "" },
  });
  if (!completed) return false;
  await store.collections.metricEventBatchEvents.deleteOne({ _id: batch._id });
  await forgetQueued(store, batch._id, false);
  return true;
}

/** Deletes the completed batches listed for `day` (and any events left of them), then the day's bucket. */
export async function purgeBatches(store: BatchStore, day: number): Promise<number> {
  const c = store.collections;
  const { keys, documentIds } = await readBucket(c.metricEventBatchPurge, day);
  let deleted = 0;
  for (const _id of keys) {
    const batch = await c.metricEventBatches.findOne({ _id }, { projection: { status: 1 } });
    if (batch && batch.status !== "completed") continue;
    await Promise.all([c.metricEventBatches.deleteOne({ _id }), c.metricEventBatchEvents.deleteOne({ _id })]);
    deleted += batch ? 1 : 0;
  }
  await clearBucket(c.metricEventBatchPurge, documentIds);
  return deleted;
}
