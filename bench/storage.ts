// Storage benchmark at a real customer's size: the event call over REST for existing users of a
// database holding BENCH_EXISTING_USERS users, on two profiles, next to the raw database rate of one
// findOneAndUpdate({_id}) per event on a collection of the same size, measured in the same run.
//
//   npm run bench
//   BENCH_EXISTING_USERS=5000 BENCH_SECONDS=3 npm run bench
//
// Environment:
//   BENCH_EXISTING_USERS  users in the database before measuring (default 20000); the growth figure
//                         compares the full profile's p50 at 1,000 users with this size
//   BENCH_CONCURRENCY     comma-separated concurrencies (default 1,8)
//   BENCH_SECONDS         measured seconds per case (default 5), after BENCH_WARMUP (default 1)
//   BENCH_IDLE_SECONDS    how long idle background load is counted (default 60: every minute the
//                         scheduler and the webhook walker read one minute's buckets, so a shorter
//                         window counts that walk or not by chance)
//   BENCH_PROFILES        comma-separated profiles to measure (default bare,full)
//   BENCH_HISTORY_DAYS    days of use behind the users of the "full-history" case (default 120, past the
//                         100 kept awards and rank-history days; 0: no such case)
//   BENCH_CPU_PROFILE     a directory: each measured case of a profile writes a V8 CPU profile there
//   MONGODB_URI           use this server (a fresh database is created and dropped) instead of FerretDB
//
// Profiles, each in its own tenant:
//   bare  one metric, nothing attached;
//   full  the metric has three achievements, a daily streak, two points systems with metric
//         triggers, levels and an active boost, and three leaderboards (by the metric, by points,
//         by streak).
// Existing users are inserted directly as the store writes them (engine/store/user-documents.ts userDocument,
// and listed in their tenant's users, engine/store/tenant-users.ts); in
// the full profile each is a copy of a user whose one event was yesterday at noon (sent through the
// service), so their daily streak is due at the next midnight, and they are listed there (a bucket of
// that size); each is ranked on the three leaderboards (rankings built with the store's bulkLoad),
// so ranking writes work on rankings of that size;
// measured events go to users picked at random among them (one in twenty to a new user). The
// service keeps recently used users in memory (USER_CACHE_ENTRIES, 5,000) in single-instance mode:
// with 20,000 users most events miss it, as for a real customer's long tail. The "in memory" rows
// send the same calls to 2,000 of them, each read once before (as active users are): what an event
// costs without the user read (not a target figure).
// Per case: events/s, p50, p99, database commands per event (by collection), bytes sent in write
// commands per event, ratio to the raw baseline. Idle: commands per second the background loops
// send with no traffic. Leaderboard page: p50 of 100 top-100 reads (GET /v1/leaderboards/{key}) of the
// full profile's metric leaderboard at 1,000 and at BENCH_EXISTING_USERS ranked users, as a ratio;
// points summary: GET /v1/points/{key}/summary, the one read that walks the tenant's users (its
// listing, then each user by _id): the first read, which walks them, and the p50 of 5 more, which
// count from the standings kept in memory since (engine/store/tenant-standings.ts), at both sizes.
// full-history: the full profile for 16 users with BENCH_HISTORY_DAYS days of use behind them (one
// backdated event a day, every seventh day skipped), so the cost of a long history shows; their
// documents' size is printed. Nothing fails on a threshold; results go to bench/results/storage-<time>.json.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { Session } from "node:inspector";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BSON, MongoClient, type CommandStartedEvent } from "mongodb";
import pino from "pino";
import { startFerretDb } from "../src/server/embedded-db.js";
import { startService, type RunningService } from "../src/server/service.js";
import { runDueWork } from "../src/workers/due-work.js";
import { listTenantUsers } from "../src/engine/store/tenant-users.js";
import { rankingScope, rankingsOf } from "../src/features/leaderboards/ranking-updates.js";
import { minuteOf, readStoredUser, userDocument, type UserDocument } from "../src/engine/store/user-documents.js";
import { forEachLimited } from "../src/engine/for-each-limited.js";
import { addToBucket } from "../src/engine/store/keyed-buckets.js";
import { drive, driveHttp, monitoredUriOf, type HttpLoad } from "./drive.js";
import { configureFull, day, existingUser, existingValue, RUN, type FullTenant } from "./full-profile.js";

