import type { IncomingHttpHeaders } from "node:http";
import { ScalarType, create, fromJson, getOption, hasOption, toJson, type DescMethod, type DescService, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues, createHandlerContext, type HandlerContext } from "@connectrpc/connect";
import { http } from "../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../gen/google/api/http_pb.js";
import { restStatusOf } from "./errors.js";
import { fromRestJson, toRestJson } from "./rest-json.js";
import { restSuccessStatus } from "./rest-status.js";

/** A service and its method implementations, exactly as registered on the Connect router. */
export interface RestService {
  service: DescService;
  methods: Record<string, (request: any, ctx: HandlerContext) => Promise<any>>;
}

/** A plain HTTP request as the REST layer needs it, independent of HTTP/1.1 or HTTP/2. */
export interface RestRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  signal: AbortSignal;
}

export interface RestResponse {
  status: number;
  body: JsonValue;
  /** Headers the method set (e.g. RateLimit), and a refusal's error metadata (e.g. Retry-After). */
  headers?: Record<string, string>;
  /** The route template, for logs. */
  route?: string;
}

interface RestRoute {
  httpMethod: string;
  template: string;
  pattern: RegExp;
  variables: string[];
  body: string;
  responseBody: string;
  service: DescService;
  method: DescMethod;
  impl: (request: any, ctx: HandlerContext) => Promise<any>;
}

/**
 * The REST mapping, built once from the `google.api.http` annotations on the generated method
 * descriptors: one route per binding (additional bindings included), no hand-written routes. A
 * request becomes the method's protobuf request (path variables, query parameters and body per the
 * annotation), runs through the same guarded implementation as Connect and gRPC, and the response
 * is rendered as the reference API's JSON.
 */
export function createRestRouter(services: RestService[]): (request: RestRequest) => Promise<RestResponse | null> {
  const routes = services.flatMap(({ service, methods }) =>
    service.methods.flatMap((method) => {
      if (!hasOption(method, http)) return [];
      const rule = getOption(method, http);
      const impl = methods[method.localName];
      if (!impl) throw new Error(`no implementation for ${method.name}`);
      return [rule, ...rule.additionalBindings].map((binding) => compileRoute(binding, service, method, impl));
    }),
  );

  return async (request) => {
    const candidates = routes.filter((r) => r.pattern.test(request.url.pathname));
    if (candidates.length === 0) return null;
    const route = candidates.find((r) => r.httpMethod === request.method);
    if (!route) {
      const allowed = [...new Set(candidates.map((r) => r.httpMethod))].join(", ");
      return { status: 405, body: { error: `Method ${request.method} not allowed on ${request.url.pathname}; use ${allowed}` } };
    }
    const ctx = handlerContext(route, request);
    const routeName = `${route.httpMethod} ${route.template}`;
    try {
      return { ...(await invoke(route, request, ctx)), headers: Object.fromEntries(ctx.responseHeader), route: routeName };
    } catch (error) {
      const connectError = ConnectError.from(error);
      connectError.metadata.forEach((value, name) => ctx.responseHeader.set(name, value));
      return { status: restStatusOf(connectError.code), body: { error: connectError.rawMessage }, headers: Object.fromEntries(ctx.responseHeader), route: routeName };
    }
  };
}

function compileRoute(rule: HttpRule, service: DescService, method: DescMethod, impl: RestRoute["impl"]): RestRoute {
  const { case: httpMethod, value: template } = rule.pattern;
  if (httpMethod === undefined || httpMethod === "custom") throw new Error(`unsupported http rule on ${method.name}`);
  const variables: string[] = [];
  const source = template
    .split("/")
    .map((segment) => {
      const variable = /^\{([a-z_][a-z0-9_]*)(=\*)?\}$/.exec(segment);
      if (!variable) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      variables.push(variable[1]!);
      return "([^/]+)";
    })
    .join("/");
  return {
    httpMethod: httpMethod.toUpperCase(),
    template,
    pattern: new RegExp(`^${source}$`),
    variables,
    body: rule.body,
    responseBody: rule.responseBody,
    service,
    method,
    impl,
  };
}

