import { describe, expect, it } from "vitest";
import type { PointsAward, PointsState } from "../../features/points/domain/points.js";
import { createUserState, type UserState } from "../domain/user.js";
import { decodeUserState, encodeUserState, packList, packUserFields, unpackList, unpackUserFields } from "./user-encoding.js";
import { userChanges } from "./user-documents.js";
import { richState, storedBeforeDefaultsWereLeftOut } from "../../../test/helpers/user-layouts.js";

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
    const awards = Object.values(stored.points.xp.awards as Record<string, string>).map((a) => JSON.parse(a) as { trigger: string });
    expect(awards.map((a) => a.trigger)).toEqual(Array(3).fill(expect.any(String)));
  });

  it("writes what a capped list moving on by one changes: the new award, its successor's entry (now first, without a link), the oldest unset", () => {
    const before = withHistory([award(1), award(2), award(3)], ["a"]);
    const after = withHistory([award(2), award(3), award(4)], ["a"]);
    const { set, unset } = userChanges(before, after);
    const awardEntry = /^e\.pa\/[A-Za-z0-9_-]{6}\/[A-Za-z0-9_-]+$/;
    expect(Object.keys(set)).toEqual([expect.stringMatching(awardEntry), expect.stringMatching(awardEntry)]);
    const entries = Object.values(set).map((entry) => JSON.parse(entry as string) as { id: string; _p?: string });
    expect(entries.map((e) => [e.id, e._p === undefined]).sort()).toEqual([
      ["aw2", true],
      ["aw4", false],
    ]);
    expect(Object.keys(unset)).toEqual([expect.stringMatching(awardEntry)]);
  });

  it("stores each list entry as one JSON string (dates kept), and still reads entries stored as subdocuments", () => {
    const state = withHistory([award(1), award(2)], ["a"]);
    const stored = encodeUserState(state) as any;
    const entries = Object.values(stored.points.xp.awards);
    expect(entries.every((e) => typeof e === "string")).toBe(true);
    expect(roundTrip(state)).toEqual(state);
    const asSubdocuments = {
      ...stored,
      points: {
        xp: {
          ...stored.points.xp,
          awards: Object.fromEntries(Object.entries(stored.points.xp.awards as Record<string, string>).map(([k, v]) => [k, unpackForTest(v)])),
        },
      },
    };
    expect(decodeUserState(asSubdocuments).points).toEqual(decodeUserState(stored).points);
    expect(decodeUserState(stored).points!.xp!.awards.map((a) => a.date)).toEqual([award(1).date, award(2).date]);
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

describe("fields at their defaults", () => {
  it("are left out of the document and read back", () => {
    const stored = encodeUserState(richState()) as any;
    const xp = stored.points.xp;
    expect(Object.keys(xp).sort()).toEqual(["awardParts", "awards", "daily", "metricProgress", "total"]);
    expect(xp.metricProgress["trg-1"]).toEqual({ metricId: "m1", total: "7" });
    expect(
      Object.values(xp.awards)
        .map((a: any) => JSON.parse(a))
        .map((a: any) => [a._p === undefined, a.boosts === undefined]),
    ).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(Object.values(xp.awardParts).find((p: any) => p.type === "metric")).not.toHaveProperty("status");
    expect(Object.values(xp.awardParts).find((p: any) => p.type === "metric")).not.toHaveProperty("userAttributes");
    expect(Object.values(xp.awardParts).find((p: any) => p.type === "metric")).not.toHaveProperty("updated");
    expect(Object.keys(stored.streak)).not.toEqual(expect.arrayContaining(["pauses"]));
    expect(stored.streak).not.toHaveProperty("lastLost");
    expect(stored.leaderboards.lb).not.toHaveProperty("value");
    expect(roundTrip(richState())).toEqual(richState());
  });

  it("are kept when they are not the default: an inactive, edited trigger with filters, a high-water mark above the total, a value apart from the history", () => {
    const state = richState();
    const xp = state.points.xp!;
    const snapshot = { ...trigger, status: "inactive" as const, userAttributes: [{ key: "plan", value: "pro" }], updated: new Date("2026-01-01T01:00:00Z") };
    state.points.xp = {
      ...xp,
      awards: xp.awards.map((a) => ({ ...a, trigger: snapshot })),
      metricProgress: { "trg-1": { metricId: "m1", total: "4", highWater: "7" } },
      timeSettledAt: { t: T0 },
    };
    state.leaderboards.lb = { ...state.leaderboards.lb!, value: null };
    const stored = encodeUserState(state) as any;
    expect(Object.values(stored.points.xp.awardParts)).toContainEqual(
      expect.objectContaining({ status: "inactive", userAttributes: snapshot.userAttributes, updated: snapshot.updated }),
    );
    expect(stored.points.xp.metricProgress["trg-1"].highWater).toBe("7");
    expect(stored.leaderboards.lb.value).toBeNull();
    expect(roundTrip(state)).toEqual(state);
  });

  it("are left out of the packed rest when a field returns to its default, and written when it leaves it", () => {
    const restOf = (change: { set: Record<string, unknown> }) => (unpackUserFields({ s: change.set.s as string }) as any).points.xp;
    const before = richState();
    const apart = { ...before, points: { xp: { ...before.points.xp!, metricProgress: { "trg-1": { metricId: "m1", total: "4", highWater: "7" } } } } };
    expect(restOf(userChanges(before, apart)).metricProgress["trg-1"]).toEqual({ metricId: "m1", total: "4", highWater: "7" });
    const settled = { ...before, points: { xp: { ...before.points.xp!, timeSettledAt: { t: T0 } } } };
    expect(restOf(userChanges(before, settled)).timeSettledAt).toEqual({ t: T0 });
    expect(restOf(userChanges(settled, before))).not.toHaveProperty("timeSettledAt");
    const back = { ...apart, points: { xp: { ...apart.points.xp, metricProgress: { "trg-1": { metricId: "m1", total: "7", highWater: "7" } } } } };
    expect(restOf(userChanges(apart, back)).metricProgress["trg-1"]).toEqual({ metricId: "m1", total: "7" });
  });

  it("read a document stored before they were left out exactly as it was written, and keep its keys", () => {
    const stored = storedBeforeDefaultsWereLeftOut();
    expect({ ...createUserState("u1", T0), ...decodeUserState(structuredClone(stored)) }).toEqual(richState());
    // The snapshots hash as they did, so the next write names the same parts and awards.
    const again = encodeUserState({ ...createUserState("u1", T0), ...decodeUserState(structuredClone(stored)) }) as any;
    const old = stored.points as any;
    expect(Object.keys(again.points.xp.awardParts).sort()).toEqual(Object.keys(old.xp.awardParts).sort());
    expect(Object.keys(again.points.xp.awards)).toEqual(Object.keys(old.xp.awards));
  });
});

/** A packed list entry as earlier versions stored it: a subdocument, dates as dates. */
function unpackForTest(entry: string): Record<string, unknown> {
  return JSON.parse(entry, (_key, value: unknown) =>
    typeof value === "object" && value !== null && "$d" in value ? new Date((value as { $d: number }).$d) : value,
  ) as Record<string, unknown>;
}

describe("the packed document fields", () => {
  const packedRoundTrip = (state: UserState) => ({
    ...createUserState("u1", T0),
    ...decodeUserState(unpackUserFields(structuredClone(packUserFields(encodeUserState(state))))),
  });

  it("read back exactly the state they hold (dates, award snapshots, linked lists, days)", () => {
    expect(packedRoundTrip(richState())).toEqual(richState());
    const state = withHistory([award(3), award(1), award(2, []), award(4)], ["a", "b", "c"]);
    expect(packedRoundTrip(state)).toEqual(state);
  });

  it("hold each accumulating entry as a field of its own, named by its path, and the rest as one string", () => {
    const { s, e } = packUserFields(encodeUserState(withHistory([award(1), award(2)], ["a"])));
    const paths = Object.keys(e).map((path) => path.replace(/[A-Za-z0-9_-]{8,}$/, "<key>").replace(/\/[A-Za-z0-9_-]{6}\//, "/<id>/"));
    expect(paths.sort()).toEqual(["i/<key>", "lh/<id>/<key>", "pa/<id>/<key>", "pa/<id>/<key>", "pp/<id>/<key>", "pp/<id>/<key>"]);
    const rest = JSON.parse(s) as Record<string, any>;
    expect(rest.points.xp.total).toBe(20);
    expect(Object.keys(rest.points.xp)).not.toEqual(expect.arrayContaining(["awards"]));
    expect(Object.keys(rest.points.xp)).not.toEqual(expect.arrayContaining(["awardParts"]));
    expect(rest.leaderboards.lb).toEqual({ run: "2026-01-01", group: "" });
    expect(rest).not.toHaveProperty("recentIdempotency");
  });

  it("are the same whether parts were packed before (shared with an earlier state) or not", () => {
    let state = richState();
    packUserFields(encodeUserState(state));
    for (let i = 1; i <= 5; i++) {
      const xp = state.points.xp!;
      state = {
        ...state,
        updated: new Date(T0.getTime() + i * 86_400_000),
        metrics: i % 2 ? { ...state.metrics, m1: { total: String(7 + i), daily: { ...state.metrics.m1!.daily, "2026-02-01": String(i) } } } : state.metrics,
        points: i % 3 ? state.points : { xp: { ...xp, total: xp.total + 1, awards: [...xp.awards, award(10 + i)] } },
      };
      expect(packUserFields(encodeUserState(state))).toEqual(packUserFields(encodeUserState(structuredClone(state))));
    }
  });
});

describe("a packed entry", () => {
  // The format as a replacer function writes it (the way it was written before the walk).
  const withReplacer = (value: unknown) =>
    JSON.stringify(value, function (this: Record<string, unknown>, key: string, inner: unknown) {
      const raw = this[key];
      return raw instanceof Date ? { $d: raw.getTime() } : inner;
    });
  const samples: unknown[][] = [
    [],
    [null, 0, -1.5, "text", 'quote " and \\ slash', '{"$d":1}', true, false, Number.NaN, Number.POSITIVE_INFINITY],
    [new Date(0), new Date("2026-03-29T01:30:00Z"), { at: new Date(5), nested: [{ at: new Date(6) }, [new Date(7)]] }],
    [{ kept: 1, dropped: undefined, fn: () => 1 }, [undefined, () => 1], { "": 1, "2": "two", "1": "one", b: "b", a: "a" }],
    [{ $d: 1, other: 2 }, { $d: "not a number" }, { decimal: { toJSON: () => "12.50" } }],
  ];

  it("is the JSON a replacer writes, dates as {$d}, and reads back with its dates", () => {
    for (const sample of samples) {
      expect(packList(sample)).toBe(withReplacer(sample));
      expect(unpackList(packList(sample))).toEqual(
        JSON.parse(withReplacer(sample), (_k, v) =>
          v && typeof v === "object" && Object.keys(v).length === 1 && typeof v.$d === "number" ? new Date(v.$d) : v,
        ),
      );
    }
    const [dates] = unpackList(packList([{ at: new Date(5), list: [new Date(6)] }])) as Array<{ at: Date; list: Date[] }>;
    expect(dates!.at).toEqual(new Date(5));
    expect(dates!.list[0]).toEqual(new Date(6));
  });

  it('keeps a "__proto__" key as a field of its own, a date in it too', () => {
    const [read] = unpackList('[{"__proto__":{"$d":5},"x":{"__proto__":{"a":1}}}]') as Array<Record<string, unknown>>;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(read, "__proto__")?.value).toEqual(new Date(5));
    expect(Object.getOwnPropertyDescriptor(read!.x, "__proto__")?.value).toEqual({ a: 1 });
  });
});
