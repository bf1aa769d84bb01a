// The storage benchmark's full profile (bench/storage.ts), shared with bench/user-bytes.ts: one
// metric with three achievements, a daily streak, two points systems with metric triggers, levels
// and an active boost, and three leaderboards (by the metric, by points, by streak).
import { createUserState, type UserState } from "../src/engine/domain/user.js";

/** An Admin API call as the caller makes it (admin key, `tenant-id` header when a customer ID is given). */
export type AdminCall = (method: string, path: string, body: unknown, customerId?: string) => Promise<any>;

/** A tenant of the full profile: its ID and the leaderboards whose rankings seeding fills. */
export interface FullTenant {
  id: string;
  boards: Array<{ id: string; rankBy: "metric" | "points" | "streak" }>;
}

/** The day `offset` days from today (YYYY-MM-DD, UTC). */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The leaderboards' one run (perpetual, started yesterday). */
export const RUN = day(-1);

/** Creates a tenant of the full profile for `customerId`; its leaderboards' run and its boost start on `since`. */
export async function configureFull(call: AdminCall, customerId: string, since = RUN): Promise<FullTenant> {
  const [tenant] = (await call("POST", "/admin/v1/tenants", [{ customerId, name: `Full profile (${customerId})` }])).created;
  const [words] = (await call("POST", "/admin/v1/metrics", [{ key: "words", name: "Words" }], customerId)).created;
  await call(
    "POST",
    "/admin/v1/achievements",
    [10, 100, 1000].map((v) => ({ name: `Words ${v}`, key: `words-${v}`, trigger: "metric", metricId: words.id, metricValue: v, status: "active" })),
    customerId,
  );
  await call(
    "PUT",
    "/admin/v1/streaks/settings",
    { frequency: "daily", metrics: [{ metricId: words.id, threshold: 1 }], evaluationMode: "all", freezes: { initialGrant: 1, maxFreezes: 2 } },
    customerId,
  );
  const systems = (
    await call(
      "POST",
      "/admin/v1/points",
      [
        { key: "xp", name: "XP" },
        { key: "coins", name: "Coins" },
      ],
      customerId,
    )
  ).created;
  for (const system of systems) {
    await call(
      "POST",
      `/admin/v1/points/${system.id}/triggers`,
      [{ type: "metric", points: 10, metricId: words.id, metricThreshold: 1, status: "active" }],
      customerId,
    );
    await call(
      "POST",
      `/admin/v1/points/${system.id}/levels`,
      [
        { name: "Bronze", key: "bronze", points: 0 },
        { name: "Silver", key: "silver", points: 100 },
        { name: "Gold", key: "gold", points: 1000 },
      ],
      customerId,
    );
  }
  await call("POST", `/admin/v1/points/${systems[0].id}/boosts`, [{ name: "Double XP", start: since, end: day(30), multiplier: 2 }], customerId);
  const boards = (
    await call(
      "POST",
      "/admin/v1/leaderboards",
      [
        { key: "words-board", name: "Words", rankBy: "metric", metricId: words.id, status: "active", start: since },
        { key: "xp-board", name: "XP", rankBy: "points", pointsSystemId: systems[0].id, status: "active", start: since },
        { key: "streak-board", name: "Streaks", rankBy: "streak", status: "active", start: since },
      ],
      customerId,
    )
  ).created;
  return { id: tenant.id, boards: boards.map((b: { id: string }, i: number) => ({ id: b.id, rankBy: (["metric", "points", "streak"] as const)[i]! })) };
}

/** An existing user (created yesterday); in a full tenant ranked on its three leaderboards with these values. */
export function existingUser(id: string, i: number, full: FullTenant | null, created: Date, template?: UserState): UserState {
  const user = { ...(template ?? createUserState(id, created)), userId: id, name: `User ${id}` };
  if (!full) return user;
  const leaderboards = Object.fromEntries(full.boards.map((b) => [b.id, { run: RUN, group: "", value: existingValue(b.rankBy, i), history: [] }]));
  // Copied from a template, the user is in none of the tenant's streak rankings (they were not loaded) and has nothing to send.
  return { ...user, leaderboards, ...(template && { streakRanks: null, outbox: [] }) };
}

/** The value the i-th existing user holds on a leaderboard ranked by `rankBy`. */
export function existingValue(rankBy: FullTenant["boards"][number]["rankBy"], i: number): string {
  return String(rankBy === "streak" ? 1 + (i % 30) : 5 * (1 + ((i * 7919) % 2000)));
}
