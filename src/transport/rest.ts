import type { IncomingHttpHeaders } from "node:http";
import { ScalarType, create, getOption, hasOption, toJson, type DescMethod, type DescService, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues, createHandlerContext } from "@connectrpc/connect";
import escapeRegExp from "escape-string-regexp";
import { http } from "../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../gen/google/api/http_pb.js";
import type { Caller } from "../features/account/store/api-keys.js";
import { admittedCaller } from "./admission.js";
import type { GuardedMethod } from "./guard.js";
import { requestInfo, type RequestInfo } from "./request-info.js";
import { restStatusOf } from "./error-mapping.js";
import { parseJsonBody, readRequestJson, shortJson } from "./json-input.js";
import { fromRestJson, toRestJson } from "./rest-json.js";
import { restSuccessStatus } from "./rest-status.js";

/** A service and its guarded method implementations, exactly as registered on the Connect router. */
export interface RestService {
  service: DescService;
  methods: Record<string, GuardedMethod>;
}

/** A plain HTTP request as the REST layer needs it, independent of HTTP/1.1 or HTTP/2. */
export interface RestRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /**
   * Hands over the call's abort, for the transport to run should the client go away before its
   * answer (at once when it is gone already). The call's own signal is the only one made per request.
   */
  whenClientGone(abort: () => void): void;
  /** The caller the transport admitted. */
  caller: Caller;
  /** The request's ID and logger (absent when called outside the HTTP server). */
  info?: RequestInfo;
}

export interface RestResponse {
  status: number;
  body: JsonValue;
  /** Extra response headers (e.g. a ConnectError's metadata). */
  headers?: Record<string, string>;
  /** The route template, for logs. */
  route?: string;
}

export interface RestRoute {
  httpMethod: string;
  template: string;
  pattern: RegExp;
  variables: string[];
  body: string;
  responseBody: string;
  service: DescService;
  method: DescMethod;
  impl: GuardedMethod;
  /** Literal path segments: where templates overlap, the most literal one owns the path. */
  literals: number;
}

/** What a method and path name: a route, a path served only with other methods, or nothing. */
export type RestMatch = { kind: "route"; route: RestRoute } | { kind: "wrong-method"; allowed: string[] } | { kind: "none" };

export interface RestRouter {
  /** Every route, one per binding: what openapi/openapi.json must describe. */
  readonly routes: readonly RestRoute[];
  match(method: string, pathname: string): RestMatch;
  /** Runs a matched route; every failure becomes a REST error response. */
  serve(route: RestRoute, request: RestRequest): Promise<RestResponse>;
}

/**
 * The REST mapping, built once from the `google.api.http` annotations on the generated method
 * descriptors: one route per binding (additional bindings included), no hand-written routes. A
 * request becomes the method's protobuf request (path variables, query parameters and body per the
 * annotation), runs through the same guarded implementation as Connect and gRPC, and the response
 * is rendered as the reference API's JSON.
 */
export function createRestRouter(services: RestService[]): RestRouter {
  const routes = services.flatMap(({ service, methods }) =>
    service.methods.flatMap((method) => {
      if (!hasOption(method, http)) return [];
      const rule = getOption(method, http);
      const impl = methods[method.localName];
      if (!impl) throw new Error(`no implementation for ${method.name}`);
      return [rule, ...rule.additionalBindings].map((binding) => compileRoute(binding, service, method, impl));
    }),
  );

  // A path is tested only against the patterns of the routes with as many segments and the same
  // literal ones (`null`: a variable), not against every route's.
  const bySegmentCount = new Map<number, Array<{ route: RestRoute; segments: Array<string | null> }>>();
  for (const route of routes) {
    const segments = route.template.split("/").map((segment) => (segment.startsWith("{") ? null : segment));
    bySegmentCount.set(segments.length, [...(bySegmentCount.get(segments.length) ?? []), { route, segments }]);
  }

  return {
    routes,
    match(method, pathname) {
      const parts = pathname.split("/");
      const candidates = (bySegmentCount.get(parts.length) ?? [])
        .filter(({ route, segments }) => segments.every((s, i) => s === null || s === parts[i]) && route.pattern.test(pathname))
        .map(({ route }) => route);
      if (candidates.length === 0) return { kind: "none" };
      const literals = Math.max(...candidates.map((r) => r.literals));
      const owners = candidates.filter((r) => r.literals === literals);
      const route = owners.find((r) => r.httpMethod === method);
      return route ? { kind: "route", route } : { kind: "wrong-method", allowed: [...new Set(owners.map((r) => r.httpMethod))] };
    },
    async serve(route, request) {
      const template = `${route.httpMethod} ${route.template}`;
      try {
        return { ...(await invoke(route, request)), route: template };
      } catch (error) {
        return { ...restErrorResponse(error), route: template };
      }
    },
  };
}

/** Any error as the reference's `{"error": "..."}` answer, with the error's metadata (e.g. Retry-After) as headers. */
export function restErrorResponse(error: unknown): RestResponse {
  const connectError = ConnectError.from(error);
  return { status: restStatusOf(connectError.code), body: { error: connectError.rawMessage }, headers: Object.fromEntries(connectError.metadata) };
}

function compileRoute(rule: HttpRule, service: DescService, method: DescMethod, impl: RestRoute["impl"]): RestRoute {
  const { case: httpMethod, value: template } = rule.pattern;
  if (httpMethod === undefined || httpMethod === "custom") throw new Error(`unsupported http rule on ${method.name}`);
  const variables: string[] = [];
  const source = template
    .split("/")
    .map((segment) => {
      const variable = /^\{([a-z_][a-z0-9_]*)(=\*)?\}$/.exec(segment);
      if (!variable) return escapeRegExp(segment);
      variables.push(variable[1]!);
      return "([^/]+)";
    })
    .join("/");
  return {
    httpMethod: httpMethod.toUpperCase(),
    template,
    pattern: new RegExp(`^${source}$`),
    variables,
    literals: template.split("/").filter((segment) => !segment.startsWith("{")).length,
    body: rule.body,
    responseBody: rule.responseBody,
    service,
    method,
    impl,
  };
}

