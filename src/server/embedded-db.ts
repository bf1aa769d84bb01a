import { execFile, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import { delimiter, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { MongoClient } from "mongodb";
import pino, { type Logger } from "pino";

/** A database server started by this process for development or tests. */
export interface EmbeddedDatabase {
  /** Connection string of the server (no database name in it). */
  uri: string;
  /** Which server runs: a local MongoDB, FerretDB over SQLite, or mongodb-memory-server's MongoDB. */
  kind: "mongod" | "ferretdb" | "mongodb-memory-server";
  /** The directory holding this server's files; they survive `stop()`. */
  dataDir: string;
  /** The server's process ID (benchmarks read its CPU time). */
  pid: number | undefined;
  /** Stops the server and waits until it has exited. Safe to call more than once. */
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 30_000;

/**
 * When the embedded FerretDB's SQLite files reach the disk: `normal` (the default) syncs the
 * write-ahead log at checkpoints, so a commit survives a crash of the service or of FerretDB, and
 * only a power loss or an operating-system crash can undo the last moments of writes (MongoDB's
 * default journal commit interval has the same kind of window); `full` syncs on every commit, about
 * twice as slow for writes on these machines.
 */
export type EmbeddedDbSync = "normal" | "full";
const STOP_GRACE_MS = 5_000;
const ENSURE_FERRETDB_SCRIPT = fileURLToPath(new URL("../../scripts/ensure-ferretdb.sh", import.meta.url));

/**
 * Starts a local database for development, choosing the first one available:
 * a `mongod` on PATH, then FerretDB (`FERRETDB_BIN`, the cached build, or a one-time build with
 * Go), then `mongodb-memory-server-core` if installed. Each keeps its files in its own
 * subdirectory of `dataDir`, so data survives restarts. Resolves once the server answers `ping`.
 */
export async function startEmbeddedDatabase(options: { dataDir: string; logger: Logger; sync?: EmbeddedDbSync }): Promise<EmbeddedDatabase> {
  const { dataDir, logger } = options;
  let database: EmbeddedDatabase;

  const mongod = findOnPath("mongod");
  const ferretDb = mongod ? undefined : await resolveFerretDbBinary(logger);
  if (mongod) {
    const dir = join(dataDir, "mongod");
    await mkdir(dir, { recursive: true });
    database = await startChild({
      kind: "mongod",
      dataDir: dir,
      logger,
      command: (port) => [mongod, "--dbpath", dir, "--bind_ip", "127.0.0.1", "--port", String(port)],
    });
  } else if (ferretDb) {
    database = await launchFerretDb(ferretDb, { dataDir: join(dataDir, "ferretdb"), logger, sync: options.sync });
  } else {
    logger.info("no mongod on PATH and no FerretDB; trying mongodb-memory-server (it downloads MongoDB on first use)");
    database = await startMemoryServer(join(dataDir, "memory-server"));
  }

  logger.info({ kind: database.kind, dataDir: database.dataDir, uri: database.uri }, "embedded database started");
  return database;
}

/**
 * Starts FerretDB over SQLite with its files in `dataDir` (created if missing), listening on
 * 127.0.0.1 at `port` or at a free port. The binary is `FERRETDB_BIN`, the cached build, or built
 * once with scripts/ensure-ferretdb.sh when Go is on PATH; rejects when none of these is possible.
 */
export async function startFerretDb(options: { dataDir: string; port?: number; logger?: Logger; sync?: EmbeddedDbSync }): Promise<EmbeddedDatabase> {
  const logger = options.logger ?? pino({ enabled: false });
  const binary = await resolveFerretDbBinary(logger);
  if (!binary) {
    throw new Error("FerretDB is not available: set FERRETDB_BIN, run scripts/ensure-ferretdb.sh, or put Go on PATH so it can be built");
  }
  return launchFerretDb(binary, { ...options, logger });
}

/** Returns a TCP port on 127.0.0.1 that was free a moment ago (the OS picked it for port 0). */
export async function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolvePort(address.port);
        else reject(new Error("could not determine a free port"));
      });
    });
  });
}

async function launchFerretDb(binary: string, options: { dataDir: string; port?: number; logger: Logger; sync?: EmbeddedDbSync }): Promise<EmbeddedDatabase> {
  const dir = resolve(options.dataDir);
  await mkdir(dir, { recursive: true });
  return startChild({
    kind: "ferretdb",
    dataDir: dir,
    port: options.port,
    logger: options.logger,
    command: (port) => [
      binary,
      "--handler=sqlite",
      // The trailing slash makes it a directory, one SQLite file per database.
      `--sqlite-url=file:${dir}/?_pragma=synchronous(${options.sync ?? "normal"})`,
      `--state-dir=${dir}`,
      `--listen-addr=127.0.0.1:${port}`,
      "--debug-addr=-", // otherwise every instance also listens on :8088
      "--telemetry=disable",
    ],
  });
}

