import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryLeaseStore, recordingLogger } from "../../test/helpers/memory-leases.js";
import { createLeasedLoop, everyMs, SKIP_EMPTY_MINUTES_BEYOND, walkCursor, walkElapsedMinutes, type LeasedLoopOptions, type Pass } from "./leased-loop.js";

// Fake timers fake Date too: the loop's pauses and its lease clock move together.
beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-06-01T12:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

const INTERVAL = 60_000;
const clock = () => new Date();

function loopWith(pass: LeasedLoopOptions["pass"], extra: Partial<LeasedLoopOptions> = {}) {
  const logger = recordingLogger();
  const loop = createLeasedLoop({ name: "test loop", logger, intervalMs: INTERVAL, now: clock, pass, ...extra });
  return { loop, logger };
}

/** A promise the test resolves, to hold a pass in progress. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("leased loop: pacing", () => {
  it("runs a pass at start, again at once while work is waiting, then once per interval", async () => {
    let passes = 0;
    const { loop } = loopWith(async () => ++passes < 3);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(3);
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    expect(passes).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toBe(4);
    await loop.stop();
  });

  it("with firstPassAfterInterval the first pass waits one interval (start-up work first); a wake-up brings it forward", async () => {
    let passes = 0;
    const { loop } = loopWith(
      async () => {
        passes += 1;
        return false;
      },
      { firstPassAfterInterval: true },
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    expect(passes).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toBe(1);
    await loop.stop();

    passes = 0;
    const early = loopWith(
      async () => {
        passes += 1;
        return false;
      },
      { firstPassAfterInterval: true },
    ).loop;
    early.start();
    early.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    await early.stop();
  });

  it("a wake-up ends the pause at once; one during a pass makes the next pass follow without a pause", async () => {
    let passes = 0;
    let hold = deferred();
    const { loop } = loopWith(async () => {
      passes += 1;
      await hold.promise;
      return false;
    });
    hold.resolve();
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    loop.wake(); // sleeping: the pause ends now
    hold = deferred();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(2);
    loop.wake(); // during the pass: work may have arrived after the pass looked
    hold.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(3);
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    expect(passes).toBe(3); // that wake-up was used once
    await loop.stop();
  });

  it("a failed pass is logged and retried after the error delay; the loop goes on", async () => {
    let passes = 0;
    const { loop, logger } = loopWith(
      async () => {
        passes += 1;
        if (passes === 1) throw new Error("database down");
        return false;
      },
      { errorDelayMs: 1_000 },
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(1);
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), "test loop failed; retrying");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(2);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(passes).toBe(3);
    await loop.stop();
  });
});

describe("leased loop: stop", () => {
  it("awaits the running pass, which sees that the loop is stopping, then runs no more passes and releases the lease", async () => {
    const leases = memoryLeaseStore();
    const hold = deferred();
    const seen: boolean[] = [];
    let passes = 0;
    const { loop } = loopWith(
      async (pass) => {
        passes += 1;
        await hold.promise;
        seen.push(pass.stopping());
        return true; // more work: without the stop it would run again at once
      },
      { lease: { store: leases, name: "work", owner: "me", ms: 30_000 } },
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    expect(leases.docs.get("work")!.leaseUntil).toBeGreaterThan(Date.now());
    hold.resolve();
    await stopping;
    expect(seen).toEqual([true]);
    expect(passes).toBe(1);
    expect(leases.docs.get("work")!.leaseUntil).toBe(0); // released: another instance takes over at once
    loop.start(); // a stopped loop stays stopped
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(passes).toBe(1);
  });

  it("stops at once when sleeping", async () => {
    const { loop } = loopWith(async () => false);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(true);
    await stopping;
  });
});

describe("leased loop: lease", () => {
  const LEASE_MS = 30_000;

  it("runs passes only while it holds the lease; takes over once another holder's lease ended, with its cursor", async () => {
    const leases = memoryLeaseStore();
    leases.docs.set("work", { owner: "other", leaseUntil: Date.now() + LEASE_MS, version: 3, cursor: 41 });
    const cursors: Array<number | null> = [];
    const { loop } = loopWith(
      async (pass) => {
        cursors.push(pass.lease!.cursor);
        return false;
      },
      { intervalMs: 1_000, lease: { store: leases, name: "work", owner: "me", ms: LEASE_MS } },
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(LEASE_MS - 1);
    expect(cursors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cursors).toEqual([41]);
    expect(leases.docs.get("work")!.owner).toBe("me");
    await loop.stop();
  });

  it("renews the lease once half of it has run, not on every pass; moving the cursor extends it too", async () => {
    const leases = memoryLeaseStore();
    let passes = 0;
    const { loop } = loopWith(
      async (pass) => {
        passes += 1;
        if (passes === 20) expect(await pass.advance(7)).toBe(true);
        return false;
      },
      { intervalMs: 1_000, lease: { store: leases, name: "work", owner: "me", ms: LEASE_MS } },
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(leases.calls.claim).toBe(1);
    await vi.advanceTimersByTimeAsync(LEASE_MS / 2 - 1_000); // passes at 1 s ... 14 s: more than half left
    expect(leases.calls.claim).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000); // 15 s: half has run
    expect(leases.calls.claim).toBe(2);
    await vi.advanceTimersByTimeAsync(4_000); // pass 20 (at 19 s) moves the cursor: the lease now runs to 49 s
    expect(leases.docs.get("work")).toMatchObject({ cursor: 7, leaseUntil: Date.now() + LEASE_MS - 0 });
    await vi.advanceTimersByTimeAsync(LEASE_MS / 2 - 1_000); // up to 33 s: more than half of the extended lease left
    expect(leases.calls.claim).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(leases.calls.claim).toBe(3);
    await loop.stop();
  });

  it("a lost lease ends the walk; the next pass claims it again and runs only if it is free", async () => {
    const leases = memoryLeaseStore();
    const visited: number[] = [];
    const { loop } = loopWith(
      async (pass) => {
        await walkCursor(pass, 0, 5, async (unit) => {
          visited.push(unit);
          // Another instance took the lease over (this one stalled past its end).
          if (unit === 2) leases.docs.set("work", { owner: "other", leaseUntil: Date.now() + LEASE_MS, version: 99, cursor: 1 });
        });
        return false;
      },
      { intervalMs: 1_000, lease: { store: leases, name: "work", owner: "me", ms: LEASE_MS } },
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(visited).toEqual([1, 2]); // the cursor did not move past 2: the new holder repeats it
    expect(leases.docs.get("work")).toMatchObject({ owner: "other", cursor: 1 });
    const claims = leases.calls.claim;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(leases.calls.claim).toBe(claims + 1); // a lost lease is claimed again at once, not after half of it
    expect(visited).toEqual([1, 2]);
    await loop.stop();
    expect(leases.docs.get("work")!.owner).toBe("other"); // stop releases only its own lease
    expect(leases.docs.get("work")!.leaseUntil).toBeGreaterThan(Date.now());
  });

  it("a failing lease store counts as a failed pass", async () => {
    const leases = memoryLeaseStore();
    const claim = leases.claim;
    let failures = 1;
    leases.claim = async (...args) => {
      if (failures-- > 0) throw new Error("database down");
      return claim(...args);
    };
    let passes = 0;
    const { loop, logger } = loopWith(async () => ++passes < 0, { errorDelayMs: 1_000, lease: { store: leases, name: "work", owner: "me", ms: LEASE_MS } });
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toBe(0);
    expect(logger.error).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(1);
    await loop.stop();
  });
});

describe("walkCursor", () => {
  function passOver(cursor: number | null, options: { loseAt?: number; stopAfter?: number } = {}) {
    const advanced: number[] = [];
    const pass: Pick<Pass, "lease" | "advance" | "stopping"> = {
      lease: { name: "work", owner: "me", version: 1, cursor },
      advance: async (unit) => {
        if (unit === options.loseAt) return false;
        advanced.push(unit);
        return true;
      },
      stopping: () => options.stopAfter !== undefined && advanced.length >= options.stopAfter,
    };
    return { pass, advanced };
  }

  it("starts after the cursor, or after `start` for a cursor that never moved, and ends at `last`", async () => {
    const visited: number[] = [];
    const fresh = passOver(null);
    await walkCursor(fresh.pass, 10, 13, async (unit) => void visited.push(unit));
    expect(visited).toEqual([11, 12, 13]);
    expect(fresh.advanced).toEqual([11, 12, 13]);

    const resumed = passOver(12);
    visited.length = 0;
    await walkCursor(resumed.pass, 10, 13, async (unit) => void visited.push(unit));
    expect(visited).toEqual([13]);
  });

  it("ends when stopping, and when the lease was lost (after the unit in progress)", async () => {
    const visited: number[] = [];
    await walkCursor(passOver(0, { stopAfter: 2 }).pass, 0, 9, async (unit) => void visited.push(unit));
    expect(visited).toEqual([1, 2]);
    visited.length = 0;
    await walkCursor(passOver(0, { loseAt: 3 }).pass, 0, 9, async (unit) => void visited.push(unit));
    expect(visited).toEqual([1, 2, 3]);
  });

  it("walks at most `maxUnits` units, false until a later walk reaches `last`", async () => {
    const visited: number[] = [];
    const { pass, advanced } = passOver(0);
    expect(await walkCursor(pass, 0, 9, async (unit) => void visited.push(unit), 4)).toBe(false);
    expect(visited).toEqual([1, 2, 3, 4]);
    expect(advanced).toEqual([1, 2, 3, 4]);
    pass.lease = { ...pass.lease!, cursor: 4 };
    expect(await walkCursor(pass, 0, 9, async (unit) => void visited.push(unit), 4)).toBe(false);
    pass.lease = { ...pass.lease, cursor: 8 };
    expect(await walkCursor(pass, 0, 9, async (unit) => void visited.push(unit), 4)).toBe(true);
    expect(visited).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("a failed visit leaves the cursor before the unit (it is visited again next time)", async () => {
    const { pass, advanced } = passOver(0);
    await expect(
      walkCursor(pass, 0, 9, async (unit) => {
        if (unit === 3) throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(advanced).toEqual([1, 2]);
  });
});

describe("walkElapsedMinutes far behind", () => {
  const NOW = new Date("2026-06-01T12:00:30Z");
  const LAST = Math.floor(NOW.getTime() / 60_000) - 1; // the last fully elapsed minute
  const FAR = LAST - SKIP_EMPTY_MINUTES_BEYOND - 1; // a cursor just far enough behind

  /** A pass whose cursor moves as the store's does; `listed` is the pending work, cleared as it is visited. */
  function farBehind(cursor: number, listed: number[]) {
    const advanced: number[] = [];
    const pending = new Set(listed);
    const scans: number[] = [];
    const visited: number[] = [];
    const pass: Pass = {
      lease: { name: "work", owner: "me", version: 1, cursor },
      advance: async (unit) => {
        advanced.push(unit);
        pass.lease!.cursor = unit;
        return true;
      },
      stopping: () => false,
    };
    const listedBefore = async (before: number) => {
      scans.push(before);
      return [...pending].filter((m) => m < before).sort((a, b) => a - b);
    };
    const visit = async (minute: number) => {
      visited.push(minute);
      pending.delete(minute);
    };
    return { pass, advanced, pending, scans, visited, listedBefore, visit };
  }

  it("visits only the listed minutes after the cursor, oldest first, then moves the cursor to the last elapsed minute", async () => {
    const walk = farBehind(FAR, [FAR - 5, FAR + 100, FAR + 3, LAST, LAST + 1]);
    expect(await walkElapsedMinutes(walk.pass, NOW, 60, walk.visit, walk.listedBefore)).toBe(true);
    expect(walk.visited).toEqual([FAR + 3, FAR + 100, LAST]); // not before the cursor, not the current minute
    expect(walk.advanced).toEqual([FAR + 3, FAR + 100, LAST, LAST]);
    expect(walk.scans).toEqual([LAST + 1, LAST + 1]); // a closing scan found nothing left
  });

  it("with nothing listed, one scan moves the cursor to the last elapsed minute", async () => {
    const walk = farBehind(FAR - 10_000, []);
    expect(await walkElapsedMinutes(walk.pass, NOW, 60, walk.visit, walk.listedBefore)).toBe(true);
    expect(walk.visited).toEqual([]);
    expect(walk.advanced).toEqual([LAST]);
  });

  it("a minute listed after the first scan, ahead of the cursor, is found by the closing scan", async () => {
    const walk = farBehind(FAR, [FAR + 50]);
    const visit = walk.visit;
    walk.visit = async (minute) => {
      await visit(minute);
      if (minute === FAR + 50) walk.pending.add(FAR + 80);
    };
    expect(await walkElapsedMinutes(walk.pass, NOW, 60, walk.visit, walk.listedBefore)).toBe(true);
    expect(walk.visited).toEqual([FAR + 50, FAR + 80]);
    expect(walk.pending.size).toBe(0);
  });

  it("at most `maxMinutes` listed minutes per walk; the next walk goes on from the cursor", async () => {
    const walk = farBehind(FAR - 100, [FAR - 99, FAR - 98, FAR - 97]);
    expect(await walkElapsedMinutes(walk.pass, NOW, 60, walk.visit, walk.listedBefore, 2)).toBe(false);
    expect(walk.visited).toEqual([FAR - 99, FAR - 98]);
    expect(walk.pass.lease!.cursor).toBe(FAR - 98);
    expect(await walkElapsedMinutes(walk.pass, NOW, 60, walk.visit, walk.listedBefore, 2)).toBe(true); // still far behind: skips again
    expect(walk.visited).toEqual([FAR - 99, FAR - 98, FAR - 97]);
    expect(walk.pass.lease!.cursor).toBe(LAST);
  });

  it("scans that keep finding new minutes behind it give way to the minute-by-minute walk", async () => {
    const walk = farBehind(FAR, [FAR + 1]);
    const visit = walk.visit;
    walk.visit = async (minute) => {
      await visit(minute);
      if (minute < FAR + 4) walk.pending.add(minute + 1); // each visit lists the next minute
    };
    expect(await walkElapsedMinutes(walk.pass, NOW, 60, walk.visit, walk.listedBefore)).toBe(true);
    expect(walk.scans).toHaveLength(3);
    expect(walk.visited.slice(0, 4)).toEqual([FAR + 1, FAR + 2, FAR + 3, FAR + 4]);
    expect(walk.visited).toHaveLength(LAST - FAR); // after three scans, every minute up to LAST
    expect(walk.pass.lease!.cursor).toBe(LAST);
  });

  it("within SKIP_EMPTY_MINUTES_BEYOND of the clock, walks every minute and never scans", async () => {
    const walk = farBehind(FAR + 1, [FAR + 3]);
    expect(await walkElapsedMinutes(walk.pass, NOW, 60, walk.visit, walk.listedBefore)).toBe(true);
    expect(walk.scans).toEqual([]);
    expect(walk.visited).toHaveLength(SKIP_EMPTY_MINUTES_BEYOND);
  });
});

describe("everyMs", () => {
  it("is due at first, then once per interval of the given clock; a clock that went back is due", () => {
    let at = 1_000_000;
    const due = everyMs(60_000, () => new Date(at));
    expect(due()).toBe(true);
    at += 59_999;
    expect(due()).toBe(false);
    at += 1;
    expect(due()).toBe(true);
    expect(due()).toBe(false);
    at -= 3_600_000;
    expect(due()).toBe(true);
    expect(due()).toBe(false);
  });
});
