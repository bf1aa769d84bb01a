import { describe, expect, it } from "vitest";
import { memoryLeaseStore, recordingLogger } from "../../test/helpers/memory-leases.js";
import { minuteOf } from "../engine/store/user-documents.js";
import type { Pass } from "./leased-loop.js";
import { walkDueMinutes, type DueUserBuckets } from "./scheduler.js";

const NOW = new Date("2026-06-01T12:00:30Z"); // 30 s into a minute: that minute has not elapsed
const CURRENT = minuteOf(NOW);

/** Due users by minute, in memory; records which buckets were cleared and what was listed again (in that order in `log`). */
function bucketsOf(byMinute: Record<number, Array<[string, string]>>): DueUserBuckets & { cleared: string[]; log: string[] } {
  const cleared: string[] = [];
  const log: string[] = [];
  return {
    cleared,
    log,
    async add(entries) {
      for (const { minute, tenantId, userId } of entries) log.push(`add ${minute} ${tenantId}/${userId}`);
    },
    async find(minute) {
      const users = (byMinute[minute] ?? []).map(([tenantId, userId]) => ({ tenantId, userId }));
      return { users, bucketIds: users.length > 0 ? [`bucket-${minute}`] : [] };
    },
    async listedBefore(minute) {
      const listed = Object.keys(byMinute)
        .map(Number)
        .filter((m) => m < minute && !cleared.includes(`bucket-${m}`));
      log.push(`listed before ${minute}`);
      return listed.sort((a, b) => a - b);
    },
    async clear(bucketIds) {
      cleared.push(...bucketIds);
      log.push(...bucketIds.map((id) => `clear ${id}`));
    },
  };
}

/** A pass holding the lease "scheduler" at `cursor` in an in-memory lease store. */
async function passAt(cursor: number | null) {
  const leases = memoryLeaseStore();
  if (cursor !== null) leases.docs.set("scheduler", { owner: "me", leaseUntil: 0, version: 1, cursor });
  const lease = (await leases.claim("scheduler", "me", NOW, 30_000))!;
  const pass: Pick<Pass, "lease" | "advance" | "stopping"> = { lease, advance: (c) => leases.advance(lease, c, NOW, 30_000), stopping: () => false };
  return { pass, leases };
}

