import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { Code, ConnectError } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";

export type NodeRequest = IncomingMessage | Http2ServerRequest;
export type NodeResponse = ServerResponse | Http2ServerResponse;

/** The client went away before its request body was complete (reset, abort, premature close). */
export class ClientGoneError extends Error {
  constructor() {
    super("the client closed the connection before the request body was complete");
  }
}

/**
 * The whole request body, or "too-large" as soon as it (or its declared Content-Length) exceeds the
 * limit; the rest is then left unread (HTTP/1.1 answers close the connection). Rejects with
 * ClientGoneError when the client aborts, resets or closes the stream midway: the caller has no one
 * left to answer.
 */
export function readBody(req: NodeRequest, limit: number): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"]) > limit) return resolve("too-large");
    if (req.readableEnded) return resolve(Buffer.alloc(0));
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (finish: () => void) => {
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onClose);
      finish();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.pause();
      settle(() => resolve("too-large"));
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks)));
    const onGone = () => settle(() => reject(new ClientGoneError()));
    const onClose = () => {
      if (!req.readableEnded) onGone();
    };
    req.on("data", onData).on("end", onEnd).on("error", onGone).on("close", onClose);
  });
}

/** The content codings request bodies may use (Connect's, for every protocol and REST alike). */
export const REQUEST_ENCODINGS = [compressionGzip, compressionBrotli];

/**
 * A body (or message) decompressed, at most `readMaxBytes` once decompressed. Throws a ConnectError:
 * unimplemented for an unknown coding, resource_exhausted past the limit, invalid_argument for data
 * that does not decompress.
 */
export async function decompress(encoding: string, bytes: Uint8Array, readMaxBytes: number): Promise<Uint8Array> {
  if (encoding === "identity") return bytes;
  const compression = REQUEST_ENCODINGS.find((c) => c.name === encoding);
  if (!compression) throw new ConnectError(`Unsupported compression "${encoding}": use gzip, br or identity`, Code.Unimplemented);
  try {
    return await compression.decompress(bytes, readMaxBytes);
  } catch (error) {
    // Connect calls a stream cut short "internal" and data that is no stream at all "decompression
    // failed": both are the caller's broken body (a bomb stays resource_exhausted).
    const connectError = ConnectError.from(error);
    if (connectError.code !== Code.Internal && connectError.code !== Code.InvalidArgument) throw connectError;
    throw new ConnectError(
      `Invalid request: the body is not valid ${encoding} data (${connectError.cause instanceof Error ? connectError.cause.message : connectError.rawMessage})`,
      Code.InvalidArgument,
    );
  }
}
