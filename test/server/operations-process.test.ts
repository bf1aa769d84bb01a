// Operations of the real entry point (src/server/main.ts) in a child process: a refused
// configuration, the drain of a request in flight at SIGTERM, and traces exported over OTLP/HTTP.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../src/server/embedded-db.js";
import { CHILD_ADMIN_KEY, untilServing } from "../helpers/child-server.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

interface Child {
  process: ChildProcess;
  port: number;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `npm start` as a child process; resolves once /healthz answers, or once the process has exited. */
async function startMain(env: Record<string, string>): Promise<Child> {
  const port = await findFreePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      MONGODB_URI: database.uri,
      MONGODB_DB: database.dbName,
      ADMIN_API_KEY: CHILD_ADMIN_KEY,
      INSTANCE_LEASE_MS: "2000",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve((exitCode = code))));
  const started = { process: child, port, stdout: () => stdout, stderr: () => stderr, exited };
  if ((await untilServing(port, () => exitCode !== undefined)) !== "timed out") return started; // serving, or exited (tests read why)
  child.kill("SIGKILL");
  throw new Error(`service did not start: ${stderr}`);
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe("configuration at start-up", () => {
  it("an invalid value stops the start with a message naming the variable", async () => {
    const child = await startMain({ MAX_REQUEST_BYTES: "abc", RATE_LIMIT_TENANT: "-1" });
    expect(await child.exited).toBe(1);
    expect(child.stderr()).toContain(
      'Invalid configuration: MAX_REQUEST_BYTES must be a positive whole number, got "abc"; RATE_LIMIT_TENANT must be a whole number of requests from 1 to 1000000, got "-1"',
    );
  });

  it("a database out of reach stops the start after the driver's wait with one line saying so, not the driver's dump", async () => {
    const closedPort = await findFreePort();
    const child = await startMain({ MONGODB_URI: `mongodb://127.0.0.1:${closedPort}/` });
    expect(await child.exited).toBe(1);
    expect(child.stderr()).toMatch(
      new RegExp(`^Cannot reach the database at MONGODB_URI \\(.*127\\.0\\.0\\.1:${closedPort}.*\\); start it or correct MONGODB_URI\\n$`),
    );
  }, 120_000);
});

describe("graceful shutdown", () => {
  it("a slow request in flight at SIGTERM still gets its answer; then the process exits cleanly", async () => {
    const child = await startMain({ SHUTDOWN_GRACE_MS: "60000", LOG_LEVEL: "warn" });
    try {
      const created = await fetch(`http://127.0.0.1:${child.port}/admin/v1/metrics`, {
        method: "POST",
        headers: { "x-api-key": CHILD_ADMIN_KEY, "content-type": "application/json" },
        body: JSON.stringify([{ key: "drain", name: "Drain" }]),
      });
      expect(created.status).toBe(201);
      // The request's headers and half its body are in; the rest comes after SIGTERM.
      const body = JSON.stringify({ user: { id: "zoe" }, value: 4 });
      const slow = await connect(child.port);
      let answer = "";
      slow.on("data", (chunk: Buffer) => (answer += chunk.toString()));
      slow.on("error", () => undefined);
      slow.write(
        `POST /api/metrics/drain/event HTTP/1.1\r\nhost: x\r\nx-api-key: ${CHILD_ADMIN_KEY}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 8)}`,
      );
      await waitFor("the slow request to be in flight", async () => {
        const text = await (await fetch(`http://127.0.0.1:${child.port}/metrics`)).text();
        return Number(/^gamification_requests_in_flight (\d+)$/m.exec(text)?.[1]) >= 2;
      });

      child.process.kill("SIGTERM");
      // Shutting down: no new connection is accepted, the process waits for the request.
      await waitFor("new connections to be refused", () =>
        connect(child.port).then(
          (s) => (s.destroy(), false),
          () => true,
        ),
      );
      slow.write(body.slice(8));
      await waitFor("the answer", () => answer.includes("\r\n\r\n") && answer.endsWith("}"));
      expect(answer).toMatch(/^HTTP\/1\.1 201/);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ total: 4 });
      expect(await child.exited).toBe(0);
    } finally {
      child.process.kill("SIGKILL");
    }
  });
});

