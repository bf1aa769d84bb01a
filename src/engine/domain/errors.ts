/**
 * The closed set of reasons a request can be refused. The API layer maps each code to one Connect
 * code and one REST status (see transport/error-mapping.ts); nothing else decides statuses.
 */
export type DomainErrorCode =
  | "invalid_argument" // malformed or invalid input (REST 400)
  | "unauthenticated" // missing or unknown API key (401)
  | "permission_denied" // the key may not make this call (403)
  | "not_found" // a named resource does not exist (404)
  | "unprocessable" // well-formed but breaks a rule, e.g. unknown attribute keys (422)
  | "conflict" // concurrent modification that could not be resolved (409)
  | "rate_limited"; // too many requests (429)

/** A refused request, with a message written for the caller. */
export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export function invalidArgument(message: string): DomainError {
  return new DomainError("invalid_argument", message);
}

export function notFound(message: string): DomainError {
  return new DomainError("not_found", message);
}
