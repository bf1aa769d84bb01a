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

const options = () => ({ mongodbUri: database.uri, mongodbDb: database.dbName, port: 0, host: "127.0.0.1", logger, instanceLeaseMs: 1500 });

describe("one instance per FerretDB database (single-instance write mode)", () => {
  it("refuses a second instance while the first runs, and starts one at once after a clean stop", async () => {
    const first = await startService(options());
    expect(first.context.database.writeMode).toBe("single-instance");
    try {
      await expect(startService(options())).rejects.toThrow(/Another instance .* is using this database/);
    } finally {
      await first.close();
    }
    const started = Date.now();
    const next = await startService(options());
    expect(Date.now() - started).toBeLessThan(1500); // the released lease did not have to run out
    await next.close();
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
    const stalled = await acquireInstanceLease(leases, { owner: "stalled", leaseMs: 600, logger, onLost: () => (lost = true) });
    // The holder missed its renewals (a long pause): its lease has run out and a successor takes it.
    await leases.updateOne({ _id: "instance" }, { $set: { leaseUntil: new Date(0) } });
    const successor = await acquireInstanceLease(leases, { owner: "successor", leaseMs: 600, logger, onLost: () => undefined });
    await expect.poll(() => lost, { timeout: 10_000 }).toBe(true);
    await stalled.release(); // no longer the holder: changes nothing
    expect((await leases.findOne({ _id: "instance" }))!.owner).toBe("successor");
    await successor.release();
  });

  it("keeps the version-checked mode of MongoDB when asked, without a lease", async () => {
    const a = await startService({ ...options(), writeMode: "versioned" });
    const b = await startService({ ...options(), writeMode: "versioned" });
    expect([a.context.database.writeMode, b.context.database.writeMode]).toEqual(["versioned", "versioned"]);
    await Promise.all([a.close(), b.close()]);
  });
});
