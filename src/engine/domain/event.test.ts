import { describe, expect, it } from "vitest";
import { addDecimals, decimalFromNumber } from "./decimal.js";
import { DomainError } from "./errors.js";
import { applyEvent as applyEventWith, type MetricEvent } from "./event.js";
import type { UserState } from "./user.js";
import { attributesInForce, checkUserUpsert, createUserState, upsertUser, withAttributeIds, withAttributesInForce, zoneInForce } from "./user.js";
import { sha256 } from "../sha256.js";

/** Applies an event with no achievements or points configured. */
function applyEvent(state: UserState, event: MetricEvent, now: Date) {
  return applyEventWith(state, event, now, { achievements: [], points: { systems: [], attributeKeys: {} }, streak: null, newId: () => "id", sha256 }, false);
}

const t0 = new Date("2026-03-01T12:00:00Z");
const t1 = new Date("2026-03-02T12:00:00Z");

function event(value: number, user: MetricEvent["user"] = { id: "u1" }, at = t1): MetricEvent {
  return { eventId: "e", metricId: "m1", at, user, value, attributes: {} };
}

describe("exact decimal totals", () => {
  it("sums a thousand events of 0.1 to exactly 100", () => {
    let total = "0";
    for (let i = 0; i < 1000; i++) total = addDecimals(total, decimalFromNumber(0.1));
    expect(total).toBe("100");
  });

  it("handles negative and mixed values exactly", () => {
    expect(addDecimals(decimalFromNumber(0.3), decimalFromNumber(-0.1))).toBe("0.2");
    expect(addDecimals(decimalFromNumber(1e21), decimalFromNumber(1))).toBe("1000000000000000000001");
    expect(decimalFromNumber(1e-7)).toBe("0.0000001");
    expect(() => decimalFromNumber(Number.NaN)).toThrow(RangeError);
  });
});

