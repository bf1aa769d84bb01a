// The floor under the event call on this machine: raw database shapes and a no-op HTTP call, each as
// closed loops at concurrency 1 and 8, as a ratio to the storage benchmark's baseline (a
// findOneAndUpdate by `_id`) measured in the same run. It answers "how close to the baseline can an
// event get": a cold event needs a read and a write, a cached user a write, and every event crosses HTTP.
//
//   npx tsx bench/write-shapes.ts          (BENCH_SECONDS per case, default 4; BENCH_DOCUMENTS, default 20000)
//
// Cases: baseline (findOneAndUpdate $inc), read+write (findOne then updateOne $set, a cold event's
// two commands), write (updateOne $set alone, a cached user's one command), grouped write (the
// updates of concurrent loops sent together as one unordered update command: group commit), and
// http no-op (a node:http server answering 201 with a small JSON body to autocannon; no database).
import { mkdtemp } from "node:fs/promises";
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MongoClient, type AnyBulkWriteOperation } from "mongodb";
import { startFerretDb } from "../src/server/embedded-db.js";
import { drive, driveHttp, type Driven } from "./drive.js";

const seconds = Number(process.env.BENCH_SECONDS ?? "4");
const documents = Number(process.env.BENCH_DOCUMENTS ?? "20000");
const dataDir = await mkdtemp(join(tmpdir(), "gamification-bench-shapes-"));
process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
const ferret = await startFerretDb({ dataDir });
const client = await new MongoClient(ferret.uri).connect();
interface Doc {
  _id: string;
  total: number;
  pad: string;
  parts: Record<string, number>;
}
const docs = client.db("shapes").collection<Doc>("docs");
for (let from = 0; from < documents; from += 1000) {
  await docs.insertMany(
    Array.from({ length: Math.min(1000, documents - from) }, (_, i) => ({ _id: `t/user-${from + i}`, total: 0, pad: "x".repeat(1500), parts: {} })),
  );
}
const anyId = () => `t/user-${Math.floor(Math.random() * documents)}`;
const someChange = () => ({ $set: { [`parts.p${Math.floor(Math.random() * 5)}`]: 1, total: 2 } });

/** Group commit: updates queued while one command is in flight go out together in the next. */
let queued: Array<{ op: AnyBulkWriteOperation<Doc>; done: (error?: Error) => void }> = [];
let sending = false;
function sendQueued(): void {
  if (sending || queued.length === 0) return;
  const batch = queued;
  queued = [];
  sending = true;
  docs
    .bulkWrite(
      batch.map((b) => b.op),
      { ordered: false },
    )
    .then(
      () => batch.forEach((b) => b.done()),
      (error: unknown) => batch.forEach((b) => b.done(error instanceof Error ? error : new Error(String(error)))),
    )
    .finally(() => {
      sending = false;
      sendQueued();
    });
}
const groupedUpdate = (op: AnyBulkWriteOperation<Doc>) =>
  new Promise<void>((resolve, reject) => {
    queued.push({ op, done: (error) => (error ? reject(error) : resolve()) });
    sendQueued();
  });

const http = createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(201, { "content-type": "application/json" }).end('{"metricId":"m","eventId":"e","total":5}'));
});
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const port = (http.address() as { port: number }).port;

const cases: Array<[string, (concurrency: number, durationS: number) => Promise<Driven>]> = [
  ["baseline", (c, s) => drive(c, s, 1, async () => void (await docs.findOneAndUpdate({ _id: anyId() }, { $inc: { total: 1 } }, { returnDocument: "after" })))],
  [
    "read+write",
    (c, s) =>
      drive(c, s, 1, async () => {
        const _id = anyId();
        await docs.findOne({ _id });
        await docs.updateOne({ _id }, someChange());
      }),
  ],
  ["write", (c, s) => drive(c, s, 1, async () => void (await docs.updateOne({ _id: anyId() }, someChange())))],
  ["grouped write", (c, s) => drive(c, s, 1, () => groupedUpdate({ updateOne: { filter: { _id: anyId() }, update: someChange() } }))],
  [
    "http no-op",
    (c, s) =>
      driveHttp(c, s, {
        url: `http://127.0.0.1:${port}/event`,
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: fileURLToPath(new URL("./event-request.cjs", import.meta.url)),
        env: { BENCH_LOAD_USERS: String(documents) },
      }),
  ],
];

/** CPU milliseconds used so far by the database process (/proc/<pid>/stat utime + stime, 100 ticks/s). */
const databaseCpuMs = () => {
  const fields = readFileSync(`/proc/${ferret.pid}/stat`, "utf8").split(")").pop()!.trim().split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

console.log(`write shapes: ${documents} documents of ~1.6 KB, ${seconds} s per case after 1 s of warm-up`);
console.log("| conc | case | ops/s | p50 ms | ratio | ms/op: this loop + db cpu |\n|---|---|---|---|---|---|");
for (const concurrency of [1, 8]) {
  let baselineRate = 0;
  for (const [name, run] of cases) {
    await run(concurrency, 1);
    const db0 = databaseCpuMs();
    const loop0 = performance.eventLoopUtilization();
    const result = await run(concurrency, seconds);
    const loopMs = performance.eventLoopUtilization(loop0).active / result.events;
    const dbMs = (databaseCpuMs() - db0) / result.events;
    if (name === "baseline") baselineRate = result.eventsPerSecond;
    const ratio = (result.eventsPerSecond / baselineRate).toFixed(2);
    console.log(
      `| ${concurrency} | ${name} | ${result.eventsPerSecond.toFixed(0)} | ${result.p50Ms.toFixed(1)} | ${ratio} | ${loopMs.toFixed(2)} + ${dbMs.toFixed(2)} |`,
    );
  }
}
http.close();
await client.close();
await ferret.stop();
