import http, { type IncomingMessage, type ServerResponse } from "node:http";
import http2, { type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import net, { type AddressInfo } from "node:net";
import type { JsonValue } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { Logger } from "pino";
import type { RestRequest, RestResponse } from "../api/rest.js";

type NodeRequest = IncomingMessage | Http2ServerRequest;
type NodeResponse = ServerResponse | Http2ServerResponse;

export interface HttpServerOptions {
  routes: (router: ConnectRouter) => void;
  rest: (request: RestRequest) => Promise<RestResponse | null>;
  health: () => Promise<{ status: number; body: JsonValue }>;
  maxRequestBytes: number;
  logger: Logger;
}

export interface RunningHttpServer {
  port: number;
  close(): Promise<void>;
}

/** The HTTP/2 connection preface starts with these bytes; no HTTP/1.1 request line does. */
const H2_PREFACE_START = Buffer.from("PRI ");

/**
 * One port for every protocol. Node's plain-text HTTP/2 server does not accept HTTP/1.1, so a TCP
 * server reads each connection's first bytes and hands it to the HTTP/2 server (gRPC, and Connect or
 * gRPC-web over h2c) or to the HTTP/1.1 server (REST, Connect, gRPC-web). Both serve one handler:
 * Connect's router first, REST and health as its fallback.
 */
export async function startHttpServer(options: HttpServerOptions, port: number, host: string): Promise<RunningHttpServer> {
  const { logger } = options;
  const connect = connectNodeAdapter({
    routes: options.routes,
    readMaxBytes: options.maxRequestBytes,
    fallback: (req, res) => void serveRest(options, req, res as NodeResponse),
  });
  const handler = (req: NodeRequest, res: NodeResponse) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      logger.info(
        {
          method: req.method,
          path: (req.url ?? "").split("?")[0],
          route: (res as { route?: string }).route,
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          tenant: req.headers["tenant-id"] ?? null,
          protocol: req.httpVersion === "2.0" ? "h2" : "http/1.1",
        },
        "request",
      );
    });
    connect(req, res);
  };

  const h1 = http.createServer(handler);
  const h2 = http2.createServer({}, handler);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.once("readable", () => {
      const head: Buffer | null = socket.read(H2_PREFACE_START.length) ?? socket.read();
      if (head === null) return socket.destroy();
      socket.unshift(head);
      (head.subarray(0, H2_PREFACE_START.length).equals(H2_PREFACE_START) ? h2 : h1).emit("connection", socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        h1.closeIdleConnections();
        // Give in-flight requests a moment, then end every connection.
        setTimeout(() => sockets.forEach((s) => s.destroy()), 2000).unref();
        if (sockets.size === 0) setImmediate(() => server.emit("close"));
      }),
  };
}

async function serveRest(options: HttpServerOptions, req: NodeRequest, res: NodeResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://localhost");
  let response: RestResponse | null;
  if (url.pathname === "/healthz" && req.method === "GET") {
    response = await options.health();
  } else {
    const body = await readBody(req, options.maxRequestBytes);
    if (body === null) {
      response = { status: 413, body: { error: `Request body too large: the limit is ${options.maxRequestBytes} bytes` } };
    } else {
      const controller = new AbortController();
      req.once("close", () => controller.abort());
      response = await options.rest({ method: req.method ?? "GET", url, headers: req.headers, body, signal: controller.signal });
    }
  }
  response ??= { status: 404, body: { error: `No route for ${req.method} ${url.pathname}` } };
  (res as { route?: string }).route = response.route;
  const payload = JSON.stringify(response.body);
  res.writeHead(response.status, { ...response.headers, "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

/** The whole body, or null when it exceeds the limit. */
async function readBody(req: NodeRequest, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
