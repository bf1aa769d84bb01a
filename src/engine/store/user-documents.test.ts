import { describe, expect, it } from "vitest";
import { createUserState } from "../domain/user.js";
import { userChanges } from "./user-documents.js";

const T0 = new Date("2026-01-01T00:00:00Z");
const base = createUserState("u1", T0);

describe("userChanges", () => {
  it("is empty when nothing changed, including equal dates and nested maps in new objects", () => {
    const copy = structuredClone({ ...base, metrics: { m1: { total: "5", daily: { "2026-01-01": "5" } } } });
    expect(userChanges({ ...base, metrics: { m1: { total: "5", daily: { "2026-01-01": "5" } } } }, copy)).toEqual({ set: {}, unset: {} });
  });

  it("sets changed top-level fields whole", () => {
    const after = { ...base, name: "Ann", updated: new Date("2026-01-02T00:00:00Z"), tzHistory: [{ tz: "UTC", from: T0 }] };
    expect(userChanges(base, after)).toEqual({ set: { name: "Ann", updated: after.updated, tzHistory: after.tzHistory }, unset: {} });
  });

  it("sets only the changed entries of nested maps, down to a metric's day", () => {
    const before = { ...base, metrics: { m1: { total: "1", daily: { "2025-12-31": "1" } }, m2: { total: "7", daily: {} } } };
    const after = { ...before, metrics: { ...before.metrics, m1: { total: "2", daily: { "2025-12-31": "1", "2026-01-01": "1" } } } };
    // Days are stored packed per month (engine/store/user-encoding.ts): the new day's month is set.
    expect(userChanges(before, after)).toEqual({ set: { "metrics.m1.total": "2", "metrics.m1.daily.2026-01": "1" }, unset: {} });
  });

  it("replaces changed top-level fields whole for a document stored in an earlier layout", () => {
    const before = { ...base, metrics: { m1: { total: "1", daily: {} } } };
    const after = { ...before, metrics: { m1: { total: "2", daily: {} } } };
    expect(userChanges(before, after, true)).toEqual({ set: { metrics: after.metrics }, unset: {} });
  });

  it("unsets removed entries and fields", () => {
    const before = { ...base, achievements: { a1: { achievedAt: T0 }, a2: { achievedAt: T0 } } } as never;
    const after = { ...(before as object), achievements: { a1: { achievedAt: T0 } } } as never;
    expect(userChanges(before, after)).toEqual({ set: {}, unset: { "achievements.a2": "" } });
  });

  it("sets the whole map when an entry's key cannot be a path segment", () => {
    const before = { ...base, leaderboards: {} };
    const after = { ...base, leaderboards: { "a.b": { run: "x", group: "", value: "1", history: [] } } };
    expect(userChanges(before, after)).toEqual({ set: { leaderboards: { "a.b": { run: "x", group: "", value: "1", history: {} } } }, unset: {} });
  });
});
