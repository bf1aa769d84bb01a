import { describe, expect, it } from "vitest";
import { classifyStatus, DEFAULT_RETRY_SCHEDULE_MS, nextRetryDelay, parseRetryAfter, parseRetrySchedule } from "./webhook-delivery-policy.js";

const T0 = new Date("2026-05-01T10:00:00Z");

describe("retries", () => {
  it("follows the schedule with ±20% jitter, then gives up", () => {
    const schedule = [0, 5_000, 300_000];
    expect(nextRetryDelay(schedule, 1, 0.5, null)).toBe(5_000);
    expect(nextRetryDelay(schedule, 1, 0, null)).toBe(4_000);
    expect(nextRetryDelay(schedule, 2, 0.999999, null)).toBe(360_000);
    expect(nextRetryDelay(schedule, 3, 0.5, null)).toBeNull();
  });

  it("honours Retry-After as a lower bound", () => {
    expect(nextRetryDelay([0, 5_000, 300_000], 1, 0.5, 60_000)).toBe(60_000);
    expect(nextRetryDelay([0, 5_000, 300_000], 2, 0.5, 60_000)).toBe(300_000);
  });

  it("spans about a day by default, starting at once", () => {
    const total = DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(DEFAULT_RETRY_SCHEDULE_MS[0]).toBe(0);
    expect(total / 3_600_000).toBeGreaterThan(24);
    expect(total / 3_600_000).toBeLessThan(30);
  });

  it.each([
    ["120", 120_000],
    [" 3 ", 3_000],
    ["Fri, 01 May 2026 10:01:00 GMT", 60_000],
    ["Fri, 01 May 2026 09:00:00 GMT", 0],
    ["999999", 86_400_000],
    ["soon", null],
    [null, null],
  ])("reads Retry-After %j", (header, expected) => {
    expect(parseRetryAfter(header, T0)).toBe(expected);
  });

  it.each([
    [200, "delivered"],
    [204, "delivered"],
    [299, "delivered"],
    [301, "retry"],
    [404, "retry"],
    [410, "gone"],
    [429, "retry"],
    [500, "retry"],
  ] as const)("classifies HTTP %i as %s", (status, expected) => {
    expect(classifyStatus(status)).toBe(expected);
  });

  it("parses a schedule from configuration", () => {
    expect(parseRetrySchedule("0, 100,100")).toEqual([0, 100, 100]);
    expect(() => parseRetrySchedule("0,-1")).toThrow();
    expect(() => parseRetrySchedule("0,soon")).toThrow();
  });
});
