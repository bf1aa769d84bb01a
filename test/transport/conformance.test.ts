// Conformance: the same scenario (test/conformance/scenario.json) through the TypeScript, Go and
// Python clients against one server, all at once, each client/protocol pair in a tenant of its own
// that its runner configures the same way through the client's Admin services; every runner prints
// what it was answered and the state it reads back, and all must agree, with each other and with
// the expected values.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScenario, scenario, type ConformanceDocument } from "../conformance/scenario.js";
import { runJsonLines, venvPython } from "../helpers/programs.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

const root = join(import.meta.dirname, "../..");
const pathWithGo = [process.env.PATH, "/usr/local/go/bin"].join(delimiter);
const hasGo = pathWithGo.split(delimiter).some((dir) => dir && existsSync(join(dir, "go")));

let server: TestServer;

/** The scenario's clock: it starts at scenario.now and runs, so events' fixed timestamps make the same streaks. */
const clockOrigin = Date.parse(scenario.now);
const startedAt = Date.now();

/**
 * Replaces what legitimately differs between tenants and runs: the IDs of the configuration the
 * runner created (by the key of what they identify, or their place in the Admin responses),
 * generated IDs and configuration times. Everything else each client printed must be the same.
 */
function normalise(document: ConformanceDocument): ConformanceDocument {
  const names = new Map<string, string>();
  const collect = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((item, i) => collect(item, `${path}.${i}`));
    else if (value !== null && typeof value === "object") {
      const object = value as Record<string, unknown>;
      if (typeof object.id === "string" && !names.has(object.id)) names.set(object.id, `<${typeof object.key === "string" ? object.key : path}>`);
      for (const [key, item] of Object.entries(object)) collect(item, `${path}.${key}`);
    }
  };
  collect(document.configured, "configured");
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === "string") {
      if (names.has(value)) return names.get(value);
      // Events' and points awards' IDs are new on every run; configuration was created a little later for each tenant.
      if (key === "eventId" || key === "id") return "<generated>";
      if (key === "created" || key === "updated") return "<configured at>";
      return value;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item));
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(document) as ConformanceDocument;
}

const expectedSummary = {
  // 30 + 40 + 50 on three days in a row: both achievements, 4 × 10 points (silver), a 3-day streak.
  alice: { metricTotal: 120, pointsTotal: 40, level: "silver", streakLength: 3, achievements: ["lessons-50", "lessons-100"], rank: 1, value: 120 },
  // 20, a day missed (the streak lost), then 60 and 2.5: 3 × 10 points (bronze), a 1-day streak.
  bob: { metricTotal: 82.5, pointsTotal: 30, level: "bronze", streakLength: 1, achievements: ["lessons-50"], rank: 2, value: 82.5 },
};

/** A client/protocol pair: its runner, in a tenant of its own. */
interface Pair {
  name: string;
  tenant: string;
  /** Go's pairs are skipped outside CI when Go is missing; in CI they fail instead. */
  needsGo?: boolean;
  run(env: NodeJS.ProcessEnv): Promise<ConformanceDocument>;
}

const goBinary = join(root, ".tmp/conformance-go/conformance");
let python: string;

/** Runs a program and parses the one JSON document it prints. */
async function runProgram(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = root): Promise<any> {
  const documents = await runJsonLines(command, args, { cwd, env: { ...process.env, PATH: pathWithGo, ...env } });
  if (documents.length !== 1) throw new Error(`${command} printed ${documents.length} JSON documents, not one`);
  return documents[0];
}

