import { randomUUID } from "node:crypto";
import { forEachLimited } from "../../engine/for-each-limited.js";
import { BSON } from "mongodb";
import type { Logger } from "pino";
import { DomainError, invalidArgument, notFound } from "../../engine/domain/errors.js";
import {
  batchStore,
  claimBatch,
  completeBatch,
  countOutcomes,
  findBatchEvents,
  findBatchStatus,
  insertBatch,
  purgeBatches,
  releaseBatch,
  saveProgress,
  type BatchProgress,
  type BatchStore,
  type EventBatchDocument,
  type EventBatchStatus,
  type StoredAttribute,
  type StoredBatchEvent,
  type BatchEventOutcome,
} from "./store/batch-records.js";
import { DEFAULT_RETENTION, type ServiceContext } from "../../engine/context.js";
import { recordEvent, type EventInput } from "../../engine/record-event.js";
import { purgeDayOf } from "../../engine/store/keyed-buckets.js";
import { leaseStore } from "../../workers/store/leases.js";
import { createDailyPurge } from "../../workers/daily-purge.js";
import { createLeasedLoop } from "../../workers/leased-loop.js";

/**
 * An event of a batch: the event call's input. Its idempotency key is optional; an event without one
 * is applied under a key of the batch's own (`batchEventKey`), so that it too is applied exactly once
 * when the batch is resumed after an interruption.
 */
export type BatchEventInput = EventInput;

/**
 * The key an event without an idempotency key is applied with: unique to the batch (a random UUID)
 * and the event's index, so the event is applied once, and a resumed attempt replays it instead of
 * applying it again. It is never shown: the batch status reports such an event's key as "".
 */
export function batchEventKey(batchId: string, index: number): string {
  return `batch:${batchId}:${index}`;
}

const BATCH_EVENT_KEY = /^batch:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:\d+$/;

/**
 * Why a caller's key cannot be used, or null: a key of `batchEventKey`'s form would be taken for
 * that batch event's (the client learns batch IDs), so an event sent with it would be answered as
 * that event's replay instead of being applied.
 */
export function reservedKeyProblem(key: string): string | null {
  return BATCH_EVENT_KEY.test(key)
    ? `Idempotency key "${key}" has the form batch:<batch ID>:<index>, which is reserved for the events of a batch sent without a key; use another key`
    : null;
}

/** A batch's events are one document, which must stay under MongoDB's 16 MiB. */
const MAX_EVENTS_DOCUMENT_BYTES = 15 * 1024 * 1024;
/** Stored error messages are cut to this length (they may quote caller input). */
const MAX_ERROR_MESSAGE_CHARS = 1000;
/** How many names or indexes an error message of the submit call lists before "and N more". */
const MAX_LISTED = 10;

/**
 * Accepts a batch of events: checks what can be checked for the whole batch (idempotency keys
 * unique per user and metric, every metric exists), then stores it as one document. The batch is
 * durable when this returns; the worker processes it in the background.
 */
export async function submitEventBatch(ctx: ServiceContext, tenantId: string, events: BatchEventInput[]): Promise<{ id: string; accepted: number }> {
  checkIdempotencyKeys(events);
  await checkMetricsExist(ctx, tenantId, events);
  const now = ctx.now();
  const doc: EventBatchDocument = {
    _id: randomUUID(),
    tenantId,
    status: "queued",
    total: events.length,
    applied: 0,
    replayed: 0,
    failed: 0,
    errors: [],
    outcomes: events.map(() => null),
    attempts: 0,
    failedAttempts: 0,
    leaseOwner: null,
    leaseUntil: new Date(0),
    lastError: null,
    created: now,
    updated: now,
    completed: null,
  };
  const stored = events.map(toStored);
  const size = BSON.calculateObjectSize({ events: stored });
  if (size > MAX_EVENTS_DOCUMENT_BYTES) {
    throw invalidArgument(`The batch is too large to store (${size} bytes, the limit is ${MAX_EVENTS_DOCUMENT_BYTES}); send fewer or smaller events per batch`);
  }
  await insertBatch(batchStore(ctx.database, ctx.userLocks), doc, stored);
  return { id: doc._id, accepted: events.length };
}

