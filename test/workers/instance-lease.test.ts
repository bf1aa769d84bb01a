import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireInstanceLease, type InstanceLeaseDocument } from "../../src/workers/store/instance-lease.js";
import { startService } from "../../src/server/service.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";

const logger = pino({ level: "silent" });
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const lostLeases: string[] = [];
/**
 * A 10 s lease (renewed every 3.3 s): an instance stalled by a loaded machine keeps it. A lost lease
 * is recorded instead of ending the process (the default), so it fails an assertion, not the run.
 */
const options = () => ({
  mongodbUri: database.uri,
  mongodbDb: database.dbName,
  port: 0,
  host: "127.0.0.1",
  logger,
  instanceLeaseMs: 10_000,
  onInstanceLeaseLost: () => void lostLeases.push("an instance of this test lost its lease"),
});

/** What an instance logs while another one's lease has not ended. */
const WAITING = "waiting for the database's instance lease";
/** A logger that keeps the message of each warning (and worse). */
function recordingLogger() {
  const messages: string[] = [];
  return { messages, logger: pino({ level: "warn" }, { write: (line: string) => void messages.push(JSON.parse(line).msg) }) };
}

describe("one instance per FerretDB database (single-instance write mode)", () => {
  it("refuses a second instance while the first runs, and starts one at once after a clean stop", async () => {
    const first = await startService(options());
    expect(first.context.database.writeMode).toBe("single-instance");
    const second = recordingLogger();
    try {
      await expect(startService({ ...options(), logger: second.logger })).rejects.toThrow(/Another instance .* is using this database/);
    } finally {
      await first.close();
    }
    expect(second.messages.filter((msg) => msg.startsWith(WAITING))).toHaveLength(1); // it saw the live lease
    // The clean stop ended the lease at once, so the next instance takes it without waiting for it
    // to run out (judged by that, not by a start-up time that a loaded machine stretches).
    expect((await database.db.collection<InstanceLeaseDocument>("leases").findOne({ _id: "instance" }))!.leaseUntil.getTime()).toBe(0);
    const third = recordingLogger();
    const next = await startService({ ...options(), logger: third.logger });
    await next.close();
    expect(third.messages.filter((msg) => msg.startsWith(WAITING))).toEqual([]);
    expect(lostLeases).toEqual([]);
  });

  it("waits for a crashed instance's lease to run out, then takes it over", async () => {
    const leases = database.db.collection<InstanceLeaseDocument>("leases");
    // What a killed instance leaves behind: a lease nobody renews.
    const until = new Date(Date.now() + 800);
    await leases.replaceOne({ _id: "instance" }, { owner: "killed", leaseUntil: until, generation: 7 }, { upsert: true });
    const successor = await acquireInstanceLease(leases, { owner: "successor", leaseMs: 600, logger, onLost: () => undefined });
    expect(Date.now()).toBeGreaterThanOrEqual(until.getTime());
    expect(await leases.findOne({ _id: "instance" })).toMatchObject({ owner: "successor", generation: 8 });
    await successor.release();
  });

  it("tells a stalled holder that another instance took its lease over", async () => {
    const leases = database.db.collection<InstanceLeaseDocument>("leases");
    let lost = false;
    // A long lease, renewed every 10 s: no renewal lands during the take-over below (one would bring
    // the ended lease back to life, and the successor would refuse to start).
    const stalled = await acquireInstanceLease(leases, { owner: "stalled", leaseMs: 30_000, logger, onLost: () => (lost = true) });
    // The holder missed its renewals (a long pause): its lease has run out and a successor takes it.
    await leases.updateOne({ _id: "instance" }, { $set: { leaseUntil: new Date(0) } });
    const successor = await acquireInstanceLease(leases, { owner: "successor", leaseMs: 600, logger, onLost: () => undefined });
    // The holder's next renewal (10 s after it took the lease) finds the lease taken.
    await expect.poll(() => lost, { timeout: 60_000 }).toBe(true);
    await stalled.release(); // no longer the holder: changes nothing
    expect((await leases.findOne({ _id: "instance" }))!.owner).toBe("successor");
    await successor.release();
  });

  it("refuses WRITE_MODE=versioned on FerretDB, whose version checks are not atomic (instances would lose events)", async () => {
    await expect(startService({ ...options(), writeMode: "versioned" })).rejects.toThrow(/WRITE_MODE=versioned cannot run on FerretDB/);
    // Nothing was taken: a single-instance server starts at once.
    const after = await startService(options());
    expect(after.context.database.writeMode).toBe("single-instance");
    await after.close();
  });

  it("keeps the version-checked mode of MongoDB when asked (tests only, on FerretDB), without a lease", async () => {
    const a = await startService({ ...options(), writeMode: "versioned", versionedOnFerretDbForTests: true });
    const b = await startService({ ...options(), writeMode: "versioned", versionedOnFerretDbForTests: true });
    expect([a.context.database.writeMode, b.context.database.writeMode]).toEqual(["versioned", "versioned"]);
    await Promise.all([a.close(), b.close()]);
  });
});
