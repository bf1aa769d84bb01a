import http from "node:http";
import http2 from "node:http2";
import net, { type AddressInfo } from "node:net";
import type { JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError, cors, type ConnectRouter } from "@connectrpc/connect";
import type { Logger } from "pino";
import { randomUUID, timingSafeEqual } from "node:crypto";
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";
import type { Admission } from "../transport/admission.js";
import { isValidRequestId, type RequestInfo } from "../transport/request-info.js";
import { restErrorResponse, type RestResponse, type RestRouter } from "../transport/rest.js";
import type { ServiceMetrics } from "./metrics.js";
import type { ApiDocs, DocsResponse } from "./api-docs.js";
import { ClientGoneError, decompress, readBody, REQUEST_ENCODINGS, type NodeRequest, type NodeResponse } from "./request-body.js";
import { createRpcAdapter } from "./rpc-adapter.js";

/** Resource limits of the HTTP server; every one is configurable (see config.ts and the README). */
export interface ServerLimits {
  /** Largest request body on every protocol. */
  maxRequestBytes: number;
  /** Time from a connection's first byte (or a keep-alive request's start) to its complete headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body. */
  requestTimeoutMs: number;
  /** How long an HTTP/1.1 connection may sit idle between requests. */
  keepAliveTimeoutMs: number;
  /** A connection (HTTP/1.1) or session (HTTP/2) with no traffic either way for this long is closed. */
  idleTimeoutMs: number;
  /** Largest request head (request line and headers) on HTTP/1.1; header list on HTTP/2. */
  maxHeaderBytes: number;
  /** Open connections at once; more are closed on arrival. */
  maxConnections: number;
  /** Concurrent streams on one HTTP/2 connection. */
  maxConcurrentStreams: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxRequestBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 120_000,
  maxHeaderBytes: 16 * 1024,
  maxConnections: 4096,
  maxConcurrentStreams: 100,
};

export interface HttpServerOptions {
  routes: (router: ConnectRouter) => void;
  rest: RestRouter;
  admission: Admission;
  /** Services anyone may call without a key (server reflection). */
  publicServices: ReadonlySet<string>;
  health: () => Promise<{ status: number; body: JsonValue }>;
  /** GET /readyz: 200 naming each check, 503 naming the failing ones. */
  ready: () => Promise<{ status: number; body: JsonValue }>;
  /** GET /metrics (Prometheus); with a token, only for `Authorization: Bearer <token>`. */
  metrics?: { metrics: ServiceMetrics; token?: string };
  /** Spans for requests (tracing.ts); absent: tracing is off. */
  tracing?: RequestTracing;
  /** `GET /openapi.json` and `GET /docs` (api-docs.ts); like health, they need no key. */
  docs?: ApiDocs;
  limits: ServerLimits;
  /** Web origins browsers may call from (CORS), or "*"; empty: no CORS headers. */
  corsOrigins?: readonly string[];
  /** How long close() lets requests in flight finish before it ends their connections. */
  shutdownGraceMs?: number;
  logger: Logger;
}

/** Puts each request's handling inside a span of its own (see tracing.ts). */
export interface RequestTracing {
  /** Runs `serve` in the request's span, ended when the answer is closed; sets `info.traceId`. */
  trace(req: NodeRequest, res: NodeResponse, info: RequestInfo, serve: () => void): void;
}

export interface RunningHttpServer {
  port: number;
  /** Requests being served now. */
  inFlight(): number;
  /** Stops accepting, lets requests in flight finish (within the grace time), then ends every connection. */
  close(): Promise<void>;
}