describe("tracing", () => {
  let collector: Server;
  let collectorUrl: string;
  const exports: any[] = [];
  const paths: string[] = [];

  beforeAll(async () => {
    // A small OTLP/HTTP receiver: it keeps every JSON export POSTed to /v1/traces.
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        paths.push(req.url ?? "");
        if (req.method === "POST" && req.url === "/v1/traces") exports.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

  const spans = () => exports.flatMap((e) => e.resourceSpans.flatMap((r: any) => r.scopeSpans.flatMap((s: any) => s.spans)));
  const attribute = (span: any, key: string) => {
    const value = span.attributes.find((a: any) => a.key === key)?.value;
    return value?.stringValue ?? value?.intValue;
  };

  it("exports a span per request and per database command of it, and puts the trace ID in the request's log lines", async () => {
    const child = await startMain({ OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_BSP_SCHEDULE_DELAY: "100", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
    try {
      const response = await fetch(`http://127.0.0.1:${child.port}/admin/v1/metrics`, {
        method: "POST",
        headers: { "x-api-key": CHILD_ADMIN_KEY, "content-type": "application/json", "x-request-id": "traced-req-1" },
        body: JSON.stringify([{ key: "traced", name: "Traced" }]),
      });
      expect(response.status).toBe(201);
      const request = await waitFor("the request's span", () => spans().find((s) => attribute(s, "gamification.request_id") === "traced-req-1"));
      expect(request.name).toBe("POST /admin/v1/metrics");
      expect(request.kind).toBe(2); // server
      expect(attribute(request, "http.route")).toBe("POST /admin/v1/metrics");
      expect(Number(attribute(request, "http.response.status_code"))).toBe(201);
      const commands = await waitFor("its database commands' spans", () => {
        const found = spans().filter((s) => s.traceId === request.traceId && s.parentSpanId === request.spanId && s.name.startsWith("mongodb "));
        return found.length > 0 && found;
      });
      expect(commands.map((s: any) => s.name)).toContain("mongodb insert");
      expect(commands.every((s: any) => s.kind === 3 && attribute(s, "db.system.name") === "mongodb")).toBe(true); // client
      const logLine = await waitFor("the request's log line", () =>
        child
          .stdout()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .find((l) => l.requestId === "traced-req-1" && l.msg === "request"),
      );
      expect(logLine.traceId).toBe(request.traceId);
      expect(paths.every((p) => p === "/v1/traces")).toBe(true); // traces only: no OTLP metrics or logs
    } finally {
      child.process.kill("SIGTERM");
      await child.exited;
    }
  });

  it("is not even loaded without OTEL_EXPORTER_OTLP_ENDPOINT", async () => {
    const child = await startMain({ NODE_DEBUG: "", LOG_LEVEL: "info" });
    try {
      // The process has not imported the SDK: main.ts imports tracing.ts only when the endpoint is set.
      const response = await fetch(`http://127.0.0.1:${child.port}/healthz`, { headers: { "x-request-id": "untraced-1" } });
      expect(response.status).toBe(200);
      const line = await waitFor("the log line", () =>
        child
          .stdout()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .find((l) => l.requestId === "untraced-1"),
      );
      expect(line.traceId).toBeUndefined();
      expect(child.stdout()).not.toContain("tracing on");
      // Only tracing.ts imports OpenTelemetry, and main.ts imports tracing.ts dynamically, when the endpoint is set.
      const { readFile, readdir } = await import("node:fs/promises");
      {
        const sources = (await readdir("src", { recursive: true })).filter((f) => f.endsWith(".ts") && !f.startsWith("gen/") && !f.endsWith("tracing.ts"));
        for (const file of sources) {
          const source = await readFile(`src/${file}`, "utf8");
          expect(source, file).not.toMatch(/from "@opentelemetry|import "@opentelemetry/);
          expect(source, file).not.toMatch(/from "\.\/tracing\.js"/);
        }
      }
      expect(await readFile("src/server/main.ts", "utf8")).toMatch(/config\.otlpEndpoint \? \(await import\("\.\/tracing\.js"\)\)/);
    } finally {
      child.process.kill("SIGTERM");
      await child.exited;
    }
  });
});