const scenarioFile = join(root, "test/conformance/scenario.json");
const goPair = (protocol: string): Pair => ({
  name: `Go, ${protocol}`,
  tenant: `conformance-go-${protocol}`,
  needsGo: true,
  run: (env) => runProgram(goBinary, [], { ...env, GAMIFICATION_PROTOCOL: protocol, CONFORMANCE_SCENARIO: scenarioFile }),
});
const pythonPair = (protocol: string): Pair => ({
  name: `Python, ${protocol}`,
  tenant: `conformance-python-${protocol}`,
  run: (env) =>
    runProgram(python, [join(root, "test/conformance/scenario.py")], {
      ...env,
      GAMIFICATION_PROTOCOL: protocol,
      CONFORMANCE_SCENARIO: scenarioFile,
      PYTHONDONTWRITEBYTECODE: "1",
    }),
});
const pairs: Pair[] = [
  {
    name: "TypeScript, connect",
    tenant: "conformance-ts-connect",
    run: (env) => runScenario({ baseUrl: env.GAMIFICATION_URL!, apiKey: env.GAMIFICATION_API_KEY!, tenantId: env.GAMIFICATION_TENANT!, protocol: "connect" }),
  },
  goPair("grpc"),
  goPair("connect"),
  pythonPair("connect"),
  pythonPair("grpc"),
];
const skipGo = !hasGo && !process.env.CI;
const running = pairs.filter((pair) => !(pair.needsGo && skipGo));
/** Each pair's document, normalised, once its run has finished (all runs go at once). */
const documents = new Map<string, Promise<ConformanceDocument>>();

beforeAll(async () => {
  python = venvPython("scripts/python-sdk-venv.sh");
  // One build for both Go runs (from Go's build cache after the first time).
  const goBuild = running.some((pair) => pair.needsGo) ? (mkdirSync(dirname(goBinary), { recursive: true }), runBuild()) : Promise.resolve();
  goBuild.catch(() => {}); // awaited below, once the server is up
  server = await startTestServer({ now: () => new Date(clockOrigin + (Date.now() - startedAt)) });
  // The tenants; each runner configures its own through its client's Admin services.
  const tenants = await server.rest("POST", "/admin/v1/tenants", { body: running.map((pair) => ({ customerId: pair.tenant, name: pair.name })) });
  expect(tenants.status, JSON.stringify(tenants.body)).toBe(201);
  await goBuild;
  for (const pair of running) {
    const env = { GAMIFICATION_URL: server.baseUrl, GAMIFICATION_API_KEY: ADMIN_KEY, GAMIFICATION_TENANT: pair.tenant };
    const document = pair.run(env).then(normalise);
    document.catch(() => {}); // awaited (and reported) by the pair's own test
    documents.set(pair.name, document);
  }
}, 600_000);
afterAll(() => server?.close());

/** `go build` of the Go runner, without blocking. */
function runBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("go", ["build", "-o", goBinary, "./examples/conformance"], {
      cwd: join(root, "sdk/go"),
      env: { ...process.env, PATH: pathWithGo },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`go build ./examples/conformance failed: ${stderr}`))));
  });
}

describe("the same scenario through every client and protocol", () => {
  for (const pair of pairs) {
    it.skipIf(pair.needsGo && skipGo)(
      `${pair.name} reads the expected totals, points, level, streak, achievements and ranks`,
      { timeout: 300_000 },
      async () => {
        const document = await documents.get(pair.name)!;
        // Configured through the client: every Admin call created what it was given (no issues).
        expect(Object.keys(document.configured).sort()).toEqual(["achievements", "leaderboards", "metrics", "pointsSystems", "streakSettings"]);
        for (const response of Object.values(document.configured)) expect(response).not.toHaveProperty("issues");
        expect(document.summary).toEqual(expectedSummary);
        // Each event's response: the user's new total, in the scenario's order.
        expect(document.tracked.map((response) => (response as { total: number }).total)).toEqual([30, 20, 70, 120, 80, 82.5]);
      },
    );
  }

  it("every client printed the same state: each event's response and every read, field by field", { timeout: 300_000 }, async () => {
    const [reference, ...others] = running;
    const expected = await documents.get(reference!.name)!;
    for (const pair of others) expect({ [pair.name]: await documents.get(pair.name)! }).toEqual({ [pair.name]: expected });
  });
});
