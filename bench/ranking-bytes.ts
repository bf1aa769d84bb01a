// Bytes the ranking store writes per event, alone: three rankings of BENCH_PARTICIPANTS (default
// 20,000) participants loaded in bulk and two that start empty (as the full profile's leaderboards
// and streak rankings), then BENCH_EVENTS events, each one write to all five at once, as an event of
// the storage benchmark's full profile does (exclusive mode, like the embedded database).
//
//   npx tsx bench/ranking-bytes.ts
//   BENCH_PARTICIPANTS=5000 BENCH_EVENTS=500 npx tsx bench/ranking-bytes.ts
//
// BENCH_STORE_OPTIONS (JSON) passes store options (e.g. {"patchMax":150,"smallPatchMax":12}) to
// compare settings (the users written are the same in every run: BENCH_SEED); BENCH_FIELDS=1 also lists the bytes of each inserted document field (listed
// beside the totals, so the total line then counts them twice). Bytes and commands are exact and
// repeatable, unlike timings on a shared machine.
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BSON, type Binary, type CommandStartedEvent } from "mongodb";
import { openDatabase } from "../src/engine/store/database.js";
import { createLeaderboardRankings, rankingCollectionsOf, type RankingScope } from "../src/features/leaderboards/store/leaderboard-rankings.js";
import { unpackLines } from "../src/features/leaderboards/store/chunk-content.js";
import { startFerretDb } from "../src/server/embedded-db.js";
import { monitoredUriOf } from "./drive.js";
import { seededRandom } from "../test/helpers/seeded-random.js";

const participants = Number(process.env.BENCH_PARTICIPANTS ?? "20000");
const events = Number(process.env.BENCH_EVENTS ?? "1000");
let uri = process.env.MONGODB_URI ?? "";
let stop = async () => {};
if (!uri) {
  const dataDir = await mkdtemp(join(tmpdir(), "gamification-bench-bytes-"));
  process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
  const ferret = await startFerretDb({ dataDir });
  uri = ferret.uri;
  stop = () => ferret.stop();
}
const database = await openDatabase(monitoredUriOf(uri), `bench_bytes_${randomBytes(4).toString("hex")}`);
const bytes = new Map<string, number>();
const commands = new Map<string, number>();
let counting = false;
database.client.on("commandStarted", (event: CommandStartedEvent) => {
  if (!counting) return;
  const collection = (event.command as Record<string, unknown>)[event.commandName];
  const key = `${event.commandName} ${typeof collection === "string" ? collection : ""}`;
  commands.set(key, (commands.get(key) ?? 0) + 1);
  if (["insert", "update", "delete", "findAndModify"].includes(event.commandName))
    bytes.set(key, (bytes.get(key) ?? 0) + BSON.calculateObjectSize(event.command));
  if (process.env.BENCH_FIELDS && event.commandName === "insert") {
    const docs = (event.command as { documents: Array<Record<string, unknown>> }).documents;
    bytes.set(key + " (command overhead)", (bytes.get(key + " (command overhead)") ?? 0) + BSON.calculateObjectSize({ ...event.command, documents: [] }));
    for (const doc of docs)
      for (const [field, v] of Object.entries(doc)) {
        const text = field === "packed" ? unpackLines(v as Binary).join("\n") : String(v);
        const k = `  ${key} .${field}${field === "lines" || field === "packed" ? (text.startsWith("r\x01") ? " index base" : /^[+#-]/.test(text) ? " patch" : " whole") : ""}`;
        bytes.set(k, (bytes.get(k) ?? 0) + BSON.calculateObjectSize({ [field]: v }) - 5);
      }
  }
});
// BENCH_STORE_OPTIONS: JSON of further store options (patchMax, smallPatchMax, ...), to compare settings.
const store = createLeaderboardRankings(rankingCollectionsOf(database.collections), {
  exclusive: true,
  ...JSON.parse(process.env.BENCH_STORE_OPTIONS ?? "{}"),
});
const tenantId = randomBytes(16).toString("hex");
const scope = (leaderboardId: string): RankingScope => ({ tenantId, leaderboardId, run: "2026-01-05", group: "" });
const loaded = ["a", "b", "c"].map((n) => scope(`${n}${randomBytes(15).toString("hex")}`));
const empty = [scope("streaks:active"), scope("streaks:longest")];
const created = new Date("2026-01-05T00:00:00Z");
// The users written come from a seeded generator (BENCH_SEED, default 1): runs comparing settings
// write the same users, so their bytes differ by the settings alone.
const nextRandom = seededRandom(Number(process.env.BENCH_SEED ?? "1"));
const values = loaded.map(() => new Map<string, number>());
for (const [b, s] of loaded.entries()) {
  await store.bulkLoad(
    s,
    Array.from({ length: participants }, (_, i) => {
      values[b]!.set(`user-${i}`, 5 * (1 + ((i * 7919 + b) % 2000)));
      return { userId: `user-${i}`, value: String(values[b]!.get(`user-${i}`)), reachedAt: created };
    }),
  );
}
counting = true;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
for (let e = 0; e < events; e++) {
  const user = `user-${Math.floor(nextRandom() * participants)}`;
  const at = new Date(created.getTime() + 86_400_000 + e * 1000);
  await Promise.all([
    ...loaded.map((s, b) => {
      const value = values[b]!.get(user)! + 10;
      values[b]!.set(user, value);
      return store.upsertEntry(s, user, value, at, { maxParticipants: 100 });
    }),
    ...empty.map((s) => store.upsertEntry(s, user, 1, at)),
  ]);
}
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const total = [...bytes.values()].reduce((a, b) => a + b, 0);
console.log(
  `${participants} participants, ${events} events (${(events / seconds).toFixed(0)}/s): ${(total / events).toFixed(0)} bytes written per event, ${([...commands.values()].reduce((a, b) => a + b, 0) / events).toFixed(2)} commands per event`,
);
// This process's CPU (the store: lines, patches, compression, BSON; not the database's; BENCH_FIELDS adds its own
// decoding): less noisy than the rate on a shared machine.
console.log(`  CPU of this process: ${((cpu.user + cpu.system) / 1000 / events).toFixed(2)} ms per event`);
for (const [key, n] of [...bytes].sort((a, b) => b[1] - a[1])) console.log(`  ${key.padEnd(40)} ${(n / events).toFixed(0)} B`);
for (const [key, n] of [...commands].sort((a, b) => b[1] - a[1])) console.log(`  ${key.padEnd(40)} ${(n / events).toFixed(2)} cmds`);
await database.close();
await stop();
process.exit(0);
