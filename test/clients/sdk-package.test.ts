// The TypeScript SDK as another project uses it: `npm pack` of sdk/, installed from the tarball into
// a plain Node project, which runs the README's example as written, requires it from CommonJS and
// type-checks against its declarations.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

const run = promisify(execFile);
const repo = join(import.meta.dirname, "../..");
const MARKER = "<!-- app.mjs: test/clients/sdk-package.test.ts runs this block as written. -->";

let server: TestServer;
let project: string;

/** The README's TypeScript example: the js block after the marker. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(repo, "README.md"), "utf8");
  const match = readme.slice(readme.indexOf(MARKER)).match(/```js\n([\s\S]*?)```/);
  expect(readme.includes(MARKER) && match).toBeTruthy();
  return match![1]!;
}

const node = (file: string) =>
  run(process.execPath, [file], { cwd: project, env: { ...process.env, GAMIFICATION_URL: server.baseUrl, GAMIFICATION_API_KEY: ADMIN_KEY } });

beforeAll(async () => {
  [server, project] = await Promise.all([startTestServer(), mkdtemp(join(tmpdir(), "sdk-consumer-"))]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

describe("the TypeScript SDK package", () => {
  it("packs with its build, installs into a plain Node project and runs the README example as written", { timeout: 600_000 }, async () => {
    // `npm pack` runs the package's build (prepack); the tarball holds the built code and declarations only.
    const packed = await run("npm", ["pack", "--json", "--pack-destination", project], { cwd: join(repo, "sdk") });
    const [{ filename, files }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("[")));
    const paths = (files as { path: string }[]).map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["package.json", "dist/index.js", "dist/index.d.ts", "dist/gen/gamification/v1/application_service_pb.js"]));
    expect(paths.filter((p) => !p.startsWith("dist/") && p !== "package.json")).toEqual([]);

    await writeFile(join(project, "package.json"), JSON.stringify({ name: "sdk-consumer", version: "1.0.0", private: true }));
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", `./${filename}`], { cwd: project });

    // The steps before the example in the README: the admin key, and `words-written` created by curl.
    expect((await server.rest("POST", "/admin/v1/metrics", { body: [{ key: "words-written", name: "Words written" }] })).status).toBe(201);
    await writeFile(join(project, "app.mjs"), await readmeExample());
    expect((await node("app.mjs")).stdout).toBe("u1 has written 750 words\nu1 of acme has written 750 words\n");
    // Run again: the tenant and its metric exist, and each scope counts on.
    expect((await node("app.mjs")).stdout).toBe("u1 has written 1500 words\nu1 of acme has written 1500 words\n");
    expect((await server.rest("GET", "/admin/v1/tenants?limit=100")).body.filter((t: { customerId: string }) => t.customerId === "acme")).toHaveLength(1);
  });

  it("loads from CommonJS and type-checks against its declarations", { timeout: 300_000 }, async () => {
    await writeFile(
      join(project, "app.cjs"),
      `const { createClient, MetricUnitType } = require("@gamification/sdk");
const client = createClient({ baseUrl: process.env.GAMIFICATION_URL, apiKey: process.env.GAMIFICATION_API_KEY });
client.admin.listMetrics({ limit: 100 }).then(({ metrics }) => console.log(MetricUnitType[1], metrics.map((m) => m.key).join(",")));
`,
    );
    const { stdout, stderr } = await node("app.cjs");
    expect(stdout).toBe("NUMBER words-written\n");
    expect(stderr).toBe("");

    await writeFile(
      join(project, "check.mts"),
      `import { createClient, type TrackMetricEventResponse } from "@gamification/sdk";
const client = createClient({ baseUrl: "http://localhost:8080", apiKey: "key", tenantId: "acme" });
const response: Promise<TrackMetricEventResponse> = client.application.trackMetricEvent({ key: "k", user: { id: "u" }, value: 1 });
// @ts-expect-error the declarations know the request's fields
void client.application.trackMetricEvent({ metricKey: "k" });
void response;
`,
    );
    const options = { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2023", "dom"], types: [], noEmit: true };
    await writeFile(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files: ["check.mts"] }));
    await run(process.execPath, [join(repo, "node_modules/typescript/bin/tsc"), "-p", project]);
  });
});
