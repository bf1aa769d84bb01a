import { describe, expect, it } from "vitest";
import { minuteOf } from "../../engine/store/user-documents.js";
import { dayOf } from "../../engine/store/keyed-buckets.js";
import { pickWithRoom, type WebhookDeliveryDocument, type WebhookEndpointDocument } from "./store/webhook-store.js";
import { ABORTED_BY_SHUTDOWN, decideAttempt, deferDelivery, skipDelivery, whyNotAttempted } from "./webhook-attempt.js";
import { newDelivery } from "./webhook-outbox.js";
import type { SendResult } from "./webhook-sender.js";
import { claimReadyDeliveries, type ClaimedDelivery, type ReadyDeliveries } from "./webhook-worker.js";

const STARTED = new Date("2026-06-01T12:00:00Z");
const FINISHED = new Date(STARTED.getTime() + 250);
const SETTINGS = { retentionMs: 30 * 86_400_000, retryScheduleMs: [0, 5_000, 300_000] };
const half = () => 0.5; // no jitter

function claimed(extra: Partial<WebhookDeliveryDocument> = {}): WebhookDeliveryDocument {
  const message = { id: "msg_1", type: "points.level_changed" as const, at: STARTED, body: '{"id":"msg_1"}' };
  return { ...newDelivery("t1", "ep1", message, STARTED), ready: false, leaseOwner: "me", dueMinute: minuteOf(STARTED) + 1, version: 2, ...extra };
}

function answer(status: number | null, extra: Partial<SendResult> = {}): SendResult {
  return { status, retryAfter: null, error: status !== null && status < 300 ? null : `HTTP ${status}`, durationMs: 250, aborted: false, ...extra };
}

