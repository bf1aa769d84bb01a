import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { classifyStatus, nextRetryDelay, parseRetryAfter } from "./webhook-delivery-policy.js";
import { REFERENCE_SIGNATURE_HEADER, referenceSignature, signatureHeader } from "./webhook-signing.js";
import { advanceLease, claimLease, releaseLease, type HeldLease } from "../store/leases.js";
import { findPendingOutboxes } from "../store/pending-outboxes.js";
import { minuteOf } from "../store/users.js";
import {
  claimDelivery,
  clearDueMinute,
  dayOf,
  deliveryStore,
  disableEndpoint,
  findDeliveriesDueInMinute,
  findEndpointDocument,
  findReadyDeliveries,
  markReady,
  MAX_LOGGED_ATTEMPTS,
  purgeDeliveries,
  releaseClaim,
  saveDelivery,
  type WebhookAttempt,
  type WebhookDeliveryDocument,
} from "../store/webhooks.js";
import type { ServiceContext } from "./context.js";
import { announceBoosts } from "./webhook-boosts.js";
import { announceLeaderboards } from "./webhook-leaderboards.js";
import { drainOutbox, webhookOptions } from "./webhook-outbox.js";
import { sendWebhook } from "./webhook-sender.js";

export interface WebhookWorkerOptions {
  /** How often idle loops look for work (1 s); writes on this instance wake them at once. */
  pollMs?: number;
  /** How long the coordinator's lease lasts unless renewed (30 s). */
  leaseMs?: number;
  /** Attempts in flight per instance (8). */
  concurrency?: number;
  /** Where a walker that never ran starts (one hour back; afterwards its cursor persists). */
  lookbackMinutes?: number;
  /** How often boosts are checked for a start or finish to announce (60 s). */
  boostCheckMs?: number;
  /** Random numbers for jitter (tests make them fixed). */
  random?: () => number;
}

export interface WebhookWorker {
  start(): void;
  /** Looks for work now (a user write left messages in an outbox on this instance). */
  wake(): void;
  /** Stops; attempts in flight are aborted and their deliveries made ready again for any instance. */
  stop(): Promise<void>;
  /** One round of the coordinator's work (hand-over, due retries, boosts, retention), if it holds the lease. */
  coordinate(): Promise<void>;
  /** One round of delivery: attempts what is ready now and waits for those attempts. */
  deliverReady(): Promise<number>;
}

const LEASE_NAME = "webhooks:coordinator";
const PURGE_LEASE_NAME = "webhooks:purge";
/** Retries due sooner than this also get a timer on the instance that scheduled them (the walker works by minute). */
const SHORT_RETRY_MS = 120_000;
const USERS_PER_ROUND = 100;
const BOOST_CHECK_MS = 60_000;
const PURGE_EVERY_MS = 3_600_000;
const ERROR_DELAY_MS = 1_000;

/**
 * Webhook delivery in the background. Two loops per instance:
 * - the coordinator, under one lease for all instances (`leases`, like the scheduler): hands users'
 *   outboxes over to delivery (found through the pending-outbox markers), walks the elapsed
 *   minutes (cursor in the lease) to make deliveries due for a retry ready (and those whose
 *   attempt was cut short by a crash), announces boosts that started or finished, and deletes
 *   finished deliveries whose retention has ended;
 * - the deliverer, on every instance: claims ready deliveries one by one (a claim marker with a
 *   unique ID, then a version-checked update: an attempt is never made by two instances at once,
 *   on FerretDB too) and attempts them, several at a time, never waiting for a slow endpoint.
 * Delivery is at least once: an instance that dies mid-attempt leaves the delivery to be retried
 * after its claim runs out.
 */
