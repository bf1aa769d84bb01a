import { describe, expect, it } from "vitest";
import type { PointsLevelConfig } from "./points-config.js";
import { parseAttributeFilter, pointsRanges, usersPerLevel } from "./points-summary.js";

const counts = (entries: Array<[number, number]>) => new Map(entries);

describe("pointsRanges", () => {
  it("builds 0-0 and ten equal ranges up to the greatest total rounded up to a power of 10", () => {
    const ranges = pointsRanges(
      counts([
        [0, 3],
        [1, 1],
        [100, 2],
        [101, 1],
        [550, 4],
      ]),
    );
    expect(ranges.map((r) => [r.from, r.to])).toEqual([
      [0, 0],
      [1, 100],
      [101, 200],
      [201, 300],
      [301, 400],
      [401, 500],
      [501, 600],
      [601, 700],
      [701, 800],
      [801, 900],
      [901, 1000],
    ]);
    expect(ranges.map((r) => r.users)).toEqual([3, 3, 1, 0, 0, 0, 4, 0, 0, 0, 0]);
  });

  it("keeps an exact power of 10 and moves to the next one just above it", () => {
    expect(pointsRanges(counts([[1000, 1]])).at(-1)).toEqual({ from: 901, to: 1000, users: 1 });
    expect(pointsRanges(counts([[1001, 1]])).at(-1)).toEqual({ from: 9001, to: 10000, users: 0 });
    expect(pointsRanges(counts([[1001, 1]]))[2]).toEqual({ from: 1001, to: 2000, users: 1 });
  });

  it("uses ranges of one point when no one has more than 10 (or there are no users)", () => {
    expect(pointsRanges(counts([])).map((r) => [r.from, r.to, r.users])).toEqual([
      [0, 0, 0],
      [1, 1, 0],
      [2, 2, 0],
      [3, 3, 0],
      [4, 4, 0],
      [5, 5, 0],
      [6, 6, 0],
      [7, 7, 0],
      [8, 8, 0],
      [9, 9, 0],
      [10, 10, 0],
    ]);
    expect(pointsRanges(counts([[7, 2]]))[7]).toEqual({ from: 7, to: 7, users: 2 });
  });
});

describe("usersPerLevel", () => {
  const level = (id: string, points: number): PointsLevelConfig => ({
    id,
    key: id,
    name: id,
    points,
    description: "",
    badge: null,
    created: new Date(0),
    updated: new Date(0),
  });

  it("counts users at the highest level their total exceeds, lowest threshold first, leaving out users below every level", () => {
    const levels = [level("gold", 200), level("silver", 50), level("bronze", 10)];
    const result = usersPerLevel(
      counts([
        [0, 4],
        [10, 1], // at a threshold, not above it: not yet bronze
        [11, 2],
        [50, 1],
        [51, 1],
        [500, 3],
      ]),
      levels,
    );
    expect(result.map((r) => [r.level.id, r.users])).toEqual([
      ["bronze", 3],
      ["silver", 1],
      ["gold", 3],
    ]);
  });
});

describe("parseAttributeFilter", () => {
  it("reads key:value pairs, the value being everything after the first colon", () => {
    expect(parseAttributeFilter("plan-type:premium, region:us:east")).toEqual([
      { key: "plan-type", value: "premium" },
      { key: "region", value: "us:east" },
    ]);
    expect(parseAttributeFilter("")).toEqual([]);
  });

  it("refuses malformed pairs and repeated keys", () => {
    expect(() => parseAttributeFilter("plan")).toThrow(/key:value pairs/);
    expect(() => parseAttributeFilter("plan:,x:y")).toThrow(/got "plan:"/);
    expect(() => parseAttributeFilter("plan:a,plan:b")).toThrow(/more than once/);
  });
});
