/**
 * Seeds a running service with real configuration for the Schemathesis run (`.ci/fuzz`), through
 * the Admin REST API: attributes, metrics, a points system with triggers, levels and boosts,
 * achievements, streak settings, leaderboards, a tenant, users with events and an application key.
 *
 * Usage: BASE_URL=http://127.0.0.1:8080 ADMIN_API_KEY=... tsx scripts/fuzz-seed.ts
 * Prints `NAME=value` lines (IDs and keys) for the script to export; fuzz/schemathesis.toml pins
 * path parameters to them so generated calls reach the real code instead of 404s.
 */

const baseUrl = requiredEnv("BASE_URL");
const adminKey = requiredEnv("ADMIN_API_KEY");

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set`);
  return value;
}

async function call(method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { "x-api-key": adminKey, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A bulk create that must create every item; returns the created items in order. */
async function created(path: string, items: unknown[]): Promise<any[]> {
  const body = await call("POST", path, items);
  if (body.issues.length > 0 || body.created.length !== items.length) throw new Error(`POST ${path}: ${JSON.stringify(body.issues)}`);
  return body.created;
}

/** A UTC day `offset` days from today, as YYYY-MM-DD. */
function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

await created("/admin/v1/tenants", [{ customerId: "fuzz-tenant", name: "Fuzz tenant" }]);
const [plan, source] = await created("/admin/v1/attributes", [
  { key: "plan", name: "Plan", type: "user" },
  { key: "source", name: "Source", type: "event" },
]);
const [words, lessons] = await created("/admin/v1/metrics", [
  { key: "words", name: "Words written" },
  { key: "lessons", name: "Lessons" },
]);

const [onboarded, novice] = await created("/admin/v1/achievements", [
  { name: "Onboarded", key: "onboarded", trigger: "api", status: "active" },
  { name: "Novice", key: "novice", trigger: "metric", metricId: words.id, metricValue: 100, status: "active" },
  {
    name: "Mobile writer",
    key: "mobile",
    trigger: "metric",
    metricId: words.id,
    metricValue: 1,
    eventAttributes: [{ key: "source", value: "mobile" }],
    status: "active",
  },
  { name: "Week streak", key: "week", trigger: "streak", streakLength: 7, status: "active" },
]);
await created("/admin/v1/achievements", [
  { name: "Master", key: "master", trigger: "achievement", achievementIds: [onboarded.id, novice.id], status: "active" },
]);

await call("PUT", "/admin/v1/streaks/settings", {
  frequency: "daily",
  metrics: [{ metricId: words.id, threshold: 1 }],
  evaluationMode: "all",
  freezes: { initialGrant: 1, maxFreezes: 2 },
});

const [xp] = await created("/admin/v1/points", [{ key: "xp", name: "XP", description: "Experience points" }]);
const [trigger] = await created(`/admin/v1/points/${xp.id}/triggers`, [
  { type: "metric", points: 10, metricId: words.id, metricThreshold: 1, status: "active" },
  { type: "achievement", points: 25, achievementId: onboarded.id, status: "active" },
  { type: "streak", points: 5, streakLength: 3, status: "active" },
  { type: "time", points: 1, timeUnit: "hours", timeInterval: 24, status: "active", userAttributes: [{ attributeId: plan.id, attributeValue: "pro" }] },
  { type: "user_creation", points: 50, status: "active" },
]);
const [level] = await created(`/admin/v1/points/${xp.id}/levels`, [
  { name: "Bronze", key: "bronze", points: 0, description: "Starting level" },
  { name: "Silver", key: "silver", points: 100 },
  { name: "Gold", key: "gold", points: 1000, badge: { url: "https://example.com/gold.png" } },
]);
// Users before the user-specific boost (it must name an existing user).
await call("POST", "/v1/users", { id: "u1", email: "u1@example.com", name: "User One", tz: "Europe/London", attributes: { plan: "pro" } });
await call("POST", "/v1/users", { id: "u2", tz: "America/New_York", attributes: { plan: "free" } });
const [boost] = await created(`/admin/v1/points/${xp.id}/boosts`, [
  { name: "Double XP", start: day(-1), end: day(1), multiplier: 2 },
  { name: "Pro boost", start: day(-10), multiplier: 1.5, rounding: "up", userAttributes: [{ attributeId: plan.id, attributeValue: "pro" }] },
  { userId: "u1", name: "Welcome boost", start: day(0), end: day(7), multiplier: 3 },
]);

const [wordsBoard] = await created("/admin/v1/leaderboards", [
  { key: "words-board", name: "Words", rankBy: "metric", metricId: words.id, status: "active", start: day(-10), runUnit: "day", runInterval: 7 },
  { key: "xp-board", name: "XP board", rankBy: "points", pointsSystemId: xp.id, status: "active", start: day(-10) },
  { key: "streak-board", name: "Streaks", rankBy: "streak", status: "active", start: day(-10) },
  { key: "by-plan", name: "Lessons by plan", rankBy: "metric", metricId: lessons.id, status: "active", start: day(-10), breakdownAttributes: [plan.id] },
]);

for (const [user, value, offset] of [
  ["u1", 120, -2],
  ["u1", 30, -1],
  ["u1", 5, 0],
  ["u2", 40, -1],
  ["u2", 2, 0],
] as const) {
  await call("POST", "/v1/metrics/words/event", {
    user: { id: user },
    value,
    timestamp: new Date(Date.now() + offset * 86_400_000).toISOString(),
    attributes: { source: "mobile" },
  });
}
await call("POST", "/v1/metrics/lessons/event", { user: { id: "u1" }, value: 3 });
await call("POST", "/v1/achievements/onboarded/complete", { user: { id: "u2" } });
await created("/admin/v1/application-api-keys", [{ userId: "u1" }]);

const out: Record<string, string> = {
  FUZZ_ATTRIBUTE_ID: source.id,
  FUZZ_METRIC_ID: words.id,
  FUZZ_POINTS_SYSTEM_ID: xp.id,
  FUZZ_TRIGGER_ID: trigger.id,
  FUZZ_LEVEL_ID: level.id,
  FUZZ_BOOST_ID: boost.id,
  FUZZ_LEADERBOARD_ID: wordsBoard.id,
};
for (const [name, value] of Object.entries(out)) console.log(`${name}=${value}`);
