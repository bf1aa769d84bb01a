import { classifyStatus, nextRetryDelay, parseRetryAfter } from "./webhook-delivery-policy.js";
import { minuteOf } from "../../engine/store/user-documents.js";
import { purgeDayOf } from "../../engine/store/keyed-buckets.js";
import { MAX_LOGGED_ATTEMPTS, type WebhookAttempt, type WebhookDeliveryDocument, type WebhookEndpointDocument } from "./store/webhook-store.js";
import type { WebhookAttemptResult, WebhookOptions } from "../../engine/context.js";
import type { SendResult } from "./webhook-sender.js";

/**
 * What becomes of a claimed webhook delivery: pure decisions, no I/O (the worker,
 * webhook-worker.ts, carries them out). Each returns the delivery's next document, which replaces
 * the claimed one only if the claimed version is still current.
 */
export interface AttemptDecision {
  next: WebhookDeliveryDocument;
  /** For the metrics; null: not an attempt (aborted by a shutdown). */
  result: WebhookAttemptResult | null;
  /** The endpoint answered 410 Gone: disable it. */
  disableEndpoint: boolean;
  /**
   * A retry's delay, for a timer on this instance that makes it ready on time (the walker works by
   * minute and remains the fallback); null when there is no retry, or it is beyond a timer's reach.
   */
  readyAgainInMs: number | null;
}

/** The longest delay a timer can wait (Node's limit, about 24.8 days); a later retry is left to the walker. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** A delivery this instance cannot sign is tried again after this long. */
const DEFERRED_MS = 60_000;

type RetentionSettings = Pick<WebhookOptions, "retentionMs">;

function released(claimed: WebhookDeliveryDocument, now: Date): WebhookDeliveryDocument {
  return { ...claimed, leaseOwner: null, ready: false, updated: now };
}

/** Kept for the whole retention period: purged on the first whole day after it ends. */
function finished(settings: RetentionSettings, at: Date) {
  return { dueMinute: null, nextAttemptAt: null, finishedAt: at, purgeDay: purgeDayOf(at, settings.retentionMs) };
}

const decision = (next: WebhookDeliveryDocument, result: WebhookAttemptResult | null, more: Partial<AttemptDecision> = {}): AttemptDecision => ({
  next,
  result,
  disableEndpoint: false,
  readyAgainInMs: null,
  ...more,
});

/**
 * Why a claimed delivery is not attempted, or null when it is: the endpoint was deleted, is
 * disabled, or no longer subscribes to the message's type (each may have changed while the
 * delivery waited for a retry).
 */
export function whyNotAttempted(claimed: WebhookDeliveryDocument, endpoint: WebhookEndpointDocument | null): string | null {
  if (!endpoint) return "endpoint deleted";
  if (!endpoint.enabled) return `endpoint disabled${endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ""}; redeliver once it is enabled`;
  if (!endpoint.eventTypes.includes(claimed.type)) return `the endpoint no longer subscribes to ${claimed.type}`;
  return null;
}

/** The delivery fails without an attempt, for `reason` (whyNotAttempted); a redelivery can revive it. */
export function skipDelivery(claimed: WebhookDeliveryDocument, reason: string, now: Date, settings: RetentionSettings): AttemptDecision {
  return decision({ ...released(claimed, now), status: "failed", lastError: reason, ...finished(settings, now) }, "skipped");
}

/** This instance cannot read the signing secret: a configuration problem; leave the delivery for one that can. */
export function deferDelivery(claimed: WebhookDeliveryDocument, now: Date): AttemptDecision {
  const next = {
    ...released(claimed, now),
    dueMinute: minuteOf(now) + 1,
    nextAttemptAt: new Date(now.getTime() + DEFERRED_MS),
    lastError: "the signing secret cannot be read on this instance",
  };
  return decision(next, "deferred");
}

/** The attempt log's entry for an attempt a shutdown cut short (it does not count). */
export const ABORTED_BY_SHUTDOWN = "cut short by a shutdown of this instance; not counted, sent again";

/**
 * What an attempt's answer decides: delivered; failed for good (410 Gone, which also disables
 * the endpoint, or the round's schedule exhausted); or a retry after the schedule's jittered
 * delay (a Retry-After header is honoured as a lower bound). An attempt aborted by a shutdown
 * does not count (it is logged): the delivery is ready again for any instance.
 */
export function decideAttempt(
  claimed: WebhookDeliveryDocument,
  sent: SendResult,
  startedAt: Date,
  finishedAt: Date,
  settings: Pick<WebhookOptions, "retentionMs" | "retryScheduleMs">,
  random: () => number,
): AttemptDecision {
  const base = released(claimed, startedAt);
  const withEntry = (entry: Omit<WebhookAttempt, "at" | "durationMs">) =>
    [...claimed.attempts, { at: startedAt, durationMs: sent.durationMs, ...entry }].slice(-MAX_LOGGED_ATTEMPTS);
  // Logged (the request may have arrived), not counted.
  if (sent.aborted)
    return decision(
      { ...base, attempts: withEntry({ responseStatus: null, succeeded: false, error: ABORTED_BY_SHUTDOWN }), ready: true, dueMinute: null },
      null,
    );
  const outcome = sent.status === null ? "retry" : classifyStatus(sent.status);
  const logged = {
    ...base,
    attempts: withEntry({ responseStatus: sent.status, succeeded: outcome === "delivered", error: sent.error }),
    attemptCount: claimed.attemptCount + 1,
    roundAttempts: claimed.roundAttempts + 1,
    lastError: sent.error,
  };
  if (outcome === "delivered") return decision({ ...logged, status: "delivered", ...finished(settings, finishedAt) }, "delivered");
  if (outcome === "gone") return decision({ ...logged, status: "failed", ...finished(settings, finishedAt) }, "gone", { disableEndpoint: true });
  const delay = nextRetryDelay(settings.retryScheduleMs, logged.roundAttempts, random(), parseRetryAfter(sent.retryAfter, finishedAt));
  if (delay === null) return decision({ ...logged, status: "failed", ...finished(settings, finishedAt) }, "failed");
  const nextAttemptAt = new Date(finishedAt.getTime() + delay);
  return decision({ ...logged, nextAttemptAt, dueMinute: minuteOf(nextAttemptAt) }, "retrying", { readyAgainInMs: delay <= MAX_TIMER_MS ? delay : null });
}
