import { describe, expect, it, vi } from "vitest";
import { isNonPublicAddress, refusedLiteralHost } from "./webhook-sender.js";

describe("non-public addresses are recognised", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "fe80::1",
    "fd00::1",
    "fc12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    // IPv4-compatible (as the URL parser writes [::127.0.0.1]), IPv4-translated and 6to4 wrappings.
    "::7f00:1",
    "::127.0.0.1",
    "::ffff:0:7f00:1",
    "2002:7f00:1::",
    "2002:a00:1::1",
    "2002:c0a8:101:0:0:0:0:1",
    "0:0:0:0:0:ffff:7f00:1",
    "not-an-address",
  ])("%s is not public", (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "2001:4860:4860::8888",
    "::ffff:8.8.8.8",
    "2002:808:808::1",
    "::808:808",
  ])("%s is public", (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describe("hosts refused without resolving them", () => {
  it.each([
    ["http://127.0.0.1:9000/x", true],
    ["http://[::1]/x", true],
    ["http://[::127.0.0.1]/x", true],
    ["http://[2002:7f00:1::]/x", true],
    ["http://[2002:a00:1::]/x", true],
    ["http://localhost:3000/", true],
    ["http://api.localhost/", true],
    ["http://169.254.169.254/latest/meta-data", true],
    ["https://8.8.8.8/", false],
    ["https://example.com/", false],
  ])("%s refused: %s", (url, refused) => {
    expect(refusedLiteralHost(new URL(url)) !== null).toBe(refused);
  });
});

describe("sending", () => {
  it("times out a receiver that never finishes its answer, and reports statuses and Retry-After", async () => {
    const { createServer } = await import("node:http");
    const { sendWebhook } = await import("./webhook-sender.js");
    const server = createServer((req, res) => {
      if (req.url === "/stall") {
        res.writeHead(200);
        res.write("partial"); // and never ends
        return;
      }
      if (req.url === "/hang") return; // never answers
      res.writeHead(503, { "retry-after": "7" });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    // Only the receiver that never answers gets a short limit: on a loaded machine a short one could
    // also cut short an answer that did come.
    const send = (path: string, allowPrivateNetworks = true, timeoutMs = 30_000) =>
      sendWebhook(`http://127.0.0.1:${port}${path}`, {}, "{}", { timeoutMs, allowPrivateNetworks });
    try {
      expect(await send("/busy")).toMatchObject({ status: 503, retryAfter: "7", error: "HTTP 503", aborted: false });
      const hung = await send("/hang", true, 300);
      expect(hung.status).toBeNull();
      expect(hung.error).toMatch(/timed out after 300 ms/);
      expect(hung.durationMs).toBeGreaterThanOrEqual(290);
      expect((await send("/stall")).status).toBe(200); // the status counts, however long the body takes
      expect(await send("/busy", false)).toMatchObject({ status: null, error: expect.stringMatching(/not a public address/) });

      // Aborted before it began (a shutdown started between the claim and the send): nothing goes out.
      let requests = 0;
      server.on("request", () => (requests += 1));
      const aborted = await sendWebhook(`http://127.0.0.1:${port}/busy`, {}, "{}", {
        timeoutMs: 30_000,
        allowPrivateNetworks: true,
        signal: AbortSignal.abort(),
      });
      expect([aborted.aborted, aborted.status, requests]).toEqual([true, null, 0]);
      // Aborted mid-attempt.
      const controller = new AbortController();
      const cut = sendWebhook(`http://127.0.0.1:${port}/hang`, {}, "{}", { timeoutMs: 30_000, allowPrivateNetworks: true, signal: controller.signal });
      await vi.waitFor(() => expect(requests).toBe(1));
      controller.abort();
      expect(await cut).toMatchObject({ aborted: true, status: null });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("checks every address a name resolves to (here the machine's own name, when it resolves to loopback)", async () => {
    const { hostname } = await import("node:os");
    const { lookup } = await import("node:dns/promises");
    const { sendWebhook } = await import("./webhook-sender.js");
    const addresses = await lookup(hostname(), { all: true }).catch(() => []);
    if (addresses.length === 0 || !addresses.every((a) => isNonPublicAddress(a.address))) return; // nothing to show on this machine
    const result = await sendWebhook(`http://${hostname()}:9/hook`, {}, "{}", { timeoutMs: 1000, allowPrivateNetworks: false });
    expect(result.status).toBeNull();
    expect(result.error).toMatch(new RegExp(`refused: ${hostname()} resolves to .*not a public address`));
  });
});