/** Finds the FerretDB binary, building it once when Go is available; undefined when impossible. */
async function resolveFerretDbBinary(logger: Logger): Promise<string | undefined> {
  const fromEnv = process.env.FERRETDB_BIN;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`FERRETDB_BIN=${fromEnv} is not an executable file`);
    return fromEnv;
  }
  // The script answers at once with the cached build (ours carries a patch, see the script), and
  // builds it once otherwise, which needs Go.
  logger.info("looking for the FerretDB build (the first start builds it with Go: a minute or two; cached afterwards)");
  return new Promise((resolveBinary, reject) => {
    const child = execFile("bash", [ENSURE_FERRETDB_SCRIPT], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) resolveBinary(stdout.trim());
      else if (!findOnPath("go")) resolveBinary(undefined);
      else reject(new Error(`building FerretDB failed: ${error.message}\n${tail(stderr.split("\n"))}`));
    });
    child.stdin?.end();
  });
}

interface ChildSpec {
  kind: "mongod" | "ferretdb";
  dataDir: string;
  port?: number;
  logger: Logger;
  command: (port: number) => string[];
}

/**
 * Spawns a database server and waits until it answers `ping`. When the port was chosen here and
 * the server exits during start-up (another process may have taken the port), tries again.
 */
async function startChild(spec: ChildSpec): Promise<EmbeddedDatabase> {
  const attempts = spec.port === undefined ? 3 : 1;
  for (let attempt = 1; ; attempt++) {
    const port = spec.port ?? (await findFreePort());
    const [command, ...args] = spec.command(port);
    const log = spec.logger.child({ db: spec.kind });
    const child = spawn(command!, args, { stdio: ["ignore", "pipe", "pipe"] });
    let spawnError: Error | undefined;
    child.on("error", (error) => (spawnError = error));
    const output: string[] = [];
    for (const stream of ["stdout", "stderr"] as const) {
      createInterface({ input: child[stream] }).on("line", (line) => {
        output.push(line);
        if (output.length > 40) output.shift();
        log.debug({ stream }, line);
      });
    }
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);

    const uri = `mongodb://127.0.0.1:${port}/`;
    try {
      await waitForPing(uri, () => spawnError?.message ?? exitDescription(child));
    } catch (error) {
      await stopChild(child);
      process.removeListener("exit", killOnExit);
      if (child.exitCode !== null && !spawnError && attempt < attempts && !(error instanceof StartupTimeout)) continue;
      throw new Error(`${spec.kind} did not start: ${(error as Error).message}\n${tail(output)}`);
    }

    return {
      uri,
      kind: spec.kind,
      dataDir: spec.dataDir,
      pid: child.pid,
      async stop() {
        await stopChild(child);
        process.removeListener("exit", killOnExit);
      },
    };
  }
}

class StartupTimeout extends Error {}

/**
 * Resolves once the server at `uri` answers `ping`. Rejects after the timeout, or as soon as
 * `failure()` describes why the server process is gone.
 */
async function waitForPing(uri: string, failure: () => string | undefined = () => undefined): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const reason = failure();
    if (reason) throw new Error(reason);
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1_000, connectTimeoutMS: 1_000 });
    try {
      await client.db("admin").command({ ping: 1 });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await client.close().catch(() => {});
    }
  }
  throw new StartupTimeout(`no answer to ping at ${uri} within ${STARTUP_TIMEOUT_MS / 1000} s (last error: ${(lastError as Error)?.message})`);
}

function exitDescription(child: ChildProcess): string | undefined {
  if (child.exitCode !== null) return `the process exited with code ${child.exitCode}`;
  if (child.signalCode !== null) return `the process was killed by ${child.signalCode}`;
  return undefined;
}

/** Sends SIGTERM and waits for the exit, escalating to SIGKILL after a grace period. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

async function startMemoryServer(dbPath: string): Promise<EmbeddedDatabase> {
  let MongoMemoryServer: typeof import("mongodb-memory-server-core").MongoMemoryServer;
  try {
    ({ MongoMemoryServer } = await import("mongodb-memory-server-core"));
  } catch {
    throw new Error(
      "no database available: no mongod on PATH, no FerretDB (set FERRETDB_BIN or install Go), " +
        "and the optional package mongodb-memory-server-core is not installed",
    );
  }
  await mkdir(dbPath, { recursive: true });
  let server: InstanceType<typeof MongoMemoryServer>;
  try {
    server = await MongoMemoryServer.create({ instance: { dbPath, storageEngine: "wiredTiger", ip: "127.0.0.1" } });
  } catch (error) {
    throw new Error(
      "no database available: no mongod on PATH, no FerretDB (set FERRETDB_BIN or install Go), " +
        `and mongodb-memory-server could not start: ${(error as Error).message}`,
    );
  }
  const uri = server.getUri();
  await waitForPing(uri);
  return {
    uri,
    kind: "mongodb-memory-server",
    dataDir: dbPath,
    pid: server.instanceInfo?.instance.mongodProcess?.pid,
    async stop() {
      await server.stop({ doCleanup: false }); // keep dbPath: the data must survive restarts
    },
  };
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function tail(lines: string[]): string {
  return lines.filter(Boolean).slice(-20).join("\n");
}
