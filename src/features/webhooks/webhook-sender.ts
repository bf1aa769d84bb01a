import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The HTTP side of a webhook attempt: one POST, no redirects followed, a deadline for the whole
 * exchange, and no connection to a non-public address unless the operator allows it.
 *
 * Server-side request forgery: the hostname is resolved by the sender itself and every address it
 * resolves to is checked (an attacker's DNS could mix a public and a private address); the
 * connection then goes to a checked address, so a second resolution cannot swap in another one.
 * IP literals are checked directly.
 */

/** Addresses that are not on the public internet (IANA special-purpose registries). */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(net, prefix, "ipv6");
}

/**
 * The IPv4 address an IPv6 address embeds, or null: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-compatible
 * (`::a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4
 * (`2002:AABB:CCDD::`, the IPv4 address in bits 16 to 47), so a private IPv4 address cannot pass
 * wrapped in a public-looking IPv6 one.
 */
function embeddedIpv4(address: string): string | null {
  if (!ipaddr.IPv6.isValid(address)) return null;
  const g = ipaddr.IPv6.parse(address).parts;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  if (zeros(0, 4) && ((g[4] === 0 && (g[5] === 0 || g[5] === 0xffff)) || (g[4] === 0xffff && g[5] === 0))) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  return null;
}

/** True when an IP address is loopback, private, link-local or otherwise not a public internet address. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, "ipv4");
  if (family !== 6) return true; // not an address at all: refuse
  const v4 = embeddedIpv4(address);
  if (v4 !== null) return NON_PUBLIC.check(v4, "ipv4");
  return NON_PUBLIC.check(address, "ipv6");
}

/** A refused target, with a message for the attempt log. */
export class RefusedAddressError extends Error {
  constructor(host: string, address: string) {
    super(
      `refused: ${host} resolves to ${address}, which is not a public address (set WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true to allow loopback and private networks)`,
    );
    this.name = "RefusedAddressError";
  }
}

/** Why a URL's host is refused without resolving it (an IP literal or `localhost`), or null. */
export function refusedLiteralHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0) return isNonPublicAddress(host) ? new RefusedAddressError(host, host).message : null;
  const lower = host.toLowerCase().replace(/\.$/, "");
  if (lower === "localhost" || lower.endsWith(".localhost")) return new RefusedAddressError(host, "loopback").message;
  return null;
}

/** A DNS lookup that refuses hosts with any non-public address. */
function guardedLookup(): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true, family: options.family }, (error, addresses: LookupAddress[]) => {
      if (error) return (callback as (e: Error) => void)(error);
      const refused = addresses.find((a) => isNonPublicAddress(a.address));
      if (refused) return (callback as (e: Error) => void)(new RefusedAddressError(hostname, refused.address));
      if (addresses.length === 0) return (callback as (e: Error) => void)(new Error(`no address for ${hostname}`));
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    });
  };
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Aborts the attempt (server shutting down). */
  signal?: AbortSignal;
}

export interface SendResult {
  /** The HTTP status, or null when no answer came. */
  status: number | null;
  retryAfter: string | null;
  /** What went wrong, when no answer came or it was not a success. */
  error: string | null;
  durationMs: number;
  /** True when the attempt was aborted by `signal` (it should not count). */
  aborted: boolean;
}

/** POSTs one webhook. Never throws: every outcome is a result to log. */
export function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs" | "aborted"> & { aborted?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({ aborted: false, ...result, durationMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      settled = true;
      return resolve({ status: null, retryAfter: null, error: "invalid URL", durationMs: 0, aborted: false });
    }
    const refused = options.allowPrivateNetworks ? null : refusedLiteralHost(target);
    if (refused) {
      settled = true;
      return resolve({ status: null, retryAfter: null, error: refused, durationMs: 0, aborted: false });
    }
    if (options.signal?.aborted) {
      // Aborted before it began (a shutdown started meanwhile): nothing is sent.
      settled = true;
      return resolve({ status: null, retryAfter: null, error: "aborted: the server is shutting down", durationMs: 0, aborted: true });
    }
    const payload = Buffer.from(body, "utf8");
    const transport = target.protocol === "https:" ? https : http;
    const request = transport.request(target, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "content-length": String(payload.length), "user-agent": "gamification-service-webhooks/1" },
      lookup: options.allowPrivateNetworks ? undefined : guardedLookup(),
      // One connection per attempt: no pooled socket outlives the checks above.
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    const onAbort = () => {
      request.destroy(new Error("aborted: the server is shutting down"));
      finish({ status: null, retryAfter: null, error: "aborted: the server is shutting down", aborted: true });
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => finish({ status: null, retryAfter: null, error: error.message }));
    request.on("response", (response) => {
      // The status is the answer; the body is not needed (and a slow one must not hold the attempt).
      const status = response.statusCode ?? 0;
      const retryAfterHeader = response.headers["retry-after"];
      finish({
        status,
        retryAfter: typeof retryAfterHeader === "string" ? retryAfterHeader : null,
        error:
          status >= 200 && status < 300
            ? null
            : status >= 300 && status < 400
              ? `redirect (${status}) not followed; update the endpoint URL`
              : `HTTP ${status}`,
      });
      // Drain what the receiver still sends, but never hold a connection open for long.
      response.resume();
      setTimeout(() => response.destroy(), options.timeoutMs).unref();
    });
    request.on("close", () => finish({ status: null, retryAfter: null, error: "the connection closed before an answer" }));
    request.end(payload);
  });
}