export function createWebhookWorker(ctx: ServiceContext, logger: Logger, options: WebhookWorkerOptions = {}): WebhookWorker {
  const owner = randomUUID();
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const concurrency = options.concurrency ?? 8;
  const random = options.random ?? Math.random;
  const settings = webhookOptions(ctx);
  const leases = ctx.database.collections.leases;
  const deliveries = deliveryStore(ctx.database, ctx.userLocks);
  const log = logger.child({ component: "webhooks" });

  let stopping = false;
  let lease: HeldLease | null = null;
  let leaseUntil = 0;
  let lastBoostCheck = 0;
  let lastPurge = 0;
  const inFlight = new Map<string, AbortController>();
  const active = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const loops: Promise<void>[] = [];
  const wakers = new Set<() => void>();
  /** Loops woken while busy: they look for work again at once instead of sleeping. */
  const pendingWake = new Set<string>();
  const LOOPS = ["coordinator", "delivery"];

  const sleep = (loop: string, ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake.delete(loop) || stopping) return resolve();
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        pendingWake.delete(loop);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });

  const wake = () => {
    for (const loop of LOOPS) pendingWake.add(loop);
    for (const w of [...wakers]) w();
  };

  /** Holds (or renews, once half of it has run) the coordinator lease; false while another instance holds it. */
  async function holdLease(): Promise<boolean> {
    const now = ctx.now();
    if (lease && leaseUntil - now.getTime() > leaseMs / 2) return true;
    lease = await claimLease(leases, LEASE_NAME, owner, now, leaseMs);
    leaseUntil = now.getTime() + leaseMs;
    return lease !== null;
  }

  async function handOverOutboxes(): Promise<number> {
    let moved = 0;
    const users = await findPendingOutboxes(ctx.database.collections.pendingOutboxes, USERS_PER_ROUND);
    for (const { tenantId, userId } of users) {
      try {
        moved += await drainOutbox(ctx, tenantId, userId);
      } catch (error) {
        log.error({ err: error, tenantId, userId }, "handing webhook messages over to delivery failed; retried next round");
      }
    }
    return moved;
  }

  /** Makes deliveries parked in elapsed minutes ready: retries due, and attempts a crash cut short. */
  async function walkMinutes(): Promise<void> {
    if (!lease) return;
    const now = ctx.now();
    const lastElapsed = minuteOf(now) - 1;
    let minute = lease.cursor ?? lastElapsed - (options.lookbackMinutes ?? 60);
    while (minute < lastElapsed && !stopping) {
      minute += 1;
      const due = await findDeliveriesDueInMinute(deliveries, minute);
      for (const d of due.deliveries) {
        if (d.status === "pending" && !d.ready) await markReady(deliveries, d._id, d.version, ctx.now());
      }
      await clearDueMinute(deliveries, due.bucketIds);
      const at = ctx.now();
      if (!(await advanceLease(leases, lease, minute, at, leaseMs))) {
        lease = null;
        return;
      }
      leaseUntil = at.getTime() + leaseMs;
    }
  }

  /**
   * Deletes finished deliveries whose retention has ended, bucket by bucket (one equality delete
   * per UTC day), at most hourly. The last day purged is kept in a lease document of its own, so
   * days missed while no instance ran are purged later. Needs the coordinator lease.
   */
  async function purgeIfDue(): Promise<void> {
    if (Date.now() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = Date.now();
    const now = ctx.now();
    const purge = await claimLease(leases, PURGE_LEASE_NAME, owner, now, leaseMs);
    if (!purge) return;
    const today = dayOf(now);
    // Nothing can expire before the first run: a delivery's retention starts when it finishes.
    for (let day = purge.cursor === null ? today : purge.cursor + 1; day <= today && !stopping; day++) {
      await purgeDeliveries(deliveries, day);
      if (!(await advanceLease(leases, purge, day, ctx.now(), leaseMs))) return;
    }
  }

  async function coordinate(): Promise<void> {
    if (!(await holdLease())) return;
    if ((await handOverOutboxes()) > 0) wake();
    await walkMinutes();
    if (Date.now() - lastBoostCheck >= (options.boostCheckMs ?? BOOST_CHECK_MS)) {
      lastBoostCheck = Date.now();
      if ((await announceBoosts(ctx)) > 0) wake();
      if ((await announceLeaderboards(ctx)) > 0) wake();
    }
    await purgeIfDue();
  }

  // -------------------------------------------------------------------------------------------
  // Delivery

  /** Records what an attempt (or a refusal to attempt) decided; false when the delivery changed meanwhile. */
  async function finishAttempt(claimed: WebhookDeliveryDocument, next: WebhookDeliveryDocument): Promise<boolean> {
    const saved = await saveDelivery(deliveries, next, claimed.version);
    if (!saved) log.warn({ deliveryId: claimed._id }, "a webhook delivery changed during its attempt (redelivered?); the attempt's outcome was not recorded");
    return saved;
  }

  async function attempt(claimed: WebhookDeliveryDocument): Promise<void> {
    const now = ctx.now();
    const endpoint = await findEndpointDocument(ctx.database.collections.webhookEndpoints, claimed.tenantId, claimed.endpointId);
    const base = { ...claimed, leaseOwner: null, ready: false, updated: now };
    if (!endpoint || !endpoint.enabled) {
      const error = endpoint ? `endpoint disabled${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ""}; redeliver once it is enabled` : "endpoint deleted";
      await finishAttempt(claimed, { ...base, status: "failed", dueMinute: null, nextAttemptAt: null, lastError: error, finishedAt: now, purgeDay: dayOf(now) + retentionDays() });
      ctx.observer?.webhookAttempted("skipped");
      return;
    }
    let secrets: string[];
    try {
      secrets = [settings.secrets.open(endpoint.secret)];
      if (endpoint.previousSecret && endpoint.previousSecretExpires && endpoint.previousSecretExpires > now) secrets.push(settings.secrets.open(endpoint.previousSecret));
    } catch (error) {
      // A configuration problem of this instance: leave the delivery for an instance (or a restart) that can sign.
      log.error({ err: error, endpointId: endpoint._id }, "cannot read a webhook signing secret");
      await finishAttempt(claimed, { ...base, dueMinute: minuteOf(now) + 1, nextAttemptAt: new Date(now.getTime() + 60_000), lastError: "the signing secret cannot be read on this instance" });
      ctx.observer?.webhookAttempted("deferred");
      return;
    }
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers = {
      "webhook-id": claimed.messageId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signatureHeader(secrets, claimed.messageId, timestamp, claimed.body),
      // The reference's header too, when the endpoint asks for it: one signature, the current secret's.
      ...(endpoint.referenceSignature && { [REFERENCE_SIGNATURE_HEADER]: referenceSignature(secrets[0]!, claimed.body) }),
    };
    const controller = new AbortController();
    inFlight.set(claimed._id, controller);
    let result;
    try {
      result = await sendWebhook(endpoint.url, headers, claimed.body, {
        timeoutMs: settings.timeoutMs,
        allowPrivateNetworks: settings.allowPrivateNetworks,
        signal: controller.signal,
      });
    } finally {
      inFlight.delete(claimed._id);
    }
    const after = ctx.now();
    if (result.aborted) {
      // Shutting down: not an attempt; any instance may take it now.
      await finishAttempt(claimed, { ...base, ready: true, dueMinute: null });
      return;
    }
    const record: WebhookAttempt = {
      at: now,
      durationMs: result.durationMs,
      responseStatus: result.status,
      succeeded: result.status !== null && classifyStatus(result.status) === "delivered",
      error: result.error,
    };
    const logged = {
      ...base,
      attempts: [...claimed.attempts, record].slice(-MAX_LOGGED_ATTEMPTS),
      attemptCount: claimed.attemptCount + 1,
      roundAttempts: claimed.roundAttempts + 1,
      lastError: result.error,
    };
    const outcome = result.status === null ? "retry" : classifyStatus(result.status);
    if (outcome === "delivered") {
      await finishAttempt(claimed, { ...logged, status: "delivered", dueMinute: null, nextAttemptAt: null, finishedAt: after, purgeDay: dayOf(after) + retentionDays() });
      ctx.observer?.webhookAttempted("delivered");
      return;
    }
    if (outcome === "gone") {
      // The delivery first: should this instance die in between, the next message disables the endpoint.
      await finishAttempt(claimed, { ...logged, status: "failed", dueMinute: null, nextAttemptAt: null, finishedAt: after, purgeDay: dayOf(after) + retentionDays() });
      ctx.observer?.webhookAttempted("gone");
      await disableEndpoint(ctx.database.collections.webhookEndpoints, endpoint.tenantId, endpoint._id, `the endpoint answered 410 Gone on ${after.toISOString()}`, after);
      ctx.config.invalidate();
      log.warn({ endpointId: endpoint._id, tenantId: endpoint.tenantId }, "webhook endpoint answered 410 Gone and was disabled");
      return;
    }
    const delay = nextRetryDelay(settings.retryScheduleMs, logged.roundAttempts, random(), parseRetryAfter(result.retryAfter, after));
    if (delay === null) {
      await finishAttempt(claimed, { ...logged, status: "failed", dueMinute: null, nextAttemptAt: null, finishedAt: after, purgeDay: dayOf(after) + retentionDays() });
      ctx.observer?.webhookAttempted("failed");
      return;
    }
    ctx.observer?.webhookAttempted("retrying");
    const nextAttemptAt = new Date(after.getTime() + delay);
    const next = { ...logged, nextAttemptAt, dueMinute: minuteOf(nextAttemptAt) };
    if (await finishAttempt(claimed, next)) {
      if (delay < SHORT_RETRY_MS && !stopping) {
        // The walker works by minute; a short retry is made ready on time by this instance (the walker remains the fallback).
        const timer = setTimeout(() => {
          timers.delete(timer);
          void markReady(deliveries, next._id, claimed.version + 1, ctx.now())
            .then((ready) => ready && wake())
            .catch((error) => log.error({ err: error }, "making a webhook retry ready failed"));
        }, delay);
        timer.unref();
        timers.add(timer);
      }
    }
  }

  function retentionDays(): number {
    return Math.ceil(settings.retentionMs / 86_400_000);
  }

  /**
   * Claims ready deliveries for the free attempt slots and starts their attempts without waiting
   * for them (a slow endpoint never holds up the others); a finished attempt wakes the loop.
   * Returns how many attempts it started.
   */
  async function startReadyAttempts(): Promise<number> {
    const free = concurrency - active.size;
    if (free <= 0 || stopping) return 0;
    const ready = await findReadyDeliveries(deliveries, free * 2);
    let started = 0;
    for (const doc of ready) {
      if (started >= free || stopping) break;
      const now = ctx.now();
      const claim = await claimDelivery(deliveries, doc, owner, now, new Date(now.getTime() + settings.timeoutMs + 30_000));
      if (!claim) continue; // another instance took it
      started += 1;
      const running: Promise<void> = attempt(claim.delivery)
        .catch((error) => log.error({ err: error, deliveryId: doc._id }, "webhook attempt failed unexpectedly; it is retried after its claim runs out"))
        .then(() => releaseClaim(deliveries, claim.claimId))
        .catch((error) => log.error({ err: error, deliveryId: doc._id }, "releasing a webhook claim failed"))
        .finally(() => {
          active.delete(running);
          wake();
        });
      active.add(running);
    }
    return started;
  }

  /** Attempts everything ready now, and waits for those attempts (tests). */
  async function deliverReady(): Promise<number> {
    let total = 0;
    for (;;) {
      const started = await startReadyAttempts();
      total += started;
      if (started === 0 && active.size === 0) return total;
      if (started === 0) await Promise.race(active);
    }
  }

  async function runLoop(name: string, round: () => Promise<unknown>, keepGoing: (result: unknown) => boolean): Promise<void> {
    while (!stopping) {
      let delay = pollMs;
      try {
        if (keepGoing(await round())) continue;
      } catch (error) {
        log.error({ err: error }, `webhook ${name} failed; retrying`);
        delay = ERROR_DELAY_MS;
      }
      await sleep(name, delay);
    }
  }

  return {
    coordinate,
    deliverReady,
    wake,
    start() {
      if (loops.length > 0) return;
      loops.push(runLoop("coordinator", coordinate, () => false));
      loops.push(runLoop("delivery", startReadyAttempts, (started) => (started as number) > 0));
    },
    async stop() {
      stopping = true;
      for (const controller of inFlight.values()) controller.abort();
      for (const timer of timers) clearTimeout(timer);
      for (const w of [...wakers]) w();
      await Promise.all(loops);
      await Promise.all(active);
      for (const name of [LEASE_NAME, PURGE_LEASE_NAME]) {
        const doc = await leases.findOne({ _id: name, owner });
        if (doc) await releaseLease(leases, { name, owner, version: doc.version, cursor: doc.cursor });
      }
    },
  };
}
