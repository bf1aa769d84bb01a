import type { Collection } from "mongodb";
import type { Logger } from "pino";
import { isDuplicateKeyError } from "../../engine/store/database.js";
import { processNow } from "../../engine/process-clock.js";

/**
 * The lease of the one instance allowed to write a FerretDB database (single-instance write mode,
 * see engine/store/user-documents.ts): a document `instance` naming the owner and how long its claim lasts, renewed
 * every third of that. Taking over an ended lease inserts `instance-claim/<generation>` first, an
 * insert with a unique `_id` (atomic on every database), so two instances starting at once cannot
 * both take it.
 */
export interface InstanceLeaseDocument {
  _id: string;
  owner: string;
  leaseUntil: Date;
  generation: number;
}

export interface InstanceLease {
  /** Stops renewing and gives the lease up (clean shutdown), so the next instance starts at once. */
  release(): Promise<void>;
}

export interface InstanceLeaseOptions {
  owner: string;
  leaseMs: number;
  logger: Logger;
  /** Called when another instance took the lease over (this one was stalled past its lease). */
  onLost: () => void;
}

const LEASE_ID = "instance";
/** A crashed instance's successor waits at most this long; a live holder renews every third of it. */
export const DEFAULT_INSTANCE_LEASE_MS = 15_000;

/**
 * Takes the lease, waiting for an ended instance's lease to run out (a crashed instance cannot
 * release it); refuses with an error when the holder is alive (it renews while we wait).
 */
export async function acquireInstanceLease(leases: Collection<InstanceLeaseDocument>, options: InstanceLeaseOptions): Promise<InstanceLease> {
  const { owner, leaseMs, logger } = options;
  // The process clock, never a test clock: the lease is about processes, not the game's calendar.
  const now = processNow;
  let seen: InstanceLeaseDocument | null = null;
  let waitLogged = false;
  for (;;) {
    const current = await leases.findOne({ _id: LEASE_ID });
    const at = now();
    const until = new Date(at.getTime() + leaseMs);
    if (!current) {
      try {
        await leases.insertOne({ _id: LEASE_ID, owner, leaseUntil: until, generation: 1 });
        break;
      } catch (error) {
        if (isDuplicateKeyError(error)) continue;
        throw error;
      }
    }
    if (current.owner !== owner && current.leaseUntil > at) {
      if (seen && seen.owner === current.owner && seen.leaseUntil.getTime() !== current.leaseUntil.getTime()) {
        throw new Error(
          `Another instance (${current.owner}) is using this database. On FerretDB one instance writes a database; ` +
            "run several instances against MongoDB (MONGODB_URI), or stop the other instance first.",
        );
      }
      if (!waitLogged) {
        logger.warn(
          { holder: current.owner, until: current.leaseUntil },
          "waiting for the database's instance lease (an instance that stopped without releasing it, or one still running)",
        );
        waitLogged = true;
      }
      seen = current;
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, Math.max(50, current.leaseUntil.getTime() - at.getTime()))));
      continue;
    }
    try {
      await leases.insertOne({ _id: `${LEASE_ID}-claim/${current.generation + 1}`, owner, leaseUntil: until, generation: current.generation + 1 });
    } catch (error) {
      if (isDuplicateKeyError(error)) continue; // another instance took it over first
      throw error;
    }
    await leases.replaceOne({ _id: LEASE_ID }, { owner, leaseUntil: until, generation: current.generation + 1 });
    await leases.deleteOne({ _id: `${LEASE_ID}-claim/${current.generation}` });
    break;
  }

  let stopped = false;
  const renew = async () => {
    const current = await leases.findOne({ _id: LEASE_ID });
    if (stopped) return;
    if (!current || current.owner !== owner) {
      stopped = true;
      clearInterval(timer);
      logger.fatal({ holder: current?.owner ?? null }, "another instance took over this database's lease; this instance stops");
      options.onLost();
      return;
    }
    await leases.updateOne({ _id: LEASE_ID }, { $set: { leaseUntil: new Date(now().getTime() + leaseMs) } });
  };
  const timer = setInterval(
    () => {
      renew().catch((error) => logger.error({ err: error }, "renewing the instance lease failed; retried"));
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return {
    async release() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      const current = await leases.findOne({ _id: LEASE_ID });
      // Ended, not deleted: the generation carries on, so the next claim's `_id` is new.
      if (current?.owner === owner) await leases.updateOne({ _id: LEASE_ID }, { $set: { leaseUntil: new Date(0) } });
    },
  };
}
