import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";

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
