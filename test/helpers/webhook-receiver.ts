import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received (signatures cover these bytes). */
  body: string;
  json: any;
  /** Date.now() when it arrived. */
  at: number;
}

/** How the receiver answers the n-th request (1-based) on a path. */
export type Behaviour = (n: number) => { status: number; headers?: Record<string, string> };

/** A real HTTP server on loopback that records every webhook and answers per path. */
export interface WebhookReceiver {
  url(path: string): string;
  received: ReceivedWebhook[];
  on(path: string, behaviour: Behaviour): void;
  /** The requests on a path. */
  at(path: string): ReceivedWebhook[];
  /** Waits until `predicate` holds for the requests on a path (or fails after `timeoutMs`). */
  waitFor(path: string, predicate: (got: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const behaviours = new Map<string, Behaviour>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // recorded as is
      }
      received.push({ path, headers: req.headers, body, json, at: Date.now() });
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const behaviour: Behaviour = behaviours.get(path) ?? (() => ({ status: 200 }));
      const answer = behaviour(n);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path, behaviour) => void behaviours.set(path, behaviour),
    at,
    async waitFor(path, predicate, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (predicate(at(path))) return at(path);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`receiver: condition on ${path} not met within ${timeoutMs} ms; got ${JSON.stringify(at(path).map((r) => r.json?.type))}`);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
