/** A problem with one item of a bulk request; the item changed nothing. */
export interface BulkIssue {
  index?: number;
  id?: string;
  userId?: string;
  severity: "error" | "warning";
  message: string;
}

/** The outcome of a bulk request: each item succeeds or fails on its own. */
export interface BulkResult<T> {
  done: T[];
  issues: BulkIssue[];
}

/** Default and bounds of the `limit` of list calls. */
export const DEFAULT_LIST_LIMIT = 10;
