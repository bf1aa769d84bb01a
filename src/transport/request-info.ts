import { createContextKey } from "@connectrpc/connect";
import type { Logger } from "pino";

/**
 * What the transport knows of one request, handed to the guarded methods (through the handler
 * context) so that everything logged for the request carries its ID, and filled in by them with
 * what the transport reports (metrics, traces).
 */
export interface RequestInfo {
  /** The caller's X-Request-ID when it is a valid one, else a new one; echoed on every answer. */
  readonly requestId: string;
  /** The request's trace when tracing is on. */
  traceId: string | null;
  /** The service's logger bound to this request (requestId, traceId), made on first use. */
  readonly log: Logger;
  /** How the request came: the REST paths or an RPC protocol (until known: rest). */
  protocol: "rest" | "connect" | "grpc" | "grpc-web";
  /** REST route template or RPC method; null until the request is routed. */
  route: string | null;
  /** The RPC outcome (a Connect code, 0 for success) once known; REST uses the HTTP status. */
  rpcCode: number | null;
}

export const requestInfo = createContextKey<RequestInfo | null>(null, { description: "the request's ID, logger and outcome" });

/** Printable ASCII, 1 to 128 characters: a caller's ID is kept only when it is one of these. */
const VALID_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;

export function isValidRequestId(value: string | string[] | undefined): value is string {
  return typeof value === "string" && VALID_REQUEST_ID.test(value);
}
