import { describe, expect, it } from "vitest";
import { createUserState, type UserState } from "../domain/user.js";
import { userChanges, userDocument } from "./user-documents.js";
import { unpackUserFields } from "./user-encoding.js";

const T0 = new Date("2026-01-01T00:00:00Z");
const base = createUserState("u1", T0);

/** An ID's alias in entry names (engine/store/user-encoding.ts). */
const alias = (id: string) =>
  Object.keys(userDocument("t1", { ...base, metrics: { [id]: { total: "1", daily: { "2026-01-01": "1" } } } }).e!)[0]!.split("/")[1]!;

/** The packed rest and profile of a state, as its document holds them. */
const packedRest = (state: UserState) => userDocument("t1", state).s;
const packedProfile = (state: UserState) => userDocument("t1", state).p;

describe("userChanges", () => {
  it("is empty when nothing changed, including equal dates and nested maps in new objects", () => {
    const copy = structuredClone({ ...base, metrics: { m1: { total: "5", daily: { "2026-01-01": "5" } } } });
    expect(userChanges({ ...base, metrics: { m1: { total: "5", daily: { "2026-01-01": "5" } } } }, copy)).toEqual({ set: {}, unset: {} });
  });

  it("sets the packed rest or profile when a field of it changed", () => {
    const after = { ...base, name: "Ann", updated: new Date("2026-01-02T00:00:00Z"), tzHistory: [{ tz: "UTC", from: T0 }] };
    expect(userChanges(base, after)).toEqual({ set: { s: packedRest(after), p: packedProfile(after) }, unset: {} });
    expect(userChanges(after, { ...after, name: "Bo" })).toEqual({ set: { p: packedProfile({ ...after, name: "Bo" }) }, unset: {} });
    expect(userChanges(after, { ...after, lastEventAt: T0 })).toEqual({ set: { s: packedRest({ ...after, lastEventAt: T0 }) }, unset: {} });
  });

  it("sets only the changed entries of the accumulating maps, down to a metric's month", () => {
    const before = { ...base, metrics: { m1: { total: "1", daily: { "2025-12-31": "1" } }, m2: { total: "7", daily: {} } } };
    const after = { ...before, metrics: { ...before.metrics, m1: { total: "2", daily: { "2025-12-31": "1", "2026-01-01": "1" } } } };
    // Days are stored packed per month (engine/store/user-encoding.ts): the new day's month is set; the total is in the rest.
    expect(userChanges(before, after)).toEqual({ set: { s: packedRest(after), [`e.md/${alias("m1")}/2026-01`]: "1" }, unset: {} });
    const sameTotal = { ...after, metrics: { ...after.metrics, m1: { total: "2", daily: { "2025-12-31": "1", "2026-01-01": "2" } } } };
    expect(userChanges(after, sameTotal)).toEqual({ set: { [`e.md/${alias("m1")}/2026-01`]: "2" }, unset: {} });
  });

  it("packs a document stored before: sets the rest and every entry, unsets its fields", () => {
    const before = { ...base, metrics: { m1: { total: "1", daily: {} } } };
    const after = { ...before, metrics: { m1: { total: "2", daily: { "2026-01-01": "1" } } } };
    expect(userChanges(before, after, ["metrics", "name"])).toEqual({
      set: { s: packedRest(after), p: packedProfile(after), e: { [`md/${alias("m1")}/2026-01`]: "1" } },
      unset: { metrics: "", name: "" },
    });
  });

  it("unsets dropped entries", () => {
    const before = { ...base, activity: { "2025-12-31": "1", "2026-01-01": "1" } };
    const after = { ...base, activity: { "2026-01-01": "1" } };
    expect(userChanges(before, after)).toEqual({ set: {}, unset: { "e.a/2025-12": "" } });
  });

  it("keeps a map whose keys cannot be joined into paths in the packed rest, and reads it back", () => {
    const after = { ...base, leaderboards: { "a.b": { run: "x", group: "", value: "1", history: [] } } };
    const { set } = userChanges(base, after);
    expect(Object.keys(set)).toEqual(["s"]);
    expect(unpackUserFields({ s: set.s as string }).leaderboards).toEqual({ "a.b": { run: "x", group: "", value: "1", history: {} } });
  });
});
