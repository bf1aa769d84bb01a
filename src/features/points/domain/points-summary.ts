/**
 * Aggregate points reads over a tenant's users: users per level and the points histogram, from a
 * count of users per total (`TotalCounts`), plus the reference's `key:value,key:value` attribute
 * filter. Pure.
 */
import { invalidArgument } from "../../../engine/domain/errors.js";
import { levelForTotal } from "./points-boosts.js";
import type { PointsLevelConfig } from "./points-config.js";

/** How many users hold each total (a map keeps memory to the number of distinct totals). */
export type TotalCounts = ReadonlyMap<number, number>;

export interface PointsRangeCount {
  /** Inclusive. */
  from: number;
  /** Inclusive. */
  to: number;
  users: number;
}

/** The number of equal ranges after the 0-to-0 one. */
const RANGES = 10;

/**
 * The reference's histogram: eleven ranges, the first from 0 to 0, the other ten equally sized from
 * 1 to the greatest total rounded up to a power of 10 (max 550 → 1-100, ..., 901-1000; max 1000 →
 * the same; max 1001 → 1-1000, ..., 9001-10000). The power is at least 10, so the ranges are whole
 * numbers even when no one has more than a few points (or there are no users at all: 1-1, ..., 10-10).
 * Totals never go below 0 (the engine floors them).
 */
export function pointsRanges(counts: TotalCounts): PointsRangeCount[] {
  let greatest = 0;
  for (const total of counts.keys()) greatest = Math.max(greatest, total);
  let top = RANGES;
  while (top < greatest) top *= 10;
  const width = top / RANGES;
  const ranges: PointsRangeCount[] = [{ from: 0, to: 0, users: 0 }];
  for (let i = 0; i < RANGES; i++) ranges.push({ from: i * width + 1, to: (i + 1) * width, users: 0 });
  for (const [total, users] of counts) {
    const index = total <= 0 ? 0 : Math.ceil(total / width);
    ranges[index]!.users += users;
  }
  return ranges;
}

/**
 * Users per level, lowest threshold first, by the level each total reaches (`levelForTotal`);
 * totals below the lowest threshold are at no level and not counted.
 */
export function usersPerLevel(counts: TotalCounts, levels: readonly PointsLevelConfig[]): Array<{ level: PointsLevelConfig; users: number }> {
  const byLevel = new Map<string, number>();
  for (const [total, users] of counts) {
    const level = levelForTotal(total, levels);
    if (level) byLevel.set(level.id, (byLevel.get(level.id) ?? 0) + users);
  }
  return [...levels].sort((a, b) => a.points - b.points).map((level) => ({ level, users: byLevel.get(level.id) ?? 0 }));
}

/**
 * Parses the reference's user attribute filter, `key:value,key:value` (the value is everything after
 * the first colon). Empty input: no filters. A key given twice is refused (a user has one value).
 */
export function parseAttributeFilter(raw: string): Array<{ key: string; value: string }> {
  if (raw.trim() === "") return [];
  const seen = new Set<string>();
  return raw.split(",").map((part) => {
    const colon = part.indexOf(":");
    const key = colon < 0 ? "" : part.slice(0, colon).trim();
    const value = colon < 0 ? "" : part.slice(colon + 1).trim();
    if (key === "" || value === "") {
      throw invalidArgument(`userAttributes must be key:value pairs separated by commas (e.g. "plan:pro,region:eu"), got "${part}"`);
    }
    if (seen.has(key)) throw invalidArgument(`userAttributes names "${key}" more than once`);
    seen.add(key);
    return { key, value };
  });
}