export async function readEventBatch(ctx: ServiceContext, tenantId: string, id: string): Promise<EventBatchStatus> {
  const batch = await findBatchStatus(ctx.database.collections.metricEventBatches, tenantId, id);
  if (!batch) throw notFound(`Metric event batch "${id}" not found`);
  return batch;
}

/** No key of the reserved form (`reservedKeyProblem`); a key once per user and metric: a second use would only be a replay of the first. */
function checkIdempotencyKeys(events: BatchEventInput[]): void {
  for (const [index, e] of events.entries()) {
    const problem = e.idempotencyKey === undefined ? null : reservedKeyProblem(e.idempotencyKey);
    if (problem) throw invalidArgument(`events[${index}]: ${problem}`);
  }
  const indexesByKey = new Map<string, number[]>();
  events.forEach((e, index) => {
    if (e.idempotencyKey === undefined) return;
    const scope = JSON.stringify([e.user.id, e.metricKey, e.idempotencyKey]);
    indexesByKey.set(scope, [...(indexesByKey.get(scope) ?? []), index]);
  });
  const duplicates = [...indexesByKey.values()].filter((indexes) => indexes.length > 1);
  if (duplicates.length === 0) return;
  const described = duplicates.map((indexes) => {
    const e = events[indexes[0]!]!;
    return `events ${indexes.join(", ")} (user "${e.user.id}", metric "${e.metricKey}", key "${e.idempotencyKey}")`;
  });
  throw invalidArgument(`Duplicate idempotency keys for the same user and metric: ${listed(described, "; ")}`);
}

/** Unknown metric keys refuse the whole batch (404), as the reference lists "Metric not found". */
async function checkMetricsExist(ctx: ServiceContext, tenantId: string, events: BatchEventInput[]): Promise<void> {
  const indexesByMetric = new Map<string, number[]>();
  events.forEach((e, index) => indexesByMetric.set(e.metricKey, [...(indexesByMetric.get(e.metricKey) ?? []), index]));
  const keys = [...indexesByMetric.keys()];
  const metrics = await Promise.all(keys.map((key) => ctx.config.metricByKey(tenantId, key)));
  const missing = keys.filter((_, i) => metrics[i] === null);
  if (missing.length === 0) return;
  const described = missing.map((key) => {
    const indexes = indexesByMetric.get(key)!;
    return `"${key}" (event${indexes.length > 1 ? "s" : ""} ${listed(indexes.map(String), ", ")})`;
  });
  throw notFound(`Metrics not found: ${listed(described, ", ")}`);
}

function listed(items: string[], separator: string): string {
  const shown = items.slice(0, MAX_LISTED).join(separator);
  return items.length > MAX_LISTED ? `${shown}${separator}and ${items.length - MAX_LISTED} more` : shown;
}

/** Stored without undefined fields, and with attribute maps as pairs (any string may be a key). */
function toStored(e: BatchEventInput): StoredBatchEvent {
  const { attributes, ...user } = e.user;
  return withoutUndefined({
    key: e.metricKey,
    user: withoutUndefined({ ...user, attributes: attributes && toPairs(attributes) }),
    value: e.value,
    attributes: toPairs(e.attributes),
    timestamp: e.timestamp,
    idempotencyKey: e.idempotencyKey,
  });
}

function fromStored(e: StoredBatchEvent): BatchEventInput {
  const { attributes, ...user } = e.user;
  return {
    metricKey: e.key,
    user: { ...user, ...(attributes && { attributes: fromPairs(attributes) }) },
    value: e.value,
    attributes: fromPairs(e.attributes),
    ...(e.timestamp && { timestamp: e.timestamp }),
    ...(e.idempotencyKey !== undefined && { idempotencyKey: e.idempotencyKey }),
  };
}

