import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENAPI_DOCUMENT_PATH } from "../../src/server/api-docs.js";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT_PATH, "utf8"));

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("openapi/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes every REST route the server answers, with its method and path template, and no other", () => {
    // `{name=*}` in a google.api.http template matches what OpenAPI's `{name}` does: one segment.
    const served = server.service.restRoutes.map((r) => `${r.method} ${r.template.replace(/\{([a-z_][a-z0-9_]*)=\*\}/g, "{$1}")}`);
    const described = Object.entries<Record<string, unknown>>(document.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => HTTP_METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(served.length).toBeGreaterThan(50);
    expect([...described].sort()).toEqual([...new Set(served)].sort());
    expect(served.length).toBe(new Set(served).size);
  });

  it("declares every path parameter its template names", () => {
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const method of Object.keys(item).filter((key) => HTTP_METHODS.includes(key))) {
        const declared = (item[method].parameters ?? []).filter((p: any) => p.in === "path").map((p: any) => p.name);
        expect([method, path, declared.sort()]).toEqual([method, path, names]);
      }
    }
  });
});

/**
 * Real answers checked against the document's schemas (JSON Schema 2020-12, with
 * `additionalProperties: false` on every message): what the REST rendering rules change from
 * canonical protobuf JSON (lower-case enums, 64-bit integers as numbers, null for unset fields
 * with presence, array bodies, the error body) must be what the document says.
 */