describe("the scheduler's walk over due minutes", () => {
  it("a first run visits the minutes listed before its lookback, then walks from `lookback` minutes back to the last fully elapsed minute", async () => {
    const buckets = bucketsOf({
      [CURRENT - 600]: [["t", "listed-long-before"]],
      [CURRENT - 4]: [["t", "before-lookback"]],
      [CURRENT - 3]: [["t", "a"]],
      [CURRENT - 1]: [["t", "b"]],
      [CURRENT]: [["t", "not-yet"]],
    });
    const visits: string[] = [];
    const { pass, leases } = await passAt(null);
    const visited = await walkDueMinutes(pass, NOW, 3, buckets, async (_, userId) => void visits.push(userId), recordingLogger());
    expect(visits).toEqual(["listed-long-before", "before-lookback", "a", "b"]);
    expect(visited).toBe(4);
    expect(leases.docs.get("scheduler")!.cursor).toBe(CURRENT - 1);
    expect(buckets.cleared).toEqual([`bucket-${CURRENT - 600}`, `bucket-${CURRENT - 4}`, `bucket-${CURRENT - 3}`, `bucket-${CURRENT - 1}`]);
  });

  it("a run with a cursor walks from it and never looks for minutes listed before", async () => {
    const buckets = bucketsOf({ [CURRENT - 600]: [["t", "stale"]], [CURRENT - 1]: [["t", "b"]] });
    const visits: string[] = [];
    const { pass } = await passAt(CURRENT - 2);
    await walkDueMinutes(pass, NOW, 3, buckets, async (_, userId) => void visits.push(userId), recordingLogger());
    expect(visits).toEqual(["b"]);
    expect(buckets.log.some((line) => line.startsWith("listed before"))).toBe(false);
  });

  it("resumes after the cursor, and visits a user listed twice in a minute once", async () => {
    const buckets = bucketsOf({
      [CURRENT - 3]: [["t", "done-before"]],
      [CURRENT - 2]: [
        ["t", "x"],
        ["u", "x"],
        ["t", "x"],
      ],
    });
    const visits: string[] = [];
    const { pass } = await passAt(CURRENT - 3);
    expect(await walkDueMinutes(pass, NOW, 60, buckets, async (tenantId, userId) => void visits.push(`${tenantId}/${userId}`), recordingLogger())).toBe(2);
    expect(visits).toEqual(["t/x", "u/x"]); // the same user ID in another tenant is another user
  });

  it("one user's failure is logged and the others are still visited; the minute is done", async () => {
    const buckets = bucketsOf({
      [CURRENT - 1]: [
        ["t", "broken"],
        ["t", "fine"],
      ],
    });
    const visits: string[] = [];
    const logger = recordingLogger();
    const { pass, leases } = await passAt(CURRENT - 2);
    await walkDueMinutes(
      pass,
      NOW,
      60,
      buckets,
      async (_, userId) => {
        if (userId === "broken") throw new Error("boom");
        visits.push(userId);
      },
      logger,
    );
    expect(visits).toEqual(["fine"]);
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ tenantId: "t", userId: "broken", minute: CURRENT - 1 }), "scheduled work failed");
    expect(leases.docs.get("scheduler")!.cursor).toBe(CURRENT - 1);
    // Tried again in the first minute after now, listed before the minute is cleared.
    expect(buckets.log).toEqual([`add ${CURRENT + 1} t/broken`, `clear bucket-${CURRENT - 1}`]);
  });

  it("lists the users it met before their due time again at that time, in one call, before it clears the minute", async () => {
    const buckets = bucketsOf({
      [CURRENT - 1]: [
        ["t", "early"],
        ["t", "due"],
        ["u", "later"],
      ],
    });
    const waiting: Record<string, Date | null> = {
      early: new Date(NOW.getTime() + 86_400_000),
      due: null, // its work ran and stored (and listed) its next due time itself
      later: new Date(NOW.getTime() + 5 * 60_000),
    };
    const { pass } = await passAt(CURRENT - 2);
    await walkDueMinutes(pass, NOW, 60, buckets, async (_, userId) => waiting[userId]!, recordingLogger());
    expect(buckets.log).toEqual([`add ${CURRENT + 1440} t/early`, `add ${CURRENT + 5} u/later`, `clear bucket-${CURRENT - 1}`]);
  });

  it("a minute whose users cannot be read stays where it is: the cursor stops before it", async () => {
    const buckets = bucketsOf({ [CURRENT - 2]: [["t", "a"]] });
    const find = buckets.find.bind(buckets);
    buckets.find = async (minute) => {
      if (minute === CURRENT - 1) throw new Error("database down");
      return find(minute);
    };
    const { pass, leases } = await passAt(CURRENT - 3);
    await expect(walkDueMinutes(pass, NOW, 60, buckets, async () => {}, recordingLogger())).rejects.toThrow("database down");
    expect(leases.docs.get("scheduler")!.cursor).toBe(CURRENT - 2);
  });

  it("stops after the minute in progress when the lease was lost", async () => {
    const buckets = bucketsOf({ [CURRENT - 3]: [["t", "a"]], [CURRENT - 2]: [["t", "b"]], [CURRENT - 1]: [["t", "c"]] });
    const visits: string[] = [];
    const { pass, leases } = await passAt(CURRENT - 4);
    await walkDueMinutes(
      pass,
      NOW,
      60,
      buckets,
      async (_, userId) => {
        visits.push(userId);
        if (userId === "b") leases.docs.set("scheduler", { owner: "other", leaseUntil: NOW.getTime() + 30_000, version: 50, cursor: CURRENT - 3 });
      },
      recordingLogger(),
    );
    expect(visits).toEqual(["a", "b"]); // the new holder repeats b's minute (the work is idempotent)
  });
});
