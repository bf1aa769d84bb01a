import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "pino";
import { DomainError, type DomainErrorCode } from "../engine/domain/errors.js";
import { isDatabaseUnreachable } from "../engine/database-errors.js";

const CONNECT_CODE: Record<DomainErrorCode, Code> = {
  invalid_argument: Code.InvalidArgument,
  unauthenticated: Code.Unauthenticated,
  permission_denied: Code.PermissionDenied,
  not_found: Code.NotFound,
  unprocessable: Code.FailedPrecondition,
  conflict: Code.Aborted,
  rate_limited: Code.ResourceExhausted,
};

/** The REST status of each Connect code, following the reference API's statuses. */
const REST_STATUS: Partial<Record<Code, number>> = {
  [Code.InvalidArgument]: 400,
  [Code.OutOfRange]: 400,
  [Code.Unauthenticated]: 401,
  [Code.PermissionDenied]: 403,
  [Code.NotFound]: 404,
  [Code.Unimplemented]: 404,
  [Code.Aborted]: 409,
  [Code.AlreadyExists]: 409,
  [Code.FailedPrecondition]: 422,
  [Code.ResourceExhausted]: 429,
  [Code.Canceled]: 499,
  [Code.Unavailable]: 503,
  [Code.DeadlineExceeded]: 504,
};

/**
 * Turns anything thrown by a use case into the error the caller sees. Domain errors keep their
 * message; a database out of reach is `unavailable` (503: try again); anything else is logged and
 * becomes a generic internal error (no details leak).
 */
export function toConnectError(error: unknown, logger: Logger): ConnectError {
  if (error instanceof ConnectError) return error;
  if (error instanceof DomainError) return new ConnectError(error.message, CONNECT_CODE[error.code]);
  if (isDatabaseUnreachable(error)) {
    logger.warn({ err: error }, "database unreachable");
    return new ConnectError("The database is unavailable; try again shortly", Code.Unavailable);
  }
  logger.error({ err: error }, "unexpected error");
  return new ConnectError("Internal error", Code.Internal);
}

export function restStatusOf(code: Code): number {
  return REST_STATUS[code] ?? 500;
}
