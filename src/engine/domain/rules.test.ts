import { describe, expect, it } from "vitest";
import { canonicalZone, checkName, isValidMetricKey, isValidTimeZone, sameZone, zoneSpelling } from "./rules.js";

describe("isValidTimeZone", () => {
  it.each(["Europe/London", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "Pacific/Kiritimati", "UTC", "Etc/GMT+12", "America/Port-au-Prince"])(
    "accepts the IANA zone %s",
    (tz) => expect(isValidTimeZone(tz)).toBe(true),
  );
  it.each(["", "Mars/Olympus", "Europe/Londn", "+02:00", "UTC+2", "Europe/London ", "europe/london/extra", "../etc/passwd"])("refuses %j", (tz) =>
    expect(isValidTimeZone(tz)).toBe(false),
  );
});

describe("zone spellings", () => {
  it("are one zone across links, aliases and letter case", () => {
    for (const [a, b] of [
      ["Asia/Kolkata", "Asia/Calcutta"],
      ["Europe/Kyiv", "Europe/Kiev"],
      ["US/Eastern", "America/New_York"],
      ["europe/london", "Europe/London"],
      ["Etc/UTC", "UTC"],
    ]) {
      expect(sameZone(a!, b!), `${a} ${b}`).toBe(true);
      expect(canonicalZone(a!)).toBe(canonicalZone(b!));
    }
    expect(sameZone("Europe/London", "Europe/Dublin")).toBe(false);
    expect(sameZone("America/New_York", "America/Detroit")).toBe(false);
    expect(sameZone(null, "UTC")).toBe(false);
    expect(sameZone(null, null)).toBe(true);
  });

  it("are stored in the database's letter case, and otherwise as sent", () => {
    expect(zoneSpelling("europe/london")).toBe("Europe/London");
    expect(zoneSpelling("AMERICA/NEW_YORK")).toBe("America/New_York");
    expect(zoneSpelling("Asia/Kolkata")).toBe("Asia/Kolkata");
    expect(zoneSpelling("US/Eastern")).toBe("US/Eastern");
  });
});

describe("isValidMetricKey", () => {
  it.each(["words-written", "a", "step2", "x-1-y"])("accepts %s", (key) => expect(isValidMetricKey(key)).toBe(true));
  it.each(["", "Words", "words_written", "-lead", "trail-", "double--hyphen", "with space", "a.b", "$x", "x".repeat(101)])("refuses %j", (key) =>
    expect(isValidMetricKey(key)).toBe(false),
  );
});

describe("checkName", () => {
  it("takes any printable text up to 255 characters, and refuses blank, longer, or control characters", () => {
    for (const name of ["Words written", "Ünïcødé 名前 🏆", "n".repeat(255)]) expect(checkName(name), name).toBeNull();
    expect(checkName(" \t")).toBe("name is required");
    expect(checkName("n".repeat(256))).toBe("name must be at most 255 characters");
    for (const name of ["nul\u0000", "esc\u001b[31m", "two\nlines", "c1\u0085"]) {
      expect(checkName(name), JSON.stringify(name)).toBe("name must not contain control characters (such as NUL, a line break or ESC)");
    }
  });
});
