// The user document stays bounded however long a user's history is (issue 14, item 4): 10,000
// events over two years of simulated time, with idempotency keys, time-zone changes, missed days,
// a daily streak with freezes, two points systems (metric triggers, levels, a boost), three
// achievements and three leaderboards (by the metric with daily runs, by points, by streak).
//
// The configuration is made through the Admin API of a real server and loaded as the event path
// loads it; the events then go through the domain rules in process (the event path's pure part,
// `applyEvent` and `completeChange`, with the leaderboard outcomes a ranking would give), because
// 10,000 real calls with three ranking writes each take minutes on this machine. Each step's state is
// laid out as the store writes it (long lists' older items cut into pages, engine/store/list-pages.ts),
// and the document is finally written by the store and its stored size read back from the database.
import { BSON } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isWithinWindow, type IdempotencyRecord } from "../../src/engine/domain/idempotency.js";
import { applyEvent } from "../../src/engine/domain/event.js";
import { contributionOf, planLeaderboardEntries, recordLeaderboardOutcomes } from "../../src/features/leaderboards/domain/leaderboard-entries.js";
import { completeChange, eventsOf } from "../../src/engine/domain/reactions.js";
import { createUserState, type UserState } from "../../src/engine/domain/user.js";
import { loadEngineConfig } from "../../src/engine/engine-config.js";
import { RECENT_IDEMPOTENCY_LIMIT } from "../../src/engine/record-event.js";
import { encodeUserState } from "../../src/engine/store/user-encoding.js";
import { saveUser, userChanges, userDocument, userDocumentId } from "../../src/engine/store/user-documents.js";
import { rotatePagedLists } from "../../src/engine/store/user-pages.js";
import { packList } from "../../src/engine/store/user-encoding.js";
import type { PageIndex } from "../../src/engine/store/list-pages.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const START = Date.parse("2025-01-01T08:00:00Z");
const TWO_YEARS_MS = 730 * 86_400_000;
const EVENTS = 10_000;
const MAX_DOCUMENT_BYTES = 128 * 1024;

const clock = { now: new Date(START) };
let server: TestServer;
let tenantId: string;
let metricId: string;

async function created(path: string, body: unknown): Promise<Array<{ id: string }>> {
  const response = await server.rest("POST", path, { body, tenantId: "bounded" });
  expect(response.body.issues ?? [], JSON.stringify(response.body)).toEqual([]);
  return response.body.created;
}

beforeAll(async () => {
  server = await startTestServer({ now: () => clock.now });
  const tenant = await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: "bounded", name: "Bounded" }] });
  tenantId = tenant.body.created[0].id;
  [{ id: metricId }] = (await created("/admin/v1/metrics", [{ key: "words", name: "Words" }])) as [{ id: string }];
  await created(
    "/admin/v1/achievements",
    [10, 1000, 100_000].map((v) => ({ name: `Words ${v}`, key: `words-${v}`, trigger: "metric", metricId, metricValue: v, status: "active" })),
  );
  const settings = {
    frequency: "daily",
    metrics: [{ metricId, threshold: 1 }],
    evaluationMode: "all",
    freezes: { initialGrant: 1, maxFreezes: 2, autoEarn: { amount: 1, intervalDays: 7 } },
  };
  const put = await server.rest("PUT", "/admin/v1/streaks/settings", { body: settings, tenantId: "bounded" });
  expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
  const systems = await created("/admin/v1/points", [
    { key: "xp", name: "XP" },
    { key: "coins", name: "Coins" },
  ]);
  for (const system of systems) {
    await created(`/admin/v1/points/${system.id}/triggers`, [{ type: "metric", points: 10, metricId, metricThreshold: 1, status: "active" }]);
    await created(
      `/admin/v1/points/${system.id}/levels`,
      [0, 100, 1000, 10_000].map((points, i) => ({ name: `Level ${i}`, key: `level-${i}`, points })),
    );
  }
  await created(`/admin/v1/points/${systems[0]!.id}/boosts`, [{ name: "Double XP", start: "2024-12-31", end: "2027-12-31", multiplier: 2 }]);
  await created("/admin/v1/leaderboards", [
    { key: "words-daily", name: "Words today", rankBy: "metric", metricId, status: "active", start: "2024-12-01", runUnit: "day", runInterval: 1 },
    { key: "xp", name: "XP", rankBy: "points", pointsSystemId: systems[0]!.id, status: "active", start: "2024-12-01" },
    { key: "streaks", name: "Streaks", rankBy: "streak", status: "active", start: "2024-12-01" },
  ]);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** Each top-level field's share of the stored document, largest first, for failure messages. */
function breakdown(state: UserState): string {
  return Object.entries(encodeUserState(state))
    .map(([field, value]) => [field, BSON.calculateObjectSize({ value })] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([field, bytes]) => `${field} ${bytes}`)
    .join(", ");
}