const toPairs = (map: Record<string, string>): StoredAttribute[] => Object.entries(map).map(([key, value]) => ({ key, value }));
const fromPairs = (pairs: StoredAttribute[]): Record<string, string> => Object.fromEntries(pairs.map((p) => [p.key, p.value]));

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

// ---------------------------------------------------------------------------------------------
// The worker

export interface EventBatchWorkerOptions {
  /** How long a claim on a batch lasts unless renewed (30 s); a crashed instance's batch is resumed after it. */
  leaseMs?: number;
  /** How often an idle worker looks for batches (1 s; a batch submitted on this instance wakes it at once). */
  pollMs?: number;
}

export interface EventBatchWorker {
  start(): void;
  /** Looks for work now instead of at the next poll (a batch was just submitted on this instance). */
  wake(): void;
  /** Stops after the events in progress; a batch not finished is released for any instance to resume. */
  stop(): Promise<void>;
}

/** Progress is saved (and the lease renewed) after this many events, and at least every third of the lease. */
const SAVE_EVERY_EVENTS = 50;
/** Users of a batch processed in parallel; each user's events run one after another, in order. */
const USER_CONCURRENCY = 8;
/** After this many claims in a row without progress (crashes, failed attempts) the events not yet processed are marked failed. */
const MAX_ATTEMPTS = 10;
/** A failed attempt is retried after 2 s, doubling up to 2 minutes. */
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 120_000;
const PURGE_LEASE_NAME = "event-batches:purge";

/**
 * The background loop of one instance: claims the oldest batch that needs work under a lease,
 * processes it, and looks again; idle, it polls. Any number of instances may run it.
 */
export function createEventBatchWorker(ctx: ServiceContext, logger: Logger, options: EventBatchWorkerOptions = {}): EventBatchWorker {
  const leaseMs = options.leaseMs ?? 30_000;
  const owner = randomUUID();
  const store = batchStore(ctx.database, ctx.userLocks);
  const purge = createDailyPurge({
    leases: leaseStore(ctx.database.collections.leases),
    name: PURGE_LEASE_NAME,
    owner,
    leaseMs,
    now: ctx.now,
    stopping: () => loop.stopping(),
    purgeDay: (day) => purgeBatches(store, day),
  });
  const loop = createLeasedLoop({
    name: "metric event batch worker",
    logger,
    intervalMs: options.pollMs ?? 1000,
    now: ctx.now,
    pass: async () => {
      await purge.runIfDue();
      const batch = await claimBatch(store, owner, ctx.now(), leaseMs);
      if (!batch) return false;
      // Counted as a call of its tenant: a deletion of the tenant waits for it.
      await ctx.tenantCalls.run(batch.tenantId, () => processBatch(storedBatchRun(ctx, store, batch, leaseMs), logger, batch, loop.stopping));
      return true; // another batch may be waiting
    },
  });
  return {
    start: loop.start,
    wake: loop.wake,
    async stop() {
      await loop.stop();
      await purge.release();
    },
  };
}

/** Per-event failures (bad input, rule broken) are the event's outcome; anything else fails the attempt. */
function isEventError(error: unknown): error is DomainError {
  return error instanceof DomainError && error.code !== "conflict" && error.code !== "rate_limited";
}

/** What processing one claimed batch reads and writes; `storedBatchRun` is the real one, tests pass in-memory ones. */
export interface BatchRun {
  now: () => Date;
  /** How long the claim lasts unless saved: progress is saved at least every third of it. */
  leaseMs: number;
  /** The batch's events; null when they are gone. */
  events: () => Promise<BatchEventInput[] | null>;
  /** Applies one event (exactly once, by its idempotency key). */
  record: (event: BatchEventInput) => Promise<"applied" | "replayed">;
  /** Saves progress and renews the claim; false when the claim was lost. */
  save: (progress: BatchProgress) => Promise<boolean>;
  /** Gives the claim up, for any instance to resume from `retryAt`. */
  release: (progress: BatchProgress, retryAt: Date, lastError: string | null) => Promise<void>;
  complete: (progress: BatchProgress) => Promise<void>;
}

