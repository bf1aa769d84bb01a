import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../src/server/embedded-db.js";
import { startChildServer } from "../helpers/child-server.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
  const port = await findFreePort();
  const setup = await startChildServer(database, port);
  const metric = await setup.post("/admin/v1/metrics", [{ key: "steps", name: "Steps" }]);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const board = await setup.post("/admin/v1/leaderboards", [
    { key: "steps-board", name: "Steps", rankBy: "metric", metricId: metric.body.created[0].id, status: "active", start: yesterday },
  ]);
  expect(board.body.issues).toEqual([]);
  await setup.stop();
});
afterAll(() => database.close());

/**
 * Sends a keyed event to a server that SIGKILLs itself at the given pipeline point, restarts a
 * normal server, retries the same request, and returns what the retry answered.
 */
async function crashAndRetry(point: string, userId: string, before: (post: (key: string) => Promise<unknown>) => Promise<void> = async () => {}) {
  const port = await findFreePort();
  const crashing = await startChildServer(database, port, { GAMIFICATION_TEST_CRASH_AT: point });
  const send = (server: typeof crashing, key: string) =>
    server.post("/api/metrics/steps/event", { user: { id: userId }, value: 7 }, { "idempotency-key": key });
  await before((key) => send(crashing, key));
  await expect(send(crashing, "the-key")).rejects.toThrow(); // the connection dies with the process
  expect(await crashing.exited).toBe(null); // killed by a signal, no clean-up ran

  const restarted = await startChildServer(database, port);
  try {
    return { retry: await send(restarted, "the-key"), again: await send(restarted, "the-key") };
  } finally {
    await restarted.stop();
  }
}

describe("crash safety: a retry after SIGKILL applies the event exactly once", () => {
  it("killed before the user write: nothing was applied, the retry applies it (201)", async () => {
    const { retry, again } = await crashAndRetry("before-user-write", "crash-1");
    expect([retry.status, retry.body.total, retry.body.idempotentReplayed]).toEqual([201, 7, false]);
    expect([again.status, again.body.total]).toEqual([202, 7]);
  });

  it("killed between the ranking write and the user write: the event counts once in the ranking, and the retry reports the leaderboard", async () => {
    const { retry, again } = await crashAndRetry("before-user-write", "crash-4");
    expect([retry.status, retry.body.total]).toEqual([201, 7]);
    // The crashed attempt had already ranked the value; the retry sets the same value (nothing moves).
    expect(retry.body.leaderboards["steps-board"]).toMatchObject({ rank: expect.any(Number), threshold: 0 });
    expect(again.status).toBe(202);
    const port = await findFreePort();
    const server = await startChildServer(database, port);
    try {
      const standing = await server.get("/v1/users/crash-4/leaderboards/steps-board");
      expect([standing.status, standing.body.value]).toEqual([200, 7]);
      expect(standing.body.history.map((h: { value: number; previousValue: number | null }) => [h.previousValue, h.value])).toEqual([[null, 7]]);
      const page = await server.get("/v1/leaderboards/steps-board?limit=100");
      expect(page.body.rankings.filter((r: { userId: string }) => r.userId === "crash-4").map((r: { value: number }) => r.value)).toEqual([7]);
    } finally {
      await server.stop();
    }
  });

  it("killed after the user write, before answering: the retry replays it (202)", async () => {
    const { retry } = await crashAndRetry("after-user-write", "crash-2");
    expect([retry.status, retry.body.total, retry.body.idempotentReplayed]).toEqual([202, 7, true]);
  });

  it("killed after moving recent keys out of the user document: no key is lost or applied twice", async () => {
    const { retry } = await crashAndRetry("after-idempotency-flush", "crash-3", async (post) => {
      for (let i = 0; i < 50; i++) await post(`early-${i}`);
    });
    expect([retry.status, retry.body.total]).toEqual([201, 51 * 7]);
    const port = await findFreePort();
    const server = await startChildServer(database, port);
    try {
      for (const key of ["early-0", "early-49", "the-key"]) {
        const replay = await server.post("/api/metrics/steps/event", { user: { id: "crash-3" }, value: 7 }, { "idempotency-key": key });
        expect([key, replay.status, replay.body.total]).toEqual([key, 202, 51 * 7]);
      }
    } finally {
      await server.stop();
    }
  });
});

describe("crash safety: a tenant deletion killed midway", () => {
  it("answers to no one meanwhile, and is finished by the next start", async () => {
    const port = await findFreePort();
    const crashing = await startChildServer(database, port, { GAMIFICATION_TEST_CRASH_AT: "tenant-deletion" });
    const [tenant] = (await crashing.post("/admin/v1/tenants", [{ customerId: "doomed", name: "Doomed" }])).body.created;
    const inTenant = { "tenant-id": "doomed" };
    expect((await crashing.post("/admin/v1/metrics", [{ key: "laps", name: "Laps" }], inTenant)).status).toBe(201);
    expect((await crashing.post("/api/metrics/laps/event", { user: { id: "swimmer" }, value: 3 }, inTenant)).status).toBe(201);
    const users = database.db.collection("users");
    expect(await users.countDocuments({ tenantId: tenant.id })).toBe(1);

    await expect(crashing.request("DELETE", `/admin/v1/tenants?ids=${tenant.id}`)).rejects.toThrow(); // killed midway
    expect(await crashing.exited).toBe(null);
    // Marked, its data still there.
    expect(await database.db.collection("tenants").findOne({ _id: tenant.id })).toMatchObject({ deleting: expect.any(Date) });
    expect(await users.countDocuments({ tenantId: tenant.id })).toBe(1);

    const restarted = await startChildServer(database, port);
    try {
      expect((await restarted.request("GET", "/v1/users/swimmer", { headers: inTenant })).status).toBe(404);
      // The start-up's pass deletes what the crash left, then the tenant itself.
      await expect.poll(() => database.db.collection("tenants").countDocuments({ _id: tenant.id }), { timeout: 30_000 }).toBe(0);
      expect(await users.countDocuments({ tenantId: tenant.id })).toBe(0);
      expect(await database.db.collection("metrics").countDocuments({ tenantId: tenant.id })).toBe(0);
      expect((await restarted.post("/admin/v1/tenants", [{ customerId: "doomed", name: "Again" }])).body.created).toEqual([
        expect.objectContaining({ customerId: "doomed" }),
      ]);
    } finally {
      await restarted.stop();
    }
  }, 120_000);
});
