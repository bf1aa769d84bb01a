import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJsonLines, venvPython } from "../helpers/programs.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

/**
 * Our Python client (sdk/python), installed with `pip install ./sdk/python` into a venv
 * (scripts/python-sdk-venv.sh, as a user would install it), and its quick start
 * (sdk/python/examples/quickstart.py) run as written against a real server: each run creates the
 * metric `quickstart-words` unless it exists, tracks 10 for `quickstart-user` and prints the answer
 * as one line of JSON, so two runs in one scope print totals 10 then 20. Sync and async clients,
 * Connect and gRPC, each scoped by Tenant-ID, and once in the default scope.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const quickstart = join(root, "sdk/python/examples/quickstart.py");

let server: TestServer;
let python: string;

/** Runs the venv's python with these arguments (the server's URL and admin key in its environment). */
function runPython(args: string[], env: NodeJS.ProcessEnv = {}): Promise<any[]> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, GAMIFICATION_URL: server.baseUrl, GAMIFICATION_API_KEY: ADMIN_KEY, PYTHONDONTWRITEBYTECODE: "1" };
  delete childEnv.GAMIFICATION_TENANT;
  delete childEnv.GAMIFICATION_PROTOCOL;
  return runJsonLines(python, args, { env: { ...childEnv, ...env } });
}

/** Runs the quick start as written (optionally in a tenant); it prints exactly one line of JSON. */
async function runQuickstart(args: string[], env: { tenant?: string }): Promise<any> {
  const lines = await runPython([quickstart, ...args], env.tenant === undefined ? {} : { GAMIFICATION_TENANT: env.tenant });
  expect(lines).toHaveLength(1);
  return lines[0];
}

async function metricsOf(tenantId?: string): Promise<Array<{ id: string; key: string }>> {
  const response = await server.rest("GET", "/admin/v1/metrics?limit=100", { tenantId });
  expect(response.status).toBe(200);
  return response.body;
}

beforeAll(async () => {
  python = venvPython("scripts/python-sdk-venv.sh");
  server = await startTestServer();
  const tenants = ["py-sync", "py-async", "py-grpc", "py-grpc-async"].map((customerId) => ({ customerId, name: customerId }));
  const created = await server.rest("POST", "/admin/v1/tenants", { body: tenants });
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
}, 300_000);

afterAll(async () => {
  await server?.close();
});

describe("the Python client (sdk/python) and its quick start", () => {
  it.each([
    { name: "sync, Connect", args: [], tenant: "py-sync" },
    { name: "async, Connect", args: ["--async"], tenant: "py-async" },
    { name: "sync, gRPC", args: ["--protocol", "grpc"], tenant: "py-grpc" },
    { name: "async, gRPC", args: ["--async", "--protocol", "grpc"], tenant: "py-grpc-async" },
  ])("$name: creates the metric once and prints totals 10 then 20, in its tenant", async ({ args, tenant }) => {
    const first = await runQuickstart(args, { tenant });
    expect(first.total).toBe(10);
    expect(first.eventId).toEqual(expect.any(String));
    const second = await runQuickstart(args, { tenant });
    expect(second.total).toBe(20);
    expect(second.metricId).toBe(first.metricId);

    // One metric, created by the first run in this tenant (Tenant-ID sent on every call).
    const metrics = await metricsOf(tenant);
    expect(metrics.map((m) => [m.key, m.id])).toEqual([["quickstart-words", first.metricId]]);
    const user = await server.rest("GET", "/v1/users/quickstart-user/metrics/quickstart-words", { tenantId: tenant });
    expect(user.body.current).toBe(20);
  });

  it("without GAMIFICATION_TENANT the calls act on the default scope", async () => {
    expect(await metricsOf()).toEqual([]); // the tenants' runs left nothing here
    const run = await runQuickstart([], {});
    expect(run.total).toBe(10);
    expect((await metricsOf()).map((m) => [m.key, m.id])).toEqual([["quickstart-words", run.metricId]]);
  });

  it("Connect JSON and gRPC-web work too, and a wrong API key is refused (unauthenticated)", async () => {
    // The client itself (not the quick start), with the options the quick start does not use.
    const script = [
      "import json, sys, gamification",
      "from connectrpc.errors import ConnectError",
      "from gamification.v1.application_service_pb2 import TrackMetricEventRequest",
      "from gamification.v1.user_pb2 import UpsertedUser",
      "url, key = sys.argv[1], sys.argv[2]",
      "request = TrackMetricEventRequest(key='quickstart-words', user=UpsertedUser(id='options-user'), value=5)",
      "for options in ({'use_json': True}, {'protocol': 'grpc-web'}, {'protocol': 'grpc-web', 'use_json': True}):",
      "    with gamification.Client(url, key, tenant_id='py-sync', **options) as client:",
      "        print(json.dumps({'options': options, 'total': client.application.track_metric_event(request).total}))",
      "try:",
      "    gamification.Client(url, 'adm_wrong.key', tenant_id='py-sync').application.track_metric_event(request)",
      "except ConnectError as error:",
      "    print(json.dumps({'error': error.code.name}))",
    ].join("\n");
    expect(await runPython(["-c", script, server.baseUrl, ADMIN_KEY])).toEqual([
      { options: { use_json: true }, total: 5 },
      { options: { protocol: "grpc-web" }, total: 10 },
      { options: { protocol: "grpc-web", use_json: true }, total: 15 },
      { error: "UNAUTHENTICATED" },
    ]);
  });

  it("a tenant that does not exist is a clear error, not a crash", async () => {
    await expect(runQuickstart([], { tenant: "no-such-tenant" })).rejects.toThrow(/exited with 1: quickstart: not_found: Tenant "no-such-tenant" not found/);
  });
});
