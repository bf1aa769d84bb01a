// Event-call benchmark: events/s and p50/p99 latency of TrackMetricEvent over REST and Connect,
// next to the raw database rate of one findOneAndUpdate per event measured in the same run.
//
//   npm run bench
//   BENCH_SECONDS=2 BENCH_CONCURRENCY=1,8 npm run bench
//
// Environment:
//   BENCH_CONCURRENCY  comma-separated concurrencies (default 1,8,32)
//   BENCH_SECONDS      measured seconds per case (default 5)
//   BENCH_WARMUP       warm-up seconds per case (default 1; at least one pass over each worker's users)
//   BENCH_PROTOCOLS    comma-separated subset of rest,connect-json,connect-binary (default all)
//   BENCH_USERS        users per worker (default 10)
//   BENCH_COMPARE      a previous results JSON file: prints each ratio's change against it
//   MONGODB_URI        use this server (a fresh database is created and dropped) instead of starting FerretDB
//
// The load generator runs closed loops (each worker waits for its answer before sending the next
// event) in the same process as the service. Worker w sends its i-th event for user
// `u-<w>-<i % BENCH_USERS>`: no two workers share a user, so per-user serialization never makes
// one worker wait for another. Each warm-up makes at least one pass over the worker's users, so the
// measured runs update existing documents. Both database clients count the commands they send
// (driver command monitoring), which shows the service's database commands per event exactly,
// however noisy the machine. Nothing here fails on a threshold; results go to
// bench/results/events-<timestamp>.json.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import pino from "pino";
import { createClient } from "../sdk/src/index.js";
import { startFerretDb, type EmbeddedDatabase } from "../src/server/embedded-db.js";
import { startService, type RunningService } from "../src/server/service.js";
import { drive, monitoredUriOf, type Driven } from "./drive.js";

const PROTOCOLS = ["rest", "connect-json", "connect-binary"] as const;
type Protocol = (typeof PROTOCOLS)[number];
type CaseName = "db-baseline-before" | Protocol | "db-baseline-after";

const env = process.env;
const concurrencies = (env.BENCH_CONCURRENCY ?? "1,8,32").split(",").map((s) => positiveInt(s, "BENCH_CONCURRENCY"));
const seconds = positiveNumber(env.BENCH_SECONDS ?? "5", "BENCH_SECONDS");
const warmupSeconds = Number(env.BENCH_WARMUP ?? "1");
if (!(warmupSeconds >= 0)) throw new Error(`BENCH_WARMUP: "${env.BENCH_WARMUP}" is not a number of seconds`);
const usersPerWorker = positiveInt(env.BENCH_USERS ?? "10", "BENCH_USERS");
const protocols = (env.BENCH_PROTOCOLS ?? PROTOCOLS.join(",")).split(",").map((p) => {
  if (!(PROTOCOLS as readonly string[]).includes(p)) throw new Error(`BENCH_PROTOCOLS: unknown protocol "${p}"`);
  return p as Protocol;
});

const METRIC_KEY = "bench-events";
const ADMIN_KEY = `adm_bench${randomBytes(4).toString("hex")}.${randomBytes(32).toString("base64url")}`;
const userId = (worker: number, i: number) => `u-${worker}-${i % usersPerWorker}`;

// ---- clean shutdown, also on Ctrl-C -------------------------------------------------------------

let aborted = false;
const cleanups: Array<() => unknown> = [];
async function cleanup(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      console.error(`cleanup: ${(error as Error).message}`);
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (aborted) process.exit(130); // second signal: leave now (embedded-db kills FerretDB on exit)
    aborted = true;
    console.error(`\n${signal}: stopping after the running calls (again to force)`);
  });
}

// ---- measurement --------------------------------------------------------------------------------

interface Measurement extends Driven {
  /** Database commands sent per successful event during the measured run, by command name. */
  dbCommandsPerEvent: Record<string, number>;
  /** Mean time of each command as the driver saw it (send to answer), by command name. */
  dbCommandMeanMs: Record<string, number>;
}