function storedBatchRun(ctx: ServiceContext, store: BatchStore, batch: EventBatchDocument, leaseMs: number): BatchRun {
  // Taken before the events are read: an erasure after it may have emptied them in the store only.
  const mark = ctx.erasedUsers?.mark ?? 0;
  return {
    now: ctx.now,
    leaseMs,
    events: async () => (await findBatchEvents(store, batch))?.map(fromStored) ?? null,
    async record(event) {
      // Checked under the user's lock, which the erasure holds: an event waiting for it sees it.
      const { kind } = await recordEvent(ctx, batch.tenantId, event, () => {
        if (ctx.erasedUsers?.erasedSince(batch.tenantId, event.user.id, mark)) throw new DomainError("not_found", ERASED_EVENT_ERROR);
      });
      ctx.observer?.eventRecorded(kind, "batch");
      return kind;
    },
    async save(progress) {
      await ctx.atPipelinePoint?.("batch-progress", batch.attempts);
      return saveProgress(store, batch, progress, ctx.now(), leaseMs);
    },
    release: async (progress, retryAt, lastError) => void (await releaseBatch(store, batch, progress, ctx.now(), retryAt, lastError)),
    complete: async (progress) =>
      void (await completeBatch(store, batch, progress, ctx.now(), purgeDayOf(ctx.now(), ctx.retention?.batchMs ?? DEFAULT_RETENTION.batchMs))),
  };
}

/** The pause before a failed attempt's retry: 2 s after the first, doubling, at most 2 minutes. */
export function batchRetryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), RETRY_MAX_MS);
}

/**
 * Processes the events of a claimed batch that have no outcome yet: each user's events in
 * submission order, users in parallel. Each event goes through `recordEvent` with its idempotency
 * key (the caller's, or the batch's own for an event sent without one), so an event applied by an
 * interrupted attempt comes back as a replay, never applied twice.
 */
