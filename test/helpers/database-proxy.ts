import net from "node:net";

/**
 * A TCP proxy between the service and the test database that a test can break: `hang()` stops
 * passing bytes on, holding them (a database that stopped answering, as a paused process does),
 * `cut()` drops every connection and refuses new ones (a database that is gone), `restore()`
 * passes traffic again (what a hang held goes on; after a cut, the driver reconnects).
 */
export interface DatabaseProxy {
  /** The database's connection string, through the proxy. */
  uri: string;
  hang(): void;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startDatabaseProxy(databaseUri: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUri);
  let mode: "open" | "hung" | "down" = "open";
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (mode === "down") return void client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from);
      from.pipe(to);
      if (mode === "hung") from.pause();
      from.on("error", () => undefined);
      from.on("close", () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxied = new URL(databaseUri);
  proxied.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    uri: proxied.toString(),
    hang() {
      mode = "hung";
      for (const socket of sockets) socket.pause();
    },
    cut() {
      mode = "down";
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      mode = "open";
      for (const socket of sockets) socket.resume();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
