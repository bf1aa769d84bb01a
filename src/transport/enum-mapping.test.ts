import { describe, expect, it } from "vitest";
import { StreakFrequency } from "../gen/gamification/v1/streak_pb.js";
import { enumMapping, streakFrequencies } from "./enum-mapping.js";

describe("enumMapping", () => {
  it("maps every domain value both ways", () => {
    for (const value of ["daily", "weekly", "monthly"] as const) expect(streakFrequencies.fromProto(streakFrequencies.toProto(value))).toBe(value);
    expect(streakFrequencies.toProto("weekly")).toBe(StreakFrequency.WEEKLY);
  });

  it("reads the zero value, an unknown value and no value as not given", () => {
    expect(streakFrequencies.fromProto(StreakFrequency.UNSPECIFIED)).toBeUndefined();
    expect(streakFrequencies.fromProto(99 as StreakFrequency)).toBeUndefined();
    expect(streakFrequencies.fromProto(undefined)).toBeUndefined();
  });

  it("refuses a value outside its table (only reachable past the type checker)", () => {
    const mapping = enumMapping<"a" | "b", number>({ a: 1, b: 2 });
    expect(() => mapping.toProto("c" as "a")).toThrow(/no protobuf value for "c"/);
  });
});
