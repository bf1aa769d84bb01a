import { createHash } from "node:crypto";
import { createRegistry, type DescMessage, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { pathToString } from "@bufbuild/protobuf/reflect";
import { createValidator } from "@bufbuild/protovalidate";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Logger } from "pino";
import { DomainError, notFound } from "../domain/errors.js";
import { file_gamification_v1_validation } from "../gen/gamification/v1/validation_pb.js";
import { DEFAULT_SCOPE } from "../domain/tenant.js";
import { findCaller, type Caller } from "../store/api-keys.js";
import type { ServiceContext } from "../pipeline/context.js";
import { toConnectError } from "./errors.js";

/** Who is calling and in which tenant scope; handed to every method implementation. */
export interface CallScope {
  caller: Caller;
  /** The internal tenant ID the call is scoped to, or the default scope. */
  tenantId: string;
  ctx: HandlerContext;
}

/** A unary method implementation that receives the checked request and the call's scope. */
export type ScopedMethod = (request: any, scope: CallScope) => Promise<unknown>;

export interface GuardOptions {
  /** Only admin keys may call this service. */
  adminOnly: boolean;
  /** Methods that act on the account, not a tenant: the Tenant-ID header is not resolved. */
  accountLevel?: ReadonlySet<string>;
}

/** Knows our predefined rules (proto/gamification/v1/validation.proto), e.g. `(gamification.v1.user_id)`. */
const validator = createValidator({ registry: createRegistry(file_gamification_v1_validation) });
const AUTH_CACHE_MS = 1000;

/**
 * Wraps the methods of a service with what every call needs, in this order: authenticate the
 * X-API-KEY, check the key may call this service, validate the request against the proto rules,
 * resolve the Tenant-ID header to a tenant, then run the method and map its errors. Connect, gRPC,
 * gRPC-web and REST all call the wrapped methods, so these rules hold on every protocol.
 */
export function guardService(
  service: DescService,
  methods: Record<string, ScopedMethod>,
  options: GuardOptions,
  services: ServiceContext,
  logger: Logger,
): Record<string, (request: any, ctx: HandlerContext) => Promise<any>> {
  const authenticate = createAuthenticator(services);
  const wrapped: Record<string, (request: any, ctx: HandlerContext) => Promise<any>> = {};
  for (const method of service.methods) {
    const impl = methods[method.localName];
    if (!impl) throw new Error(`${service.typeName} has no implementation of ${method.name}`);
    wrapped[method.localName] = async (request, ctx) => {
      try {
        const caller = await authenticate(ctx.requestHeader.get("x-api-key"));
        if (options.adminOnly && caller.kind !== "admin") {
          throw new DomainError("permission_denied", "This call needs an admin API key; application keys may only call the Application API");
        }
        validateRequest(method, request);
        const tenantId = options.accountLevel?.has(method.localName)
          ? DEFAULT_SCOPE
          : await resolveTenant(services, ctx.requestHeader.get("tenant-id"), caller);
        return await impl(request, { caller, tenantId, ctx });
      } catch (error) {
        throw toConnectError(error, logger);
      }
    };
  }
  return wrapped;
}

function validateRequest(method: DescMethod, request: unknown): void {
  const result = validator.validate(method.input as DescMessage, request as never);
  if (result.kind === "valid") return;
  if (result.kind === "invalid") {
    const details = result.violations.map((v) => `${pathToString(v.field) || "request"}: ${v.message}`);
    throw new ConnectError(`Invalid request: ${details.join("; ")}`, Code.InvalidArgument);
  }
  throw result.error;
}

/**
 * Resolves API keys, caching results for a second (by the key's SHA-256, never the key itself) so
 * the hot path rarely waits on the database; concurrent lookups of one key share one read.
 */
function createAuthenticator(services: ServiceContext): (key: string | null) => Promise<Caller> {
  const cache = new Map<string, { caller: Promise<Caller | null>; expires: number }>();
  return async (key) => {
    if (!key) throw new DomainError("unauthenticated", "Missing API key: send it in the X-API-KEY header");
    const id = createHash("sha256").update(key).digest("base64");
    const now = Date.now();
    let entry = cache.get(id);
    if (!entry || entry.expires <= now) {
      if (cache.size > 10_000) cache.clear();
      entry = { caller: findCaller(services.database.collections.apiKeys, key), expires: now + AUTH_CACHE_MS };
      cache.set(id, entry);
      entry.caller.catch(() => cache.delete(id));
    }
    const caller = await entry.caller;
    if (!caller) throw new DomainError("unauthenticated", "Invalid API key");
    return caller;
  };
}

/**
 * The Tenant-ID header carries the caller's own identifier for a tenant (its `customerId`). No
 * header means the account's default scope. An application key is bound to its tenant.
 */
async function resolveTenant(services: ServiceContext, header: string | null, caller: Caller): Promise<string> {
  let tenantId = DEFAULT_SCOPE;
  if (header !== null && header !== "") {
    const tenant = await services.config.tenantByCustomerId(header);
    if (!tenant) throw notFound(`Tenant "${header}" not found`);
    tenantId = tenant.id;
  }
  if (caller.tenantId !== null && caller.tenantId !== tenantId) {
    throw new DomainError("permission_denied", "This API key belongs to another tenant");
  }
  return tenantId;
}
