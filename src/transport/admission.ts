import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextKey } from "@connectrpc/connect";
import type { Logger } from "pino";
import { DomainError } from "../engine/domain/errors.js";
import type { ServiceContext } from "../engine/context.js";
import { callerOfKey } from "../features/account/admin-api-keys.js";
import type { Caller } from "../features/account/store/api-keys.js";
import { toConnectError } from "./error-mapping.js";
import type { RateLimiter } from "./rate-limit-buckets.js";

/** Who may call a service. */
export interface ServicePolicy {
  /** Only admin keys may call this service. */
  adminOnly: boolean;
  /** Methods that act on the account, not a tenant: the Tenant-ID header is not resolved. */
  accountLevel?: ReadonlySet<string>;
  /**
   * Methods that change a tenant's configuration: in one instance they run one at a time per tenant,
   * so the check of what an item refers to (a metric, a points system, an achievement) and its write
   * are never split by another call deleting or archiving that item.
   */
  configurationWrites?: (method: string) => boolean;
}

/** The caller admitted by the transport, handed to the guarded methods through the handler context. */
export const admittedCaller = createContextKey<Caller | null>(null, { description: "the caller admitted by the transport" });

/** An admitted caller, with the headers every answer to it carries (rate-limit state). */
export interface Admitted {
  caller: Caller;
  headers: Record<string, string>;
}

/**
 * The checks that come before anything else looks at a request, on every protocol: authenticate
 * the X-API-KEY (401) and take a token of its rate limits (429 / resource_exhausted), then, once the
 * target service is known, check the key may call it (403).
 * The transport runs them before it parses a body or reports an unknown route, so a caller without
 * a valid key learns nothing about paths or request shapes.
 */
export interface Admission {
  /**
   * Authenticates the key and takes a token of its rate limits; throws a ConnectError (unauthenticated,
   * resource_exhausted with the rate-limit headers as metadata) otherwise. `address`: the client's,
   * whose invalid keys are limited (`RATE_LIMIT_INVALID_KEYS`).
   */
  admit(apiKey: string | null, address: string): Promise<Admitted>;
  /** Throws a ConnectError (permission_denied) when the caller may not call the service. */
  authorize(caller: Caller, service: DescService): void;
}

const AUTH_CACHE_MS = 1000;

export function createAdmission(services: ServiceContext, policies: ReadonlyMap<string, ServicePolicy>, rateLimiter: RateLimiter, logger: Logger): Admission {
  const { authenticate, recentlyValid } = createAuthenticator(services);
  return {
    async admit(apiKey, address) {
      // Node joins a repeated header's values with ", ", which no key holds: said plainly, and no
      // invalid-key token is spent (such a value can never authenticate, so nothing is guessed).
      if (apiKey?.includes(", ")) throw new ConnectError("The X-API-KEY header was sent more than once: send one key", Code.Unauthenticated);
      // An address out of invalid-key tokens may still use keys that authenticated lately (no read needed).
      if (apiKey && rateLimiter.limitsInvalidKeys && !recentlyValid(apiKey)) {
        const refusal = rateLimiter.checkUnknownKey(address);
        if (!refusal.allowed) throw new ConnectError(refusal.message, Code.ResourceExhausted, refusal.headers);
      }
      let caller: Caller;
      try {
        caller = await authenticate(apiKey);
      } catch (error) {
        if (apiKey && error instanceof DomainError && error.code === "unauthenticated") rateLimiter.countInvalidKey(address);
        throw toConnectError(error, logger);
      }
      const decision = await rateLimiter.consume(caller);
      if (!decision.allowed) throw new ConnectError(decision.message, Code.ResourceExhausted, decision.headers);
      return { caller, headers: decision.headers };
    },
    authorize(caller, service) {
      const policy = policies.get(service.typeName);
      if (!policy) throw toConnectError(new Error(`no policy for ${service.typeName}`), logger);
      if (policy.adminOnly && caller.kind !== "admin") {
        throw toConnectError(
          new DomainError("permission_denied", "This call needs an admin API key; application keys may only call the Application API"),
          logger,
        );
      }
    },
  };
}

/** How long a key that authenticated stays exempt from its address's invalid-key limit. */
const RECENTLY_VALID_MS = 10 * 60_000;

/**
 * Resolves API keys, caching results for a second (by the key's SHA-256, never the key itself) so
 * the hot path rarely waits on the database; concurrent lookups of one key share one read.
 * `recentlyValid`: whether a key authenticated in the last ten minutes (it may have been revoked
 * since; `authenticate` still decides).
 */
function createAuthenticator(services: ServiceContext) {
  // Least recently used first out: a flood of made-up keys cannot empty the cache of the real ones.
  const cache = new LRUCache<string, Promise<Caller | null>>({ max: 10_000, ttl: AUTH_CACHE_MS });
  const valid = new LRUCache<string, true>({ max: 10_000, ttl: RECENTLY_VALID_MS });
  // A key revoked (or limited) on this instance takes effect here at once; other instances, within the second.
  services.config.onInvalidate(() => cache.clear());
  const authenticate = async (key: string | null): Promise<Caller> => {
    if (!key) throw new DomainError("unauthenticated", "Missing API key: send it in the X-API-KEY header");
    const id = hash("sha256", key, "base64");
    let entry = cache.get(id);
    if (!entry) {
      entry = callerOfKey(services, key);
      cache.set(id, entry);
      entry.catch(() => cache.delete(id));
    }
    const caller = await entry;
    if (!caller) throw new DomainError("unauthenticated", "Invalid API key");
    valid.set(id, true);
    return caller;
  };
  return { authenticate, recentlyValid: (key: string) => valid.has(hash("sha256", key, "base64")) };
}