export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/** One request's ID, logger and outcome; the logger is made on first use. */
class RequestState implements RequestInfo {
  traceId: string | null = null;
  protocol: RequestInfo["protocol"] = "rest";
  route: string | null = null;
  rpcCode: number | null = null;
  #log: Logger | undefined;
  constructor(
    readonly requestId: string,
    private readonly logger: Logger,
  ) {}
  /** True once the child logger exists. */
  get hasLog(): boolean {
    return this.#log !== undefined;
  }
  get log(): Logger {
    return (this.#log ??= this.logger.child(this.traceId === null ? { requestId: this.requestId } : { requestId: this.requestId, traceId: this.traceId }));
  }
}

/** The HTTP/2 connection preface starts with these bytes; no HTTP/1.1 request line does. */
const H2_PREFACE_START = Buffer.from("PRI ");
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;
/** A charset other than UTF-8 named by a Content-Type (JSON is UTF-8: RFC 8259). */
const OTHER_CHARSET = /;\s*charset\s*=\s*(?!"?utf-8"?\s*(;|$))/i;

/**
 * One port for every protocol. Node's plain-text HTTP/2 server does not accept HTTP/1.1, so a TCP
 * server reads each connection's first bytes and hands it to the HTTP/2 server (gRPC, and Connect or
 * gRPC-web over h2c) or to the HTTP/1.1 server (REST, Connect, gRPC-web). Both serve one handler:
 * RPC paths go to Connect (rpc-adapter.ts), everything else to REST and health.
 *
 * A client can only ever hurt its own request: every socket, request and response has an error
 * listener, every request's work is awaited with its failure handled, and the limits above bound
 * what a slow, silent or oversized client can hold.
 */
export async function startHttpServer(options: HttpServerOptions, port: number, host: string): Promise<RunningHttpServer> {
  const { logger, limits } = options;
  const rpc = createRpcAdapter({
    routes: options.routes,
    admission: options.admission,
    publicServices: options.publicServices,
    maxRequestBytes: limits.maxRequestBytes,
    logger,
  });
  const metrics = options.metrics?.metrics;
  let inFlight = 0;
  /** HTTP/1.1 answers being prepared: told to close their connection when a shutdown starts. */
  const busyHttp1 = new Set<NodeResponse>();
  let draining = false;
  let drained: (() => void) | null = null;
  const handler = (req: NodeRequest, res: NodeResponse) => {
    // Node advertises SETTINGS_MAX_HEADER_LIST_SIZE to HTTP/2 clients but does not enforce it.
    if (req.httpVersionMajor === 2 && headerListSize(req.rawHeaders) > limits.maxHeaderBytes) {
      // Whatever the client still sends or breaks on the refused stream is nobody's error.
      req.on("error", () => undefined);
      res.on("error", () => undefined);
      (req as http2.Http2ServerRequest).stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
      return;
    }
    if (answerCors(req, res, options.corsOrigins ?? [])) return;
    const started = process.hrtime.bigint();
    const path = (req.url ?? "").split("?")[0]!;
    const callerId = req.headers["x-request-id"];
    const info = new RequestState(isValidRequestId(callerId) ? callerId : randomUUID(), logger);
    res.setHeader("x-request-id", info.requestId);
    inFlight += 1;
    // Shutting down: the connection is not kept for another request.
    if (draining && req.httpVersionMajor === 1) res.setHeader("connection", "close");
    else if (req.httpVersionMajor === 1) busyHttp1.add(res);
    // A client's reset or abort surfaces as an error on its own request or response: never fatal.
    req.on("error", (error) => info.log.debug({ err: error, path }, "request stream error"));
    res.on("error", (error) => info.log.debug({ err: error, path }, "response stream error"));
    if (req.httpVersionMajor === 2) limitHttp2Request(req as http2.Http2ServerRequest, limits.requestTimeoutMs);
    res.on("close", () => {
      inFlight -= 1;
      busyHttp1.delete(res);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const status = res.writableFinished ? res.statusCode : null;
      // gRPC answers 200 whatever the outcome: its code counts, as Connect maps it to HTTP. 499: the client went away.
      metrics?.requestFinished(
        info.route ?? "unmatched",
        info.protocol,
        status === null ? 499 : info.protocol !== "rest" && info.rpcCode !== null ? httpStatusOfCode(info.rpcCode) : status,
        seconds,
      );
      // The request line needs no child logger of its own: the IDs are fields of the line.
      (info.hasLog ? info.log : logger).info(
        {
          requestId: info.hasLog ? undefined : info.requestId,
          traceId: info.hasLog ? undefined : (info.traceId ?? undefined),
          method: req.method,
          path,
          route: info.route,
          status,
          completed: res.writableFinished,
          durationMs: seconds * 1000,
          tenant: req.headers["tenant-id"] ?? null,
          protocol: req.httpVersionMajor === 2 ? "h2" : "http/1.1",
        },
        "request",
      );
      if (inFlight === 0) drained?.();
    });
    const serve = () => {
      const rpcHandler = rpc.get(path);
      (rpcHandler ? rpcHandler(req, res, info) : serveRest(options, req, res, info)).catch((error: unknown) => {
        if (error instanceof ClientGoneError) return;
        info.log.error({ err: error, path }, "request failed");
        if (!res.headersSent && !res.destroyed) writeJson(req, res, { status: 500, body: { error: "Internal error" } }, info);
        else res.destroy();
      });
    };
    if (options.tracing) options.tracing.trace(req, res, info, serve);
    else serve();
  };

  const h1 = http.createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    handler,
  );
  h1.on("clientError", (error: NodeJS.ErrnoException, socket: net.Socket) => answerClientError(error, socket, limits));
  // Node hands CONNECT (a proxy's tunnel) to this event, not to the handler, and drops the
  // connection when nothing listens.
  h1.on("connect", (_req: http.IncomingMessage, socket: net.Socket) =>
    answerRaw(socket, 405, "Method Not Allowed", "Method CONNECT is not allowed: this server is not a proxy"),
  );
  // Answer a client that half-closes its side after sending the request (as `nc` or a
  // shutdown(SHUT_WR) does) instead of dropping its request. Node has no option for this.
  (h1 as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  h1.timeout = limits.idleTimeoutMs;
  // Node enforces headersTimeout and requestTimeout from a connection list it sets up when the
  // server starts listening; this server never listens itself (connections are handed to it), so
  // start that tracking explicitly.
  h1.emit("listening");
  const h2 = http2.createServer(
    {
      settings: { maxConcurrentStreams: limits.maxConcurrentStreams, maxHeaderListSize: limits.maxHeaderBytes },
      maxSessionMemory: 10,
    },
    handler,
  );
  h2.setTimeout(limits.idleTimeoutMs);
  h2.on("sessionError", (error) => logger.debug({ err: error }, "http2 session error"));
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
    if (draining) session.close();
  });

  const sockets = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", (error) => logger.debug({ err: error }, "socket error"));
    // A connection that sends nothing is closed like one whose headers never complete.
    socket.setTimeout(limits.headersTimeoutMs, () => socket.destroy());
    socket.once("readable", () => {
      const head = (socket.read(H2_PREFACE_START.length) ?? socket.read()) as Buffer | null;
      if (head === null) return socket.destroy();
      socket.setTimeout(0);
      socket.unshift(head);
      (head.subarray(0, H2_PREFACE_START.length).equals(H2_PREFACE_START) ? h2 : h1).emit("connection", socket);
    });
  });
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  let closing: Promise<void> | null = null;
  return {
    port: (server.address() as AddressInfo).port,
    inFlight: () => inFlight,
    close: () =>
      (closing ??= (async () => {
        draining = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Idle HTTP/1.1 connections end now; busy ones answer with `Connection: close`; HTTP/2
        // sessions get a GOAWAY and finish their streams.
        h1.closeIdleConnections();
        for (const res of busyHttp1) if (!res.headersSent) res.setHeader("connection", "close");
        for (const session of sessions) session.close();
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, graceMs);
            timer.unref();
            drained = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (inFlight > 0) logger.warn({ inFlight, graceMs }, "shutdown grace time over: closing connections with requests in flight");
        }
        h1.close(); // stops the connection tracking
        for (const socket of sockets) socket.destroy();
        if (sockets.size === 0) setImmediate(() => server.emit("close"));
        await closed;
      })()),
  };
}

