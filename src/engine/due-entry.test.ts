import { describe, expect, it } from "vitest";
import { needsDueEntry } from "./user-commit.js";

const NOW = new Date("2026-06-01T12:00:30Z");
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

describe("when a write lists the user in the scheduler's buckets", () => {
  it("lists a first due time, an earlier one, and any after a stored time already past", () => {
    expect(needsDueEntry(null, at(5), NOW)).toBe(true);
    expect(needsDueEntry(at(60), at(5), NOW)).toBe(true);
    expect(needsDueEntry(at(-1), at(60), NOW)).toBe(true); // its entry may be cleared already
    expect(needsDueEntry(NOW, at(60), NOW)).toBe(true);
  });

  it("keeps the entry it has for a due time that stays in its minute or moves later, and lists nothing without one", () => {
    expect(needsDueEntry(at(5), at(5), NOW)).toBe(false);
    expect(needsDueEntry(at(5), new Date(at(5).getTime() + 20_000), NOW)).toBe(false); // the same minute
    expect(needsDueEntry(at(5), at(6), NOW)).toBe(false);
    expect(needsDueEntry(at(5), at(60 * 24 * 3), NOW)).toBe(false);
    expect(needsDueEntry(at(5), null, NOW)).toBe(false);
    expect(needsDueEntry(null, null, NOW)).toBe(false);
  });
});
