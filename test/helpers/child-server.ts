import { spawn, type ChildProcess } from "node:child_process";
import type { TestDatabase } from "./database.js";

export const CHILD_ADMIN_KEY = "adm_childkey.0123456789abcdefghijklmnopqrstuvwxyz";

/** The real service entry point in a child process, as `npm start` runs it with MONGODB_URI. */
export interface ChildServer {
  port: number;
  process: ChildProcess;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** Resolves when the process has exited (e.g. killed itself at an injected crash point). */
  exited: Promise<number | null>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  get(path: string): Promise<{ status: number; body: any }>;
  /** Any call with the admin key: the status and parsed JSON body. */
  request(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
}

/** How long the child may take to answer /healthz. */
const START_TIMEOUT_MS = 120_000;

export async function startChildServer(database: TestDatabase, port: number, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      MONGODB_URI: database.uri,
      MONGODB_DB: database.dbName,
      ADMIN_API_KEY: CHILD_ADMIN_KEY,
      LOG_LEVEL: "warn",
      // A restart after an injected crash waits for the killed server's database lease to end.
      INSTANCE_LEASE_MS: "2000",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const request: ChildServer["request"] = async (method, path, options = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { "x-api-key": CHILD_ADMIN_KEY, ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => request("POST", path, { body, headers });
  const get = (path: string) => request("GET", path);
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const outcome = await untilServing(port, () => exitCode !== undefined);
  if (outcome === "serving") {
    return {
      port,
      process: child,
      exited,
      post,
      get,
      request,
      stop: async () => {
        child.kill("SIGTERM");
        return exited;
      },
    };
  }
  child.kill("SIGKILL");
  throw new Error(outcome === "exited" ? `service exited with code ${exitCode} before it started` : `service did not start within ${START_TIMEOUT_MS} ms`);
}

/**
 * Polls a child server's /healthz until it answers OK, the child exits, or START_TIMEOUT_MS have
 * passed. A deadline, not a count of tries: a loaded machine makes each try slow, and the server
 * listens only after its indexes and its instance lease (a restart after a kill waits for the old one).
 */
export async function untilServing(port: number, hasExited: () => boolean): Promise<"serving" | "exited" | "timed out"> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!hasExited() && Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return "serving";
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return hasExited() ? "exited" : "timed out";
}
