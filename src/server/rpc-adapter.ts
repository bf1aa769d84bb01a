import { fromBinary, type DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError, createConnectRouter, createContextValues, type ConnectRouter } from "@connectrpc/connect";
import { universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import { codeToHttpStatus, errorToJsonBytes, parseContentType as parseConnectContentType } from "@connectrpc/connect/protocol-connect";
import { parseContentType as parseGrpcContentType, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { parseContentType as parseGrpcWebContentType } from "@connectrpc/connect/protocol-grpc-web";
import type { Logger } from "pino";
import { admittedCaller, type Admission } from "../transport/admission.js";
import { parseJsonBody, readRequestJson } from "../transport/json-input.js";
import { requestInfo, type RequestInfo } from "../transport/request-info.js";
import { decompress, readBody, REQUEST_ENCODINGS, type NodeRequest, type NodeResponse } from "./request-body.js";

/** An envelope's flags byte and 32-bit length, before its message (gRPC, gRPC-web, Connect streaming). */
const ENVELOPE_HEADER_BYTES = 5;

/** How a request on an RPC path is framed, read from its Content-Type. */
interface RpcFraming {
  protocol: "connect" | "grpc" | "grpc-web";
  binary: boolean;
  /** Messages come in 5-byte-prefixed envelopes (gRPC, gRPC-web, Connect streaming). */
  enveloped: boolean;
}

export interface RpcAdapterOptions {
  routes: (router: ConnectRouter) => void;
  admission: Admission;
  /** Services anyone may call without a key (server reflection). */
  publicServices: ReadonlySet<string>;
  maxRequestBytes: number;
  logger: Logger;
}

/** Serves one RPC request; resolves when the answer is written or the client is gone. */
export type RpcHandler = (req: NodeRequest, res: NodeResponse, info: RequestInfo) => Promise<void>;

/**
 * Connect's router behind the same checks as REST, in the same order: the key is admitted and
 * authorized before the body is read, the body is read within the size limit, then parsed under
 * the same input rules as REST (json-input.ts) or as protobuf binary, so a malformed request is
 * refused as invalid_argument in the caller's protocol before Connect sees it (Connect itself
 * reports a binary it cannot parse as `internal`). Only then does Connect run the method.
 */
export function createRpcAdapter(options: RpcAdapterOptions): Map<string, RpcHandler> {
  const router = createConnectRouter({
    readMaxBytes: options.maxRequestBytes,
    jsonOptions: { ignoreUnknownFields: false },
    // Connect clients compress requests by default (the Python one with gzip); decompressed sizes are
    // bounded by readMaxBytes, as the checks below already bound them.
    acceptCompression: REQUEST_ENCODINGS,
  });
  options.routes(router);
  const handlers = new Map<string, RpcHandler>();
  for (const uHandler of router.handlers) {
    const isPublic = options.publicServices.has(uHandler.service.typeName);
    const route = `${uHandler.service.typeName}/${uHandler.method.name}`;
    handlers.set(uHandler.requestPath, async (req, res, info) => {
      const framing = framingOf(req.headers["content-type"]);
      info.route = route;
      info.protocol = framing?.protocol ?? "connect";
      if (isPublic || !framing || !uHandler.supportedContentType(req.headers["content-type"] ?? "") || req.method !== "POST") {
        // Reflection streams (no key, read as it comes), or a request Connect can answer in no
        // protocol: Connect gives its own answer (405, 415).
        return forward(uHandler, req, res, undefined, createContextValues().set(requestInfo, info), null);
      }
      const contextValues = createContextValues().set(requestInfo, info);
      const responseHeaders: Record<string, string> = {};
      try {
        const admitted = await options.admission.admit(headerOf(req, "x-api-key"), req.socket.remoteAddress ?? "");
        Object.assign(responseHeaders, admitted.headers);
        options.admission.authorize(admitted.caller, uHandler.service);
        contextValues.set(admittedCaller, admitted.caller);
        // The limit is the message's, as on Connect and REST: an envelope's 5-byte header comes on top.
        const body = await readBody(req, options.maxRequestBytes + (framing.enveloped ? ENVELOPE_HEADER_BYTES : 0));
        if (body === "too-large") {
          throw new ConnectError(`The request is larger than the limit of ${options.maxRequestBytes} bytes`, Code.ResourceExhausted);
        }
        await checkRequestMessage(uHandler.method, framing, req, body, options.maxRequestBytes);
        for (const [name, value] of Object.entries(responseHeaders)) res.setHeader(name, value);
        await forward(uHandler, req, res, body, contextValues, framing.protocol === "connect" && !framing.enveloped ? info.requestId : null);
      } catch (error) {
        if (res.headersSent || res.destroyed) return;
        const connectError = ConnectError.from(error);
        if (connectError.code === Code.Internal) info.log.error({ err: error }, "rpc admission failed");
        info.rpcCode = connectError.code;
        rejectRpc(framing, connectError, req, res, responseHeaders, info.requestId);
      }
    });
  }
  return handlers;
}

function framingOf(contentType: string | undefined): RpcFraming | undefined {
  if (contentType === undefined) return undefined;
  const grpcWeb = parseGrpcWebContentType(contentType);
  if (grpcWeb) return grpcWeb.text ? undefined : { protocol: "grpc-web", binary: grpcWeb.binary, enveloped: true };
  const grpc = parseGrpcContentType(contentType);
  if (grpc) return { protocol: "grpc", binary: grpc.binary, enveloped: true };
  const connect = parseConnectContentType(contentType);
  if (connect) return { protocol: "connect", binary: connect.binary, enveloped: connect.stream };
  return undefined;
}

function headerOf(req: NodeRequest, name: string): string | null {
  const value = req.headers[name];
  return typeof value === "string" ? value : null;
}

type UniversalHandler = ReturnType<typeof createConnectRouter>["handlers"][number];

/**
 * Hands the request to Connect, with the body already read when there is one. A Connect unary
 * error (JSON) gets the request's ID beside its code and message when `requestId` is given.
 */
async function forward(
  uHandler: UniversalHandler,
  req: NodeRequest,
  res: NodeResponse,
  body: Buffer | undefined,
  contextValues: ReturnType<typeof createContextValues>,
  requestId: string | null,
): Promise<void> {
  const request = universalRequestFromNodeRequest(req, res, undefined, contextValues);
  if (body !== undefined) request.body = oneChunk(body);
  const response = await uHandler(request);
  if (requestId !== null && response.status >= 400 && response.body && /^application\/json/.test(response.header?.get("content-type") ?? "")) {
    const chunks: Uint8Array[] = [];
    for await (const chunk of response.body) chunks.push(chunk);
    const bytes = withRequestId(Buffer.concat(chunks), requestId);
    response.body = oneChunk(bytes);
    response.header?.delete("content-length");
  }
  await universalResponseToNodeResponse(response, res);
}

/** A Connect JSON error with `requestId` added; anything else unchanged. */
function withRequestId(bytes: Uint8Array, requestId: string): Uint8Array {
  try {
    const json = JSON.parse(Buffer.from(bytes).toString("utf8")) as unknown;
    if (json === null || typeof json !== "object" || Array.isArray(json)) return bytes;
    return Buffer.from(JSON.stringify({ ...json, requestId }));
  } catch {
    return bytes;
  }
}

async function* oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/**
 * Parses the request message as Connect will, under the JSON input rules or as protobuf binary.
 * Framing errors are Connect's own (already invalid_argument); compressed data that does not
 * decompress is invalid_argument too (Connect says internal for a gzip stream cut short).
 */
async function checkRequestMessage(method: DescMethod, framing: RpcFraming, req: NodeRequest, body: Buffer, readMaxBytes: number): Promise<void> {
  const encodingHeader = framing.protocol === "connect" ? (framing.enveloped ? "connect-content-encoding" : "content-encoding") : "grpc-encoding";
  const encoding = headerOf(req, encodingHeader) ?? "identity";
  // The request message: the whole body (still compressed), or the one data envelope.
  let message: Uint8Array | undefined = framing.enveloped ? undefined : await decompress(encoding, body, readMaxBytes);
  for (let offset = 0; framing.enveloped && offset < body.length;) {
    // The body is whole: an envelope that does not fit in it is broken, not large (Connect would
    // read the bytes left as the next envelope's length, and call that too large).
    if (body.length - offset < ENVELOPE_HEADER_BYTES)
      throw new ConnectError(`protocol error: ${body.length - offset} bytes after the last envelope, too few for an envelope`, Code.InvalidArgument);
    const declared = body.readUInt32BE(offset + 1);
    if (body.length - offset - ENVELOPE_HEADER_BYTES < declared) {
      throw new ConnectError(
        `protocol error: an envelope declares ${declared} bytes but ${body.length - offset - ENVELOPE_HEADER_BYTES} follow`,
        Code.InvalidArgument,
      );
    }
    const flags = body[offset]!;
    const data = body.subarray(offset + ENVELOPE_HEADER_BYTES, offset + ENVELOPE_HEADER_BYTES + declared);
    offset += ENVELOPE_HEADER_BYTES + data.length;
    if (framing.protocol === "connect" && (flags & 0b10) !== 0) continue; // Connect's end-of-stream message, not a request message
    if ((flags & ~0b01) !== 0) {
      throw new ConnectError(`protocol error: an envelope with flags 0x${flags.toString(16)} is not a request message`, Code.InvalidArgument);
    }
    // Every method takes one request message. Refused before the next is decompressed: a body of a
    // thousand small envelopes, each inflating to the limit, held the process for minutes.
    if (message !== undefined) throw new ConnectError(`protocol error: received extra input message for ${method.methodKind} method`, Code.Unimplemented);
    if ((flags & 0b01) !== 0 && encoding === "identity") {
      throw new ConnectError(`protocol error: the message is flagged compressed but no ${encodingHeader} header names its coding`, Code.InvalidArgument);
    }
    message = (flags & 0b01) !== 0 ? await decompress(encoding, data, readMaxBytes) : data;
  }
  if (message === undefined) return;
  if (framing.binary) {
    try {
      fromBinary(method.input, message);
    } catch (error) {
      throw new ConnectError(
        `Invalid request: the body is not a valid binary ${method.input.name} message (${(error as Error).message})`,
        Code.InvalidArgument,
      );
    }
  } else {
    readRequestJson(method.input, parseJsonBody(message));
  }
}

/**
 * Answers a refused call in the caller's protocol: Connect's JSON error with its HTTP status, or a
 * gRPC / gRPC-web trailers-only response. An HTTP/1.1 request whose body was not read closes the
 * connection afterwards, so the unread bytes are never taken for the next request.
 */
function rejectRpc(
  framing: RpcFraming,
  error: ConnectError,
  req: NodeRequest,
  res: NodeResponse,
  extraHeaders: Record<string, string>,
  requestId: string,
): void {
  const headers: Record<string, string> = { ...extraHeaders, ...Object.fromEntries(error.metadata) };
  if (req.httpVersionMajor === 1 && !req.complete) headers["connection"] = "close";
  if (framing.protocol === "connect") {
    const body = framing.enveloped ? errorToJsonBytes(error, {}) : withRequestId(errorToJsonBytes(error, {}), requestId);
    res.writeHead(codeToHttpStatus(error.code), { ...headers, "content-type": "application/json", "content-length": String(body.length) });
    res.end(body);
    return;
  }
  const trailer = new Headers();
  setTrailerStatus(trailer, error);
  Object.assign(headers, Object.fromEntries(trailer));
  const contentType = `application/${framing.protocol}+${framing.binary ? "proto" : "json"}`;
  res.writeHead(200, { ...headers, "content-type": contentType });
  res.end();
}
