import type { Logger } from "pino";
import { vi } from "vitest";
import type { HeldLease, LeaseStore } from "../../src/workers/store/leases.js";

interface MemoryLease {
  owner: string;
  leaseUntil: number;
  version: number;
  cursor: number | null;
}

/**
 * An in-memory LeaseStore with the semantics of workers/store/leases.ts (claim when free, ended or ours;
 * version-checked advance and release), for unit tests of background loops without a database.
 */
export function memoryLeaseStore(): LeaseStore & { docs: Map<string, MemoryLease>; calls: { claim: number; advance: number; release: number } } {
  const docs = new Map<string, MemoryLease>();
  const calls = { claim: 0, advance: 0, release: 0 };
  return {
    docs,
    calls,
    async claim(name, owner, now, leaseMs): Promise<HeldLease | null> {
      calls.claim += 1;
      const current = docs.get(name);
      if (current && current.owner !== owner && current.leaseUntil > now.getTime()) return null;
      const next = { owner, leaseUntil: now.getTime() + leaseMs, version: (current?.version ?? 0) + 1, cursor: current?.cursor ?? null };
      docs.set(name, next);
      return { name, owner, version: next.version, cursor: next.cursor };
    },
    async advance(lease, cursor, now, leaseMs) {
      calls.advance += 1;
      const current = docs.get(lease.name);
      if (!current || current.owner !== lease.owner || current.version !== lease.version) return false;
      docs.set(lease.name, { owner: lease.owner, leaseUntil: now.getTime() + leaseMs, version: current.version + 1, cursor });
      lease.version += 1;
      lease.cursor = cursor;
      return true;
    },
    async release(name, owner) {
      calls.release += 1;
      const current = docs.get(name);
      if (current && current.owner === owner) docs.set(name, { ...current, leaseUntil: 0, version: current.version + 1 });
    },
  };
}

/** A logger whose calls tests can inspect. */
export function recordingLogger(): Logger & { error: ReturnType<typeof vi.fn>; warn: ReturnType<typeof vi.fn>; info: ReturnType<typeof vi.fn> } {
  const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn(), child: () => logger };
  return logger as never;
}