async function invoke(route: RestRoute, request: RestRequest): Promise<{ status: number; body: JsonValue }> {
  const json = requestJson(route, request);
  const message = readRequestJson(route.method.input, fromRestJson(route.method.input, json));
  const contextValues = createContextValues()
    .set(restSuccessStatus, { status: 200 })
    .set(admittedCaller, request.caller)
    .set(requestInfo, request.info ?? null);
  const ctx = createHandlerContext({
    service: route.service,
    method: route.method,
    protocolName: "rest",
    requestMethod: request.method,
    url: request.url.toString(),
    requestHeader: headersOf(request.headers),
    contextValues,
  });
  request.whenClientGone(() => ctx.abort());
  const result = await route.impl(message, ctx);
  const output = create(route.method.output, result);
  const rendered = toRestJson(route.method.output, toJson(route.method.output, output, { alwaysEmitImplicit: true }) as JsonObject);
  const body = route.responseBody ? responseField(route, rendered) : rendered;
  return { status: contextValues.get(restSuccessStatus).status, body };
}

/** Assembles the request's JSON from the body (per the annotation), path variables and query. */
function requestJson(route: RestRoute, request: RestRequest): JsonObject {
  const input = route.method.input;
  let json: JsonObject = {};
  if (route.body !== "") {
    const parsed = parseJsonBody(request.body);
    if (route.body === "*") {
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        throw new ConnectError("Invalid request: the body must be a JSON object", Code.InvalidArgument);
      }
      json = parsed;
    } else {
      const field = input.fields.find((f) => f.name === route.body)!;
      if (field.fieldKind === "list" && !Array.isArray(parsed)) {
        throw new ConnectError("Invalid request: the body must be a JSON array", Code.InvalidArgument);
      }
      if (field.fieldKind === "message" && (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))) {
        throw new ConnectError("Invalid request: the body must be a JSON object", Code.InvalidArgument);
      }
      json[field.jsonName] = parsed;
    }
  }
  const values = route.pattern.exec(request.url.pathname)!;
  route.variables.forEach((name, i) => {
    const field = input.fields.find((f) => f.name === name)!;
    const fromPath = decodePathSegment(values[i + 1]!);
    // A whole-body request could name the field too: the path would win silently over a different value.
    for (const key of [field.jsonName, field.name]) {
      if (Object.hasOwn(json, key) && json[key] !== fromPath) {
        throw new ConnectError(
          `Invalid request: the body's "${key}" (${shortJson(json[key]!)}) differs from the path's (${shortJson(fromPath)})`,
          Code.InvalidArgument,
        );
      }
      delete json[key];
    }
    json[field.jsonName] = fromPath;
  });
  for (const name of new Set(request.url.searchParams.keys())) {
    const field = input.fields.find((f) => f.jsonName === name || f.name === name);
    const bound = field && (route.variables.includes(field.name) || route.body === "*" || route.body === field.name);
    if (!field || bound || field.fieldKind === "message" || field.fieldKind === "map") {
      throw new ConnectError(`Invalid request: unknown query parameter "${name}"`, Code.InvalidArgument);
    }
    const raw = request.url.searchParams.getAll(name);
    if (field.fieldKind !== "list" && raw.length > 1) {
      throw new ConnectError(`Invalid request: the query parameter "${name}" is given ${raw.length} times; it takes one value`, Code.InvalidArgument);
    }
    json[field.jsonName] =
      field.fieldKind === "list" ? queryList(request.url.search, name) : queryScalar(field.fieldKind === "scalar" ? field.scalar : undefined, raw.at(-1)!);
  }
  return json;
}

/**
 * The items of a list query parameter, repeated (`?ids=a&ids=b`) or comma-separated (`?ids=a,b`).
 * Split at the literal commas before decoding, so an escaped comma (`%2C`) stays inside its item: a
 * user ID may hold one. An empty occurrence (`?ids=`) gives no item; an empty item between commas
 * stays, for validation to refuse.
 */
function queryList(search: string, name: string): string[] {
  const items: string[] = [];
  for (const pair of search.slice(1).split("&")) {
    const eq = pair.indexOf("=");
    if (eq === -1 || queryComponent(pair.slice(0, eq)) !== name) continue;
    const value = pair.slice(eq + 1);
    if (value !== "") for (const item of value.split(",")) items.push(queryComponent(item));
  }
  return items;
}

/** One raw query component decoded exactly as `URLSearchParams` decodes it (`+` is a space; a malformed escape stays as written). */
function queryComponent(raw: string): string {
  return new URLSearchParams(`v=${raw}`).get("v")!;
}

function queryScalar(scalar: ScalarType | undefined, raw: string): JsonValue {
  if (scalar === ScalarType.BOOL) {
    if (raw === "true" || raw === "false") return raw === "true";
  }
  return raw;
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ConnectError(`Invalid request: the path segment "${segment}" has a malformed percent-escape or is not UTF-8`, Code.InvalidArgument);
  }
}

function responseField(route: RestRoute, rendered: JsonObject): JsonValue {
  const field = route.method.output.fields.find((f) => f.name === route.responseBody)!;
  return rendered[field.jsonName] ?? null;
}

/** The request's headers as pairs: the handler context builds its `Headers` from them (once, not from a copy). */
function headersOf(headers: IncomingHttpHeaders): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(":") || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.push([name, v]);
  }
  return out;
}
