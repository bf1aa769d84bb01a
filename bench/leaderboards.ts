// Leaderboard-ranking benchmark: the cost of reading one user's rank and of reading the top-100
// page, with 1,000, 10,000 and 100,000 participants in one leaderboard.
//
//   npm run bench:leaderboards
//   BENCH_SIZES=1000,100000 BENCH_READS=200 npm run bench:leaderboards
//
// Environment:
//   BENCH_SIZES   comma-separated participant counts (default 1000,10000,100000)
//   BENCH_READS   measured reads of each kind per size (default 300, after 30 warm-up reads)
//   BENCH_WRITES  measured writes per size, reported for information (default 100)
//   MONGODB_URI   use this server (fresh databases are created and dropped) instead of starting FerretDB
//
// Each size gets a database of its own, so one size's documents never slow down another's reads
// (FerretDB over SQLite reads every document by scanning its table, see the report's note). The
// participants are loaded in bulk (`bulkLoad`: the very documents that one write per participant
// leaves, built at once) with values drawn from 0 to 9,999, so many participants tie, and times of
// reaching them spread over a week. Reads go one at a time: a random participant's rank (`rankOf`),
// then the top 100 (`page(0, 100)`). The driver's command monitoring counts the database commands
// each read sends. The run fails (exit code 1) when a 100,000-participant p50 is more than 3 times
// the 1,000-participant p50. Results also go to bench/results/leaderboards-<time>.json.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Standing } from "../src/features/leaderboards/domain/leaderboard-ranking.js";
import { openDatabase, type Database } from "../src/engine/store/database.js";
import { createLeaderboardRankings, rankingCollectionsOf, type RankingScope } from "../src/features/leaderboards/store/leaderboard-rankings.js";
import { startFerretDb, type EmbeddedDatabase } from "../src/server/embedded-db.js";
import { monitoredUriOf } from "./drive.js";
import { seededRandom } from "../test/helpers/seeded-random.js";

const env = process.env;
const sizes = (env.BENCH_SIZES ?? "1000,10000,100000").split(",").map((s) => positiveInt(s, "BENCH_SIZES"));
const reads = positiveInt(env.BENCH_READS ?? "300", "BENCH_READS");
const writes = positiveInt(env.BENCH_WRITES ?? "100", "BENCH_WRITES");
const WARMUP = 30;
const LIMIT = 3;

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
process.once("SIGINT", () => void cleanup().finally(() => process.exit(130)));

interface Latency {
  p50: number;
  p99: number;
  mean: number;
}

