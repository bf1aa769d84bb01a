/**
 * Generates openapi/openapi.json, the OpenAPI 3.1 description of the REST surface, from the
 * protos' `google.api.http` annotations, then rewrites it to say what the server really answers.
 *
 *   npm run generate:openapi            # regenerate openapi/openapi.json
 *   npm run generate:openapi -- --check # fail when the committed file is out of date
 *
 * 1. The generator is protoc-gen-connect-openapi, pinned (with checksums) in tools/openapi/go.mod
 *    and built from the Go module proxy into .tmp/bin on first use. It runs through `buf generate`
 *    over proto/gamification with the workspace's .proto-deps (prepared by `npm run generate`).
 * 2. The generator writes canonical protobuf JSON; the REST layer (src/transport/rest-json.ts) does not.
 *    The rewrite, driven by the same descriptors as the server: enum values are the lower-case
 *    short names (without the zero value); 64-bit integers are JSON numbers; a field with presence
 *    is nullable, a `(gamification.v1.rest).omit_empty` field is optional and never null (a
 *    `present_with` one optional, a `hidden` one left out, a `clear_with` field nullable); every
 *    operation documents the `{"error": "..."}` answer, the X-API-KEY and Tenant-ID headers and
 *    the success statuses its method's comment names (`REST: 201 ...`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { field as fieldRules } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import {
  createRegistry,
  getOption,
  hasOption,
  type DescEnum,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescMethod,
  type Registry,
} from "@bufbuild/protobuf";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUTPUT = join(root, "openapi/openapi.json");
const TOOLS = join(root, "tools/openapi");
const PLUGIN_MODULE = "github.com/sudorandom/protoc-gen-connect-openapi";

type Json = any;

async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  if (!existsSync(join(root, ".proto-deps/google/api/annotations.proto")) || !existsSync(join(root, "src/gen/gamification/v1"))) {
    throw new Error("run `npm run generate` first (it prepares .proto-deps and src/gen)");
  }
  const raw = runGenerator(ensurePlugin());
  const registry = await loadRegistry();
  restOption = (await import(pathToFileURL(join(root, "src/gen/gamification/v1/options_pb.ts")).href)).rest;
  const document = rewrite(raw, registry);
  const text = JSON.stringify(document, null, 2) + "\n";
  if (check) {
    const committed = existsSync(OUTPUT) ? readFileSync(OUTPUT, "utf8") : "";
    if (committed !== text) {
      console.error("openapi/openapi.json is out of date with the protos: run `npm run generate:openapi` and commit it");
      process.exit(1);
    }
    console.log("openapi/openapi.json is up to date");
    return;
  }
  mkdirSync(dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, text);
  console.log(`wrote openapi/openapi.json (${Object.keys(document.paths).length} paths)`);
}

/** The pinned plugin, built once per version into .tmp/bin (Go's build cache makes a rebuild cheap). */
function ensurePlugin(): string {
  const goMod = readFileSync(join(TOOLS, "go.mod"), "utf8");
  const version = new RegExp(`${PLUGIN_MODULE.replace(/[./]/g, "\\$&")} (v\\S+)`).exec(goMod)?.[1];
  if (!version) throw new Error(`tools/openapi/go.mod does not pin ${PLUGIN_MODULE}`);
  const binary = join(root, ".tmp/bin", `protoc-gen-connect-openapi-${version}`);
  if (existsSync(binary)) return binary;
  const go = findGo();
  console.log(`building ${PLUGIN_MODULE}@${version} (first use)`);
  mkdirSync(dirname(binary), { recursive: true });
  const temporary = `${binary}.tmp-${process.pid}`;
  // `go build` of the tool from a module that pins it: `go install ...@version` would read the
  // module's version list, which the module proxy here refuses.
  execFileSync(go, ["build", "-o", temporary, PLUGIN_MODULE], { cwd: TOOLS, stdio: "inherit" });
  renameSync(temporary, binary);
  return binary;
}