const env = process.env;
const existingUsers = wholeNumber(env.BENCH_EXISTING_USERS ?? "20000", "BENCH_EXISTING_USERS");
const concurrencies = (env.BENCH_CONCURRENCY ?? "1,8").split(",").map((s) => wholeNumber(s, "BENCH_CONCURRENCY"));
const seconds = Number(env.BENCH_SECONDS ?? "5");
const warmupSeconds = Number(env.BENCH_WARMUP ?? "1");
const idleSeconds = Number(env.BENCH_IDLE_SECONDS ?? "60");
const GROWTH_BASE = Math.min(1000, existingUsers);
/** Users the "in memory" rows send events to: fewer than the service keeps in memory (USER_CACHE_ENTRIES, 5,000). */
const IN_MEMORY_USERS = Math.min(2000, existingUsers);
const ADMIN_KEY = `adm_bench${randomBytes(4).toString("hex")}.${randomBytes(32).toString("base64url")}`;
const ALL_PROFILES = ["bare", "full"] as const;
type Profile = (typeof ALL_PROFILES)[number];
const historyDays = Number(env.BENCH_HISTORY_DAYS ?? "120");
if (!Number.isInteger(historyDays) || historyDays < 0) throw new Error(`BENCH_HISTORY_DAYS: "${env.BENCH_HISTORY_DAYS}" is not a whole number`);
const PROFILES = (env.BENCH_PROFILES ?? ALL_PROFILES.join(",")).split(",").map((name) => {
  const profile = ALL_PROFILES.find((p) => p === name.trim());
  if (!profile) throw new Error(`BENCH_PROFILES: "${name}" is not one of ${ALL_PROFILES.join(", ")}`);
  return profile;
});

// ---- database, service and command accounting ----------------------------------------------------

const cleanups: Array<() => unknown> = [];
let serverUri = env.MONGODB_URI ?? "";
let databasePid: number | undefined;
if (!serverUri) {
  const dataDir = await mkdtemp(join(tmpdir(), "gamification-bench-"));
  process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
  const database = await startFerretDb({ dataDir });
  cleanups.push(() => database.stop());
  serverUri = database.uri;
  databasePid = database.pid;
}
const dbName = `bench_${randomBytes(6).toString("hex")}`;
const monitoredUri = monitoredUriOf(serverUri);

interface Tally {
  commands: Map<string, number>;
  writeBytes: number;
  writeBytesByCollection: Map<string, number>;
}
const newTally = (): Tally => ({ commands: new Map(), writeBytes: 0, writeBytesByCollection: new Map() });
let serviceTally = newTally();
let baselineTally = newTally();
const WRITES = new Set(["insert", "update", "delete", "findAndModify"]);
function account(tally: () => Tally) {
  return (event: CommandStartedEvent) => {
    const t = tally();
    const collection = (event.command as Record<string, unknown>)[event.commandName];
    const key = `${event.commandName} ${typeof collection === "string" ? collection : ""}`.trim();
    t.commands.set(key, (t.commands.get(key) ?? 0) + 1);
    if (WRITES.has(event.commandName)) {
      const bytes = BSON.calculateObjectSize(event.command);
      t.writeBytes += bytes;
      t.writeBytesByCollection.set(key, (t.writeBytesByCollection.get(key) ?? 0) + bytes);
    }
  };
}

const raw = await new MongoClient(monitoredUri).connect();
raw.on(
  "commandStarted",
  account(() => baselineTally),
);
const db = raw.db(dbName);
const buildInfo = await raw.db("admin").command({ buildInfo: 1 });
const service: RunningService = await startService({
  mongodbUri: monitoredUri,
  mongodbDb: dbName,
  port: 0,
  host: "127.0.0.1",
  adminApiKey: ADMIN_KEY,
  logger: pino({ level: "silent" }),
});
service.context.database.client.on(
  "commandStarted",
  account(() => serviceTally),
);
const baseUrl = `http://127.0.0.1:${service.port}`;

