import { describe, expect, it } from "vitest";
import type { PointsAward, PointsState } from "../../features/points/domain/points.js";
import { createUserState, type UserState } from "../domain/user.js";
import { decodeUserState, encodeUserState } from "./user-encoding.js";
import { userChanges } from "./user-documents.js";

const T0 = new Date("2026-01-01T00:00:00Z");
const trigger = {
  id: "trg-1",
  type: "metric" as const,
  points: 10,
  metricId: "m1",
  metricName: "Words",
  metricThreshold: 1,
  status: "active" as const,
  userAttributes: [],
  created: T0,
  updated: T0,
};
const boost = { id: "b1", name: "Double", start: "2026-01-01", end: null, multiplier: 2, rounding: "down" as const };
const award = (i: number, boosts = [boost]): PointsAward => ({
  id: `aw${i}`,
  awarded: 10,
  date: new Date(T0.getTime() + i * 1000),
  total: 10 * i,
  trigger,
  boosts,
});
const points = (awards: PointsAward[]): PointsState =>
  ({
    total: awards.length * 10,
    levelId: null,
    awards,
    metricProgress: {},
    timeSettledAt: {},
    userCreationAwardedAt: null,
    daily: {},
  }) as unknown as PointsState;

function withHistory(awards: PointsAward[], keys: string[]): UserState {
  const base = createUserState("u1", T0);
  return {
    ...base,
    points: { xp: points(awards) },
    recentIdempotency: keys.map((k, i) => ({ id: `m1:${k}`, metricId: "m1", fingerprint: "f", eventId: `ev-${k}`, at: new Date(T0.getTime() + i) })),
    leaderboards: {
      lb: {
        run: "2026-01-01",
        group: "",
        value: "1",
        history: [{ run: "2026-01-01", date: "2026-01-01", previousRank: null, rank: 1, previousValue: null, value: "1" }],
      },
    },
  };
}

const roundTrip = (state: UserState) => ({ ...createUserState("u1", T0), ...decodeUserState(structuredClone(encodeUserState(state))) });

describe("the stored layout of a user", () => {
  it("reads back exactly the state it stored, lists in order (awards dated out of order too)", () => {
    const awards = [award(3), award(1), award(2, []), award(4)];
    const state = withHistory(awards, ["a", "b", "c"]);
    expect(roundTrip(state)).toEqual(state);
  });

  it("stores each trigger and boost snapshot once per points system", () => {
    const stored = encodeUserState(withHistory([award(1), award(2), award(3)], [])) as any;
    expect(Object.keys(stored.points.xp.awardParts)).toHaveLength(2);
    expect(Object.values(stored.points.xp.awards as Record<string, { trigger: string }>).map((a) => a.trigger)).toEqual(Array(3).fill(expect.any(String)));
  });

  it("writes one entry when a capped list moves on by one: the new award set, the oldest unset, its successor relinked", () => {
    const before = withHistory([award(1), award(2), award(3)], ["a"]);
    const after = withHistory([award(2), award(3), award(4)], ["a"]);
    const { set, unset } = userChanges(before, after);
    const paths = Object.keys(set).sort((a, b) => a.length - b.length);
    expect(paths).toEqual([expect.stringMatching(/^points\.xp\.awards\.[^.]+$/), expect.stringMatching(/^points\.xp\.awards\.[^.]+\._p$/)]);
    expect(set[paths[0]!]).toMatchObject({ id: "aw4", _p: expect.any(String) });
    expect(set[paths[1]!]).toBeNull(); // aw2 is now first
    expect(Object.keys(unset)).toEqual([expect.stringMatching(/^points\.xp\.awards\.[^.]+$/)]);
  });

  it("packs daily changes per month and reads them back, days stored one by one by an earlier version too", () => {
    const daily = { "2025-12-31": "1", "2026-01-01": "2.5", "2026-01-31": "-3" };
    const state = { ...createUserState("u1", T0), metrics: { m1: { total: "0.5", daily } } };
    expect((encodeUserState(state) as any).metrics.m1.daily).toEqual({
      "2025-12": ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,1",
      "2026-01": "2.5,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,-3",
    });
    expect(roundTrip(state)).toEqual(state);
    expect(decodeUserState({ metrics: { m1: { total: "1", daily: { "2026-01-01": "1" } } } }).metrics).toEqual({
      m1: { total: "1", daily: { "2026-01-01": "1" } },
    });
  });

  it("keeps a list whose keys repeat as an array", () => {
    const state = withHistory([award(1), award(1)], ["a", "a"]);
    const stored = encodeUserState(state) as any;
    expect(Array.isArray(stored.recentIdempotency)).toBe(true);
    expect(Array.isArray(stored.points.xp.awards)).toBe(true);
    expect(roundTrip(state)).toEqual(state);
  });

  it("reads lists that an earlier version stored as arrays", () => {
    const state = withHistory([award(1), award(2)], ["a", "b"]);
    const earlier = { ...state } as Record<string, unknown>; // the state itself was the stored layout
    expect({ ...createUserState("u1", T0), ...decodeUserState(structuredClone(earlier)) }).toEqual(state);
  });
});