/** Commands sent by the service's client and by the baseline's client: count and total ms by name. */
type CommandStats = Map<string, { count: number; ms: number }>;
const commandStats = { service: new Map() as CommandStats, baseline: new Map() as CommandStats };
function countCommands(client: MongoClient, stats: CommandStats): void {
  const entry = (name: string) => stats.get(name) ?? stats.set(name, { count: 0, ms: 0 }).get(name)!;
  client.on("commandStarted", (e) => entry(e.commandName).count++);
  client.on("commandSucceeded", (e) => (entry(e.commandName).ms += e.duration));
  client.on("commandFailed", (e) => (entry(e.commandName).ms += e.duration));
}

async function driveCase(concurrency: number, durationS: number, minCalls: number, call: (worker: number, i: number) => Promise<void>): Promise<Measurement> {
  return { ...(await drive(concurrency, durationS, minCalls, call, () => aborted)), dbCommandsPerEvent: {}, dbCommandMeanMs: {} };
}

/** Warm-up (not recorded; at least one pass over each worker's users), then the measured run. */
async function measure(concurrency: number, call: (worker: number, i: number) => Promise<void>, stats: CommandStats): Promise<Measurement> {
  await driveCase(concurrency, warmupSeconds, usersPerWorker, call);
  stats.clear();
  const m = await driveCase(concurrency, seconds, 0, call);
  const byName = [...stats].sort(([a], [b]) => a.localeCompare(b));
  return {
    ...m,
    dbCommandsPerEvent: Object.fromEntries(byName.map(([name, s]) => [name, s.count / Math.max(1, m.events)])),
    dbCommandMeanMs: Object.fromEntries(byName.map(([name, s]) => [name, s.ms / Math.max(1, s.count)])),
  };
}

const commandsPerEvent = (m: Measurement) => Object.values(m.dbCommandsPerEvent).reduce((a, b) => a + b, 0);

// ---- setup --------------------------------------------------------------------------------------