export async function processBatch(run: BatchRun, logger: Logger, batch: EventBatchDocument, stopping: () => boolean): Promise<void> {
  const events = await run.events();
  const progress: BatchProgress = { outcomes: batch.outcomes ?? Array<BatchEventOutcome | null>(batch.total).fill(null), errors: [...batch.errors] };
  const log = logger.child({ batchId: batch._id, tenantId: batch.tenantId, attempt: batch.attempts });
  const fail = (index: number, message: string) => {
    progress.outcomes[index] = "failed";
    const event = events?.[index];
    progress.errors.push({
      index,
      idempotencyKey: event?.idempotencyKey ?? "",
      message: withoutUserId(message, event?.user.id).slice(0, MAX_ERROR_MESSAGE_CHARS),
    });
  };
  const snapshot = (): BatchProgress => ({ outcomes: [...progress.outcomes], errors: [...progress.errors].sort((a, b) => a.index - b.index) });

  // Give up on a batch that keeps failing (or crashing its instance), or whose events are gone.
  // Claims without progress: instances restarting while they make progress never exhaust a batch.
  const failedAttempts = batch.failedAttempts ?? batch.attempts;
  const giveUp = events === null ? "its events are missing" : failedAttempts > MAX_ATTEMPTS ? `processing of the batch failed ${MAX_ATTEMPTS} times` : null;
  if (events === null || giveUp !== null) {
    log.error({ lastError: batch.lastError }, `metric event batch not processed: ${giveUp}; its remaining events are marked failed`);
    progress.outcomes.forEach((outcome, index) => {
      if (outcome === null) fail(index, `Not processed: ${giveUp}`);
    });
    await run.complete(snapshot());
    return;
  }

  let lost = false;
  let failure: unknown = null;
  let sinceSave = 0;
  let lastSave = run.now().getTime();
  // Saves run one at a time; each writes the progress as it is when it starts.
  let saving: Promise<void> = Promise.resolve();
  const save = () => {
    sinceSave = 0;
    lastSave = run.now().getTime();
    saving = saving.then(async () => {
      if (lost) return;
      if (!(await run.save(snapshot()))) lost = true;
    });
    return saving;
  };

  const processUser = async (indexes: number[]) => {
    for (const index of indexes) {
      if (lost || failure !== null || stopping()) return;
      const event = events[index]!;
      if (isErasedBatchEvent(event)) {
        fail(index, ERASED_EVENT_ERROR);
        continue;
      }
      try {
        const idempotencyKey = event.idempotencyKey ?? batchEventKey(batch._id, index);
        progress.outcomes[index] = await run.record({ ...event, idempotencyKey });
      } catch (error) {
        if (!isEventError(error)) throw error;
        fail(index, error.message);
      }
      if (++sinceSave >= SAVE_EVERY_EVENTS || run.now().getTime() - lastSave > run.leaseMs / 3) await save();
    }
  };
  await forEachLimited(pendingByUser(events, progress.outcomes), USER_CONCURRENCY, async (indexes) => {
    try {
      await processUser(indexes);
    } catch (error) {
      failure ??= error;
    }
  });
  await saving.catch((error) => void (failure ??= error));

  if (lost) {
    log.warn("lost the lease of a metric event batch (another instance resumed it, or it was deleted)");
  } else if (failure !== null) {
    const retryMs = batchRetryDelayMs(failedAttempts);
    log.error({ err: failure, retryMs }, "processing a metric event batch failed; it will be retried");
    await run.release(snapshot(), new Date(run.now().getTime() + retryMs), errorText(failure));
  } else if (progress.outcomes.includes(null)) {
    // Stopping: another instance (or this one after a restart) resumes the batch at once.
    await run.release(snapshot(), run.now(), null);
  } else {
    const done = snapshot();
    await run.complete(done);
    log.info({ total: batch.total, ...countOutcomes(done.outcomes) }, "metric event batch completed");
  }
}

/** The indexes of the events still to process, grouped by user, each group in submission order. */
function pendingByUser(events: BatchEventInput[], outcomes: ReadonlyArray<unknown>): number[][] {
  const byUser = new Map<string, number[]>();
  events.forEach((e, index) => {
    if (outcomes[index] !== null) return;
    const group = byUser.get(e.user.id);
    if (group) group.push(index);
    else byUser.set(e.user.id, [index]);
  });
  return [...byUser.values()];
}

/** An event whose user was erased while the batch waited: emptied in place, so its position keeps the outcomes in line. */
export function erasedBatchEvent(key: string): StoredBatchEvent {
  return { key, user: { id: ERASED_USER_ID }, value: 0, attributes: [] };
}

/** No event can be sent with an empty user ID (every request refuses it): only an erasure writes one. */
const ERASED_USER_ID = "";

function isErasedBatchEvent(event: BatchEventInput): boolean {
  return event.user.id === ERASED_USER_ID;
}

const ERASED_EVENT_ERROR = "Not processed: the event's user was erased";

/** What a stored error message says for the event's user ID where it quotes it. */
export const EVENT_USER_PLACEHOLDER = '"[the event\'s user]"';

/**
 * A message as a batch stores it: the event's user ID, where quoted, replaced (the caller knows the
 * event's user by its index), so no stored batch names a user and erasing one needs no pass over
 * the batches (docs/privacy.md).
 */
function withoutUserId(message: string, userId: string | undefined): string {
  return userId ? message.split(`"${userId}"`).join(EVENT_USER_PLACEHOLDER) : message;
}

/** An error as the batch records it ("Error: message"), whatever was thrown. */
function errorText(error: unknown): string {
  return error instanceof Error ? String(error) : typeof error === "string" ? error : JSON.stringify(error);
}