/** A Connect code (0: success) as the HTTP status Connect maps it to. */
function httpStatusOfCode(code: number): number {
  return code === 0 ? 200 : codeToHttpStatus(code);
}

/** HTTP/1.1 has Node's requestTimeout; an HTTP/2 stream gets the same bound on its whole request. */
/** What a browser may send and read (CORS): Connect's and gRPC-web's own, and this service's. */
const CORS_ALLOWED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"].join(", ");
const CORS_ALLOWED_HEADERS = [...cors.allowedHeaders, "X-API-KEY", "Tenant-ID", "Idempotency-Key", "X-Request-ID", "traceparent", "tracestate"].join(", ");
const CORS_EXPOSED_HEADERS = [...cors.exposedHeaders, "X-Request-ID", "RateLimit", "RateLimit-Policy", "Retry-After"].join(", ");

/**
 * CORS for browsers calling from an allowed origin: the answer names the origin (Vary: Origin unless
 * any origin is allowed); a preflight is answered here with 204, before any key is asked for (a
 * browser sends none with it). Keys travel in headers, never cookies, so credentials are not allowed.
 * Returns whether the request was answered.
 */
function answerCors(req: NodeRequest, res: NodeResponse, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== "string" || allowed.length === 0) return false;
  const any = allowed.includes("*");
  if (!any && !allowed.includes(origin)) return false;
  res.setHeader("access-control-allow-origin", any ? "*" : origin);
  if (!any) res.setHeader("vary", "Origin");
  if (req.method !== "OPTIONS" || req.headers["access-control-request-method"] === undefined) {
    res.setHeader("access-control-expose-headers", CORS_EXPOSED_HEADERS);
    return false;
  }
  res.writeHead(204, {
    "access-control-allow-methods": CORS_ALLOWED_METHODS,
    "access-control-allow-headers": CORS_ALLOWED_HEADERS,
    "access-control-max-age": "7200",
  });
  res.end();
  return true;
}

