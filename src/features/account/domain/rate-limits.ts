/**
 * Rate limits are token buckets: a bucket holds up to `burst` requests and refills continuously at
 * `requestsPerSecond`; a request takes one token or is refused. This module holds the rules (which
 * buckets apply to a caller, what the caller is told); the buckets themselves and the HTTP headers
 * that report them live in transport/rate-limit-buckets.ts.
 */

/** A rate limit as configured (environment) or set on a key (Admin API). */
export interface RateLimitSetting {
  requestsPerSecond: number;
  /** The bucket's size; null: equal to `requestsPerSecond` (one second's worth). */
  burst: number | null;
}

/** The largest rate and burst a key may be given (the proto states the same bounds). */
export const MAX_RATE_LIMIT = 1_000_000;

/** The name of a limit, as it appears in the RateLimit headers and error messages. */
export type RateLimitPolicyName = "key" | "tenant";

/** A bucket's fixed shape. */
export interface BucketShape {
  perSecond: number;
  size: number;
}

export function bucketShape(setting: RateLimitSetting): BucketShape {
  return { perSecond: setting.requestsPerSecond, size: setting.burst ?? setting.requestsPerSecond };
}

/** The limits that apply to one caller: its key's own setting, else the default; and its tenant's ceiling. */
export function policiesFor(
  caller: { rateLimit: RateLimitSetting | null; tenantId: string | null },
  defaults: { perKey: RateLimitSetting | null; tenant: RateLimitSetting | null },
): { key: BucketShape | null; tenant: BucketShape | null } {
  const key = caller.rateLimit ?? defaults.perKey;
  return {
    key: key ? bucketShape(key) : null,
    // Only keys bound to a tenant (application keys) share its ceiling; admin keys are the operator's.
    tenant: caller.tenantId !== null && defaults.tenant ? bucketShape(defaults.tenant) : null,
  };
}

/** One bucket at the moment of a decision. */
export interface BucketState {
  name: RateLimitPolicyName;
  shape: BucketShape;
  /** Tokens left after the decision (fractional while refilling). */
  tokens: number;
}

/** A wait as the whole seconds a caller is told (at least 1). */
export function retryAfterSeconds(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/** The message of a refusal, naming the limit that was reached and when to retry. */
export function rateLimitMessage(refused: readonly BucketState[], retryAfterMs: number): string {
  const describe = (s: BucketState) => {
    const rate = `${s.shape.perSecond} requests per second, bursts of up to ${s.shape.size}`;
    return s.name === "key" ? `this API key's limit (${rate})` : `the tenant's limit shared by all its application keys (${rate})`;
  };
  return `Rate limit exceeded: ${refused.map(describe).join(" and ")}; retry in ${retryAfterSeconds(retryAfterMs)} s`;
}

/** The message of a refusal after too many invalid API keys from one client address. */
export function invalidKeyLimitMessage(shape: BucketShape, retryAfterMs: number): string {
  return (
    `Rate limit exceeded: too many requests with an invalid API key from this address ` +
    `(${shape.perSecond} per second, bursts of up to ${shape.size}); until then only keys recently used with success are accepted from it; ` +
    `retry in ${retryAfterSeconds(retryAfterMs)} s`
  );
}