describe("the document describes what the server answers", () => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...document, $id: "openapi.json" });

  function expectDescribed(method: string, path: string, response: { status: number; body: unknown }): void {
    const pointer = ["paths", path, method.toLowerCase(), "responses"].map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
    const responses = document.paths[path]?.[method.toLowerCase()]?.responses;
    expect(responses, `${method} ${path} is described`).toBeDefined();
    const key = String(response.status) in responses ? String(response.status) : "default";
    if (key === "default")
      expect(response.status, `${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
    const base = responses[key].$ref ? `openapi.json${responses[key].$ref}` : `openapi.json#/${pointer}/${key}`;
    const validate = ajv.compile({ $ref: `${base}/content/application~1json/schema` });
    const valid = validate(response.body);
    expect(valid ? [] : validate.errors, `${method} ${path} ${response.status}: ${JSON.stringify(response.body)}`).toEqual([]);
  }

  async function call(method: string, template: string, path: string, body?: unknown, headers: Record<string, string> = {}, baseUrl = server.baseUrl) {
    const response = await fetch(baseUrl + path, {
      method,
      headers: { "x-api-key": ADMIN_KEY, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const result = { status: response.status, body: (await response.json()) as any };
    expectDescribed(method, template, result);
    return result;
  }

  it("for the Admin and Application calls of a points flow, errors included", async () => {
    const metrics = await call("POST", "/admin/v1/metrics", "/admin/v1/metrics", [{ key: "words", name: "Words" }, { key: "bad key!" }]);
    expect(metrics.status).toBe(201);
    const wordsId = metrics.body.created[0].id;
    await call("GET", "/admin/v1/metrics", "/admin/v1/metrics");
    await call("GET", "/admin/v1/metrics/{id}", `/admin/v1/metrics/${wordsId}`);
    const systems = await call("POST", "/admin/v1/points", "/admin/v1/points", [{ key: "xp", name: "XP", maxPoints: 1000 }]);
    const xpId = systems.body.created[0].id;
    await call("POST", "/admin/v1/points/{system_id}/triggers", `/admin/v1/points/${xpId}/triggers`, [
      { type: "metric", points: 10, metricId: wordsId, metricThreshold: 5, status: "active" },
    ]);
    await call("POST", "/admin/v1/points/{system_id}/levels", `/admin/v1/points/${xpId}/levels`, [{ key: "bronze", name: "Bronze", points: 0 }]);
    await call("GET", "/admin/v1/points/{id}", `/admin/v1/points/${xpId}`);

    const first = await call(
      "POST",
      "/v1/metrics/{key}/event",
      "/v1/metrics/words/event",
      { user: { id: "u1", tz: "Europe/Paris" }, value: 7 },
      { "idempotency-key": "k1" },
    );
    expect(first.status).toBe(201);
    const replay = await call("POST", "/api/metrics/{key}/event", "/api/metrics/words/event", { user: { id: "u1" }, value: 7 }, { "idempotency-key": "k1" });
    expect(replay.status).toBe(202);
    await call("GET", "/v1/users/{id}", "/v1/users/u1");
    await call("GET", "/v1/users/{id}/metrics", "/v1/users/u1/metrics");
    await call("GET", "/v1/users/{id}/metrics/{key}", "/v1/users/u1/metrics/words");
    await call("GET", "/v1/users/{id}/streak", "/v1/users/u1/streak");
    await call("GET", "/v1/users/{id}/points/{key}", "/v1/users/u1/points/xp");
    await call("GET", "/v1/users/{id}/achievements", "/v1/users/u1/achievements");
    await call("GET", "/v1/points/{key}/summary", "/v1/points/xp/summary");
    await call("POST", "/v1/users", "/v1/users", { id: "u2", email: "u2@example.com" });

    const missing = await call("GET", "/v1/users/{id}", "/v1/users/nobody");
    expect(missing.status).toBe(404);
    const invalid = await call("POST", "/admin/v1/metrics", "/admin/v1/metrics", { key: "not an array" });
    expect(invalid.status).toBe(400);
  });

  it("for every read whose path a seeded service can fill (scripts/fuzz-seed.ts's configuration and traffic)", async () => {
    const { execFile } = await import("node:child_process");
    // A service of its own: the seed creates keys the other tests use.
    const seededServer = await startTestServer();
    try {
      const output = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ["--import", "tsx", "scripts/fuzz-seed.ts"],
          { env: { ...process.env, BASE_URL: seededServer.baseUrl, ADMIN_API_KEY: ADMIN_KEY } },
          (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
        ),
      );
      const seeded = Object.fromEntries(
        output
          .trim()
          .split("\n")
          .map((line) => line.split("=") as [string, string]),
      );
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      // Path variables by the path they appear in; routes with a variable none of these fill are left out.
      const fills: Array<[RegExp, string, string]> = [
        [/^\/v1\/users\/\{id\}/, "id", "u1"],
        [/\/metrics\/\{key\}/, "key", "words"],
        [/\/points\/\{key\}/, "key", "xp"],
        [/\/leaderboards\/\{key\}/, "key", "words-board"],
        [/^\/admin\/v1\/metrics\/\{id\}$/, "id", seeded.FUZZ_METRIC_ID!],
        [/^\/admin\/v1\/attributes\/\{id\}$/, "id", seeded.FUZZ_ATTRIBUTE_ID!],
        [/^\/admin\/v1\/points\/\{id\}$/, "id", seeded.FUZZ_POINTS_SYSTEM_ID!],
        [/\{system_id\}/, "system_id", seeded.FUZZ_POINTS_SYSTEM_ID!],
        [/\/triggers\/\{id\}$/, "id", seeded.FUZZ_TRIGGER_ID!],
        [/\/levels\/\{id\}$/, "id", seeded.FUZZ_LEVEL_ID!],
        [/\/boosts\/\{id\}$/, "id", seeded.FUZZ_BOOST_ID!],
        [/^\/admin\/v1\/leaderboards\/\{id\}$/, "id", seeded.FUZZ_LEADERBOARD_ID!],
      ];
      const covered: string[] = [];
      for (const template of Object.keys(document.paths).filter((path) => document.paths[path].get)) {
        let path = template;
        for (const [where, name, value] of fills) if (where.test(template)) path = path.replace(`{${name}}`, encodeURIComponent(value));
        if (path.includes("{")) continue;
        const query = template.endsWith("/event-summary")
          ? `?aggregation=daily&startDate=${day(-3)}&endDate=${day(0)}`
          : template === "/v1/streaks"
            ? "?userIds=u1,u2"
            : "";
        const response = await call("GET", template, path + query, undefined, {}, seededServer.baseUrl);
        expect([template, response.status]).toEqual([template, 200]);
        covered.push(template);
      }
      expect(covered.length).toBeGreaterThanOrEqual(25);
    } finally {
      await seededServer.close();
    }
  });

  it("with enum values as the lower-case names the server reads and writes", () => {
    expect(document.components.schemas["gamification.v1.MetricUnitType"].enum).toEqual(["number", "currency"]);
    expect(JSON.stringify(document)).not.toMatch(/"[A-Z][A-Z0-9]*_UNSPECIFIED"/);
  });
});

describe("GET /openapi.json and GET /docs", () => {
  it("serve the document and the viewer without an API key", async () => {
    const spec = await fetch(`${server.baseUrl}/openapi.json`);
    expect(spec.status).toBe(200);
    expect(spec.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await spec.json()).toEqual(document);

    const page = await fetch(`${server.baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await page.text();
    // Every asset the page names is served by this server (relative URLs, no CDN).
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      const response = await fetch(new URL(asset, `${server.baseUrl}/docs`));
      expect([asset, response.status]).toEqual([asset, 200]);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const init = await (await fetch(`${server.baseUrl}/docs/init.js`)).text();
    expect(init).toContain('url: "openapi.json"');
  });

  it("gzip text for clients that accept it, send /docs/ to /docs, answer HEAD without a body and refuse other methods and files", async () => {
    const { request } = await import("node:http");
    const raw = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = request(`${server.baseUrl}/docs/swagger-ui-bundle.js`, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(raw.status).toBe(200);
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(raw.body).toString("utf8")).toContain("SwaggerUIBundle");

    const slash = await fetch(`${server.baseUrl}/docs/`, { redirect: "manual" });
    expect(slash.status).toBe(308);
    expect(new URL(slash.headers.get("location")!, `${server.baseUrl}/docs/`).pathname).toBe("/docs");

    const head = await fetch(`${server.baseUrl}/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");

    const post = await fetch(`${server.baseUrl}/openapi.json`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect(await post.json()).toEqual({ error: "Method POST not allowed on /openapi.json; use GET" });

    for (const path of ["/docs/package.json", "/docs/index.html", "/docs/swagger-ui-bundle.js.map"]) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect([path, response.status]).toEqual([path, 404]);
    }
  });
});