const silent = pino({ level: "silent" });
let databaseLabel: string;
let serverUri: string;
if (env.MONGODB_URI) {
  serverUri = env.MONGODB_URI;
  databaseLabel = "MONGODB_URI";
} else {
  const dataDir = await mkdtemp(join(tmpdir(), "gamification-bench-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  process.once("exit", () => rmSync(dataDir, { recursive: true, force: true })); // forced exit
  let database: EmbeddedDatabase;
  try {
    database = await startFerretDb({ dataDir });
  } catch (error) {
    await cleanup();
    throw error;
  }
  cleanups.push(() => database.stop());
  serverUri = database.uri;
  databaseLabel = "FerretDB (SQLite) in a temporary directory";
}

const dbName = `bench_${randomBytes(6).toString("hex")}`;
/** The server's URI with command monitoring on, for both the service's client and the baseline's. */
const monitoredUri = monitoredUriOf(serverUri);
// Driver defaults (pool of 100), as the service's own client; a short selection timeout so a
// database killed by Ctrl-C does not hold up the shutdown.
const rawClient = new MongoClient(monitoredUri, { serverSelectionTimeoutMS: 5_000 });
countCommands(rawClient, commandStats.baseline);
let service: RunningService | undefined;
const results: Array<{ concurrency: number; case: CaseName } & Measurement & { ratio: number }> = [];
let exitCode = 0;

try {
  await rawClient.connect();
  cleanups.push(() => rawClient.close());
  if (env.MONGODB_URI) cleanups.push(() => rawClient.db(dbName).dropDatabase()); // a temporary FerretDB goes with its directory
  const buildInfo = await rawClient.db("admin").command({ buildInfo: 1 });
  const serverVersion = buildInfo.ferretdbVersion ? `FerretDB ${buildInfo.ferretdbVersion}` : `MongoDB ${buildInfo.version}`;

  service = await startService({ mongodbUri: monitoredUri, mongodbDb: dbName, port: 0, host: "127.0.0.1", adminApiKey: ADMIN_KEY, logger: silent });
  const running = service;
  cleanups.push(() => running.close());
  countCommands(service.context.database.client, commandStats.service);
  const baseUrl = `http://127.0.0.1:${service.port}`;
  const headers = { "content-type": "application/json", "x-api-key": ADMIN_KEY };

  const created = await fetch(`${baseUrl}/admin/v1/metrics`, {
    method: "POST",
    headers,
    body: JSON.stringify([{ key: METRIC_KEY, name: "Benchmark events" }]),
  });
  if (created.status !== 201) throw new Error(`creating the metric answered ${created.status}: ${await created.text()}`);

  const baseline = rawClient.db(dbName).collection<{ _id: string; total: number }>("bench_baseline");
  const connect = {
    json: createClient({ baseUrl, apiKey: ADMIN_KEY }).application,
    binary: createClient({ baseUrl, apiKey: ADMIN_KEY, binary: true }).application,
  };
  const eventUrl = `${baseUrl}/api/metrics/${METRIC_KEY}/event`;
  const calls: Record<CaseName, (worker: number, i: number) => Promise<void>> = {
    "db-baseline-before": async (w, i) => {
      await baseline.findOneAndUpdate({ _id: userId(w, i) }, { $inc: { total: 1 } }, { upsert: true, returnDocument: "after" });
    },
    "db-baseline-after": (w, i) => calls["db-baseline-before"](w, i),
    rest: async (w, i) => {
      const response = await fetch(eventUrl, { method: "POST", headers, body: JSON.stringify({ user: { id: userId(w, i) }, value: 1 }) });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`REST answered ${response.status}: ${text}`);
    },
    "connect-json": async (w, i) => {
      await connect.json.trackMetricEvent({ key: METRIC_KEY, user: { id: userId(w, i) }, value: 1 });
    },
    "connect-binary": async (w, i) => {
      await connect.binary.trackMetricEvent({ key: METRIC_KEY, user: { id: userId(w, i) }, value: 1 });
    },
  };

  const cases: CaseName[] = ["db-baseline-before", ...protocols, "db-baseline-after"];
  const perCase = cases.length * concurrencies.length * (seconds + warmupSeconds);
  console.log(`event-call benchmark: ${serverVersion} (${databaseLabel}), service in-process at ${baseUrl}`);
  console.log(
    `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(
    `${seconds} s measured + ${warmupSeconds} s warm-up per case, concurrency ${concurrencies.join(",")}, about ${Math.round(perCase)} s in all.\n` +
      `Closed loops, load generator in the same process. Worker w sends event i for user u-<w>-<i % ${usersPerWorker}>:\n` +
      `users are never shared between workers, so per-user serialization does not make workers wait for each other.\n` +
      `Baseline: one findOneAndUpdate({_id: user}, {$inc: {total: 1}}, {upsert: true}) per event, measured before and\n` +
      `after the service cases at each concurrency; ratio = events/s ÷ mean of the two baselines.\n`,
  );
  const row = (c: string, name: string, eps: string, p50: string, p99: string, ratio: string, cmds: string, extra = "") =>
    `${c.padStart(4)}  ${name.padEnd(20)} ${eps.padStart(9)} ${p50.padStart(8)} ${p99.padStart(8)} ${ratio.padStart(6)} ${cmds.padStart(11)}${extra}`;
  console.log(row("conc", "case", "events/s", "p50 ms", "p99 ms", "ratio", "db cmds/ev"));

  for (const concurrency of concurrencies) {
    const measured: Array<{ name: CaseName; m: Measurement }> = [];
    for (const name of cases) {
      if (aborted) break;
      progress(`measuring concurrency ${concurrency}: ${name}`);
      const stats = name.startsWith("db-baseline") ? commandStats.baseline : commandStats.service;
      measured.push({ name, m: await measure(concurrency, calls[name], stats) });
    }
    progress("");
    if (aborted) break;
    const base = measured.filter((r) => r.name.startsWith("db-baseline")).map((r) => r.m.eventsPerSecond);
    const baseRate = (base[0]! + base[1]!) / 2;
    for (const { name, m } of measured) {
      const ratio = m.eventsPerSecond / baseRate;
      results.push({ concurrency, case: name, ...m, ratio });
      const errors = m.errors ? `  ${m.errors} errors, first: ${m.firstError}` : "";
      console.log(
        row(
          String(concurrency),
          name,
          m.eventsPerSecond.toFixed(0),
          m.p50Ms.toFixed(2),
          m.p99Ms.toFixed(2),
          ratio.toFixed(2),
          commandsPerEvent(m).toFixed(2),
          errors,
        ),
      );
    }
  }

  if (results.length > 0) {
    printSummary();
    const dir = fileURLToPath(new URL("./results/", import.meta.url));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `events-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    const document = {
      date: new Date().toISOString(),
      database: serverVersion,
      node: process.version,
      cpus: cpus().length,
      loadAverage: loadavg(),
      settings: { seconds, warmupSeconds, concurrencies, protocols, usersPerWorker, userIds: "u-<worker>-<i % usersPerWorker>" },
      results,
    };
    writeFileSync(file, JSON.stringify(document, null, 2) + "\n");
    console.log(`\nresults: ${file}`);
    if (env.BENCH_COMPARE) compare(env.BENCH_COMPARE);
  }
  if (aborted) exitCode = 130;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode); // fetch keep-alive sockets and timers would otherwise keep the process a few seconds

// ---- output -------------------------------------------------------------------------------------

/** Shows what is running on an interactive stderr (one line, overwritten); stdout stays a clean report. */
function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
}

