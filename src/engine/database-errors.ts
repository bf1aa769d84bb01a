import {
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from "mongodb";

const NETWORK_ERROR_CODES = new Set(["EPIPE", "ECONNRESET", "ECONNREFUSED", "ECONNABORTED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND"]);

/**
 * Whether an error says the database could not be reached in time (down, hung, a connection
 * lost), rather than that it refused a command: the caller may try again (an event with the same
 * `Idempotency-Key` is applied at most once however it went). Only the database is reached on a
 * request's way, so a socket error there is the database's.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  return (
    // The driver can pass on a socket's own error (EPIPE: written after the database hung up).
    NETWORK_ERROR_CODES.has((error as NodeJS.ErrnoException | null)?.code ?? "") ||
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoServerClosedError ||
    error instanceof MongoNotConnectedError
  );
}
