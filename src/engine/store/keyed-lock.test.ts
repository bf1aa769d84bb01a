import { describe, expect, it } from "vitest";
import { KeyedLock } from "./keyed-lock.js";

const tick = () => new Promise((r) => setTimeout(r, 1));

describe("KeyedLock", () => {
  it("runs tasks of one key one at a time, in order, even when one fails", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let running = 0;
    const task = (name: string, fail = false) =>
      lock.run("k", async () => {
        running++;
        expect(running).toBe(1);
        await tick();
        log.push(name);
        running--;
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([task("a"), task("b", true), task("c")]);
    expect(log).toEqual(["a", "b", "c"]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  });

  it("runs tasks of different keys in parallel", async () => {
    const lock = new KeyedLock();
    let concurrent = 0;
    let peak = 0;
    const task = () => async () => {
      peak = Math.max(peak, ++concurrent);
      await tick();
      concurrent--;
    };
    await Promise.all([lock.run("a", task()), lock.run("b", task()), lock.run("c", task())]);
    expect(peak).toBe(3);
  });
});