function printSummary(): void {
  console.log(`\nSummary: events/s (ratio = events/s ÷ DB baseline events/s at the same concurrency)`);
  const width = 22;
  console.log(`conc  ${"DB baseline".padStart(12)}${protocols.map((p) => p.padStart(width)).join("")}`);
  for (const c of new Set(results.map((r) => r.concurrency))) {
    const at = results.filter((r) => r.concurrency === c);
    const base = at.filter((r) => r.case.startsWith("db-baseline"));
    const baseRate = base.reduce((a, r) => a + r.eventsPerSecond, 0) / base.length;
    const cells = protocols.map((p) => {
      const r = at.find((x) => x.case === p);
      return (r ? `${r.eventsPerSecond.toFixed(0)} (x${r.ratio.toFixed(2)})` : "-").padStart(width);
    });
    console.log(`${String(c).padStart(4)}  ${baseRate.toFixed(0).padStart(12)}${cells.join("")}`);
  }
  console.log(`Database commands per event, and their mean time in ms (driver send to answer), by command:`);
  for (const r of results) {
    const commands = Object.entries(r.dbCommandsPerEvent).map(([name, n]) => `${name} ${n.toFixed(2)} (${r.dbCommandMeanMs[name]!.toFixed(1)} ms)`);
    console.log(`${String(r.concurrency).padStart(4)}  ${r.case.padEnd(20)} ${commands.join(", ")}`);
  }
}

/** Prints each ratio next to the one of an earlier run (e.g. before a change to the hot path). */
function compare(path: string): void {
  const before = JSON.parse(readFileSync(path, "utf8")) as { date: string; results: typeof results };
  console.log(`\nAgainst ${path} (${before.date}): ratio and database commands per event, then -> now`);
  for (const r of results) {
    if (r.case.startsWith("db-baseline")) continue;
    const old = before.results.find((o) => o.concurrency === r.concurrency && o.case === r.case);
    if (!old) continue;
    const change = ((r.ratio - old.ratio) / old.ratio) * 100;
    console.log(
      `${String(r.concurrency).padStart(4)}  ${r.case.padEnd(16)} ratio ${old.ratio.toFixed(3)} -> ${r.ratio.toFixed(3)} (${change >= 0 ? "+" : ""}${change.toFixed(1)}%)` +
        `   db cmds/ev ${commandsPerEvent(old).toFixed(2)} -> ${commandsPerEvent(r).toFixed(2)}`,
    );
  }
}

function positiveInt(text: string, name: string): number {
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: "${text}" is not a positive integer`);
  return n;
}

function positiveNumber(text: string, name: string): number {
  const n = Number(text);
  if (!(n > 0)) throw new Error(`${name}: "${text}" is not a positive number`);
  return n;
}