/** An HTTP/2 header list's size as SETTINGS_MAX_HEADER_LIST_SIZE counts it: name and value octets plus 32 per field. */
function headerListSize(rawHeaders: readonly string[]): number {
  let size = 0;
  for (const field of rawHeaders) size += Buffer.byteLength(field) + 16;
  return size;
}

/**
 * An HTTP/2 request's stream ends at the request timeout, or once its answer is complete while the
 * client is still sending (an upload refused as too large): RST_STREAM NO_ERROR, as RFC 9113 8.1
 * has it, frees the stream's slot at once.
 */
function limitHttp2Request(req: http2.Http2ServerRequest, timeoutMs: number): void {
  const timer = setTimeout(() => {
    if (!req.readableEnded) req.stream.close(http2.constants.NGHTTP2_CANCEL);
  }, timeoutMs);
  timer.unref();
  req.once("end", () => clearTimeout(timer));
  req.once("close", () => clearTimeout(timer));
  // The stream's own writable end (the compatibility response emits "finish" only once the stream closed).
  req.stream.once("finish", () => {
    if (!req.readableEnded && !req.stream.closed) req.stream.close(http2.constants.NGHTTP2_NO_ERROR);
  });
}

/**
 * REST and health, in this order: authenticate the key (401), find the route (404, or 405 with
 * Allow), check the key may call its service (403), read the body within the limit (413, or 415 when
 * it is not JSON), then run it. Health needs no key.
 */
