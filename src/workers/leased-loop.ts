import type { Logger } from "pino";
import { minuteOf } from "../engine/store/user-documents.js";
import type { HeldLease, LeaseStore } from "./store/leases.js";

/**
 * The one background-loop implementation (scheduler, batch worker, webhook worker): run a pass,
 * sleep, repeat; wake early when told new work arrived; stop gracefully (the running pass is
 * awaited, then the lease released). A loop may hold a named lease (workers/store/leases.ts), so that one
 * instance at a time does its work: the lease is claimed before a pass, renewed once half of it
 * has run (or by the pass moving its cursor), and a pass runs only while it is held.
 *
 * No npm package fits: job queues (agenda, bree) bring their own storage and scans, and MongoDB
 * lock packages rely on atomic updates FerretDB does not have (our leases are version-checked).
 */

export interface LoopLease {
  store: LeaseStore;
  name: string;
  owner: string;
  ms: number;
}

/** What a pass sees of its loop. */
export interface Pass {
  /** The loop's lease, held for this pass (null for a loop without one). */
  lease: HeldLease | null;
  /** Moves the lease's cursor (and extends the lease); false when the lease was lost: end the pass. */
  advance(cursor: number): Promise<boolean>;
  /** True once stop() was called: a long pass ends early. */
  stopping(): boolean;
}

export interface LeasedLoopOptions {
  /** For logs ("scheduler", "webhook delivery", ...). */
  name: string;
  logger: Logger;
  /** Pause between passes when no more work is waiting. */
  intervalMs: number;
  /** Pause one interval before the first pass too (the scheduler: start-up work comes first). */
  firstPassAfterInterval?: boolean;
  /** Pause after a failed pass (1 s). */
  errorDelayMs?: number;
  /** Absent: every instance runs the loop. */
  lease?: LoopLease;
  /** The clock leases are measured in (the service's clock). */
  now: () => Date;
  /** One round of work; true when more is waiting (the next pass runs at once). */
  pass: (pass: Pass) => Promise<boolean>;
}

export interface LeasedLoop {
  start: () => void;
  /** Runs the next pass now instead of after the pause (or right after the running pass). */
  wake: () => void;
  /** Ends the loop: the running pass is awaited, then the lease released. */
  stop: () => Promise<void>;
  /** One pass, if the lease is held (tests, and callers that drive the loop themselves); false when skipped. */
  runOnce: () => Promise<boolean>;
  stopping: () => boolean;
}

const DEFAULT_ERROR_DELAY_MS = 1_000;

export function createLeasedLoop(options: LeasedLoopOptions): LeasedLoop {
  const { lease: leaseOptions, now } = options;
  let stopping = false;
  let loop: Promise<void> | null = null;
  /** A wake-up that came while no sleep was running: the next sleep is skipped. */
  let wokenEarly = false;
  let endSleep: (() => void) | null = null;
  let held: HeldLease | null = null;
  let heldUntil = 0;

  /** Holds the lease for a pass: claims it, or renews it once half of it has run. */
  async function holdLease(): Promise<boolean> {
    if (!leaseOptions) return true;
    const at = now();
    if (held && heldUntil - at.getTime() > leaseOptions.ms / 2) return true;
    held = await leaseOptions.store.claim(leaseOptions.name, leaseOptions.owner, at, leaseOptions.ms);
    heldUntil = at.getTime() + leaseOptions.ms;
    return held !== null;
  }

  async function advance(cursor: number): Promise<boolean> {
    if (!leaseOptions || !held) return false;
    const at = now();
    if (!(await leaseOptions.store.advance(held, cursor, at, leaseOptions.ms))) {
      held = null; // lost: claimed again (if free) before the next pass
      return false;
    }
    heldUntil = at.getTime() + leaseOptions.ms;
    return true;
  }

  async function runOnce(): Promise<boolean> {
    if (!(await holdLease())) return false;
    return options.pass({ lease: held, advance, stopping: () => stopping });
  }

  function sleep(ms: number): Promise<void> {
    if (wokenEarly || stopping) {
      wokenEarly = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        endSleep = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      endSleep = done;
    });
  }

  async function run(): Promise<void> {
    if (options.firstPassAfterInterval) await sleep(options.intervalMs);
    while (!stopping) {
      let delay = options.intervalMs;
      try {
        if (await runOnce()) continue;
      } catch (error) {
        options.logger.error({ err: error }, `${options.name} failed; retrying`);
        delay = options.errorDelayMs ?? DEFAULT_ERROR_DELAY_MS;
      }
      await sleep(delay);
    }
  }

  return {
    runOnce,
    stopping: () => stopping,
    start() {
      if (!stopping) loop ??= run();
    },
    wake() {
      if (endSleep) endSleep();
      else wokenEarly = true;
    },
    async stop() {
      stopping = true;
      endSleep?.();
      await loop;
      if (leaseOptions) {
        held = null;
        await leaseOptions.store.release(leaseOptions.name, leaseOptions.owner);
      }
    },
  };
}

