import { TokenBucket } from "limiter";
import {
  bucketShape,
  invalidKeyLimitMessage,
  policiesFor,
  rateLimitMessage,
  retryAfterSeconds,
  type BucketShape,
  type BucketState,
  type RateLimitSetting,
} from "../features/account/domain/rate-limits.js";
import type { Caller } from "../features/account/store/api-keys.js";

/**
 * The response headers of a decision, after draft-ietf-httpapi-ratelimit-headers-09: one
 * `RateLimit-Policy` item per bucket (`q` its size, `w` the seconds it takes to refill from empty)
 * and one `RateLimit` item (`r` whole requests left, `t` seconds until the bucket is full again);
 * `Retry-After` (seconds, at least 1) when refused.
 */
export function rateLimitHeaders(states: readonly BucketState[], retryAfterMs: number | null): Record<string, string> {
  if (states.length === 0) return {};
  const headers: Record<string, string> = {
    "ratelimit-policy": states.map((s) => `"${s.name}";q=${s.shape.size};w=${Math.max(1, Math.ceil(s.shape.size / s.shape.perSecond))}`).join(", "),
    ratelimit: states
      .map((s) => `"${s.name}";r=${Math.max(0, Math.floor(s.tokens))};t=${Math.max(0, Math.ceil((s.shape.size - s.tokens) / s.shape.perSecond))}`)
      .join(", "),
  };
  if (retryAfterMs !== null) headers["retry-after"] = String(retryAfterSeconds(retryAfterMs));
  return headers;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Response headers to send on every answer, allowed or not (IETF RateLimit / RateLimit-Policy; Retry-After when refused). */
  headers: Record<string, string>;
  /** When refused: the specific message for the error body. */
  message: string;
}

export interface RateLimiter {
  consume(caller: Caller): Promise<RateLimitDecision>;
  /** Whether invalid keys are limited at all (`checkUnknownKey` may refuse). */
  limitsInvalidKeys: boolean;
  /** Whether a client address may present a key not known to be valid: not while its invalid-key bucket is empty. */
  checkUnknownKey(address: string): RateLimitDecision;
  /** An invalid key from the address: takes a token of its invalid-key bucket. */
  countInvalidKey(address: string): void;
}

export interface RateLimitOptions {
  /** The limit of every key without its own setting; null: none. */
  perKey: RateLimitSetting | null;
  /** The ceiling shared by all application keys of one tenant; null: none. */
  tenant: RateLimitSetting | null;
  /** Requests with an invalid key accepted per client address; null: no limit. */
  invalidKeys?: RateLimitSetting | null;
}

const ALLOWED: RateLimitDecision = { allowed: true, headers: {}, message: "" };

/** Buckets are dropped once full (a full bucket is the same as a new one) when there are more than this. */
const SWEEP_ABOVE = 10_000;

/**
 * Token buckets in this instance's memory (the `limiter` package), one per API key and one per
 * tenant; a key's bucket has its tenant's as parent, so a request takes a token from both or from
 * neither. With several instances each keeps its own buckets (see docs/api.md, Rate limits).
 * Invalid keys have buckets per client address: each costs a database read, and no key's limit
 * covers them.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const keys = new BucketMap();
  const tenants = new BucketMap();
  const addresses = new BucketMap();
  const invalidKeys = options.invalidKeys ? bucketShape(options.invalidKeys) : null;
  return {
    limitsInvalidKeys: invalidKeys !== null,
    checkUnknownKey(address) {
      if (!invalidKeys) return ALLOWED;
      const { bucket } = addresses.get(address, invalidKeys, undefined);
      bucket.drip();
      if (bucket.content >= 1) return ALLOWED;
      const waitMs = bucket.getWaitTime(1);
      return { allowed: false, headers: { "retry-after": String(retryAfterSeconds(waitMs)) }, message: invalidKeyLimitMessage(invalidKeys, waitMs) };
    },
    countInvalidKey(address) {
      if (invalidKeys) addresses.get(address, invalidKeys, undefined).bucket.tryRemoveTokens(1);
    },
    async consume(caller) {
      const policies = policiesFor(caller, options);
      const tenant = policies.tenant && tenants.get(caller.tenantId!, policies.tenant, undefined);
      const key = policies.key && keys.get(caller.keyId, policies.key, tenant?.bucket);
      // The key's bucket draws from its tenant's too; without a key limit, the tenant's alone.
      const entry = key ?? tenant;
      if (!entry) return { allowed: true, headers: {}, message: "" };
      const allowed = entry.bucket.tryRemoveTokens(1);
      // A refusal may stop before refilling the tenant's bucket; its state is read refilled.
      tenant?.bucket.drip();
      const states: BucketState[] = [];
      if (key) states.push({ name: "key", shape: key.shape, tokens: key.bucket.content });
      if (tenant) states.push({ name: "tenant", shape: tenant.shape, tokens: tenant.bucket.content });
      if (allowed) return { allowed, headers: rateLimitHeaders(states, null), message: "" };
      const waitMs = entry.bucket.getWaitTime(1);
      return {
        allowed,
        headers: rateLimitHeaders(states, waitMs),
        message: rateLimitMessage(
          states.filter((s) => s.tokens < 1),
          waitMs,
        ),
      };
    },
  };
}

interface Entry {
  bucket: TokenBucket;
  shape: BucketShape;
}

class BucketMap {
  private readonly entries = new Map<string, Entry>();
  private sweepAbove = SWEEP_ABOVE;

  /** The bucket of `id`, new and full the first time; a changed setting reshapes it, keeping its tokens up to the new size. */
  get(id: string, shape: BucketShape, parent: TokenBucket | undefined): Entry {
    let entry = this.entries.get(id);
    if (!entry) {
      if (this.entries.size >= this.sweepAbove) this.sweep();
      const bucket = new TokenBucket({ bucketSize: shape.size, tokensPerInterval: shape.perSecond, interval: 1000 });
      bucket.content = shape.size;
      entry = { bucket, shape };
      this.entries.set(id, entry);
    } else if (entry.shape.size !== shape.size || entry.shape.perSecond !== shape.perSecond) {
      entry.bucket.drip();
      entry.bucket.bucketSize = shape.size;
      entry.bucket.tokensPerInterval = shape.perSecond;
      entry.bucket.content = Math.min(entry.bucket.content, shape.size);
      entry.shape = shape;
    }
    // A parent that was swept and made anew must be the one the key's requests draw from.
    entry.bucket.parentBucket = parent;
    return entry;
  }

  private sweep(): void {
    for (const [id, { bucket }] of this.entries) {
      bucket.drip();
      if (bucket.content >= bucket.bucketSize) this.entries.delete(id);
    }
    this.sweepAbove = Math.max(SWEEP_ABOVE, this.entries.size * 2);
  }
}
