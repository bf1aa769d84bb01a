import { createContextKey, type HandlerContext } from "@connectrpc/connect";

/**
 * The HTTP status a REST call answers with when it succeeds (200 unless a handler says otherwise:
 * 201 for a creation, 202 for an idempotent replay). Connect and gRPC callers do not see it.
 */
export const restSuccessStatus = createContextKey<{ status: number }>({ status: 200 }, { description: "REST success status" });

export function setRestStatus(ctx: HandlerContext, status: number): void {
  ctx.values.get(restSuccessStatus).status = status;
}
