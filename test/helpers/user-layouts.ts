// Users' states and their stored documents, for tests of the stored layout (engine/store/user-encoding.ts).
import { createUserState, type UserState } from "../../src/engine/domain/user.js";

const T0 = new Date("2026-01-01T00:00:00Z");
/** A metric trigger's snapshot as the points rules take it. */
export const trigger = {
  id: "trg-1",
  type: "metric" as const,
  points: 10,
  status: "active" as const,
  userAttributes: [],
  created: T0,
  updated: T0,
  metricId: "m1",
  metricName: "Words",
  metricThreshold: 1,
};
const boost = { id: "b1", name: "Double", start: "2026-01-01", end: null, multiplier: 2, rounding: "down" as const };

/** A user's state with a bit of everything (two awards sharing a trigger, a boost, streak and leaderboard history). */
export function richState(): UserState {
  const T1 = new Date("2026-01-02T00:00:00Z");
  return {
    ...createUserState("u1", T0),
    metrics: { m1: { total: "7", daily: { "2026-01-01": "5", "2026-01-02": "2" } } },
    activity: { "2026-01-01": "1", "2026-01-02": "1" },
    points: {
      xp: {
        total: 30,
        levelId: null,
        awards: [
          { id: "aw1", awarded: 20, date: T0, total: 20, trigger, boosts: [boost] },
          { id: "aw2", awarded: 10, date: T1, total: 30, trigger, boosts: [] },
        ],
        metricProgress: { "trg-1": { metricId: "m1", total: "7", highWater: "7" } },
        timeSettledAt: {},
        userCreationAwardedAt: {},
        daily: { "2026-01-01": "20", "2026-01-02": "10" },
      },
    },
    streak: {
      frequency: "daily",
      length: 2,
      started: "2026-01-01",
      period: { start: "2026-01-02", zone: "UTC", met: true, sums: { m1: "2" } },
      asOf: T0,
      lastExtendedAt: T0,
      freezes: 1,
      freezeEarningSince: T0,
      freezesEarnedUntil: T0,
      pauses: [],
      lastLost: null,
      history: [{ periodStart: "2026-01-01", periodEnd: "2026-01-01", length: 1, usedFreeze: false, usedPause: false }],
      longest: 2,
    },
    leaderboards: {
      lb: {
        run: "2026-01-01",
        group: "",
        value: "7",
        history: [
          { run: "2026-01-01", date: "2026-01-01", previousRank: null, rank: 3, previousValue: null, value: "5" },
          { run: "2026-01-01", date: "2026-01-02", previousRank: 3, rank: 2, previousValue: "5", value: "7" },
        ],
      },
    },
    recentIdempotency: [{ id: "m1:k", metricId: "m1", fingerprint: "f", eventId: "ev-k", at: T0 }],
  };
}

/**
 * `richState()` as the version before defaults were left out stored it (printed by that version's
 * `encodeUserState`): every empty map and list, null and "active" written out, the first `_p` null.
 */
export function storedBeforeDefaultsWereLeftOut(): Record<string, unknown> {
  const d = (iso: string) => new Date(iso);
  return {
    ...createUserState("u1", T0),
    metrics: { m1: { total: "7", daily: { "2026-01": "5,2" } } },
    activity: { "2026-01": "1,1" },
    points: {
      xp: {
        total: 30,
        levelId: null,
        awards: {
          jfY3WBQY: { id: "aw1", awarded: 20, date: d("2026-01-01T00:00:00.000Z"), total: 20, trigger: "eyG9mCthbi_8", boosts: ["NjEIH8--Zp-w"], _p: null },
          ga8HI13l: { id: "aw2", awarded: 10, date: d("2026-01-02T00:00:00.000Z"), total: 30, trigger: "eyG9mCthbi_8", boosts: [], _p: "jfY3WBQY" },
        },
        metricProgress: { "trg-1": { metricId: "m1", total: "7", highWater: "7" } },
        timeSettledAt: {},
        userCreationAwardedAt: {},
        daily: { "2026-01": "20,10" },
        awardParts: {
          eyG9mCthbi_8: {
            id: "trg-1",
            type: "metric",
            points: 10,
            status: "active",
            userAttributes: [],
            created: d("2026-01-01T00:00:00.000Z"),
            updated: d("2026-01-01T00:00:00.000Z"),
            metricId: "m1",
            metricName: "Words",
            metricThreshold: 1,
          },
          "NjEIH8--Zp-w": { id: "b1", name: "Double", start: "2026-01-01", end: null, multiplier: 2, rounding: "down" },
        },
      },
    },
    streak: {
      frequency: "daily",
      length: 2,
      started: "2026-01-01",
      period: { start: "2026-01-02", zone: "UTC", met: true, sums: { m1: "2" } },
      asOf: T0,
      lastExtendedAt: T0,
      freezes: 1,
      freezeEarningSince: T0,
      freezesEarnedUntil: T0,
      pauses: [],
      lastLost: null,
      history: { B8W_yVWd: { periodStart: "2026-01-01", periodEnd: "2026-01-01", length: 1, usedFreeze: false, usedPause: false, _p: null } },
      longest: 2,
    },
    leaderboards: {
      lb: {
        run: "2026-01-01",
        group: "",
        value: "7",
        history: {
          "8aCxVM33": { run: "2026-01-01", date: "2026-01-01", previousRank: null, rank: 3, previousValue: null, value: "5", _p: null },
          Uum9FfTX: { run: "2026-01-01", date: "2026-01-02", previousRank: 3, rank: 2, previousValue: "5", value: "7", _p: "8aCxVM33" },
        },
      },
    },
    recentIdempotency: { H5VU1Cdh: { id: "m1:k", metricId: "m1", fingerprint: "f", eventId: "ev-k", at: T0, _p: null } },
  };
}
