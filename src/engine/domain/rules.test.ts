import { describe, expect, it } from "vitest";
import { isValidMetricKey, isValidTimeZone } from "./rules.js";

describe("isValidTimeZone", () => {
  it.each(["Europe/London", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "Pacific/Kiritimati", "UTC", "Etc/GMT+12", "America/Port-au-Prince"])(
    "accepts the IANA zone %s",
    (tz) => expect(isValidTimeZone(tz)).toBe(true),
  );
  it.each(["", "Mars/Olympus", "Europe/Londn", "+02:00", "UTC+2", "Europe/London ", "europe/london/extra", "../etc/passwd"])("refuses %j", (tz) =>
    expect(isValidTimeZone(tz)).toBe(false),
  );
});

describe("isValidMetricKey", () => {
  it.each(["words-written", "a", "step2", "x-1-y"])("accepts %s", (key) => expect(isValidMetricKey(key)).toBe(true));
  it.each(["", "Words", "words_written", "-lead", "trail-", "double--hyphen", "with space", "a.b", "$x", "x".repeat(101)])("refuses %j", (key) =>
    expect(isValidMetricKey(key)).toBe(false),
  );
});
