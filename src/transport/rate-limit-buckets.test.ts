import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Caller } from "../features/account/store/api-keys.js";
import { createRateLimiter, type RateLimiter } from "./rate-limit-buckets.js";

// The buckets read the monotonic clock (performance.now); fake timers move it.
beforeEach(() => vi.useFakeTimers({ toFake: ["performance"] }));
afterEach(() => vi.useRealTimers());

const appKey = (keyId: string, tenantId = "t1", rateLimit: Caller["rateLimit"] = null): Caller => ({
  keyId,
  kind: "application",
  tenantId,
  userId: "u1",
  rateLimit,
});
const adminKey = (keyId: string, rateLimit: Caller["rateLimit"] = null): Caller => ({ keyId, kind: "admin", tenantId: null, userId: null, rateLimit });

async function allowedCount(limiter: RateLimiter, caller: Caller, attempts: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < attempts; i++) if ((await limiter.consume(caller)).allowed) allowed++;
  return allowed;
}

describe("rate limiter", () => {
  it("allows everything, with no headers, when nothing is configured", async () => {
    const limiter = createRateLimiter({ perKey: null, tenant: null });
    expect(await allowedCount(limiter, adminKey("a"), 1000)).toBe(1000);
    expect(await limiter.consume(appKey("k"))).toEqual({ allowed: true, headers: {}, message: "" });
  });

  it("takes a burst, then refuses until tokens refill at the configured rate", async () => {
    const limiter = createRateLimiter({ perKey: { requestsPerSecond: 2, burst: 5 }, tenant: null });
    expect(await allowedCount(limiter, adminKey("a"), 8)).toBe(5);
    const refused = await limiter.consume(adminKey("a"));
    expect(refused.allowed).toBe(false);
    expect(refused.message).toBe("Rate limit exceeded: this API key's limit (2 requests per second, bursts of up to 5); retry in 1 s");
    expect(refused.headers).toEqual({ "ratelimit-policy": '"key";q=5;w=3', ratelimit: '"key";r=0;t=3', "retry-after": "1" });
    vi.advanceTimersByTime(500);
    expect(await allowedCount(limiter, adminKey("a"), 3)).toBe(1);
    vi.advanceTimersByTime(10_000);
    // Refilled to the burst, never beyond it.
    expect(await allowedCount(limiter, adminKey("a"), 8)).toBe(5);
  });

  it("reports what is left on an allowed request", async () => {
    const limiter = createRateLimiter({ perKey: { requestsPerSecond: 10, burst: null }, tenant: null });
    const decision = await limiter.consume(adminKey("a"));
    expect(decision).toEqual({ allowed: true, headers: { "ratelimit-policy": '"key";q=10;w=1', ratelimit: '"key";r=9;t=1' }, message: "" });
  });

  it("keeps one bucket per key", async () => {
    const limiter = createRateLimiter({ perKey: { requestsPerSecond: 1, burst: 2 }, tenant: null });
    expect(await allowedCount(limiter, adminKey("a"), 5)).toBe(2);
    expect(await allowedCount(limiter, adminKey("b"), 5)).toBe(2);
  });

  it("uses a key's own setting over the default, and applies it even when no default is configured", async () => {
    const limiter = createRateLimiter({ perKey: { requestsPerSecond: 2, burst: null }, tenant: null });
    expect(await allowedCount(limiter, adminKey("own", { requestsPerSecond: 5, burst: 7 }), 20)).toBe(7);
    expect(await allowedCount(limiter, adminKey("default"), 20)).toBe(2);
    const unconfigured = createRateLimiter({ perKey: null, tenant: null });
    expect(await allowedCount(unconfigured, adminKey("own", { requestsPerSecond: 3, burst: null }), 20)).toBe(3);
  });

  it("reshapes a key's bucket when its setting changes, keeping its tokens up to the new size", async () => {
    const limiter = createRateLimiter({ perKey: null, tenant: null });
    expect(await allowedCount(limiter, adminKey("a", { requestsPerSecond: 10, burst: 10 }), 4)).toBe(4);
    // 6 tokens left; the new bucket holds 3.
    expect(await allowedCount(limiter, adminKey("a", { requestsPerSecond: 1, burst: 3 }), 10)).toBe(3);
    vi.advanceTimersByTime(1000);
    expect(await allowedCount(limiter, adminKey("a", { requestsPerSecond: 1, burst: 3 }), 10)).toBe(1);
  });

  it("shares a tenant's ceiling among its application keys, and not with other tenants or admin keys", async () => {
    const limiter = createRateLimiter({ perKey: { requestsPerSecond: 3, burst: null }, tenant: { requestsPerSecond: 5, burst: null } });
    expect(await allowedCount(limiter, appKey("k1"), 10)).toBe(3);
    expect(await allowedCount(limiter, appKey("k2"), 10)).toBe(2);
    const refused = await limiter.consume(appKey("k3"));
    expect(refused.allowed).toBe(false);
    expect(refused.message).toBe(
      "Rate limit exceeded: the tenant's limit shared by all its application keys (5 requests per second, bursts of up to 5); retry in 1 s",
    );
    expect(refused.headers).toEqual({
      "ratelimit-policy": '"key";q=3;w=1, "tenant";q=5;w=1',
      ratelimit: '"key";r=3;t=0, "tenant";r=0;t=1',
      "retry-after": "1",
    });
    expect(await allowedCount(limiter, appKey("k4", "t2"), 10)).toBe(3);
    expect(await allowedCount(limiter, adminKey("admin"), 10)).toBe(3);
  });

  it("takes a token from the key and the tenant together, or from neither", async () => {
    const limiter = createRateLimiter({ perKey: { requestsPerSecond: 2, burst: null }, tenant: { requestsPerSecond: 4, burst: null } });
    // k1's refusals once its own bucket is empty take nothing from the tenant.
    expect(await allowedCount(limiter, appKey("k1"), 10)).toBe(2);
    expect(await allowedCount(limiter, appKey("k2"), 10)).toBe(2);
    expect(await allowedCount(limiter, appKey("k3"), 10)).toBe(0);
  });

  it("applies the tenant ceiling to keys without a per-key limit", async () => {
    const limiter = createRateLimiter({ perKey: null, tenant: { requestsPerSecond: 1, burst: 4 } });
    expect(await allowedCount(limiter, appKey("k1"), 3)).toBe(3);
    expect(await allowedCount(limiter, appKey("k2"), 3)).toBe(1);
    const refused = await limiter.consume(appKey("k1"));
    expect(refused.headers).toEqual({ "ratelimit-policy": '"tenant";q=4;w=4', ratelimit: '"tenant";r=0;t=4', "retry-after": "1" });
    expect(await allowedCount(limiter, adminKey("admin"), 100)).toBe(100);
  });
});

