import { describe, expect, it } from "vitest";
import { HISTORY_DAYS, localDate, recordDailyChange, summarizeChanges } from "./history.js";

describe("localDate", () => {
  it.each([
    ["2026-03-01T23:30:00Z", "Europe/London", "2026-03-01"],
    ["2026-03-01T23:30:00Z", "Asia/Tokyo", "2026-03-02"],
    ["2026-03-01T03:00:00Z", "America/Los_Angeles", "2026-02-28"],
    ["2026-03-29T00:30:00Z", "Europe/London", "2026-03-29"], // DST starts at 01:00 UTC
    ["2026-10-25T23:30:00Z", "Europe/London", "2026-10-25"], // after the autumn change, GMT again
    ["2026-03-01T10:00:00Z", "Pacific/Kiritimati", "2026-03-02"], // UTC+14
    ["2026-03-01T10:00:00Z", "Pacific/Pago_Pago", "2026-02-28"], // UTC-11
    ["2028-02-29T12:00:00Z", null, "2028-02-29"],
  ])("%s in %s is %s", (iso, tz, expected) => expect(localDate(new Date(iso), tz)).toBe(expected));
});

describe("recordDailyChange", () => {
  it("sums changes of a day exactly and drops days older than the kept history", () => {
    let daily = recordDailyChange({ "2023-01-01": "5" }, "2026-01-10", "0.1");
    daily = recordDailyChange(daily, "2026-01-10", "0.2");
    expect(daily).toEqual({ "2026-01-10": "0.3" });
  });

  it("keeps exactly HISTORY_DAYS days before the day, across a leap day", () => {
    // 2024-02-29 lies in the window: 730 days before 2025-12-31 is 2024-01-01.
    const daily = recordDailyChange({ "2023-12-31": "1", "2024-01-01": "2", "2024-02-29": "3" }, "2025-12-31", "4");
    expect(daily).toEqual({ "2024-01-01": "2", "2024-02-29": "3", "2025-12-31": "4" });
    expect(HISTORY_DAYS).toBe(730);
  });

  it("keeps the whole ISO week and month holding the oldest kept day, for summaries from the oldest start", () => {
    // 730 days before 2026-06-15 is Saturday 2024-06-15: its month began on the 1st, its week on Monday the 10th.
    const june = recordDailyChange({ "2024-05-31": "1", "2024-06-01": "2", "2024-06-14": "3" }, "2026-06-15", "4");
    expect(june).toEqual({ "2024-06-01": "2", "2024-06-14": "3", "2026-06-15": "4" });
    // 730 days before 2026-09-01 is Sunday 2024-09-01: its ISO week began on Monday 26 August.
    const week = recordDailyChange({ "2024-08-25": "1", "2024-08-26": "2" }, "2026-09-01", "4");
    expect(week).toEqual({ "2024-08-26": "2", "2026-09-01": "4" });
    // A monthly summary from the oldest start it allows has the whole first month.
    expect(summarizeChanges(june, "9", "monthly", "2024-06-15", "2024-07-01", "2026-06-15")[0]).toEqual({ date: "2024-06-01", total: "5", change: "5" });
  });
});

describe("summarizeChanges", () => {
  const daily = { "2026-01-01": "100", "2026-01-02": "200", "2026-01-03": "300", "2026-01-05": "-50" };
  const current = "550";

  it("gives daily totals and changes, with zero-change days in between", () => {
    expect(summarizeChanges(daily, current, "daily", "2026-01-01", "2026-01-05", "2026-01-05")).toEqual([
      { date: "2026-01-01", total: "100", change: "100" },
      { date: "2026-01-02", total: "300", change: "200" },
      { date: "2026-01-03", total: "600", change: "300" },
      { date: "2026-01-04", total: "600", change: "0" },
      { date: "2026-01-05", total: "550", change: "-50" },
    ]);
  });

  it("groups ISO weeks from Monday and calendar months", () => {
    // 2026-01-01 is a Thursday: its week starts Monday 2025-12-29; 2026-01-05 is the next Monday.
    expect(summarizeChanges(daily, current, "weekly", "2026-01-01", "2026-01-05", "2026-01-05")).toEqual([
      { date: "2025-12-29", total: "600", change: "600" },
      { date: "2026-01-05", total: "550", change: "-50" },
    ]);
    expect(summarizeChanges({ ...daily, "2026-02-28": "1" }, "551", "monthly", "2026-01-15", "2026-02-01", "2026-03-01")).toEqual([
      { date: "2026-01-01", total: "550", change: "550" },
      { date: "2026-02-01", total: "551", change: "1" },
    ]);
  });

  it("derives totals from the current total, so history before the range still counts", () => {
    expect(summarizeChanges({ "2026-01-10": "5" }, "1005", "daily", "2026-01-09", "2026-01-10", "2026-01-10")).toEqual([
      { date: "2026-01-09", total: "1000", change: "0" },
      { date: "2026-01-10", total: "1005", change: "5" },
    ]);
  });

  it("refuses bad ranges with specific messages", () => {
    expect(() => summarizeChanges({}, "0", "daily", "2026-02-30", "2026-03-01", "2026-03-01")).toThrow(
      'startDate must be a date (YYYY-MM-DD), got "2026-02-30"',
    );
    expect(() => summarizeChanges({}, "0", "daily", "2026-03-02", "2026-03-01", "2026-03-02")).toThrow("endDate must not be before startDate");
    expect(() => summarizeChanges({}, "0", "daily", "2025-01-01", "2026-03-01", "2026-03-01")).toThrow("at most 400 days");
    // 2025-02-25 + 400 days is 2026-04-01: 401 days with both ends.
    expect(() => summarizeChanges({}, "0", "daily", "2025-02-25", "2026-04-01", "2026-04-01")).toThrow("at most 400 days");
    expect(summarizeChanges({}, "0", "daily", "2025-02-25", "2026-03-31", "2026-04-01")).toHaveLength(400);
    expect(() => summarizeChanges({}, "0", "daily", "2020-01-01", "2020-01-02", "2026-03-01")).toThrow("within the last 730 days");
  });
});
