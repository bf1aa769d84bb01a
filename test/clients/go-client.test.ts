// The Go client (sdk/go) as a Go user runs it: `go run ./examples/quickstart` against a real server,
// over gRPC and the Connect protocol, scoped to a tenant by the client's Tenant-ID header.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

const run = promisify(execFile);
const sdkDir = join(import.meta.dirname, "../../sdk/go");
const pathWithGo = [process.env.PATH, "/usr/local/go/bin"].join(delimiter);
const hasGo = pathWithGo.split(delimiter).some((dir) => dir && existsSync(join(dir, "go")));

let server: TestServer;

/** Runs the quick start as its README shows; returns its one line of output, parsed. */
async function quickstart(protocol: string, tenant?: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: pathWithGo, GAMIFICATION_URL: server.baseUrl, GAMIFICATION_API_KEY: ADMIN_KEY };
  if (tenant !== undefined) env.GAMIFICATION_TENANT = tenant;
  const { stdout } = await run("go", ["run", "./examples/quickstart", "-protocol", protocol], { cwd: sdkDir, env, timeout: 300_000 });
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

// CI has Go (it builds the test database); elsewhere the test is skipped when Go is missing.
describe.skipIf(!hasGo && !process.env.CI)("the Go client", () => {
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it("runs the quick start over gRPC, then Connect: creates the metric once and adds 10 each time", { timeout: 600_000 }, async () => {
    const tenant = "go-quickstart";
    expect((await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenant, name: "Go quick start" }] })).status).toBe(201);

    const overGrpc = await quickstart("grpc", tenant);
    expect(overGrpc).toMatchObject({ total: 10, metricId: expect.any(String), eventId: expect.any(String) });
    const overConnect = await quickstart("connect", tenant);
    expect(overConnect).toMatchObject({ total: 20, metricId: overGrpc.metricId });
    expect(overConnect.eventId).not.toBe(overGrpc.eventId);

    // The calls carried Tenant-ID: the tenant has the metric and the user's total, the default scope has neither.
    const inTenant = await server.rest("GET", "/v1/users/quickstart-user/metrics/quickstart-words", { tenantId: tenant });
    expect([inTenant.status, inTenant.body.current]).toEqual([200, 20]);
    const metrics = await server.rest("GET", "/admin/v1/metrics?limit=100", { tenantId: tenant });
    expect(metrics.body.filter((m: { key: string }) => m.key === "quickstart-words")).toHaveLength(1);
    expect((await server.rest("GET", "/v1/users/quickstart-user/metrics/quickstart-words")).status).toBe(404);
  });

  it("runs in the default scope without GAMIFICATION_TENANT, over gRPC-web too, and reports a wrong key as an error", { timeout: 300_000 }, async () => {
    expect(await quickstart("connect")).toMatchObject({ total: 10 });
    expect(await quickstart("grpc-web")).toMatchObject({ total: 20 });
    const env = { ...process.env, PATH: pathWithGo, GAMIFICATION_URL: server.baseUrl, GAMIFICATION_API_KEY: "adm_nope.wrong" };
    const failed = await run("go", ["run", "./examples/quickstart"], { cwd: sdkDir, env }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/quickstart: listing metrics: unauthenticated/);
  });
});
