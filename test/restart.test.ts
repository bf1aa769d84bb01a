import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../src/server/embedded-db.js";
import { openTestDatabase, type TestDatabase } from "./helpers/database.js";

const KEY = "adm_restart.0123456789abcdefghijklmnopqrstuvwxyz";
let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** Starts the real service entry point as a child process, as `npm start` would with MONGODB_URI. */
async function startChild(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", MONGODB_URI: database.uri, MONGODB_DB: database.dbName, ADMIN_API_KEY: KEY, LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill("SIGKILL");
  throw new Error("service did not start");
}

async function stopChild(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

async function post(port: number, path: string, body: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe("durability", () => {
  it("keeps data across a restart, and shuts down cleanly on SIGTERM", async () => {
    const port = await findFreePort();
    const first = await startChild(port);
    expect((await post(port, "/admin/v1/metrics", [{ key: "pages", name: "Pages" }])).status).toBe(201);
    expect((await post(port, "/api/metrics/pages/event", { user: { id: "reader" }, value: 12.5 })).body.total).toBe(12.5);
    expect(await stopChild(first)).toBe(0);

    const second = await startChild(port);
    try {
      const next = await post(port, "/api/metrics/pages/event", { user: { id: "reader" }, value: 0.25 });
      expect(next).toMatchObject({ status: 201, body: { total: 12.75 } });
    } finally {
      await stopChild(second);
    }
  });
});