interface SizeResult {
  participants: number;
  loadSeconds: number;
  rankOf: Latency & { commands: number };
  top100: Latency & { commands: number };
  upsert: Latency;
  chunks: number;
  indexBytes: number;
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: pct(50), p99: pct(99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

let serverUri: string;
let label: string;
let exitCode = 0;
try {
  if (env.MONGODB_URI) {
    serverUri = env.MONGODB_URI;
    label = "MONGODB_URI";
  } else {
    const dataDir = await mkdtemp(join(tmpdir(), "gamification-bench-lb-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
    const ferret: EmbeddedDatabase = await startFerretDb({ dataDir });
    cleanups.push(() => ferret.stop());
    serverUri = ferret.uri;
    label = "FerretDB (SQLite) in a temporary directory";
  }
  const monitored = monitoredUriOf(serverUri);

  console.log(`leaderboard-ranking benchmark: ${label}`);
  console.log(
    `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`${reads} measured reads of each kind per size after ${WARMUP} warm-up reads, one at a time; ${writes} writes for information.\n`);
  const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padStart(12) : c.padStart(11))).join("");
  console.log(row(["participants", "load s", "rank p50", "rank p99", "cmds/rank", "top p50", "top p99", "cmds/top", "write p50", "write p99", "chunks"]));

  const results: SizeResult[] = [];
  for (const size of sizes) {
    const dbName = `bench_lb_${size}_${randomBytes(4).toString("hex")}`;
    const database: Database = await openDatabase(monitored, dbName);
    const drop = async () => {
      await database.db.dropDatabase();
      await database.close();
    };
    cleanups.push(drop);
    let commands = 0;
    database.client.on("commandStarted", () => commands++);
    const store = createLeaderboardRankings(rankingCollectionsOf(database.collections));
    const scope: RankingScope = { tenantId: randomBytes(16).toString("hex"), leaderboardId: randomBytes(16).toString("hex"), run: "2026-01-05", group: "" };

    const next = seededRandom(size);
    const start = Date.parse("2026-01-05T00:00:00Z");
    const userId = (i: number) => `user-${String(i).padStart(7, "0")}`;
    const standings: Standing[] = Array.from({ length: size }, (_, i) => ({
      userId: userId(i),
      value: String(Math.floor(next() * 10_000)),
      reachedAt: new Date(start + Math.floor(next() * 7 * 86_400_000)),
    }));
    const loadStart = performance.now();
    await store.bulkLoad(scope, standings);
    const loadSeconds = (performance.now() - loadStart) / 1000;

    const time = async (count: number, call: (i: number) => Promise<unknown>) => {
      const samples: number[] = [];
      const before = commands;
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await call(i);
        samples.push(performance.now() - t0);
      }
      return { ...latency(samples), commands: (commands - before) / count };
    };
    const someone = () => userId(Math.floor(next() * size));
    await time(WARMUP, () => store.rankOf(scope, someone()));
    await time(WARMUP, () => store.page(scope, 0, 100));
    const rankOf = await time(reads, async () => {
      if (!(await store.rankOf(scope, someone()))) throw new Error("a participant has no rank");
    });
    const top100 = await time(reads, async () => {
      if ((await store.page(scope, 0, 100)).entries.length !== Math.min(100, size)) throw new Error("short page");
    });
    // The bulk load's root lists its indexes whole (later roots patch them, and strip this one).
    const root = await database.collections.leaderboardRankings.findOne({ tenantId: scope.tenantId, rank: { $exists: true } });
    const chunks = root!.rank!.ids.split(" ").length + root!.users!.ids.split(" ").length;
    const indexBytes = JSON.stringify([root!.rank, root!.users]).length;
    const upsert = await time(writes, (i) => store.upsertEntry(scope, someone(), Math.floor(next() * 10_000), new Date(start + 7 * 86_400_000 + i)));
    const result: SizeResult = { participants: size, loadSeconds, rankOf, top100, upsert, chunks, indexBytes };
    results.push(result);
    console.log(
      row([
        String(size),
        loadSeconds.toFixed(1),
        rankOf.p50.toFixed(2),
        rankOf.p99.toFixed(2),
        rankOf.commands.toFixed(2),
        top100.p50.toFixed(2),
        top100.p99.toFixed(2),
        top100.commands.toFixed(2),
        upsert.p50.toFixed(2),
        upsert.p99.toFixed(2),
        String(chunks),
      ]),
    );
    cleanups.splice(cleanups.indexOf(drop), 1);
    await drop();
  }

  const smallest = results.find((r) => r.participants === 1000);
  const largest = results.find((r) => r.participants === 100_000);
  if (smallest && largest) {
    console.log(`\n100,000 vs 1,000 participants (the issue asks for at most ${LIMIT}x):`);
    const verdicts = (["rankOf", "top100"] as const).map((kind) => {
      const p50 = largest[kind].p50 / smallest[kind].p50;
      const p99 = largest[kind].p99 / smallest[kind].p99;
      console.log(`  ${kind === "rankOf" ? "user rank" : "top 100  "}  p50 x${p50.toFixed(2)}   p99 x${p99.toFixed(2)}`);
      return p50 <= LIMIT;
    });
    if (!verdicts.every(Boolean)) {
      console.log(`FAIL: a p50 grew more than ${LIMIT}x`);
      exitCode = 1;
    }
  }
  const dir = fileURLToPath(new URL("./results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `leaderboards-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      { date: new Date().toISOString(), database: label, node: process.version, cpus: cpus().length, loadAverage: loadavg(), reads, writes, results },
      null,
      2,
    ) + "\n",
  );
  console.log(`\nresults: ${file}`);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);

function positiveInt(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name}: "${text}" is not a positive whole number`);
  return n;
}
