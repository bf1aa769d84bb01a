import { describe, expect, it } from "vitest";
import type { LeaderboardEntry } from "../../features/leaderboards/domain/leaderboard-entries.js";
import { oldestKeptDate, trimRankHistory } from "./retention.js";

const item = (date: string) => ({ run: "2025-01-01", date, previousRank: null, rank: 1, previousValue: null, value: "1" });

describe("rank history retention", () => {
  it("keeps items dated on or after the cut-off, the cut-off being `days` UTC days back", () => {
    expect(oldestKeptDate(new Date("2025-03-10T05:00:00Z"), 30)).toBe("2025-02-08");
    const entries: Record<string, LeaderboardEntry> = {
      a: { run: "2025-01-01", group: "", value: "3", history: [item("2025-02-07"), item("2025-02-08"), item("2025-03-01")] },
      b: { run: "2025-01-01", group: "", value: "1", history: [item("2025-03-02")] },
    };
    const trimmed = trimRankHistory(entries, "2025-02-08");
    expect(trimmed.a!.history.map((h) => h.date)).toEqual(["2025-02-08", "2025-03-01"]);
    expect(trimmed.a!.value).toBe("3");
    expect(trimmed.b).toBe(entries.b);
  });

  it("returns the same object when nothing is old enough", () => {
    const entries: Record<string, LeaderboardEntry> = { a: { run: "2025-01-01", group: "", value: "3", history: [item("2025-03-01")] } };
    expect(trimRankHistory(entries, "2025-02-08")).toBe(entries);
  });
});