describe("what an attempt's answer decides", () => {
  it("2xx: delivered, the attempt logged, kept for the retention period", () => {
    const d = decideAttempt(claimed(), answer(204), STARTED, FINISHED, SETTINGS, half);
    expect(d.result).toBe("delivered");
    expect(d.next).toMatchObject({
      status: "delivered",
      ready: false,
      leaseOwner: null,
      dueMinute: null,
      nextAttemptAt: null,
      finishedAt: FINISHED,
      purgeDay: dayOf(FINISHED) + 31, // the first whole day after the 30 days that start at FINISHED
      attemptCount: 1,
      roundAttempts: 1,
      lastError: null,
      version: 2, // the claimed version: the save checks it
    });
    expect(d.next.attempts).toEqual([{ at: STARTED, durationMs: 250, responseStatus: 204, succeeded: true, error: null }]);
    expect(d.disableEndpoint).toBe(false);
    expect(d.readyAgainInMs).toBeNull();
  });

  it("a delivery finished late in a day is still kept its whole retention period", () => {
    for (const finishedAt of [new Date("2026-06-01T00:00:00Z"), new Date("2026-06-01T23:59:59Z")]) {
      const d = decideAttempt(claimed(), answer(204), STARTED, finishedAt, SETTINGS, half);
      // The purge runs during its day: that day starts no earlier than the end of the retention.
      expect(d.next.purgeDay! * 86_400_000).toBeGreaterThanOrEqual(finishedAt.getTime() + SETTINGS.retentionMs);
      expect(d.next.purgeDay).toBe(dayOf(finishedAt) + 31);
    }
  });

  it("410 Gone: failed for good and the endpoint disabled", () => {
    const d = decideAttempt(claimed(), answer(410), STARTED, FINISHED, SETTINGS, half);
    expect(d).toMatchObject({ result: "gone", disableEndpoint: true, next: { status: "failed", finishedAt: FINISHED, nextAttemptAt: null } });
  });

  it("5xx or no answer: a retry after the schedule's next delay, timed by this instance", () => {
    const d = decideAttempt(claimed(), answer(503), STARTED, FINISHED, SETTINGS, half);
    const nextAttemptAt = new Date(FINISHED.getTime() + 5_000);
    expect(d).toMatchObject({
      result: "retrying",
      readyAgainInMs: 5_000,
      next: { status: "pending", ready: false, nextAttemptAt, dueMinute: minuteOf(nextAttemptAt), lastError: "HTTP 503" },
    });
    expect(d.next.finishedAt).toBeNull();

    const later = decideAttempt(
      claimed({ roundAttempts: 1, attemptCount: 7 }),
      answer(null, { error: "connection refused" }),
      STARTED,
      FINISHED,
      SETTINGS,
      half,
    );
    expect(later).toMatchObject({
      result: "retrying",
      readyAgainInMs: 300_000,
      next: { attemptCount: 8, roundAttempts: 2, nextAttemptAt: new Date(FINISHED.getTime() + 300_000) },
    });
  });

  it("a Retry-After longer than the schedule's delay is honoured", () => {
    const d = decideAttempt(claimed(), answer(429, { retryAfter: "120" }), STARTED, FINISHED, SETTINGS, half);
    expect(d.next.nextAttemptAt).toEqual(new Date(FINISHED.getTime() + 120_000));
    expect(d.readyAgainInMs).toBe(120_000);
  });

  it("a retry beyond a timer's reach is left to the walker", () => {
    const d = decideAttempt(claimed(), answer(503), STARTED, FINISHED, { ...SETTINGS, retryScheduleMs: [0, 30 * 86_400_000] }, half);
    expect(d).toMatchObject({ result: "retrying", readyAgainInMs: null, next: { nextAttemptAt: new Date(FINISHED.getTime() + 30 * 86_400_000) } });
  });

  it("the round's schedule exhausted: failed", () => {
    const d = decideAttempt(claimed({ roundAttempts: 2 }), answer(500), STARTED, FINISHED, SETTINGS, half);
    expect(d).toMatchObject({ result: "failed", disableEndpoint: false, next: { status: "failed", roundAttempts: 3, finishedAt: FINISHED } });
  });

  it("keeps the latest attempts only", () => {
    const old = Array.from({ length: 50 }, (_, i) => ({ at: new Date(i), durationMs: 1, responseStatus: 500, succeeded: false, error: `old ${i}` }));
    const d = decideAttempt(claimed({ attempts: old }), answer(200), STARTED, FINISHED, SETTINGS, half);
    expect(d.next.attempts).toHaveLength(50);
    expect(d.next.attempts[0]!.error).toBe("old 1");
    expect(d.next.attempts[49]!.succeeded).toBe(true);
  });

  it("an attempt aborted by a shutdown does not count, but is logged: ready again for any instance", () => {
    const d = decideAttempt(claimed({ attemptCount: 3, roundAttempts: 1 }), answer(null, { aborted: true }), STARTED, FINISHED, SETTINGS, half);
    expect(d.result).toBeNull();
    expect(d.next).toMatchObject({ status: "pending", ready: true, dueMinute: null, leaseOwner: null, attemptCount: 3, roundAttempts: 1 });
    expect(d.next.attempts).toEqual([{ at: STARTED, durationMs: 250, responseStatus: null, succeeded: false, error: ABORTED_BY_SHUTDOWN }]);
  });

  it("no attempt to a deleted or disabled endpoint; the delivery fails and says why", () => {
    expect(whyNotAttempted(claimed(), null)).toBe("endpoint deleted");
    expect(skipDelivery(claimed(), "endpoint deleted", STARTED, SETTINGS)).toMatchObject({
      result: "skipped",
      next: { status: "failed", lastError: "endpoint deleted", finishedAt: STARTED, attemptCount: 0 },
    });
    const endpoint = { enabled: false, disabledReason: "the endpoint answered 410 Gone", eventTypes: ["points.level_changed"] } as WebhookEndpointDocument;
    expect(whyNotAttempted(claimed(), endpoint)).toBe("endpoint disabled (the endpoint answered 410 Gone); redeliver once it is enabled");
  });

  it("an endpoint that unsubscribed from the message's type while it waited is not sent it; a subscribed, enabled one is", () => {
    const endpoint = { enabled: true, disabledReason: null, eventTypes: ["points.changed"] } as unknown as WebhookEndpointDocument;
    expect(whyNotAttempted(claimed(), endpoint)).toBe("the endpoint no longer subscribes to points.level_changed");
    expect(whyNotAttempted(claimed(), { ...endpoint, eventTypes: ["points.changed", "points.level_changed"] })).toBeNull();
  });

  it("a secret this instance cannot read defers the delivery a minute, without counting an attempt", () => {
    const d = deferDelivery(claimed(), STARTED);
    expect(d).toMatchObject({
      result: "deferred",
      next: { status: "pending", ready: false, dueMinute: minuteOf(STARTED) + 1, nextAttemptAt: new Date(STARTED.getTime() + 60_000), attemptCount: 0 },
    });
  });
});

