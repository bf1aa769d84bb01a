import type { CommandStartedEvent } from "mongodb";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService, type ServiceOptions } from "../../src/server/service.js";
import { cacheUsers } from "../../src/engine/store/user-documents.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";
import { ADMIN_KEY } from "../helpers/server.js";

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** A service whose database client reports every command it sends. */
async function monitoredService(options: Partial<ServiceOptions>): Promise<{ service: RunningService; commands: CommandStartedEvent[] }> {
  const uri = `${database.uri}${database.uri.includes("?") ? "&" : "?"}monitorCommands=true`;
  const service = await startService({
    mongodbUri: uri,
    mongodbDb: database.dbName,
    port: 0,
    host: "127.0.0.1",
    adminApiKey: ADMIN_KEY,
    logger: pino({ level: "silent" }),
    ...options,
  });
  const commands: CommandStartedEvent[] = [];
  service.context.database.client.on("commandStarted", (event) => commands.push(event));
  return { service, commands };
}

async function call(service: RunningService, method: string, path: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method,
    headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** The commands on `users` while sending one event for an existing user, and the event's total. */
async function userCommandsOfOneEvent(service: RunningService, commands: CommandStartedEvent[], user: string) {
  expect((await call(service, "POST", "/api/metrics/steps/event", { user: { id: user }, value: 1 })).status).toBe(201);
  commands.length = 0;
  const second = await call(service, "POST", "/api/metrics/steps/event", { user: { id: user }, value: 2 });
  expect(second.body.total).toBe(3);
  return commands.filter((c) => (c.command as Record<string, unknown>)[c.commandName] === "users");
}

describe("user writes", () => {
  it("single-instance mode: one update by _id alone, sending only what changed; no read for a cached user", async () => {
    const { service, commands } = await monitoredService({});
    try {
      expect(service.context.database.writeMode).toBe("single-instance");
      expect((await call(service, "POST", "/admin/v1/metrics", [{ key: "steps", name: "Steps" }])).status).toBe(201);
      const users = await userCommandsOfOneEvent(service, commands, "cached");
      expect(users.map((c) => c.commandName)).toEqual(["update"]);
      const [update] = (users[0]!.command as { updates: Array<{ q: unknown; u: { $set: Record<string, unknown> } }> }).updates;
      expect(update!.q).toEqual({ _id: "default/cached" });
      // The packed rest (the metric's total is in it) and the day's entries, never the whole history.
      expect(Object.keys(update!.u.$set).sort()).toEqual([
        expect.stringMatching(/^e\.a\/\d{4}-\d{2}$/),
        expect.stringMatching(/^e\.md\/[^/]+\/\d{4}-\d{2}$/),
        "s",
        "version",
      ]);
    } finally {
      await service.close();
    }
  });

  it("single-instance mode without the cache: a read by _id, then the update", async () => {
    const { service, commands } = await monitoredService({ userCacheEntries: 0 });
    try {
      const users = await userCommandsOfOneEvent(service, commands, "uncached");
      expect(users.map((c) => c.commandName)).toEqual(["find", "update"]);
      expect((users[0]!.command as { filter: unknown }).filter).toEqual({ _id: "default/uncached" });
    } finally {
      await service.close();
    }
  });

  it("single-instance mode: the cache keeps the most recently used users within its memory bound", async () => {
    const { service, commands } = await monitoredService({});
    try {
      // Room for a few users' estimated memory (a new user's packed state is about 1 KB here), far fewer than the 100 entries allowed.
      cacheUsers(service.context.database.collections.users, 100, 16 * 1024);
      for (let i = 0; i < 20; i++)
        expect((await call(service, "POST", "/api/metrics/steps/event", { user: { id: `bounded-${i}` }, value: 1 })).status).toBe(201);
      const readsOf = async (user: string) => {
        commands.length = 0;
        expect((await call(service, "POST", "/api/metrics/steps/event", { user: { id: user }, value: 1 })).status).toBe(201);
        return commands.filter((c) => c.commandName === "find" && (c.command as { find?: string }).find === "users").length;
      };
      expect(await readsOf("bounded-19")).toBe(0); // the latest: still in memory
      expect(await readsOf("bounded-0")).toBe(1); // the first: gone to make room
    } finally {
      await service.close();
    }
  });

  it("versioned mode (MongoDB): every load reads, and the update names the version it read", async () => {
    const { service, commands } = await monitoredService({ writeMode: "versioned", versionedOnFerretDbForTests: true });
    try {
      const users = await userCommandsOfOneEvent(service, commands, "versioned");
      expect(users.map((c) => c.commandName)).toEqual(["find", "update"]);
      const [update] = (users[1]!.command as { updates: Array<{ q: unknown }> }).updates;
      expect(update!.q).toEqual({ _id: "default/versioned", version: 1 });
    } finally {
      await service.close();
    }
  });

  it("a change that ranks and moves the due time lists the user as due beside its ranking writes, with one command", async () => {
    const { service, commands } = await monitoredService({});
    try {
      const [metric] = (await call(service, "POST", "/admin/v1/metrics", [{ key: "laps", name: "Laps" }])).body.created;
      expect(
        (
          await call(service, "PUT", "/admin/v1/streaks/settings", {
            frequency: "daily",
            metrics: [{ metricId: metric.id, threshold: 1 }],
            evaluationMode: "all",
          })
        ).status,
      ).toBeLessThan(300);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const board = { key: "laps-board", name: "Laps", rankBy: "metric", metricId: metric.id, status: "active", start: yesterday };
      expect((await call(service, "POST", "/admin/v1/leaderboards", [board])).status).toBe(201);
      commands.length = 0;
      const event = await call(service, "POST", "/api/metrics/laps/event", { user: { id: "due-early" }, value: 1 });
      expect(event.status).toBe(201);
      expect(event.body.leaderboards["laps-board"].rank).toBe(1);
      const collectionOf = (c: CommandStartedEvent) => (c.command as Record<string, unknown>)[c.commandName];
      const dueWrites = commands.filter((c) => collectionOf(c) === "due_users");
      // One addition to the minute's bucket page (findAndModify: it answers how full the page is).
      expect(dueWrites.map((c) => c.commandName)).toEqual(["findAndModify"]);
      // Started before the ranking's commit (its root insert), not after it.
      const rootInsert = commands.findIndex((c) => c.commandName === "insert" && collectionOf(c) === "leaderboard_rankings");
      expect(rootInsert).toBeGreaterThan(-1);
      expect(commands.indexOf(dueWrites[0]!)).toBeLessThan(rootInsert);
    } finally {
      await service.close();
    }
  });
});