async function call(method: string, path: string, body: unknown, tenant?: string): Promise<any> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": ADMIN_KEY };
  if (tenant) headers["tenant-id"] = tenant;
  const response = await fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

// ---- configuration of the two profiles ------------------------------------------------------------

await call("POST", "/admin/v1/metrics", [{ key: "words", name: "Words" }]);
// The growth figure's 1,000 users live in a tenant of their own, so each full tenant's rankings are
// filled once, with all its users, before any event reaches them.
const fullTenants = { small: await configureFull(call, "full-small"), large: await configureFull(call, "full") };
const HISTORY_USERS = 16;
const historyTenant = PROFILES.includes("full") && historyDays > 0 ? await configureFull(call, "full-history", day(-historyDays - 1)) : null;
const tenantIds: Record<Profile, string> = { bare: "default", full: fullTenants.large.id };
const tenantHeader: Record<Profile, string | undefined> = { bare: undefined, full: "full" };

// ---- seeding -------------------------------------------------------------------------------------

let seeded = 0;
const PAD = "x".repeat(1500); // the baseline's documents weigh about what a user document does
const created = new Date(Date.now() - 86_400_000);
/** Brings the bare tenant, the large full tenant and the baseline collection to `target` existing users. */
async function seedUsers(target: number): Promise<void> {
  const users = db.collection<UserDocument>("users");
  const baseline = db.collection<{ _id: string; total: number; pad: string }>("bench_baseline");
  for (let from = seeded; from < target; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, target - from) }, (_, i) => `user-${from + i}`);
    await Promise.all([
      users.insertMany(ids.map((id, i) => userDocument(tenantIds.bare, existingUser(id, from + i, null, created)))),
      listTenantUsers(service.context.database.collections.tenantUsers, service.context.userLocks, tenantIds.bare, ids),
      baseline.insertMany(ids.map((id) => ({ _id: id, total: 0, pad: PAD }))),
    ]);
  }
  seeded = target;
  await seedFullTenant(fullTenants.large, "full", target);
}

/** A full tenant's users, and its three rankings holding every one of them (built in bulk; the template user joins them by its event). */
async function seedFullTenant(full: FullTenant, customerId: string, count: number): Promise<void> {
  const users = db.collection<UserDocument>("users");
  const rankings = rankingsOf(service.context);
  for (const board of full.boards) {
    const standings = Array.from({ length: count }, (_, i) => ({
      userId: `user-${i}`,
      value: existingValue(board.rankBy, i),
      reachedAt: created,
    }));
    await rankings.bulkLoad(rankingScope(full.id, board.id, RUN, ""), standings);
  }
  // Every existing user used the app yesterday: each is a copy of a user whose one event (15 words:
  // past the first achievement, as active users are) was yesterday at noon, brought up to now by the
  // scheduler's work, both done by the service itself; so their daily streak is due at the next midnight.
  const templateId = `template-${randomBytes(4).toString("hex")}`;
  await call("POST", "/api/metrics/words/event", { user: { id: templateId }, value: 15, timestamp: `${day(-1)}T12:00:00Z` }, customerId);
  await runDueWork(service.context, full.id, templateId);
  const template = (await readStoredUser(users, full.id, templateId))!.state;
  if (!template.dueAt || template.dueAt <= new Date())
    throw new Error(`the full profile's template user is due at ${template.dueAt?.toISOString()}, not at its streak's next period end`);
  for (let from = 0; from < count; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, count - from) }, (_, i) => `user-${from + i}`);
    await Promise.all([
      users.insertMany(ids.map((id, i) => userDocument(full.id, existingUser(id, from + i, full, created, template)))),
      listTenantUsers(service.context.database.collections.tenantUsers, service.context.userLocks, full.id, ids),
    ]);
  }
  // Listed as due where the service lists a streak that ends at the next midnight: a bucket that size.
  const nextMidnight = minuteOf(template.dueAt);
  const { database, userLocks } = service.context;
  const ids = Array.from({ length: count }, (_, i) => `user-${i}`);
  // Straight into the buckets (as workers/store/due-users.ts keys them), past the service's memory of
  // its own recent additions, which would spare the measured events their listing.
  await forEachLimited(ids, 8, (id) => addToBucket(database.collections.dueUsers, userLocks, nextMidnight, `${full.id}/${id}`));
}