describe("invalid keys per client address", () => {
  const exhaust = (limiter: RateLimiter, address: string, n: number) => {
    for (let i = 0; i < n; i++) limiter.countInvalidKey(address);
  };

  it("never refuses when not configured", () => {
    const limiter = createRateLimiter({ perKey: null, tenant: null });
    exhaust(limiter, "10.0.0.1", 1000);
    expect(limiter.checkUnknownKey("10.0.0.1")).toEqual({ allowed: true, headers: {}, message: "" });
  });

  it("refuses an address once its burst of invalid keys is used, until a token refills; other addresses are apart", () => {
    const limiter = createRateLimiter({ perKey: null, tenant: null, invalidKeys: { requestsPerSecond: 2, burst: 4 } });
    exhaust(limiter, "10.0.0.1", 3);
    expect(limiter.checkUnknownKey("10.0.0.1").allowed).toBe(true);
    limiter.countInvalidKey("10.0.0.1");
    const refused = limiter.checkUnknownKey("10.0.0.1");
    expect(refused).toEqual({
      allowed: false,
      headers: { "retry-after": "1" },
      message:
        "Rate limit exceeded: too many requests with an invalid API key from this address (2 per second, bursts of up to 4); until then only keys recently used with success are accepted from it; retry in 1 s",
    });
    expect(limiter.checkUnknownKey("10.0.0.2").allowed).toBe(true);
    vi.advanceTimersByTime(499);
    expect(limiter.checkUnknownKey("10.0.0.1").allowed).toBe(false);
    vi.advanceTimersByTime(2);
    expect(limiter.checkUnknownKey("10.0.0.1").allowed).toBe(true);
  });
});
