import { DEFAULT_LIST_LIMIT, type BulkResult } from "../engine/domain/bulk.js";
import { notFound } from "../engine/domain/errors.js";
import { issueToProto } from "./convert.js";
import type { CallScope } from "./guard.js";
import { setRestStatus } from "./rest-status.js";

// The answers every Admin API service gives in the same shape: bulk results, a found resource, a page.

/** The `{created, issues}` answer of a bulk create; REST answers 201 when at least one was created. */
export function created<T, P>(scope: CallScope, result: BulkResult<T>, toProto: (item: T) => P) {
  if (result.done.length > 0) setRestStatus(scope.ctx, 201);
  return { created: result.done.map(toProto), issues: result.issues.map(issueToProto) };
}

export function updated<T, P>(result: BulkResult<T>, toProto: (item: T) => P) {
  return { updated: result.done.map(toProto), issues: result.issues.map(issueToProto) };
}

export function deleted(result: BulkResult<{ id: string }>) {
  return { deleted: result.done, issues: result.issues.map(issueToProto) };
}

export function found<T>(value: T | null, noun: string, id: string): T {
  if (value === null) throw notFound(`${noun} "${id}" not found`);
  return value;
}

export function pageOf(req: { limit?: number; skip: number }): { limit: number; skip: number } {
  return { limit: req.limit ?? DEFAULT_LIST_LIMIT, skip: req.skip };
}