describe("claiming ready deliveries", () => {
  function readyOf(ids: string[], takenElsewhere: string[] = []) {
    const asked: number[] = [];
    const ready: ReadyDeliveries = {
      async find(limit) {
        asked.push(limit);
        return ids.slice(0, limit).map((id) => claimed({ _id: id, ready: true }));
      },
      claim: async (doc) => (takenElsewhere.includes(doc._id) ? null : { delivery: doc, claimId: `${doc._id}@${doc.version}` }),
      release: async () => {},
    };
    return { ready, asked };
  }

  it("claims up to the free slots, reading twice as many, and skips those another instance took", async () => {
    const { ready, asked } = readyOf(["a", "b", "c", "d", "e"], ["a", "c"]);
    const started: ClaimedDelivery[] = [];
    expect(
      await claimReadyDeliveries(
        ready,
        2,
        () => false,
        (claim) => started.push(claim),
      ),
    ).toBe(2);
    expect(asked).toEqual([4]);
    expect(started.map((c) => c.delivery._id)).toEqual(["b", "d"]);
  });

  it("reads past one endpoint's backlog: at most its room per endpoint, within a bound on what it reads", async () => {
    async function* markers(ids: string[]) {
      for (const id of ids) yield id;
    }
    const backlog = Array.from({ length: 10 }, (_, i) => `m${i}/slow`);
    const ids = [...backlog, "m10/fast", "m11/other", "m12/fast"];
    const room = (endpoint: string) => (endpoint === "slow" ? 2 : 4);
    const endpointOf = (id: string) => id.split("/")[1]!;
    expect(await pickWithRoom(markers(ids), 4, endpointOf, room, 100)).toEqual(["m0/slow", "m1/slow", "m10/fast", "m11/other"]);
    expect(await pickWithRoom(markers(ids), 8, endpointOf, room, 100)).toEqual(["m0/slow", "m1/slow", "m10/fast", "m11/other", "m12/fast"]);
    expect(await pickWithRoom(markers(ids), 8, endpointOf, () => 0, 100)).toEqual([]);
    expect(await pickWithRoom(markers(ids), 8, endpointOf, room, 11)).toEqual(["m0/slow", "m1/slow", "m10/fast"]);
    expect(await pickWithRoom(markers(ids), 0, endpointOf, room, 100)).toEqual([]);
  });

  it("asks for no more of an endpoint than its room", async () => {
    const rooms: number[] = [];
    const ready: ReadyDeliveries = {
      async find(_limit, room) {
        rooms.push(room("ep1"), room("ep2"));
        return [];
      },
      claim: async () => null,
      release: async () => {},
    };
    await claimReadyDeliveries(
      ready,
      4,
      () => false,
      () => {},
      (endpoint) => (endpoint === "ep1" ? 0 : 3),
    );
    expect(rooms).toEqual([0, 3]);
  });

  it("claims nothing without a free slot, or when stopping", async () => {
    const { ready, asked } = readyOf(["a"]);
    expect(
      await claimReadyDeliveries(
        ready,
        0,
        () => false,
        () => {},
      ),
    ).toBe(0);
    expect(
      await claimReadyDeliveries(
        ready,
        3,
        () => true,
        () => {},
      ),
    ).toBe(0);
    expect(asked).toEqual([]);
  });

  it("starts each attempt as soon as its delivery is claimed", async () => {
    const { ready } = readyOf(["a", "b"]);
    const events: string[] = [];
    const claim = ready.claim;
    ready.claim = async (doc) => {
      events.push(`claim ${doc._id}`);
      return claim(doc);
    };
    await claimReadyDeliveries(
      ready,
      2,
      () => false,
      (c) => events.push(`start ${c.delivery._id}`),
    );
    expect(events).toEqual(["claim a", "start a", "claim b", "start b"]);
  });
});