function findGo(): string {
  for (const candidate of [process.env.GO, "/usr/local/go/bin/go"]) if (candidate && existsSync(candidate)) return candidate;
  try {
    return execFileSync("sh", ["-c", "command -v go"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("Go is needed to build the OpenAPI generator (set GO or put go on the PATH)");
  }
}

function runGenerator(plugin: string): Json {
  const out = mkdtempSync(join(root, ".tmp/openapi-"));
  try {
    const template = {
      version: "v2",
      clean: false,
      inputs: [{ directory: "proto", paths: ["proto/gamification"] }],
      plugins: [
        {
          local: plugin,
          out,
          strategy: "all",
          opt: ["features=google.api.http;protovalidate", "format=json", "path=openapi.json", "short-service-tags", "short-operation-ids", "trim-unused-types"],
        },
      ],
    };
    execFileSync(join(root, "node_modules/.bin/buf"), ["generate", "--template", JSON.stringify(template)], { cwd: root, stdio: "inherit" });
    return JSON.parse(readFileSync(join(out, "openapi.json"), "utf8"));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Every gamification.v1 file that buf generated for the server, as one registry. */
async function loadRegistry(): Promise<Registry> {
  const dir = join(root, "src/gen/gamification/v1");
  const files: DescFile[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith("_pb.ts"))
    .sort()) {
    const module = await import(pathToFileURL(join(dir, name)).href);
    for (const [key, value] of Object.entries(module)) if (key.startsWith("file_")) files.push(value as DescFile);
  }
  return createRegistry(...files);
}

// ---------------------------------------------------------------------------------------------

const INT64_FORMATS = new Set(["int64", "uint64"]);
/** The `(gamification.v1.rest)` field option (loaded with the generated code). */
let restOption: typeof import("../src/gen/gamification/v1/options_pb.js").rest;

function rewrite(doc: Json, registry: Registry): Json {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const enumNames = enumValueNames(registry);

  for (const [name, schema] of Object.entries<Json>(doc.components?.schemas ?? {})) {
    const desc = registry.get(name);
    if (desc?.kind === "message") rewriteMessage(schema, desc);
    if (desc?.kind === "enum") rewriteEnum(schema, desc);
  }
  walk(doc, (node) => {
    // 64-bit integers are JSON numbers in REST answers (and numbers are what requests should send).
    if (INT64_FORMATS.has(node.format) && Array.isArray(node.type)) node.type = collapse(node.type.filter((t: string) => t !== "string"));
    // Inline enums (query parameters, protovalidate's `not: {enum: [...]}`) name proto values too.
    if (node.not && Array.isArray(node.not.enum) && node.not.enum.every((v: unknown) => enumNames.zero.has(v as string))) delete node.not;
    if (Array.isArray(node.enum) && node.enum.every((v: unknown) => enumNames.rest.has(v as string) || enumNames.zero.has(v as string))) {
      node.enum = node.enum.filter((v: string) => !enumNames.zero.has(v)).map((v: string) => enumNames.rest.get(v));
    }
  });

  const methods = methodsByOperation(registry);
  doc.components.schemas.Error = {
    type: "object",
    title: "Error",
    description: 'Every failed REST call answers this body, with the status of the failure (see the README\'s "Errors").',
    properties: {
      error: { type: "string", description: "What went wrong, specifically." },
      requestId: { type: "string", description: "The request's ID, as in its X-Request-ID header (for finding its log lines)." },
    },
    required: ["error"],
    additionalProperties: false,
  };
  doc.components.responses = {
    Error: {
      description:
        "An error: 400 bad input, 401 missing or unknown API key, 403 key not allowed, 404 unknown resource, route or Tenant-ID, " +
        "405 method not allowed, 409 concurrent modification, 413 body too large, 415 body not JSON, 422 rule broken, 429 rate limited (with Retry-After).",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    },
  };
  doc.components.parameters = {
    TenantId: {
      name: "Tenant-ID",
      in: "header",
      required: false,
      description: "The tenant the call acts on, in a multi-tenant account; none: the account's default tenant.",
      schema: { type: "string" },
    },
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "Processes the event at most once per user and metric: a repeated key answers 202 with the current state.",
      schema: { type: "string", maxLength: 255 },
    },
  };
  doc.components.securitySchemes = {
    apiKey: { type: "apiKey", in: "header", name: "X-API-KEY", description: "An admin key, or an application key (Application API only)." },
  };

  for (const operations of Object.values<Json>(doc.paths)) {
    for (const op of Object.values<Json>(operations)) {
      // An additional binding's operation ID is the method's with a number after it.
      const method = methods.get(op.operationId) ?? methods.get(String(op.operationId).replace(/\d+$/, ""));
      if (!method) throw new Error(`operation ${op.operationId} names no method`);
      // The generator makes a comment's first paragraph the summary when there are several: keep
      // the whole comment as the description, and the method's name as the summary, as elsewhere.
      if (op.summary !== method.name) {
        op.description = [op.summary, op.description].filter(Boolean).join("\n\n");
        op.summary = method.name;
      }
      // A query parameter the request rules require (`required`, or a list of at least one item).
      for (const parameter of op.parameters ?? []) {
        const field = parameter.in === "query" ? method.input.fields.find((f) => f.jsonName === parameter.name) : undefined;
        if (field && requiredByRules(field)) parameter.required = true;
      }
      // A `body: "*"` request is inlined (the request message less its path fields): same rules.
      const body = op.requestBody?.content?.["application/json"]?.schema;
      if (body && !body.$ref && body.type === "object") rewriteMessage(body, method.input);
      const headers = [{ $ref: "#/components/parameters/TenantId" }];
      if (method.input.fields.some((f) => f.name === "idempotency_key")) headers.push({ $ref: "#/components/parameters/IdempotencyKey" });
      op.parameters = [...(op.parameters ?? []), ...headers];
      op.responses = successResponses(op, method);
      op.responses.default = { $ref: "#/components/responses/Error" };
    }
  }

  requiredNotNull(doc);
  markAlwaysWritten(doc, registry);
  dropUnusedSchemas(doc);

  return {
    openapi: "3.1.0",
    info: {
      title: "Gamification service REST API",
      version: pkg.version,
      description:
        "The REST surface of the gamification service, generated from the protos' google.api.http annotations " +
        '(protoc-gen-connect-openapi) and rewritten to the REST rendering rules (README: "REST rendering rules"). ' +
        "The same methods are served over Connect, gRPC and gRPC-web.",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    tags: doc.tags,
    paths: doc.paths,
    components: doc.components,
  };
}

/**
 * A field a request must set (protovalidate `required`) refuses null, which means "unset": in the
 * schemas requests use, such a field is not nullable even when it has presence.
 */
function requiredNotNull(doc: Json): void {
  const requests = new Set<string>();
  const roots: Json[] = [];
  for (const operations of Object.values<Json>(doc.paths)) {
    for (const op of Object.values<Json>(operations)) roots.push(op.requestBody, op.parameters);
  }
  collectRefs(doc, roots, requests);
  walk([roots, [...requests].map((name) => doc.components.schemas[name])], (node) => {
    if (!Array.isArray(node.required) || !node.properties) return;
    for (const name of node.required) if (node.properties[name]) node.properties[name] = notNullable(node.properties[name]);
  });
}

/**
 * REST answers write every field of a message (null when unset), except `omit_empty`, `present_with`
 * and `hidden` ones (options.proto): the schemas only answers use list them as `required`. Schemas that requests use too are left as
 * they are (a request may leave any field out).
 */
function markAlwaysWritten(doc: Json, registry: Registry): void {
  const requests = new Set<string>();
  const answers = new Set<string>();
  for (const operations of Object.values<Json>(doc.paths)) {
    for (const op of Object.values<Json>(operations)) {
      collectRefs(doc, [op.requestBody, op.parameters], requests);
      collectRefs(
        doc,
        Object.entries<Json>(op.responses)
          .filter(([status]) => status !== "default")
          .map(([, r]) => r),
        answers,
      );
    }
  }
  for (const name of answers) {
    const desc = registry.get(name);
    const schema = doc.components.schemas[name];
    if (requests.has(name) || desc?.kind !== "message" || !schema.properties) continue;
    const required = desc.fields.filter((f) => f.jsonName in schema.properties && !omitEmpty(f) && !restOptions(f)?.presentWith).map((f) => f.jsonName);
    if (required.length > 0) schema.required = required;
  }
}

/** Leaves out the component schemas no operation reaches (request wrappers of bound bodies, map entries). */
function dropUnusedSchemas(doc: Json): void {
  const used = new Set<string>();
  collectRefs(doc, [doc.paths, doc.components.responses, doc.components.parameters], used);
  for (const name of Object.keys(doc.components.schemas)) if (!used.has(name)) delete doc.components.schemas[name];
}

/** The component schemas these nodes reach, through `$ref`s, transitively. */
function collectRefs(doc: Json, nodes: Json, into: Set<string>): void {
  walk(nodes, (node) => {
    const name = typeof node.$ref === "string" ? /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1] : undefined;
    if (name === undefined || into.has(name)) return;
    into.add(name);
    collectRefs(doc, doc.components.schemas[name], into);
  });
}

/** Proto enum value names, and the REST name of each (the lower-case short name); zero values apart. */
function enumValueNames(registry: Registry): { rest: Map<string, string>; zero: Set<string> } {
  const rest = new Map<string, string>();
  const zero = new Set<string>();
  for (const desc of registry) {
    if (desc.kind !== "enum") continue;
    for (const value of desc.values) {
      if (value.number === 0) zero.add(value.name);
      else rest.set(value.name, value.localName.toLowerCase());
    }
  }
  return { rest, zero };
}

function rewriteEnum(schema: Json, desc: DescEnum): void {
  schema.type = "string";
  schema.enum = desc.values.filter((v) => v.number !== 0).map((v) => v.localName.toLowerCase());
}

function rewriteMessage(schema: Json, desc: DescMessage): void {
  for (const field of desc.fields) {
    const property = schema.properties?.[field.jsonName];
    if (!property) continue;
    if (property.title === field.name) delete property.title;
    const options = restOptions(field);
    if (options?.hidden) {
      delete schema.properties[field.jsonName];
    } else if (options?.presentWith) {
      schema.properties[field.jsonName] = hasPresence(field) ? nullable(property) : property;
      schema.properties[field.jsonName].description = appendSentence(property.description, "Left out of REST answers in the other cases.");
    } else if (options?.clearWith && field.fieldKind === "list") {
      schema.properties[field.jsonName] = { ...property, type: ["array", "null"] };
      schema.properties[field.jsonName].description = appendSentence(property.description, "`null` or `[]` removes every item.");
    } else if (options?.clearWith) {
      // A single value that `null` clears: its comment says what clearing means.
      schema.properties[field.jsonName] = nullable(property);
    } else if (omitEmpty(field)) {
      schema.properties[field.jsonName] = notNullable(property);
      schema.properties[field.jsonName].description = appendSentence(property.description, "Left out of REST answers when unset or empty.");
    } else if (hasPresence(field)) {
      schema.properties[field.jsonName] = nullable(property);
    }
  }
}

function hasPresence(field: DescField): boolean {
  // EXPLICIT presence: proto3 `optional`, message fields and oneof members; unset, REST writes null.
  return (field.fieldKind === "scalar" || field.fieldKind === "enum" || field.fieldKind === "message") && field.presence === FeatureSet_FieldPresence.EXPLICIT;
}

function requiredByRules(field: DescField): boolean {
  if (!hasOption(field, fieldRules)) return false;
  const rules = getOption(field, fieldRules);
  return rules.required || (rules.type.case === "repeated" && rules.type.value.minItems > 0n);
}

function restOptions(field: DescField) {
  return hasOption(field, restOption) ? getOption(field, restOption) : undefined;
}

function omitEmpty(field: DescField): boolean {
  return restOptions(field)?.omitEmpty ?? false;
}

function nullable(schema: Json): Json {
  if (schema.$ref) {
    const { $ref, ...rest } = schema;
    return { ...rest, oneOf: [{ $ref }, { type: "null" }] };
  }
  if (Array.isArray(schema.oneOf)) {
    if (!schema.oneOf.some((s: Json) => s.type === "null")) schema.oneOf.push({ type: "null" });
    return schema;
  }
  if (typeof schema.type === "string") schema.type = [schema.type, "null"];
  else if (Array.isArray(schema.type) && !schema.type.includes("null")) schema.type.push("null");
  return schema;
}

function notNullable(schema: Json): Json {
  if (Array.isArray(schema.oneOf)) {
    const rest = schema.oneOf.filter((s: Json) => s.type !== "null");
    if (rest.length === 1 && rest[0].$ref) {
      const { oneOf: _, ...others } = schema;
      return { ...others, $ref: rest[0].$ref };
    }
    schema.oneOf = rest;
  }
  if (Array.isArray(schema.type)) schema.type = collapse(schema.type.filter((t: string) => t !== "null"));
  return schema;
}

function collapse(types: string[]): string | string[] {
  return types.length === 1 ? types[0]! : types;
}

function appendSentence(text: string | undefined, sentence: string): string {
  return text ? `${text.trimEnd()} ${sentence}` : sentence;
}

/** `Service_Method` (short-operation-ids) to the method descriptor. */
function methodsByOperation(registry: Registry): Map<string, DescMethod> {
  const out = new Map<string, DescMethod>();
  for (const desc of registry) {
    if (desc.kind !== "service") continue;
    for (const method of desc.methods) out.set(`${desc.name}_${method.name}`, method);
  }
  return out;
}

/**
 * The success statuses of an operation: the ones its method's comment names after `REST:` (the handlers set them
 * through setRestStatus), and 200 unless the comment says the method never answers 200 (one status
 * named with no condition, or 201 and 202 named together).
 */
function successResponses(op: Json, method: DescMethod): Json {
  const success = op.responses["200"];
  if (!success) throw new Error(`${method.name} has no 200 response`);
  const comment: string = op.description ?? ""; // the method's comment, as the generator copied it
  const note = /REST: ([^]*)$/.exec(comment)?.[1] ?? "";
  const named = [...new Set([...note.matchAll(/\b(20[0-4])\b/g)].map((m) => m[1]!))];
  const unconditional = named.length === 1 && new RegExp(`^${named[0]}[.)]`).test(note.trim());
  const never200 = unconditional || (named.includes("201") && named.includes("202"));
  const out: Json = {};
  for (const status of ["200", ...named].sort()) {
    if (status === "200" && never200) continue;
    out[status] = { ...success, description: statusDescription(status) };
  }
  return out;
}

function statusDescription(status: string): string {
  return { "200": "Success", "201": "Created", "202": "Accepted" }[status] ?? "Success";
}

function walk(node: Json, visit: (node: Json) => void): void {
  if (Array.isArray(node)) node.forEach((child) => walk(child, visit));
  else if (node && typeof node === "object") {
    visit(node);
    for (const child of Object.values(node)) walk(child, visit);
  }
}

await main();