describe("the user document", () => {
  it("stays under 128 KB after 10,000 events over two years, and stops growing", async () => {
    const engine = await loadEngineConfig(server.service.context, tenantId);
    const zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"];
    let state = createUserState("long-history", new Date(START));
    let pages: PageIndex | undefined;
    const sizes: number[] = [];
    /** Bytes of each write's `$set` and `$unset`, as the store would send them. */
    const writes: number[] = [];
    let applied = 0;
    for (let i = 0; i < EVENTS; i++) {
      const at = new Date(START + Math.floor((i * TWO_YEARS_MS) / EVENTS));
      const day = Math.floor((at.getTime() - START) / 86_400_000);
      if (day % 9 === 8 || day % 31 === 30) continue; // missed days: freezes used, streaks lost
      const tz = zones[Math.floor(day / 60) % zones.length]!; // a move every two months
      const event = { eventId: `e${i}`, metricId, at, user: { id: "long-history", tz }, value: 1 + (i % 7), attributes: {} };
      const result = applyEvent(state, event, at, engine, i === 0);
      const { reactions } = result.outcome;
      const contribution = contributionOf({ metricId, value: event.value }, reactions.points, reactions.streak?.length);
      const plans = planLeaderboardEntries(result.state, engine.leaderboards ?? [], contribution, at);
      // As a ranking of one would answer: the user ranks first while ranked.
      const outcomes = plans.map((plan) => ({
        changed: true,
        previousRank: 1,
        rank: plan.value === null ? null : 1,
        previousValue: null,
        value: plan.value,
        threshold: null,
      }));
      const recorded = recordLeaderboardOutcomes(result.state, plans, outcomes, at);
      const before = state;
      state = completeChange(recorded.state, { ...eventsOf(reactions), leaderboardResults: recorded.results }, engine, at);
      // The event path keeps at most RECENT_IDEMPOTENCY_LIMIT keys in the document (older ones move out).
      const record: IdempotencyRecord = { id: `${metricId}:key-${i}`, metricId, fingerprint: "f".repeat(64), eventId: event.eventId, at };
      const recent = state.recentIdempotency.filter((r) => isWithinWindow(r, at, server.service.context.idempotencyWindowMs));
      state = { ...state, recentIdempotency: [...(recent.length >= RECENT_IDEMPOTENCY_LIMIT ? [] : recent), record] };
      applied += 1;
      // As the store writes it: long lists' older items cut into pages (their bytes count as written).
      const rotated = rotatePagedLists(state, pages);
      state = rotated.state;
      const index = rotated.changes.length > 0 ? { pages: rotated.index } : {};
      pages = rotated.index;
      const change = userChanges(before, state);
      const pageBytes = rotated.changes.flatMap((c) => c.written).reduce((sum, w) => sum + BSON.calculateObjectSize({ items: packList(w.items) }), 0);
      writes.push(BSON.calculateObjectSize({ $set: { ...change.set, ...index }, $unset: change.unset }) + pageBytes);
      if (applied % 1000 === 0) sizes.push(BSON.calculateObjectSize({ ...userDocument(tenantId, state), pages }));
    }
    expect(applied).toBeGreaterThan(8000);

    const { users } = server.service.context.database.collections;
    expect(await saveUser(users, server.service.context.database.collections.userPages, tenantId, null, state, server.service.context.database.writeMode)).toBe(
      true,
    );
    const stored = await users.findOne({ _id: userDocumentId(tenantId, "long-history") });
    const bytes = BSON.calculateObjectSize(stored!) + BSON.calculateObjectSize({ pages });
    expect(bytes, breakdown(state)).toBeLessThanOrEqual(MAX_DOCUMENT_BYTES);
    // Bounded, not merely small: the second year adds no more than a few kilobytes to the first's.
    const half = sizes[Math.floor(sizes.length / 2) - 1]!;
    expect(sizes.at(-1)! - half, `sizes every 1,000 events: ${sizes.join(", ")}; ${breakdown(state)}`).toBeLessThan(8 * 1024);
    // What a write sends does not grow with the history: the last 1,000 writes average no more than
    // the second 1,000 (once every map has entries), and stay within a few kilobytes.
    const average = (from: number, to: number) => writes.slice(from, to).reduce((a, b) => a + b, 0) / (to - from);
    const early = average(1000, 2000);
    const late = average(writes.length - 1000, writes.length);
    expect(late, `bytes per write: events 1,000-2,000 ${early.toFixed(0)}, last 1,000 ${late.toFixed(0)}`).toBeLessThanOrEqual(early * 1.2);
    expect(late).toBeLessThan(4 * 1024);
    if (process.env.SHOW_SIZES)
      console.log(
        `stored ${bytes} bytes: ${breakdown(state)}; sizes every 1,000 events ${sizes.join(", ")}; bytes per write ${early.toFixed(0)} / ${late.toFixed(0)}`,
      );
  }, 300_000);
});
