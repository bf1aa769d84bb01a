import {
  createRegistry,
  type DescMessage,
  type DescMethod,
  type DescMethodUnary,
  type DescService,
  type Message,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { pathToString, type Path } from "@bufbuild/protobuf/reflect";
import { createValidator } from "@bufbuild/protovalidate";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { Logger } from "pino";
import { DomainError, notFound } from "../engine/domain/errors.js";
import { file_gamification_v1_validation } from "../gen/gamification/v1/validation_pb.js";
import { checkCustomerId, DEFAULT_SCOPE } from "../features/account/domain/tenant.js";
import { shortJson } from "./json-input.js";
import type { Caller } from "../features/account/store/api-keys.js";
import type { ServiceContext } from "../engine/context.js";
import { admittedCaller, type ServicePolicy } from "./admission.js";
import { toConnectError } from "./error-mapping.js";
import { requestInfo } from "./request-info.js";

/** Who is calling and in which tenant scope; handed to every method implementation. */
export interface CallScope {
  caller: Caller;
  /** The internal tenant ID the call is scoped to, or the default scope. */
  tenantId: string;
  ctx: HandlerContext;
}

/**
 * A method implementation that receives the checked request and the call's scope, typed from the
 * generated descriptor: the request message in, the response's init shape out (a field of the
 * wrong type, or a response of only unknown fields, fails to compile). Every method of ours is unary.
 */
export type ScopedMethod<M extends DescMethod> =
  M extends DescMethodUnary<infer I, infer O> ? (request: MessageShape<I>, scope: CallScope) => Promise<MessageInitShape<O>> : never;

/** Every method of a generated service, e.g. `ScopedService<typeof ApplicationService>`. */
export type ScopedService<S extends DescService> = { [K in keyof S["method"]]: ScopedMethod<S["method"][K]> };

/**
 * A guarded method as the transports call it: Connect and gRPC through the router, REST with a
 * request it built from `method.input`. Only the descriptor is known here, so the shapes are the
 * descriptor-generic ones (`Message` in, a message init out).
 */
export type GuardedMethod = (request: Message, ctx: HandlerContext) => Promise<MessageInitShape<DescMessage>>;

/** One method of any service, as the guard looks it up by name. */
type AnyScopedMethod = (request: Message, scope: CallScope) => Promise<MessageInitShape<DescMessage>>;

/** Knows our predefined rules (proto/gamification/v1/validation.proto), e.g. `(gamification.v1.user_id)`. */
const validator = createValidator({ registry: createRegistry(file_gamification_v1_validation) });

/**
 * Wraps the methods of a service with what every call needs once the transport has admitted the
 * caller (authenticated the key and checked it may call this service, see admission.ts): validate
 * the request against the proto rules, resolve the Tenant-ID header to a tenant, then run the method
 * and map its errors. Connect, gRPC, gRPC-web and REST all call the wrapped methods, so these rules
 * hold on every protocol.
 */
export function guardService<S extends DescService>(
  service: S,
  methods: ScopedService<S>,
  policy: ServicePolicy,
  services: ServiceContext,
  logger: Logger,
): Record<string, GuardedMethod>;
export function guardService(
  service: DescService,
  methods: Record<string, AnyScopedMethod>,
  policy: ServicePolicy,
  services: ServiceContext,
  logger: Logger,
): Record<string, GuardedMethod> {
  const wrapped: Record<string, GuardedMethod> = {};
  for (const method of service.methods.map(unaryMethod)) {
    const impl = methods[method.localName];
    if (!impl) throw new Error(`${service.typeName} has no implementation of ${method.name}`);
    // Decided once per method, not per call.
    const serialized = policy.configurationWrites?.(method.localName) ?? false;
    wrapped[method.localName] = async (request, ctx) => {
      const info = ctx.values.get(requestInfo);
      try {
        const caller = ctx.values.get(admittedCaller);
        if (!caller) throw new DomainError("unauthenticated", "Missing API key: send it in the X-API-KEY header");
        validateRequest(method, request);
        const tenantId = policy.accountLevel?.has(method.localName) ? DEFAULT_SCOPE : await resolveTenant(services, ctx.requestHeader.get("tenant-id"), caller);
        const call = () => impl(request, { caller, tenantId, ctx });
        const result = await services.tenantCalls.run(tenantId, serialized ? () => services.userLocks.run(`configuration:${tenantId}`, call) : call);
        if (info) info.rpcCode = 0;
        return result;
      } catch (error) {
        const connectError = toConnectError(error, info?.log ?? logger);
        if (info) info.rpcCode = connectError.code;
        throw connectError;
      }
    };
  }
  return wrapped;
}

/** Narrows a method descriptor to a unary one (the only kind the guard and the REST layer serve). */
export function unaryMethod(method: DescMethod): DescMethodUnary {
  if (!isUnary(method)) throw new Error(`${method.parent.typeName}.${method.name} is ${method.methodKind}: only unary methods are served`);
  return method;
}

function isUnary(method: DescMethod): method is DescMethodUnary {
  return method.methodKind === "unary";
}

function validateRequest(method: DescMethod, request: Message): void {
  const result = validator.validate(method.input, request);
  if (result.kind === "valid") return;
  if (result.kind === "invalid") {
    const details = result.violations.map((v) => `${jsonPathOf(v.field) || "request"}: ${v.message}`);
    throw new ConnectError(`Invalid request: ${details.join("; ")}`, Code.InvalidArgument);
  }
  throw result.error;
}

/**
 * A violation's field as callers write it: JSON names (`rateLimit.requestsPerSecond`, as in REST
 * and Connect JSON bodies and REST query parameters), list indexes and map keys as protobuf-es's
 * `pathToString` writes them.
 */
function jsonPathOf(path: Path): string {
  return path
    .map((item, i) => {
      if (item.kind !== "field" && item.kind !== "oneof") return pathToString([item]);
      return `${i > 0 ? "." : ""}${item.kind === "field" ? item.jsonName : item.name}`;
    })
    .join("");
}

/**
 * The Tenant-ID header carries the caller's own identifier for a tenant (its `customerId`). No
 * header means the account's default scope. An application key is bound to its tenant.
 */
async function resolveTenant(services: ServiceContext, header: string | null, caller: Caller): Promise<string> {
  let tenantId = DEFAULT_SCOPE;
  if (header !== null) {
    if (header.trim() === "")
      throw new DomainError("invalid_argument", "The Tenant-ID header is empty: send a tenant's ID, or leave the header out for the default scope");
    // Node joins a repeated header's values with ", ", which no tenant ID holds (no spaces).
    if (header.includes(", ")) throw new DomainError("invalid_argument", "The Tenant-ID header was sent more than once: send one tenant's ID");
    // A value no tenant can have is not looked up (nor cached): it is no tenant's.
    const tenant = checkCustomerId(header) === null ? await services.config.tenantByCustomerId(header) : null;
    // A key bound to a tenant learns nothing of others: an unknown tenant answers as another one does.
    if (!tenant && caller.tenantId === null) throw notFound(`Tenant ${shortJson(header)} not found`);
    tenantId = tenant?.id ?? "";
  }
  if (caller.tenantId !== null && caller.tenantId !== tenantId) {
    throw new DomainError("permission_denied", "This API key belongs to another tenant");
  }
  return tenantId;
}

/** Application keys act for one user only. */
export function checkUserScope(scope: CallScope, userId: string): void {
  if (scope.caller.userId !== null && scope.caller.userId !== userId) {
    throw new DomainError("permission_denied", "This API key may only act for its own user");
  }
}