/**
 * Walks a lease's cursor forward one unit (minute, day) at a time up to `last`, visiting each unit
 * and then moving the cursor past it, so that a crash repeats at most the unit in progress. Ends
 * early when stopping, when the lease was lost, or after `maxUnits` units (the rest is walked by
 * the next pass); true when it reached `last`. `start` is where a cursor that never moved stands.
 */
export async function walkCursor(
  pass: Pass,
  start: number,
  last: number,
  visit: (unit: number) => Promise<unknown>,
  maxUnits = Number.POSITIVE_INFINITY,
): Promise<boolean> {
  if (!pass.lease) return false;
  const first = (pass.lease.cursor ?? start) + 1;
  for (let unit = first; unit <= last; unit++) {
    if (pass.stopping() || unit - first >= maxUnits) return false;
    await visit(unit);
    if (!(await pass.advance(unit))) return false;
  }
  return !pass.stopping();
}

/**
 * Behind by more than this many minutes, a walk with `listedBefore` visits only the minutes it
 * names: one scan of the pending work costs about what this many empty minutes cost read one by one
 * at 80,000 pending users (measured on FerretDB: 1.1 s for 23,000 pages; an empty minute is 16
 * reads by `_id`, 3 to 6 ms), and far less with fewer. A day of downtime is then seconds, not 1,440
 * minutes' reads.
 */
export const SKIP_EMPTY_MINUTES_BEYOND = 360;

/**
 * Walks the fully elapsed minutes before `now` (everything due in them is due by now), starting
 * `lookbackMinutes` back. A first walk (no cursor yet: the loop never finished a minute on this
 * database) first visits the minutes `listedBefore` names before that, oldest first, so that work
 * listed before a crash that came ahead of the first pass is not forgotten (a crash meanwhile
 * repeats them: visits must be idempotent). A walk far behind (SKIP_EMPTY_MINUTES_BEYOND) skips the
 * minutes nothing is listed in (`walkListedMinutes`). At most `maxMinutes` minutes after the cursor
 * are visited (false: the rest is left to the next pass).
 */
export async function walkElapsedMinutes(
  pass: Pass,
  now: Date,
  lookbackMinutes: number,
  visit: (minute: number) => Promise<unknown>,
  listedBefore?: (minute: number) => Promise<number[]>,
  maxMinutes = Number.POSITIVE_INFINITY,
): Promise<boolean> {
  const lastElapsed = minuteOf(now) - 1;
  const start = lastElapsed - lookbackMinutes;
  if (!listedBefore || !pass.lease) return walkCursor(pass, start, lastElapsed, visit, maxMinutes);
  const cursor = pass.lease.cursor ?? null;
  if (cursor === null) {
    for (const minute of await listedBefore(start + 1)) {
      if (pass.stopping()) return false;
      await visit(minute);
    }
  } else if (lastElapsed - cursor > SKIP_EMPTY_MINUTES_BEYOND) {
    return walkListedMinutes(pass, cursor, lastElapsed, visit, listedBefore, maxMinutes);
  }
  return walkCursor(pass, start, lastElapsed, visit, maxMinutes);
}

/** Rounds of scanning for minutes listed behind the walk before it falls back to walking every minute. */
const LISTED_SCANS = 3;

/**
 * Visits, oldest first, only the minutes after `cursor` up to `last` that `listedBefore` names,
 * moving the cursor to each; the minutes between have nothing to do. Only a scan that finds nothing
 * left in the range moves the cursor to `last`, so a minute listed ahead of the cursor meanwhile is
 * visited too (writers list work after their own now: past `last`). Should scans keep finding new
 * minutes, the rest is walked minute by minute (walkCursor).
 */
async function walkListedMinutes(
  pass: Pass,
  cursor: number,
  last: number,
  visit: (minute: number) => Promise<unknown>,
  listedBefore: (minute: number) => Promise<number[]>,
  maxMinutes: number,
): Promise<boolean> {
  let visited = 0;
  for (let scan = 0; scan < LISTED_SCANS; scan++) {
    const listed = (await listedBefore(last + 1)).filter((minute) => minute > cursor);
    if (listed.length === 0) return (await pass.advance(last)) && !pass.stopping();
    for (const minute of listed) {
      if (pass.stopping() || visited >= maxMinutes) return false;
      await visit(minute);
      visited += 1;
      if (!(await pass.advance(minute))) return false;
      cursor = minute;
    }
  }
  return walkCursor(pass, cursor, last, visit, maxMinutes - visited);
}

/**
 * True at most once per `intervalMs` of `now` (the first call is due); a clock that went back
 * counts as due, so a corrected clock never silences the check.
 */
export function everyMs(intervalMs: number, now: () => Date): () => boolean {
  let last: number | null = null;
  return () => {
    const at = now().getTime();
    if (last !== null && at - last < intervalMs && at >= last) return false;
    last = at;
    return true;
  };
}