describe("applyEvent", () => {
  it("adds the value to the metric's total and leaves other metrics alone", () => {
    const start = { ...createUserState("u1", t0), metrics: { other: { total: "7", daily: {} } } };
    const { state, outcome } = applyEvent(start, event(2.5), t1);
    expect(outcome.total).toBe("2.5");
    expect(state.metrics).toEqual({ other: { total: "7", daily: {} }, m1: { total: "2.5", daily: { "2026-03-02": "2.5" } } });
    expect(applyEvent(state, event(-3), t1).outcome.total).toBe("-0.5");
  });

  it("records a time-zone change with its instant, and not a repeat of the same zone", () => {
    const first = applyEvent(createUserState("u1", t0), event(1, { id: "u1", tz: "Europe/London" }, t0), t0).state;
    const same = applyEvent(first, event(1, { id: "u1", tz: "Europe/London" }), t1).state;
    const moved = applyEvent(same, event(1, { id: "u1", tz: "Asia/Tokyo" }), t1).state;
    expect(same.tzHistory).toEqual([{ tz: "Europe/London", from: t0 }]);
    expect(moved.tz).toBe("Asia/Tokyo");
    expect(moved.tzHistory).toEqual([
      { tz: "Europe/London", from: t0 },
      { tz: "Asia/Tokyo", from: t1 },
    ]);
  });

  describe("user attribute values in force", () => {
    const held = { tier: "gold", region: "eu" };
    // The tenant's user attributes: the ID of each by key.
    const attributes = new Map([
      ["tier", "tier-2"],
      ["region", "region-1"],
      ["plan", "plan-1"],
    ]);
    const user = (attributeIds: Record<string, string>) => ({ ...createUserState("u1", t0), attributes: held, attributeIds });

    it("keeps every value set for its key's attribute, as the same object", () => {
      expect(attributesInForce(user({ tier: "tier-2", region: "region-1" }), attributes)).toBe(held);
    });

    it("drops the value of a key no attribute has (deleted)", () => {
      expect(attributesInForce(user({ tier: "tier-2", region: "region-1" }), new Map([["region", "region-1"]]))).toEqual({ region: "eu" });
    });

    it("drops a value set for an earlier attribute with the key (deleted, then created again)", () => {
      expect(attributesInForce(user({ tier: "tier-1", region: "region-1" }), attributes)).toEqual({ region: "eu" });
      expect(attributesInForce(user({ tier: "tier-1", region: "region-0" }), attributes)).toEqual({});
    });

    it("keeps a value stored without its attribute's ID (a state stored before) while an attribute has the key", () => {
      expect(attributesInForce(user({}), attributes)).toBe(held);
      expect(attributesInForce(user({ region: "region-0" }), attributes)).toEqual({ tier: "gold" });
      expect(attributesInForce(user({}), new Map([["tier", "tier-2"]]))).toEqual({ tier: "gold" });
    });

    it("returns the loaded state itself when nothing is dropped", () => {
      const loaded = user({ tier: "tier-2", region: "region-1" });
      expect(withAttributesInForce(loaded, attributes)).toBe(loaded);
      expect(withAttributesInForce(loaded, new Map([["tier", "tier-2"]])).attributes).toEqual({ tier: "gold" });
    });

    it("marks each value a change writes with its key's attribute, dropping keys no attribute has", () => {
      const marked = user({ tier: "tier-2", region: "region-1" });
      expect(withAttributeIds(marked, attributes)).toBe(marked);
      const set = upsertUser(marked, { id: "u1", attributes: { plan: "pro" } }, t1);
      expect(withAttributeIds(set, attributes)).toMatchObject({
        attributes: { tier: "gold", region: "eu", plan: "pro" },
        attributeIds: { tier: "tier-2", region: "region-1", plan: "plan-1" },
      });
      // A state stored before gets its values' IDs; an attribute deleted meanwhile loses its value.
      expect(withAttributeIds(user({}), new Map([["tier", "tier-2"]]))).toMatchObject({ attributes: { tier: "gold" }, attributeIds: { tier: "tier-2" } });
      // A value taken out as an earlier attribute's and sent again is the new attribute's.
      const again = upsertUser(withAttributesInForce(user({ tier: "tier-1", region: "region-1" }), attributes), { id: "u1", attributes: { tier: "gold" } }, t1);
      expect(withAttributeIds(again, attributes).attributeIds).toEqual({ tier: "tier-2", region: "region-1" });
      const fresh = createUserState("u2", t1);
      expect(withAttributeIds(fresh, attributes)).toBe(fresh);
    });
  });

  it("refuses a user name with control characters, naming the field", () => {
    expect(checkUserUpsert({ id: "u1", name: "a\u0000b" }, "user.")).toBe("user.name must not contain control characters (such as NUL, a line break or ESC)");
    expect(checkUserUpsert({ id: "u1", name: "Zoë 名前" })).toBeNull();
    expect(() => applyEvent(createUserState("u1", t0), event(1, { id: "u1", name: "two\nlines" }), t1)).toThrow(DomainError);
  });

  it("never moves `updated` back: a backdated event after a later change keeps the later moment", () => {
    const patched = upsertUser(createUserState("u1", t0), { id: "u1", name: "N" }, t1);
    const backdated = applyEvent(patched, event(1, { id: "u1" }, t0), t1).state;
    expect(backdated.updated).toEqual(t1);
    const later = new Date(t1.getTime() + 1000);
    expect(applyEvent(backdated, event(1, { id: "u1" }, later), later).state.updated).toEqual(later);
  });

  it("removes the zone with tz null: UTC from that instant, the earlier zone kept for the periods before", () => {
    // Tokyo from t0; removed at t1 (12:00Z on the 2nd, 21:00 in Tokyo).
    const tokyo = applyEvent(createUserState("u1", t0), event(1, { id: "u1", tz: "Asia/Tokyo" }, t0), t0).state;
    const cleared = upsertUser(tokyo, { id: "u1", tz: null }, t1);
    expect([cleared.tz, cleared.tzHistory]).toEqual([
      null,
      [
        { tz: "Asia/Tokyo", from: t0 },
        { tz: "UTC", from: t1 },
      ],
    ]);
    // 2026-03-02T20:00Z is the 3rd in Tokyo, the 2nd in UTC.
    const late = new Date("2026-03-02T20:00:00Z");
    expect(applyEvent(cleared, event(1, { id: "u1" }, late), late).state.metrics.m1!.daily).toEqual({ "2026-03-01": "1", "2026-03-02": "1" });
    expect(applyEvent(tokyo, event(1, { id: "u1" }, late), late).state.metrics.m1!.daily).toEqual({ "2026-03-01": "1", "2026-03-03": "1" });
    // Removing again, or removing a zone never set or set to UTC, records nothing new.
    expect(upsertUser(cleared, { id: "u1", tz: null }, late).tzHistory).toEqual(cleared.tzHistory);
    expect(upsertUser(createUserState("u1", t0), { id: "u1", tz: null }, t1)).toMatchObject({ tz: null, tzHistory: [] });
    const utc = upsertUser(createUserState("u1", t0), { id: "u1", tz: "Etc/UTC" }, t0);
    expect(upsertUser(utc, { id: "u1", tz: null }, t1)).toMatchObject({ tz: null, tzHistory: utc.tzHistory });
    // A backdated removal (the history knows a later change): UTC until that change, the zone staying.
    const late0 = new Date("2026-03-01T18:00:00Z");
    const london = upsertUser(tokyo, { id: "u1", tz: "Europe/London" }, t1);
    const backdated = upsertUser(london, { id: "u1", tz: null }, late0);
    expect(backdated.tz).toBe("Europe/London");
    expect(backdated.tzHistory).toEqual([
      { tz: "Asia/Tokyo", from: t0 },
      { tz: "UTC", from: late0 },
      { tz: "Europe/London", from: t1 },
    ]);
    // Before the first zone the user counted in UTC already: nothing to record.
    expect(upsertUser(tokyo, { id: "u1", tz: null }, new Date("2026-02-28T00:00:00Z")).tzHistory).toEqual(tokyo.tzHistory);
    // An invalid zone is refused; null is not a zone to check.
    expect(checkUserUpsert({ id: "u1", tz: "Mars/Olympus" }, "user.")).toBe('user.tz "Mars/Olympus" is not an IANA time zone name (e.g. "Europe/London")');
    expect(checkUserUpsert({ id: "u1", tz: null })).toBeNull();
  });

  it("takes another spelling of the zone in force (a link, an alias, another letter case) as no move", () => {
    const first = applyEvent(createUserState("u1", t0), event(1, { id: "u1", tz: "Asia/Kolkata" }, t0), t0).state;
    let state = first;
    for (const tz of ["Asia/Calcutta", "asia/kolkata", "Asia/Kolkata", "Asia/Calcutta"]) state = applyEvent(state, event(1, { id: "u1", tz }), t1).state;
    expect([state.tz, state.tzHistory]).toEqual(["Asia/Kolkata", [{ tz: "Asia/Kolkata", from: t0 }]]);
    // A name in another letter case is stored as the database spells it.
    const london = applyEvent(state, event(1, { id: "u1", tz: "europe/london" }), t1).state;
    expect(london.tz).toBe("Europe/London");
    expect(london.tzHistory.at(-1)).toEqual({ tz: "Europe/London", from: t1 });
  });

  it("dates an event in the zone in force at its moment, and a zone sent with a backfill holds until the later change", () => {
    // Los Angeles from t0; Tokyo from 2026-03-03T02:00Z (an identify).
    const la = applyEvent(createUserState("u1", t0), event(1, { id: "u1", tz: "America/Los_Angeles" }, t0), t0).state;
    const tokyoFrom = new Date("2026-03-03T02:00:00Z");
    const tokyo = upsertUser(la, { id: "u1", tz: "Asia/Tokyo" }, tokyoFrom);
    // A backfill at 2026-03-02T20:00Z: the 2nd in Los Angeles (the 3rd in Tokyo), where the user was.
    const backfillAt = new Date("2026-03-02T20:00:00Z");
    const backfilled = applyEvent(tokyo, event(5, { id: "u1" }, backfillAt), tokyoFrom).state;
    expect(backfilled.metrics.m1!.daily).toEqual({ "2026-03-01": "1", "2026-03-02": "5" });
    // The same backfill carrying its zone: nothing new (already in force), the current zone stays Tokyo.
    const withZone = applyEvent(tokyo, event(5, { id: "u1", tz: "America/Los_Angeles" }, backfillAt), tokyoFrom).state;
    expect([withZone.tz, withZone.tzHistory]).toEqual([tokyo.tz, tokyo.tzHistory]);
    // A backfill from a third zone: recorded at its moment, in order, until the later change.
    const denver = applyEvent(tokyo, event(5, { id: "u1", tz: "America/Denver" }, backfillAt), tokyoFrom).state;
    expect(denver.tz).toBe("Asia/Tokyo");
    expect(denver.tzHistory).toEqual([
      { tz: "America/Los_Angeles", from: t0 },
      { tz: "America/Denver", from: backfillAt },
      { tz: "Asia/Tokyo", from: tokyoFrom },
    ]);
    expect([zoneInForce(denver, backfillAt), zoneInForce(denver, tokyoFrom), zoneInForce(denver, t0)]).toEqual([
      "America/Denver",
      "Asia/Tokyo",
      "America/Los_Angeles",
    ]);
  });

  it("keeps stored fields that an event does not send", () => {
    const first = applyEvent(createUserState("u1", t0), event(1, { id: "u1", email: "a@example.com", name: "Ann" }, t0), t0).state;
    const next = applyEvent(first, event(1), t1).state;
    expect([next.email, next.name, next.created, next.updated]).toEqual(["a@example.com", "Ann", t0, t1]);
  });

  it("applies a user's events in time order and refuses an older one", () => {
    const later = applyEvent(createUserState("u1", t0), event(1, { id: "u1" }, t1), t1).state;
    expect(later.lastEventAt).toEqual(t1);
    expect(() => applyEvent(later, event(1, { id: "u1" }, t0), t1)).toThrow(/older than this user's latest applied event/);
    expect(applyEvent(later, event(1, { id: "u1" }, t1), t1).outcome.total).toBe("2");
  });

  it("refuses invalid time zones and non-finite values", () => {
    expect(() => applyEvent(createUserState("u1", t0), event(1, { id: "u1", tz: "Moon/Base" }), t0)).toThrow(DomainError);
    expect(() => applyEvent(createUserState("u1", t0), event(Number.POSITIVE_INFINITY), t0)).toThrow(/finite/);
  });
});

describe("the supported range of values and totals (±1e15)", () => {
  const start = createUserState("u1", t0);

  it("accepts values and totals up to the bound, exactly", () => {
    const first = applyEvent(start, event(1e15), t1);
    expect(first.outcome.total).toBe("1000000000000000");
    const zero = applyEvent(first.state, event(-1e15), t1);
    expect(zero.outcome.total).toBe("0");
    expect(applyEvent(zero.state, event(-1e15), t1).outcome.total).toBe("-1000000000000000");
  });

  it.each([
    ["a value above the bound", 1e15 + 2, "value must be between -1000000000000000 and 1000000000000000, got 1000000000000002"],
    ["a value below the bound", -1e300, "value must be between -1000000000000000 and 1000000000000000, got -1e+300"],
    ["Infinity", Number.POSITIVE_INFINITY, "value must be a finite number, got Infinity"],
    ["NaN", Number.NaN, "value must be a finite number, got NaN"],
  ])("refuses %s", (_name, value, message) => {
    expect(() => applyEvent(start, event(value), t1)).toThrow(new DomainError("invalid_argument", message));
  });

  it("refuses an event whose total would leave the range (two events of 1e308 never make Infinity)", () => {
    const near = applyEvent(start, event(999_999_999_999_999.5), t1).state;
    expect(() => applyEvent(near, event(0.5), t1)).not.toThrow();
    expect(() => applyEvent(near, event(1), t1)).toThrow(
      new DomainError(
        "invalid_argument",
        "This event would make the user's total 1000000000000000.5, outside the supported range of -1000000000000000 to 1000000000000000; nothing was recorded",
      ),
    );
    const low = applyEvent(start, event(-1e15), t1).state;
    expect(() => applyEvent(low, event(-0.001), t1)).toThrow(/outside the supported range/);
  });
});

describe("users' sign-up dates", () => {
  it.each([
    ["2024-02-29", null],
    ["2000-01-01", null],
    ["2099-12-31", null],
    ["2026-02-29", 'user.signUpDate must be a date (YYYY-MM-DD), got "2026-02-29"'],
    ["2024-2-1", 'user.signUpDate must be a date (YYYY-MM-DD), got "2024-2-1"'],
    ["1999-12-31", 'user.signUpDate must be from 2000-01-01 to 2099-12-31, got "1999-12-31"'],
  ])("%s: %s", (signUpDate, problem) => {
    expect(checkUserUpsert({ id: "u", signUpDate }, "user.")).toBe(problem);
  });

  it("is kept when not sent and replaced when sent", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const first = upsertUser(createUserState("u", now), { id: "u", signUpDate: "2025-06-01" }, now);
    expect(upsertUser(first, { id: "u", name: "U" }, now).signUpDate).toBe("2025-06-01");
    expect(upsertUser(first, { id: "u", signUpDate: "2025-07-01" }, now).signUpDate).toBe("2025-07-01");
    expect(createUserState("v", now).signUpDate).toBeNull();
  });
});