/**
 * The full-history case's users (`user-0` ...): `historyDays` days of use, one event a day at noon
 * UTC (every seventh day skipped, so streaks break and start again), sent backdated with the admin
 * key through the service. Answers their documents' average stored size in bytes.
 */
async function buildHistories(tenant: FullTenant): Promise<number> {
  const ids = Array.from({ length: HISTORY_USERS }, (_, i) => `user-${i}`);
  await forEachLimited(ids, HISTORY_USERS, async (id) => {
    for (let d = historyDays; d >= 1; d--) {
      if (d % 7 === 0) continue;
      await call("POST", "/api/metrics/words/event", { user: { id }, value: 5, timestamp: `${day(-d)}T12:00:00Z` }, "full-history");
    }
  });
  const users = db.collection<UserDocument>("users");
  const sizes = await Promise.all(ids.map(async (id) => BSON.calculateObjectSize((await users.findOne({ _id: `${tenant.id}/${id}` }))!)));
  return sizes.reduce((a, b) => a + b, 0) / sizes.length;
}

// ---- measurement ---------------------------------------------------------------------------------

/**
 * Milliseconds used so far by the service's event loop (busy time of this process's main thread,
 * which the load generator's worker thread does not share) and CPU milliseconds of the embedded database.
 */
function cpuMs(): { process: number; database: number | null } {
  const busy = performance.eventLoopUtilization().active;
  let database: number | null = null;
  if (databasePid !== undefined) {
    // /proc/<pid>/stat: fields 14 and 15 (utime, stime) in clock ticks, counted after the ")" that ends the name.
    const fields = readFileSync(`/proc/${databasePid}/stat`, "utf8").split(")").pop()!.trim().split(" ");
    database = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  }
  return { process: busy, database };
}
const CLOCK_TICKS = 100;

