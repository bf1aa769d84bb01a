import { describe, expect, it } from "vitest";
import { TenantCalls } from "./tenant-calls.js";

/** A call that runs until `finish` is called (failing when told to). */
function pending() {
  let finish!: (fail?: boolean) => void;
  const done = new Promise<string>((resolve, reject) => (finish = (fail) => (fail ? reject(new Error("failed")) : resolve("done"))));
  return { done, finish };
}

describe("TenantCalls", () => {
  it("drained resolves at once without calls, and once the tenant's last call ends (failed ones too)", async () => {
    const calls = new TenantCalls();
    expect(await calls.drained("t", 10)).toBe(true);
    const a = pending();
    const b = pending();
    const other = pending();
    const runA = calls.run("t", () => a.done);
    const runB = calls.run("t", () => b.done);
    const runOther = calls.run("u", () => other.done);
    expect([calls.count("t"), calls.count("u")]).toEqual([2, 1]);
    let drained: boolean | undefined;
    const waiting = calls.drained("t", 60_000).then((d) => (drained = d));
    a.finish();
    expect(await runA).toBe("done");
    await Promise.resolve();
    expect(drained).toBeUndefined();
    b.finish(true);
    await expect(runB).rejects.toThrow("failed");
    expect(await waiting).toBe(true);
    expect(calls.count("t")).toBe(0);
    // Another tenant's call does not hold it.
    expect(calls.count("u")).toBe(1);
    other.finish();
    await runOther;
  });

  it("drained gives up after its timeout while a call hangs", async () => {
    const calls = new TenantCalls();
    const hung = pending();
    void calls.run("t", () => hung.done);
    expect(await calls.drained("t", 20)).toBe(false);
    expect(calls.count("t")).toBe(1);
    hung.finish();
  });
});
