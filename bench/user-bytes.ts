// Bytes of the user-document write per event on the storage benchmark's full profile
// (bench/full-profile.ts), alone and exact: BENCH_USERS existing users (default 20), each sent a
// first event (its first on the points systems, the streak and the day, as nearly every event of
// the storage benchmark is) and then a second the same day (steady state). Per kind, the average
// bytes of the `update users` command and of its update (`$set` and `$unset`).
//
//   npx tsx bench/user-bytes.ts
//   BENCH_FIELDS=1 npx tsx bench/user-bytes.ts   # also the bytes of each `$set` path of one first event
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BSON, type CommandStartedEvent } from "mongodb";
import pino from "pino";
import { userDocument } from "../src/engine/store/user-documents.js";
import { rankingScope, rankingsOf } from "../src/features/leaderboards/ranking-updates.js";
import { startFerretDb } from "../src/server/embedded-db.js";
import { startService } from "../src/server/service.js";
import { monitoredUriOf } from "./drive.js";
import { configureFull, existingUser, existingValue, RUN } from "./full-profile.js";

const USERS = Number(process.env.BENCH_USERS ?? "20");
const ADMIN_KEY = `adm_bench${randomBytes(4).toString("hex")}.${randomBytes(32).toString("base64url")}`;
const dataDir = await mkdtemp(join(tmpdir(), "gamification-user-bytes-"));
process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
const ferret = await startFerretDb({ dataDir });
const service = await startService({
  mongodbUri: monitoredUriOf(ferret.uri),
  mongodbDb: `user_bytes_${randomBytes(4).toString("hex")}`,
  port: 0,
  host: "127.0.0.1",
  adminApiKey: ADMIN_KEY,
  logger: pino({ level: "silent" }),
});
const updates: Array<{ command: number; update: number; set: Record<string, unknown> }> = [];
service.context.database.client.on("commandStarted", (event: CommandStartedEvent) => {
  const command = event.command as { update?: string; updates?: Array<{ u: { $set?: Record<string, unknown> } }> };
  if (event.commandName !== "update" || command.update !== "users") return;
  for (const u of command.updates ?? [])
    updates.push({ command: BSON.calculateObjectSize(event.command), update: BSON.calculateObjectSize(u.u), set: u.u.$set ?? {} });
});

const baseUrl = `http://127.0.0.1:${service.port}`;
async function call(method: string, path: string, body: unknown, customerId?: string): Promise<any> {
  const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": ADMIN_KEY };
  if (customerId) headers["tenant-id"] = customerId;
  const response = await fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const full = await configureFull(call, "full");
const created = new Date(Date.now() - 86_400_000);
// Existing users, ranked on the three leaderboards among a thousand (so ranks and history entries are as the benchmark's).
const RANKED = Math.max(1000, USERS);
const users = service.context.database.collections.users;
await users.insertMany(Array.from({ length: USERS }, (_, i) => userDocument(full.id, existingUser(`user-${i}`, i, full, created))));
for (const board of full.boards) {
  const standings = Array.from({ length: RANKED }, (_, i) => ({ userId: `user-${i}`, value: existingValue(board.rankBy, i), reachedAt: created }));
  await rankingsOf(service.context).bulkLoad(rankingScope(full.id, board.id, RUN, ""), standings);
}

async function round(): Promise<{ command: number; update: number; first: Record<string, unknown> }> {
  updates.length = 0;
  for (let i = 0; i < USERS; i++) await call("POST", "/api/metrics/words/event", { user: { id: `user-${i}` }, value: 5 }, "full");
  if (updates.length !== USERS) throw new Error(`expected ${USERS} user updates, saw ${updates.length}`);
  const average = (f: (u: (typeof updates)[number]) => number) => Math.round(updates.reduce((sum, u) => sum + f(u), 0) / updates.length);
  return { command: average((u) => u.command), update: average((u) => u.update), first: updates[0]!.set };
}

const first = await round();
const second = await round();
console.log(`first event of the day:  update users command ${first.command} bytes, $set/$unset ${first.update} bytes (average of ${USERS})`);
console.log(`second event, same day:  update users command ${second.command} bytes, $set/$unset ${second.update} bytes`);
if (process.env.BENCH_FIELDS) {
  for (const [kind, set] of [
    ["first", first.first],
    ["second", second.first],
  ] as const) {
    console.log(`\n$set paths of a ${kind} event (bytes):`);
    for (const [path, value] of Object.entries(set)) console.log(`  ${BSON.calculateObjectSize({ [path]: value }) - 5}\t${path}`);
    if (process.env.BENCH_FIELDS === "json") console.log(JSON.stringify(set, null, 1));
  }
}
await service.close();
await ferret.stop();