/** Starts V8's CPU profiler on this process; the returned function stops it and writes the profile. */
async function startCpuProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  const post = (method: string) => new Promise<any>((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  await post("Profiler.enable");
  await post("Profiler.start");
  return async (file) => {
    const { profile } = await post("Profiler.stop");
    session.disconnect();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
  };
}

interface Row {
  users: number;
  profile: Profile | `${Profile} in memory` | "baseline" | "full-history";
  concurrency: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  commandsPerEvent: number;
  byCollection: Record<string, number>;
  writeBytesPerEvent: number;
  writeBytesByCollection: Record<string, number>;
  /** Milliseconds per event: the service's busy event loop (`process`) and the embedded database's CPU. */
  cpuMsPerEvent: { process: number; database: number | null };
  ratio: number | null;
}
const rows: Row[] = [];
const idle: Array<{ users: number; commandsPerSecond: number; byCollection: Record<string, number> }> = [];

/** Event calls over REST to users picked at random among the first `among` (bench/event-request.cjs). */
const event = (tenantHeader: string | undefined, among = seeded): HttpLoad => ({
  url: `${baseUrl}/api/metrics/words/event`,
  method: "POST",
  headers: { "content-type": "application/json", "x-api-key": ADMIN_KEY, ...(tenantHeader ? { "tenant-id": tenantHeader } : {}) },
  setupRequest: fileURLToPath(new URL("./event-request.cjs", import.meta.url)),
  env: { BENCH_LOAD_USERS: String(among) },
});
const baselineCall = async () => {
  await db
    .collection<{ _id: string; total: number }>("bench_baseline")
    .findOneAndUpdate({ _id: `user-${Math.floor(Math.random() * seeded)}` }, { $inc: { total: 1 } }, { returnDocument: "after" });
};

/** Measures one case: the baseline's database calls from this process, or a profile's event calls over HTTP. */
async function measure(profile: Row["profile"], concurrency: number, run: (() => Promise<void>) | HttpLoad): Promise<Row> {
  const go = (durationS: number) => (typeof run === "function" ? drive(concurrency, durationS, 1, run) : driveHttp(concurrency, durationS, run));
  await go(warmupSeconds);
  const tally = newTally();
  if (profile === "baseline") baselineTally = tally;
  else serviceTally = tally;
  const profiling = env.BENCH_CPU_PROFILE && profile !== "baseline" ? await startCpuProfile() : undefined;
  const cpuBefore = cpuMs();
  const m = await go(seconds);
  const cpuAfter = cpuMs();
  await profiling?.(join(env.BENCH_CPU_PROFILE!, `${profile.replaceAll(" ", "-")}-${seeded}-c${concurrency}.cpuprofile`));
  if (m.errors > 0) console.error(`${profile}: ${m.errors} errors, first: ${m.firstError}`);
  const perEvent = (n: number) => n / Math.max(1, m.events);
  const byCollection: Record<string, number> = {};
  for (const [key, n] of tally.commands) byCollection[key] = perEvent(n);
  const commandsPerEvent = Object.values(byCollection).reduce((a, b) => a + b, 0);
  const writeBytesByCollection: Record<string, number> = {};
  for (const [key, n] of tally.writeBytesByCollection) writeBytesByCollection[key] = perEvent(n);
  return {
    users: seeded,
    profile,
    concurrency,
    eventsPerSecond: m.eventsPerSecond,
    p50Ms: m.p50Ms,
    p99Ms: m.p99Ms,
    commandsPerEvent,
    byCollection,
    writeBytesPerEvent: perEvent(tally.writeBytes),
    writeBytesByCollection,
    cpuMsPerEvent: {
      process: perEvent(cpuAfter.process - cpuBefore.process),
      database: cpuAfter.database === null ? null : perEvent(cpuAfter.database - cpuBefore.database!),
    },
    ratio: null,
  };
}

async function measureIdle(users: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3000)); // let queued background work settle
  serviceTally = newTally();
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const byCollection: Record<string, number> = {};
  for (const [key, n] of serviceTally.commands) byCollection[key] = n / idleSeconds;
  idle.push({ users, commandsPerSecond: Object.values(byCollection).reduce((a, b) => a + b, 0), byCollection });
}

