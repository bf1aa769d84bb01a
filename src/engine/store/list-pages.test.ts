import { describe, expect, it } from "vitest";
import { PAGE_SIZE, rotateList, TAIL_MAX } from "./list-pages.js";

const items = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe("rotateList", () => {
  it("leaves a tail of TAIL_MAX or fewer alone", () => {
    expect(rotateList(items(0, TAIL_MAX), undefined, 100)).toEqual({ tail: items(0, TAIL_MAX), range: null, written: [], dropped: [] });
    expect(rotateList(items(0, 3), { first: 2, next: 5 }, 100)).toEqual({ tail: items(0, 3), range: { first: 2, next: 5 }, written: [], dropped: [] });
  });

  it("cuts the oldest PAGE_SIZE items into the next page once the tail passes TAIL_MAX", () => {
    expect(rotateList(items(0, TAIL_MAX + 1), undefined, 100)).toEqual({
      tail: items(PAGE_SIZE, TAIL_MAX + 1),
      range: { first: 0, next: 1 },
      written: [{ page: 0, items: items(0, PAGE_SIZE) }],
      dropped: [],
    });
    expect(rotateList(items(0, TAIL_MAX + 1), { first: 3, next: 7 }, 1000).written).toEqual([{ page: 7, items: items(0, PAGE_SIZE) }]);
  });

  it("cuts as many pages as a long tail needs (a document written before pages)", () => {
    const rotation = rotateList(items(0, 100), undefined, 100);
    expect(rotation.written.map((w) => w.page)).toEqual([0, 1, 2, 3, 4]);
    expect(rotation.written.flatMap((w) => w.items).concat(rotation.tail)).toEqual(items(0, 100));
    expect(rotation.tail.length).toBeLessThanOrEqual(TAIL_MAX);
    expect(rotation.dropped).toEqual([]);
  });

  it("drops the oldest pages once the later pages and the tail hold `keep` items without them", () => {
    // Pages 0..5 (96 items) and a tail of 33: page 6 is cut, tail 17; 6 pages + 17 >= 100 without page 0.
    const rotation = rotateList(items(0, TAIL_MAX + 1), { first: 0, next: 6 }, 100);
    expect(rotation.range).toEqual({ first: 1, next: 7 });
    expect(rotation.dropped).toEqual([0]);
    // Exactly `keep` without the page: dropped; one fewer: kept.
    expect(rotateList(items(0, 4), { first: 0, next: 7 }, 100).dropped).toEqual([0]);
    expect(rotateList(items(0, 3), { first: 0, next: 7 }, 100).dropped).toEqual([]);
  });

  it("never writes a page it drops in the same rotation", () => {
    const rotation = rotateList(items(0, 100), undefined, 20);
    expect(rotation.written).toEqual([]);
    expect(rotation.dropped).toEqual([]);
    expect(rotation.range).toBeNull();
    expect(rotation.tail).toEqual(items(80, 100));
  });

  it("with an expiry, stamps each page with its newest date and drops pages whose newest is older than the oldest kept", () => {
    const newestOf = (page: readonly number[]) => `d${String(Math.max(...page)).padStart(3, "0")}`;
    const first = rotateList(items(0, TAIL_MAX + PAGE_SIZE + 1), undefined, 1000, { newestOf, oldestKept: null });
    expect(first.range).toEqual({ first: 0, next: 2, newest: ["d015", "d031"] });
    // Page 0's newest is d015: kept from d015 on, dropped from d016 on; page 1 goes with d032.
    expect(rotateList(first.tail, first.range!, 1000, { newestOf, oldestKept: "d015" }).dropped).toEqual([]);
    expect(rotateList(first.tail, first.range!, 1000, { newestOf, oldestKept: "d016" })).toMatchObject({
      dropped: [0],
      range: { first: 1, next: 2, newest: ["d031"] },
    });
    expect(rotateList(first.tail, first.range!, 1000, { newestOf, oldestKept: "d032" })).toMatchObject({
      dropped: [0, 1],
      range: { first: 2, next: 2, newest: [] },
    });
  });
});
