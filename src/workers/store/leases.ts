import type { Collection } from "mongodb";

/**
 * A named lease with a cursor, for background work that one instance at a time should do. The
 * claim is a version-checked write (FerretDB has no transactions and applies an update as a read
 * then a write, so the version in the filter is what makes two claimers unable to both win).
 */
export interface LeaseDocument {
  _id: string;
  owner: string;
  leaseUntil: Date;
  version: number;
  /** Where the work stands, owned by whoever holds the lease. */
  cursor: number | null;
}

export interface HeldLease {
  name: string;
  owner: string;
  version: number;
  cursor: number | null;
}

/** Claims (or renews) a lease; null when another owner holds it and it has not ended. */
async function claimLease(leases: Collection<LeaseDocument>, name: string, owner: string, now: Date, leaseMs: number): Promise<HeldLease | null> {
  const current = await leases.findOne({ _id: name });
  const until = new Date(now.getTime() + leaseMs);
  if (!current) {
    try {
      await leases.insertOne({ _id: name, owner, leaseUntil: until, version: 1, cursor: null });
      return { name, owner, version: 1, cursor: null };
    } catch (error) {
      if ((error as { code?: unknown }).code === 11000) return null;
      throw error;
    }
  }
  if (current.owner !== owner && current.leaseUntil > now) return null;
  const result = await leases.updateOne({ _id: name, version: current.version }, { $set: { owner, leaseUntil: until }, $inc: { version: 1 } });
  return result.matchedCount === 1 ? { name, owner, version: current.version + 1, cursor: current.cursor } : null;
}

/** Moves the cursor and extends the lease; false when the lease was lost meanwhile. */
async function advanceLease(leases: Collection<LeaseDocument>, lease: HeldLease, cursor: number, now: Date, leaseMs: number): Promise<boolean> {
  const result = await leases.updateOne(
    { _id: lease.name, owner: lease.owner, version: lease.version },
    { $set: { cursor, leaseUntil: new Date(now.getTime() + leaseMs) }, $inc: { version: 1 } },
  );
  if (result.matchedCount !== 1) return false;
  lease.version += 1;
  lease.cursor = cursor;
  return true;
}

/** Gives the lease up at once (clean shutdown), so another instance can take over. */
async function releaseLease(leases: Collection<LeaseDocument>, lease: HeldLease): Promise<void> {
  await leases.updateOne({ _id: lease.name, owner: lease.owner, version: lease.version }, { $set: { leaseUntil: new Date(0) }, $inc: { version: 1 } });
}

/** The lease operations background loops use (workers/leased-loop.ts); tests pass an in-memory one. */
export interface LeaseStore {
  /** Claims or renews; null when another owner holds it and it has not ended. */
  claim: (name: string, owner: string, now: Date, leaseMs: number) => Promise<HeldLease | null>;
  /** Moves the cursor and extends the lease; false when the lease was lost meanwhile. */
  advance: (lease: HeldLease, cursor: number, now: Date, leaseMs: number) => Promise<boolean>;
  /** Gives the lease up if `owner` still holds it (clean shutdown). */
  release: (name: string, owner: string) => Promise<void>;
}

export function leaseStore(leases: Collection<LeaseDocument>): LeaseStore {
  return {
    claim: (name, owner, now, leaseMs) => claimLease(leases, name, owner, now, leaseMs),
    advance: (lease, cursor, now, leaseMs) => advanceLease(leases, lease, cursor, now, leaseMs),
    async release(name, owner) {
      // The stored version, not a remembered one: the cursor may have moved since.
      const current = await leases.findOne({ _id: name, owner });
      if (current) await releaseLease(leases, { name, owner, version: current.version, cursor: current.cursor });
    },
  };
}