function handlerContext(route: RestRoute, request: RestRequest): HandlerContext {
  return createHandlerContext({
    service: route.service,
    method: route.method,
    protocolName: "rest",
    requestMethod: request.method,
    url: request.url.toString(),
    requestSignal: request.signal,
    requestHeader: headersOf(request.headers),
    contextValues: createContextValues().set(restSuccessStatus, { status: 200 }),
  });
}

async function invoke(route: RestRoute, request: RestRequest, ctx: HandlerContext): Promise<{ status: number; body: JsonValue }> {
  const json = requestJson(route, request);
  let message;
  try {
    message = fromJson(route.method.input, fromRestJson(route.method.input, json), { ignoreUnknownFields: false });
  } catch (error) {
    if (error instanceof ConnectError) throw error;
    throw new ConnectError(`Invalid request: ${describeJsonError(error)}`, Code.InvalidArgument);
  }
  const result = await route.impl(message, ctx);
  const output = create(route.method.output, result);
  const rendered = toRestJson(route.method.output, toJson(route.method.output, output, { alwaysEmitImplicit: true }) as JsonObject);
  const body = route.responseBody ? responseField(route, rendered) : rendered;
  return { status: ctx.values.get(restSuccessStatus).status, body };
}

/** Assembles the request's JSON from the body (per the annotation), path variables and query. */
function requestJson(route: RestRoute, request: RestRequest): JsonObject {
  const input = route.method.input;
  let json: JsonObject = {};
  if (route.body !== "") {
    const parsed = parseBody(request.body);
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
      json[field.jsonName] = parsed;
    }
  }
  const values = route.pattern.exec(request.url.pathname)!;
  route.variables.forEach((name, i) => {
    const field = input.fields.find((f) => f.name === name)!;
    json[field.jsonName] = decodeURIComponent(values[i + 1]!);
  });
  for (const name of new Set(request.url.searchParams.keys())) {
    const field = input.fields.find((f) => f.jsonName === name || f.name === name);
    const bound = field && (route.variables.includes(field.name) || route.body === "*" || route.body === field.name);
    if (!field || bound || field.fieldKind === "message" || field.fieldKind === "map") {
      throw new ConnectError(`Invalid request: unknown query parameter "${name}"`, Code.InvalidArgument);
    }
    const raw = request.url.searchParams.getAll(name);
    json[field.jsonName] =
      field.fieldKind === "list" ? raw.flatMap((v) => v.split(",")).filter((v) => v !== "") : queryScalar(field.fieldKind === "scalar" ? field.scalar : undefined, raw.at(-1)!);
  }
  return json;
}

function queryScalar(scalar: ScalarType | undefined, raw: string): JsonValue {
  if (scalar === ScalarType.BOOL) {
    if (raw === "true" || raw === "false") return raw === "true";
  }
  return raw;
}

function parseBody(body: Buffer): JsonValue {
  if (body.length === 0) throw new ConnectError("Invalid request: a JSON body is required", Code.InvalidArgument);
  try {
    return JSON.parse(body.toString("utf8")) as JsonValue;
  } catch (error) {
    throw new ConnectError(`Malformed JSON body: ${(error as Error).message}`, Code.InvalidArgument);
  }
}

function responseField(route: RestRoute, rendered: JsonObject): JsonValue {
  const field = route.method.output.fields.find((f) => f.name === route.responseBody)!;
  return rendered[field.jsonName] ?? null;
}

/** protobuf-es names fields by their full proto path; callers know the JSON field names. */
function describeJsonError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/cannot decode (field|message) gamification\.v1\./g, "cannot decode $1 ");
}

function headersOf(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(":") || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
  }
  return out;
}
