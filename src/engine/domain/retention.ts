import type { LeaderboardEntry } from "../../features/leaderboards/domain/leaderboard-entries.js";

/**
 * Retention of what the user document keeps about the past, applied on the user's next write (so
 * it costs no scan): leaderboard rank history items older than the configured number of days are
 * dropped. The bound is by count as well (`HISTORY_LIMIT` newest items per leaderboard, always).
 * Days are compared as calendar dates: an item's date is the user's local date, the cut-off the UTC
 * date `days` days before now, so an item goes within a day of its age passing `days`.
 */
export function oldestKeptDate(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

/** The entries with history items dated before `oldest` dropped; the same object when there are none. */
export function trimRankHistory(entries: Record<string, LeaderboardEntry>, oldest: string): Record<string, LeaderboardEntry> {
  let trimmed: Record<string, LeaderboardEntry> | null = null;
  for (const [id, entry] of Object.entries(entries)) {
    if (!entry.history.some((h) => h.date < oldest)) continue;
    trimmed ??= { ...entries };
    trimmed[id] = { ...entry, history: entry.history.filter((h) => h.date >= oldest) };
  }
  return trimmed ?? entries;
}