async function serveRest(options: HttpServerOptions, req: NodeRequest, res: NodeResponse, info: RequestInfo): Promise<void> {
  // HEAD is GET without the body (RFC 9110; Node leaves the body out of a HEAD answer).
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
  let url: URL;
  try {
    // An origin-form target is a path: as a relative URL, "//v1//users" would name a host "v1".
    const target = req.url ?? "/";
    url = target.startsWith("/") ? new URL(`http://localhost${target}`) : new URL(target, "http://localhost");
  } catch {
    return writeJson(req, res, { status: 400, body: { error: `Malformed request target "${req.url}"` } }, info);
  }
  if (method === "GET" && OPERATIONS_PATHS.has(url.pathname)) {
    info.route = `GET ${url.pathname}`;
    if (url.pathname === "/healthz") return writeJson(req, res, await options.health(), info);
    if (url.pathname === "/readyz") return writeJson(req, res, await options.ready(), info);
    if (options.metrics) return serveMetrics(options.metrics, req, res, info);
  }
  const docs = options.docs?.serve(method, url.pathname, typeof req.headers["accept-encoding"] === "string" ? req.headers["accept-encoding"] : undefined);
  if (docs) {
    // Named by method only for the methods served: HTTP/2 carries any method, and a label per made-up one would grow without bound.
    const served = method === "GET" || method === "HEAD";
    info.route = !served ? "unmatched" : url.pathname === "/openapi.json" ? `${method} /openapi.json` : `${method} /docs`;
    return writeStatic(req, res, docs);
  }

  let admitted;
  try {
    admitted = await options.admission.admit(typeof req.headers["x-api-key"] === "string" ? req.headers["x-api-key"] : null, req.socket.remoteAddress ?? "");
  } catch (error) {
    return writeJson(req, res, restErrorResponse(error), info);
  }
  const match = options.rest.match(method, url.pathname);
  if (match.kind === "none") {
    return writeJson(req, res, { status: 404, body: { error: `No route for ${method} ${url.pathname}` }, headers: admitted.headers }, info);
  }
  if (match.kind === "wrong-method") {
    const allow = match.allowed.join(", ");
    return writeJson(
      req,
      res,
      { status: 405, body: { error: `Method ${method} not allowed on ${url.pathname}; use ${allow}` }, headers: { ...admitted.headers, allow } },
      info,
    );
  }
  const { route } = match;
  info.route = `${route.httpMethod} ${route.template}`;
  try {
    options.admission.authorize(admitted.caller, route.service);
  } catch (error) {
    const refused = restErrorResponse(error);
    return writeJson(req, res, { ...refused, headers: { ...admitted.headers, ...refused.headers } }, info);
  }
  const read = await readBody(req, options.limits.maxRequestBytes);
  const body = read !== "too-large" && req.headers["content-encoding"] !== undefined ? await decodedBody(req, read, options.limits.maxRequestBytes) : read;
  if (body === "too-large") {
    return writeJson(
      req,
      res,
      { status: 413, body: { error: `Request body too large: the limit is ${options.limits.maxRequestBytes} bytes` }, headers: admitted.headers },
      info,
    );
  }
  if (body instanceof ConnectError) {
    const unsupported = body.code === Code.Unimplemented;
    const status = unsupported ? 415 : 400;
    const headers = unsupported ? { ...admitted.headers, "accept-encoding": REQUEST_ENCODINGS.map((c) => c.name).join(", ") } : admitted.headers;
    const error = unsupported ? `Unsupported Content-Encoding "${req.headers["content-encoding"]}": send gzip, br or no encoding` : body.rawMessage;
    return writeJson(req, res, { status, body: { error }, headers }, info);
  }
  const contentType = req.headers["content-type"];
  if (route.body !== "" && body.length > 0 && (!JSON_CONTENT_TYPE.test(contentType ?? "") || OTHER_CHARSET.test(contentType ?? ""))) {
    return writeJson(
      req,
      res,
      {
        status: 415,
        body: { error: `Unsupported Content-Type ${contentType === undefined ? "(none)" : `"${contentType}"`}: send the body as application/json (UTF-8)` },
        headers: { ...admitted.headers, "accept-post": "application/json" },
      },
      info,
    );
  }
  // A client gone before its answer aborts the call; after a complete answer there is nothing to abort
  // (and an abort would build an error object for every request).
  let clientGone = false;
  let abortCall: (() => void) | undefined;
  res.once("close", () => {
    if (res.writableFinished) return;
    clientGone = true;
    abortCall?.();
  });
  const whenClientGone = (abort: () => void) => {
    if (clientGone) abort();
    else abortCall = abort;
  };
  const response = await options.rest.serve(route, { method, url, headers: req.headers, body, whenClientGone, caller: admitted.caller, info });
  writeJson(req, res, { ...response, headers: { ...admitted.headers, ...response.headers } }, info);
}

