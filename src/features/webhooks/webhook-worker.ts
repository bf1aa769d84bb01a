import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { REFERENCE_SIGNATURE_HEADER, referenceSignature, signatureHeader } from "./webhook-signing.js";
import { leaseStore } from "../../workers/store/leases.js";
import { findPendingOutboxes } from "./store/pending-outboxes.js";
import {
  claimDelivery,
  clearDueMinute,
  deliveryStore,
  disableEndpoint,
  findDeliveriesDueInMinute,
  findEndpointDocument,
  findReadyDeliveries,
  markReady,
  purgeDeliveries,
  releaseClaim,
  saveDelivery,
  type DeliveryStore,
  type WebhookDeliveryDocument,
  type WebhookEndpointDocument,
} from "./store/webhook-store.js";
import type { ServiceContext, WebhookOptions } from "../../engine/context.js";
import { createDailyPurge } from "../../workers/daily-purge.js";
import { createLeasedLoop, everyMs, walkElapsedMinutes, type Pass } from "../../workers/leased-loop.js";
import { bucketsListedBefore } from "../../engine/store/keyed-buckets.js";
import { decideAttempt, deferDelivery, skipDelivery, whyNotAttempted, type AttemptDecision } from "./webhook-attempt.js";
import { announceBoosts } from "./webhook-boosts.js";
import { announceLeaderboards } from "./webhook-leaderboards.js";
import { drainOutbox, webhookOptions } from "./webhook-outbox.js";
import { sendWebhook } from "./webhook-sender.js";

