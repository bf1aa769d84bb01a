import { describe, expect, it } from "vitest";
import { checkDate, isCalendarDate } from "./plain-dates.js";

describe("dates callers send", () => {
  it("are real calendar days written YYYY-MM-DD", () => {
    expect(["2024-02-29", "2023-02-29", "2024-13-01", "20240101", "2026-3-01"].map(isCalendarDate)).toEqual([true, false, false, false, false]);
  });

  it.each([
    ["2000-01-01", null],
    ["2099-12-31", null],
    ["2026-02-30", 'start must be a date (YYYY-MM-DD), got "2026-02-30"'],
    ["0001-01-01", 'start must be from 2000-01-01 to 2099-12-31, got "0001-01-01"'],
    ["1999-12-31", 'start must be from 2000-01-01 to 2099-12-31, got "1999-12-31"'],
    ["2100-01-01", 'start must be from 2000-01-01 to 2099-12-31, got "2100-01-01"'],
  ])("%s", (value, problem) => {
    expect(checkDate("start", value)).toBe(problem);
  });
});
