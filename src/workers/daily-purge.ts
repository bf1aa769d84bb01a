import type { LeaseStore } from "./store/leases.js";
import { dayOf } from "../engine/store/keyed-buckets.js";
import { everyMs, walkCursor, type Pass } from "./leased-loop.js";

export interface DailyPurgeOptions {
  leases: LeaseStore;
  /** The lease whose cursor is the last day purged. */
  name: string;
  owner: string;
  leaseMs: number;
  now: () => Date;
  stopping: () => boolean;
  /** Deletes what expires on `day` (one equality delete per bucket). */
  purgeDay: (day: number) => Promise<unknown>;
  /** Work of the round that is not filed by day, done under the same lease after the days. */
  afterDays?: () => Promise<unknown>;
}

const PURGE_EVERY_MS = 3_600_000;

/**
 * Retention for finished batches and webhook deliveries: what expires is filed under its UTC day,
 * and the days are deleted in order, at most hourly, under a lease whose cursor is the last day
 * purged (days missed while no instance ran are purged later). Nothing can be due before the first
 * run: retention starts when an item finishes, so a cursor that never moved starts at today.
 */
export interface DailyPurge {
  runIfDue: () => Promise<void>;
  /** Gives the lease up (clean shutdown). */
  release: () => Promise<void>;
}

export function createDailyPurge(options: DailyPurgeOptions): DailyPurge {
  const { leases, name, owner, leaseMs, now } = options;
  const due = everyMs(PURGE_EVERY_MS, now);
  return {
    async runIfDue() {
      if (!due()) return;
      const at = now();
      const lease = await leases.claim(name, owner, at, leaseMs);
      if (!lease) return;
      const pass: Pass = {
        lease,
        advance: (day) => leases.advance(lease, day, now(), leaseMs),
        stopping: options.stopping,
      };
      const today = dayOf(at);
      if (await walkCursor(pass, today - 1, today, options.purgeDay)) await options.afterDays?.();
    },
    release: () => leases.release(name, owner),
  };
}