/** p50 of READ_PAGES sequential top-100 page reads of the metric leaderboard (`GET /v1/leaderboards/{key}`) of a full tenant. */
const READ_PAGES = 100;
async function measurePage(tenantHeader: string, users: number): Promise<void> {
  const headers: Record<string, string> = { "x-api-key": ADMIN_KEY, "tenant-id": tenantHeader };
  const read = async () => {
    const response = await fetch(`${baseUrl}/v1/leaderboards/words-board?limit=100`, { headers });
    const body = (await response.json()) as { rankings?: unknown[] };
    if (response.status !== 200 || body.rankings?.length !== 100) throw new Error(`leaderboard page: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
  };
  const m = await drive(1, 0, READ_PAGES, read);
  if (m.errors > 0) throw new Error(`leaderboard page: ${m.errors} failed reads, first: ${m.firstError}`);
  pages.push({ users, p50Ms: m.p50Ms });
}
const pages: Array<{ users: number; p50Ms: number }> = [];

/**
 * Points summaries (`GET /v1/points/{key}/summary`) of a full tenant: the first, which walks the
 * tenant's users (reading each by `_id`), then the p50 of READ_SUMMARIES more, from the standings
 * kept in memory since, so the cost of both at a customer's size is seen.
 */
const READ_SUMMARIES = 5;
async function measureSummary(tenantHeader: string, users: number): Promise<void> {
  const headers: Record<string, string> = { "x-api-key": ADMIN_KEY, "tenant-id": tenantHeader };
  const read = async () => {
    const response = await fetch(`${baseUrl}/v1/points/xp/summary`, { headers });
    const body = (await response.json()) as Array<{ users: number }>;
    const counted = Array.isArray(body) ? body.reduce((a, r) => a + r.users, 0) : -1;
    if (response.status !== 200 || counted < users) throw new Error(`points summary: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
  };
  const started = performance.now();
  await read();
  const firstMs = performance.now() - started;
  const m = await drive(1, 0, READ_SUMMARIES, read);
  if (m.errors > 0) throw new Error(`points summary: ${m.errors} failed reads, first: ${m.firstError}`);
  summaries.push({ users, firstMs, p50Ms: m.p50Ms });
}
const summaries: Array<{ users: number; firstMs: number; p50Ms: number }> = [];

const f = (n: number, digits = 1) => n.toFixed(digits);
try {
  console.log(
    `storage benchmark: ${buildInfo.ferretdbVersion ? `FerretDB ${buildInfo.ferretdbVersion}` : `MongoDB ${buildInfo.version}`}, write mode ${service.context.database.writeMode}`,
  );
  console.log(
    `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `${seconds} s measured + ${warmupSeconds} s warm-up per case; REST event calls in closed loops (autocannon, in a worker thread of this process); database baseline calls from this process; users picked at random.\n`,
  );

  // Growth: the full profile at 1,000 users first (its own tenant), then everything at the full size.
  let small: Row | undefined;
  if (PROFILES.includes("full")) {
    await seedFullTenant(fullTenants.small, "full-small", GROWTH_BASE);
    small = { ...(await measure("full", 1, event("full-small", GROWTH_BASE))), users: GROWTH_BASE };
    rows.push(small);
    await measurePage("full-small", GROWTH_BASE);
    await measureSummary("full-small", GROWTH_BASE);
  }
  await measureIdle(GROWTH_BASE);
  await seedUsers(existingUsers);
  for (const concurrency of concurrencies) {
    const before = await measure("baseline", concurrency, baselineCall);
    const measured = [];
    for (const profile of PROFILES) measured.push(await measure(profile, concurrency, event(tenantHeader[profile])));
    const after = await measure("baseline", concurrency, baselineCall);
    const baseRate = (before.eventsPerSecond + after.eventsPerSecond) / 2;
    rows.push({ ...before, ratio: 1 }, ...measured.map((r) => ({ ...r, ratio: r.eventsPerSecond / baseRate })), { ...after, ratio: 1 });
  }
  // The same calls when the users are in the service's memory (read recently, as active users are):
  // the event is one write and no read. Not a target figure: it shows what the cold rows' user read costs.
  for (const concurrency of concurrencies) {
    const baselines = rows.filter((r) => r.profile === "baseline" && r.concurrency === concurrency);
    const baseRate = baselines.reduce((a, r) => a + r.eventsPerSecond, 0) / baselines.length;
    for (const profile of PROFILES) {
      await forEachLimited(
        Array.from({ length: IN_MEMORY_USERS }, (_, i) => i),
        8,
        (i) => call("GET", `/v1/users/user-${i}`, undefined, tenantHeader[profile]),
      );
      const r = await measure(`${profile} in memory`, concurrency, event(tenantHeader[profile], IN_MEMORY_USERS));
      rows.push({ ...r, users: IN_MEMORY_USERS, ratio: r.eventsPerSecond / baseRate });
    }
  }
  await measureIdle(seeded);
  if (PROFILES.includes("full")) {
    await measurePage("full", seeded);
    await measureSummary("full", seeded);
  }
  let historyBytes: number | null = null;
  if (historyTenant) {
    historyBytes = await buildHistories(historyTenant);
    for (const concurrency of concurrencies) {
      const baselines = rows.filter((r) => r.profile === "baseline" && r.concurrency === concurrency);
      const baseRate = baselines.reduce((a, r) => a + r.eventsPerSecond, 0) / baselines.length;
      const r = await measure("full-history", concurrency, event("full-history", HISTORY_USERS));
      rows.push({ ...r, users: HISTORY_USERS, ratio: r.eventsPerSecond / baseRate });
    }
  }

  console.log(`| users | case | conc | events/s | p50 ms | p99 ms | ratio | db cmds/event | bytes written/event | ms/event: service loop + db cpu |`);
  console.log(`|---|---|---|---|---|---|---|---|---|---|`);
  for (const r of rows) {
    console.log(
      `| ${r.users} | ${r.profile} | ${r.concurrency} | ${f(r.eventsPerSecond, 0)} | ${f(r.p50Ms)} | ${f(r.p99Ms)} | ${r.ratio === null ? "-" : f(r.ratio, 2)} | ${f(r.commandsPerEvent, 2)} | ${f(r.writeBytesPerEvent, 0)} | ${f(r.cpuMsPerEvent.process, 2)} + ${r.cpuMsPerEvent.database === null ? "?" : f(r.cpuMsPerEvent.database, 2)} |`,
    );
  }
  const large = rows.find((r) => r.profile === "full" && r.concurrency === 1 && r.users === existingUsers);
  if (large && small) console.log(`\ngrowth: full profile p50 at ${existingUsers} users ÷ p50 at ${GROWTH_BASE} users = ${f(large.p50Ms / small.p50Ms, 2)}`);
  if (pages.length === 2) {
    const [base, large] = pages as [{ users: number; p50Ms: number }, { users: number; p50Ms: number }];
    console.log(
      `leaderboard page (GET top 100, one at a time): p50 ${f(base.p50Ms)} ms at ${base.users} users, ${f(large.p50Ms)} ms at ${large.users}: ratio ${f(large.p50Ms / base.p50Ms, 2)}`,
    );
  }
  if (summaries.length === 2) {
    const [base, large] = summaries as [(typeof summaries)[number], (typeof summaries)[number]];
    console.log(
      `points summary (GET /v1/points/xp/summary, one at a time): the first (walks the tenant's users) ${f(base.firstMs)} ms at ${base.users} users, ${f(large.firstMs)} ms at ${large.users}; ` +
        `then (from memory) p50 ${f(base.p50Ms)} ms and ${f(large.p50Ms)} ms: ratio ${f(large.p50Ms / base.p50Ms, 2)}`,
    );
  }
  if (historyBytes !== null)
    console.log(`full-history: ${HISTORY_USERS} users with ${historyDays} days of use behind them, documents of ${f(historyBytes / 1024)} KB on average`);
  for (const i of idle)
    console.log(
      `idle at ${i.users} users: ${f(i.commandsPerSecond, 2)} database commands/s (${Object.entries(i.byCollection)
        .map(([k, n]) => `${k} ${f(n, 2)}`)
        .join(", ")})`,
    );
  console.log(`\ndatabase commands per event by command and collection:`);
  for (const r of rows.filter((x) => x.profile !== "baseline")) {
    console.log(
      `  ${r.users} users, ${r.profile}, conc ${r.concurrency}: ${Object.entries(r.byCollection)
        .sort(([, a], [, b]) => b - a)
        .map(([k, n]) => `${k} ${f(n, 2)}`)
        .join(", ")}`,
    );
  }
  console.log(`\nbytes written per event by command and collection:`);
  for (const r of rows.filter((x) => x.profile !== "baseline")) {
    console.log(
      `  ${r.users} users, ${r.profile}, conc ${r.concurrency}: ${Object.entries(r.writeBytesByCollection)
        .sort(([, a], [, b]) => b - a)
        .map(([k, n]) => `${k} ${f(n, 0)}`)
        .join(", ")}`,
    );
  }
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `storage-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { date: new Date().toISOString(), cpus: cpus().length, loadAverage: loadavg(), existingUsers, rows, idle, pages, summaries, historyBytes },
      null,
      2,
    ) + "\n",
  );
  console.log(`\nresults: ${file}`);
} finally {
  await service.close();
  if (env.MONGODB_URI) await db.dropDatabase();
  await raw.close();
  for (const step of cleanups.reverse()) await step();
}
process.exit(0);

function wholeNumber(text: string, name: string): number {
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: "${text}" is not a positive whole number`);
  return n;
}