/** Writes a prepared answer (the documentation's files), without its body for HEAD. */
function writeStatic(req: NodeRequest, res: NodeResponse, response: DocsResponse): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string | number> = { ...response.headers, "content-length": response.body.length };
  if (req.httpVersionMajor === 1 && !req.complete) headers["connection"] = "close";
  res.writeHead(response.status, headers);
  if (req.method === "HEAD") res.end();
  else res.end(response.body);
}

const OPERATIONS_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** The Prometheus exposition; with a token configured, only for a caller that sends it (constant-time check). */
async function serveMetrics(metrics: NonNullable<HttpServerOptions["metrics"]>, req: NodeRequest, res: NodeResponse, info: RequestInfo): Promise<void> {
  if (metrics.token !== undefined && !bearerMatches(req.headers.authorization, metrics.token)) {
    return writeJson(
      req,
      res,
      {
        status: 401,
        body: { error: "This endpoint needs the metrics token: send Authorization: Bearer <METRICS_TOKEN>" },
        headers: { "www-authenticate": "Bearer" },
      },
      info,
    );
  }
  const { contentType, body } = await metrics.metrics.render();
  if (res.destroyed || res.headersSent) return;
  res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(.+)$/i.exec(header ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Writes a JSON answer, unless the client is already gone. An error answer (`{"error": ...}`) gets
 * the request's ID beside the message.
 */
function writeJson(req: NodeRequest, res: NodeResponse, response: RestResponse, info: RequestInfo): void {
  if (res.destroyed || res.headersSent) return;
  const body = response.status >= 400 && isErrorBody(response.body) ? { ...response.body, requestId: info.requestId } : response.body;
  const payload = JSON.stringify(body);
  const headers: Record<string, string | number> = {
    ...response.headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(payload),
  };
  // An HTTP/1.1 request whose body was left unread cannot share its connection with the next one.
  if (req.httpVersionMajor === 1 && !req.complete) headers["connection"] = "close";
  res.writeHead(response.status, headers);
  res.end(payload);
}

function isErrorBody(body: JsonValue): body is { error: JsonValue } {
  return body !== null && typeof body === "object" && !Array.isArray(body) && "error" in body;
}

/**
 * A REST body as sent, decompressed when its Content-Encoding says so (gzip or br, as Connect takes
 * them), within the same size limit; the refusal as a ConnectError otherwise.
 */
async function decodedBody(req: NodeRequest, body: Buffer, limit: number): Promise<Buffer | "too-large" | ConnectError> {
  if (body.length === 0) return body;
  try {
    return Buffer.from(await decompress(req.headers["content-encoding"]?.trim().toLowerCase() ?? "identity", body, limit));
  } catch (error) {
    const refusal = ConnectError.from(error);
    return refusal.code === Code.ResourceExhausted ? "too-large" : refusal;
  }
}

/**
 * A request Node's HTTP/1.1 parser refused before any handler ran (malformed, a head past
 * MAX_HEADER_BYTES, too slow): Node's own answer and status, with an `{"error": ...}` body like every
 * other refusal, then the connection closes. Nothing is written once an answer has begun.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: net.Socket, limits: ServerLimits): void {
  const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) return void socket.destroy();
  // Node reports both timeouts with one code; a request whose head was received has its answer object.
  const timeout = answering
    ? `The request was not received within ${limits.requestTimeoutMs} ms`
    : `The request head was not received within ${limits.headersTimeoutMs} ms`;
  const [status, reason, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", `The request head is larger than the limit of ${limits.maxHeaderBytes} bytes`]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", timeout]
        : [400, "Bad Request", `The request is not valid HTTP/1.1 (${error.code ?? "unparsable"})`];
  answerRaw(socket, status, reason, message);
}

/**
 * Answers on the socket itself (no response object exists) with an `{"error": ...}` body, then closes
 * the connection; with a request ID of its own, as every answer has (the request's was not read).
 */
function answerRaw(socket: net.Socket, status: number, reason: string, message: string): void {
  const requestId = randomUUID();
  const body = JSON.stringify({ error: message, requestId });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-ID: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  socket.destroySoon();
}