export interface WebhookWorkerOptions {
  /** How often idle loops look for work (1 s); writes on this instance wake them at once. */
  pollMs?: number;
  /** How long the coordinator's lease lasts unless renewed (30 s). */
  leaseMs?: number;
  /** Attempts in flight per instance (8); at most half of them (rounded up) to one endpoint. */
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
const USERS_PER_ROUND = 100;
/** Elapsed minutes the coordinator walks per pass (a day's catch-up takes 24 passes, with hand-overs between). */
const MINUTES_PER_PASS = 60;
const BOOST_CHECK_MS = 60_000;
/** Retries one instance times itself at most (an endpoint down under a backlog); the walker makes the others ready, up to a minute late. */
const MAX_RETRY_TIMERS = 10_000;

/** What the worker's steps share, built once per worker and passed explicitly. */
interface WorkerDeps {
  ctx: ServiceContext;
  log: Logger;
  settings: WebhookOptions;
  deliveries: DeliveryStore;
  random: () => number;
}

/** This instance's attempts in progress and its short-retry timers (stop() aborts and clears them). */
interface Attempts {
  inFlight: Map<string, AbortController>;
  active: Set<Promise<void>>;
  /** Attempts in progress per endpoint: a slow endpoint gets no more than its share of the slots. */
  perEndpoint: Map<string, number>;
  timers: Set<NodeJS.Timeout>;
  /** Wakes both loops (work arrived, or an attempt slot came free). */
  wake: () => void;
  stopping: () => boolean;
}

/**
 * Webhook delivery in the background. Two loops per instance (workers/leased-loop.ts):
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
  const deps: WorkerDeps = {
    ctx,
    log: logger.child({ component: "webhooks" }),
    settings: webhookOptions(ctx),
    deliveries: deliveryStore(ctx.database, ctx.userLocks),
    random: options.random ?? Math.random,
  };
  const leases = leaseStore(ctx.database.collections.leases);
  let stopping = false;
  const attempts: Attempts = {
    inFlight: new Map(),
    active: new Set(),
    perEndpoint: new Map(),
    timers: new Set(),
    wake: () => {
      coordinator.wake();
      delivery.wake();
    },
    stopping: () => stopping,
  };
  const boostCheckDue = everyMs(options.boostCheckMs ?? BOOST_CHECK_MS, ctx.now);
  const purge = createDailyPurge({
    leases,
    name: PURGE_LEASE_NAME,
    owner,
    leaseMs,
    now: ctx.now,
    stopping: attempts.stopping,
    purgeDay: (day) => purgeDeliveries(deps.deliveries, day),
  });

  const coordinator = createLeasedLoop({
    name: "webhook coordinator",
    logger: deps.log,
    intervalMs: pollMs,
    now: ctx.now,
    lease: { store: leases, name: LEASE_NAME, owner, ms: leaseMs },
    pass: async (pass) => {
      if ((await handOverOutboxes(deps)) > 0) attempts.wake();
      const caughtUp = await walkRetryMinutes(deps, pass, options.lookbackMinutes ?? 60);
      if (boostCheckDue() && (await announceBoostsAndLeaderboards(ctx))) attempts.wake();
      await purge.runIfDue();
      return !caughtUp && !pass.stopping(); // the next pass goes on walking at once, after a hand-over
    },
  });
  const claims = readyDeliveries(deps, owner);
  const startAttempts = () => startReadyAttempts(deps, claims, attempts, concurrency);
  const delivery = createLeasedLoop({
    name: "webhook delivery",
    logger: deps.log,
    intervalMs: pollMs,
    now: ctx.now,
    pass: async () => (await startAttempts()) > 0,
  });

  return {
    async coordinate() {
      await coordinator.runOnce();
    },
    /** Attempts everything ready now, and waits for those attempts (tests). */
    async deliverReady() {
      let total = 0;
      for (;;) {
        const started = await startAttempts();
        total += started;
        if (started === 0 && attempts.active.size === 0) return total;
        if (started === 0) await Promise.race(attempts.active);
      }
    },
    wake: attempts.wake,
    start() {
      coordinator.start();
      delivery.start();
    },
    async stop() {
      stopping = true;
      for (const controller of attempts.inFlight.values()) controller.abort();
      for (const timer of attempts.timers) clearTimeout(timer);
      await Promise.all([coordinator.stop(), delivery.stop()]);
      await Promise.all(attempts.active);
      await purge.release();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The coordinator's steps

/** Moves the messages users' writes left in their outboxes to deliveries; returns how many. */
async function handOverOutboxes({ ctx, log }: WorkerDeps): Promise<number> {
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

/**
 * Makes deliveries parked in elapsed minutes ready: retries due, and attempts a crash cut short.
 * A pass walks at most MINUTES_PER_PASS of them, so that after a long pause (downtime, a clock
 * moved forward) new messages are handed over between chunks of the catch-up, not after all of
 * it. True when it caught up with the clock.
 */
async function walkRetryMinutes({ ctx, deliveries }: WorkerDeps, pass: Pass, lookbackMinutes: number): Promise<boolean> {
  return walkElapsedMinutes(
    pass,
    ctx.now(),
    lookbackMinutes,
    async (minute) => {
      const due = await findDeliveriesDueInMinute(deliveries, minute);
      for (const d of due.deliveries) {
        if (d.status === "pending" && !d.ready) await markReady(deliveries, d._id, d.version, ctx.now());
      }
      await clearDueMinute(deliveries, due.bucketIds);
    },
    (minute) => bucketsListedBefore(deliveries.collections.webhookDue, minute),
    MINUTES_PER_PASS,
  );
}

/** Announces boosts that started or finished and leaderboard runs that ended; true when any message was written. */
async function announceBoostsAndLeaderboards(ctx: ServiceContext): Promise<boolean> {
  const boosts = await announceBoosts(ctx);
  const leaderboards = await announceLeaderboards(ctx);
  return boosts + leaderboards > 0;
}

// ---------------------------------------------------------------------------------------------
// Delivery

/** Where the deliverer finds ready deliveries and claims them (features/webhooks/store/webhook-store.ts); tests pass in-memory ones. */
export interface ReadyDeliveries {
  /** At most `limit`, and at most `room(endpointId)` per endpoint. */
  find: (limit: number, room: (endpointId: string) => number) => Promise<WebhookDeliveryDocument[]>;
  /** Null when another instance took it. */
  claim: (doc: WebhookDeliveryDocument) => Promise<ClaimedDelivery | null>;
  release: (claim: ClaimedDelivery) => Promise<void>;
}

export interface ClaimedDelivery {
  delivery: WebhookDeliveryDocument;
  claimId: string;
}

function readyDeliveries({ ctx, deliveries, settings }: WorkerDeps, owner: string): ReadyDeliveries {
  return {
    find: (limit, room) => findReadyDeliveries(deliveries, limit, room),
    claim(doc) {
      const now = ctx.now();
      // The claim outlives the attempt's timeout: a crash leaves the delivery to the walker once it ran out.
      return claimDelivery(deliveries, doc, owner, now, new Date(now.getTime() + settings.timeoutMs + 30_000));
    },
    release: (claim) => releaseClaim(deliveries, claim.claimId),
  };
}

/**
 * Claims ready deliveries for the free attempt slots (`free`; a few more are read, since other
 * instances claim too), no more per endpoint than it has `room` for, handing each to `start` as
 * soon as it is claimed. Returns how many it claimed.
 */
export async function claimReadyDeliveries(
  ready: ReadyDeliveries,
  free: number,
  stopping: () => boolean,
  start: (claim: ClaimedDelivery) => void,
  room: (endpointId: string) => number = () => free,
): Promise<number> {
  if (free <= 0 || stopping()) return 0;
  let claimed = 0;
  for (const doc of await ready.find(free * 2, room)) {
    if (claimed >= free || stopping()) break;
    const claim = await ready.claim(doc);
    if (!claim) continue; // another instance took it
    claimed += 1;
    start(claim);
  }
  return claimed;
}

/**
 * Starts attempts of ready deliveries in the free slots without waiting for them (a slow endpoint
 * never holds up the others); a finished attempt wakes the loops. Returns how many it started.
 */
async function startReadyAttempts(deps: WorkerDeps, ready: ReadyDeliveries, attempts: Attempts, concurrency: number): Promise<number> {
  const { perEndpoint } = attempts;
  const perEndpointLimit = Math.ceil(concurrency / 2);
  const room = (endpointId: string) => perEndpointLimit - (perEndpoint.get(endpointId) ?? 0);
  return claimReadyDeliveries(
    ready,
    concurrency - attempts.active.size,
    attempts.stopping,
    (claim) => {
      const { _id: deliveryId, endpointId } = claim.delivery;
      perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
      const running: Promise<void> = attemptDelivery(deps, attempts, claim.delivery)
        .catch((error) => deps.log.error({ err: error, deliveryId }, "webhook attempt failed unexpectedly; it is retried after its claim runs out"))
        .then(() => ready.release(claim))
        .catch((error) => deps.log.error({ err: error, deliveryId }, "releasing a webhook claim failed"))
        .finally(() => {
          attempts.active.delete(running);
          const left = (perEndpoint.get(endpointId) ?? 1) - 1;
          if (left > 0) perEndpoint.set(endpointId, left);
          else perEndpoint.delete(endpointId);
          attempts.wake();
        });
      attempts.active.add(running);
    },
    room,
  );
}

/** Sends one claimed delivery (signed with the endpoint's secrets) and records what the answer decided. */
async function attemptDelivery(deps: WorkerDeps, attempts: Attempts, claimed: WebhookDeliveryDocument): Promise<void> {
  const { ctx, settings } = deps;
  const now = ctx.now();
  const endpoint = await findEndpointDocument(ctx.database.collections.webhookEndpoints, claimed.tenantId, claimed.endpointId);
  const notAttempted = whyNotAttempted(claimed, endpoint);
  if (notAttempted !== null || !endpoint) {
    await finishAttempt(deps, claimed, skipDelivery(claimed, notAttempted ?? "endpoint deleted", now, settings));
    return;
  }
  const secrets = openSecrets(deps, endpoint, now);
  if (!secrets) {
    await finishAttempt(deps, claimed, deferDelivery(claimed, now));
    return;
  }
  const controller = new AbortController();
  if (attempts.stopping()) controller.abort(); // stop() aborted the attempts in flight before this one began
  attempts.inFlight.set(claimed._id, controller);
  let sent;
  try {
    sent = await sendWebhook(endpoint.url, signedHeaders(endpoint, secrets, claimed, now), claimed.body, {
      timeoutMs: settings.timeoutMs,
      allowPrivateNetworks: settings.allowPrivateNetworks,
      signal: controller.signal,
    });
  } finally {
    attempts.inFlight.delete(claimed._id);
  }
  const after = ctx.now();
  const decided = decideAttempt(claimed, sent, now, after, settings, deps.random);
  const saved = await finishAttempt(deps, claimed, decided);
  // The delivery first: should this instance die in between, the next message disables the endpoint.
  if (decided.disableEndpoint) await disableGoneEndpoint(deps, endpoint, after);
  if (saved && decided.readyAgainInMs !== null && !attempts.stopping())
    readyAgainAfter(deps, attempts, decided.next._id, claimed.version + 1, decided.readyAgainInMs);
}

/** The endpoint's signing secrets (the previous one too while it is valid); null when this instance cannot read them. */
function openSecrets({ settings, log }: WorkerDeps, endpoint: WebhookEndpointDocument, now: Date): string[] | null {
  try {
    const secrets = [settings.secrets.open(endpoint.secret)];
    if (endpoint.previousSecret && endpoint.previousSecretExpires && endpoint.previousSecretExpires > now)
      secrets.push(settings.secrets.open(endpoint.previousSecret));
    return secrets;
  } catch (error) {
    // A configuration problem of this instance: leave the delivery for an instance (or a restart) that can sign.
    log.error({ err: error, endpointId: endpoint._id }, "cannot read a webhook signing secret");
    return null;
  }
}

function signedHeaders(endpoint: WebhookEndpointDocument, secrets: string[], claimed: WebhookDeliveryDocument, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": claimed.messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, claimed.messageId, timestamp, claimed.body),
    // The reference's header too, when the endpoint asks for it: one signature, the current secret's.
    ...(endpoint.referenceSignature && { [REFERENCE_SIGNATURE_HEADER]: referenceSignature(secrets[0]!, claimed.body) }),
  };
}

/** Records what an attempt (or a refusal to attempt) decided; false when the delivery changed meanwhile. */
async function finishAttempt({ ctx, deliveries, log }: WorkerDeps, claimed: WebhookDeliveryDocument, decided: AttemptDecision): Promise<boolean> {
  const saved = await saveDelivery(deliveries, decided.next, claimed.version);
  if (!saved) log.warn({ deliveryId: claimed._id }, "a webhook delivery changed during its attempt (redelivered?); the attempt's outcome was not recorded");
  if (decided.result) ctx.observer?.webhookAttempted(decided.result);
  return saved;
}

async function disableGoneEndpoint({ ctx, log }: WorkerDeps, endpoint: WebhookEndpointDocument, at: Date): Promise<void> {
  const { tenantId, _id: endpointId } = endpoint;
  const reason = `the endpoint answered 410 Gone on ${at.toISOString()}`;
  if (!(await disableEndpoint(ctx.database.collections.webhookEndpoints, tenantId, endpointId, endpoint.url, reason, at))) return;
  ctx.config.invalidate();
  log.warn({ endpointId, tenantId }, "webhook endpoint answered 410 Gone and was disabled");
}

/** The walker works by minute; a retry is made ready on time by the instance that scheduled it (the walker remains the fallback). */
function readyAgainAfter({ ctx, deliveries, log }: WorkerDeps, attempts: Attempts, deliveryId: string, version: number, delayMs: number): void {
  if (attempts.timers.size >= MAX_RETRY_TIMERS) return;
  const timer = setTimeout(() => {
    attempts.timers.delete(timer);
    void markReady(deliveries, deliveryId, version, ctx.now())
      .then((ready) => ready && attempts.wake())
      .catch((error) => log.error({ err: error }, "making a webhook retry ready failed"));
  }, delayMs);
  timer.unref();
  attempts.timers.add(timer);
}
