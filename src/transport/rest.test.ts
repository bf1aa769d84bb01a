import { describe, expect, it } from "vitest";
import type { HandlerContext } from "@connectrpc/connect";
import { ApplicationService } from "../gen/gamification/v1/application_service_pb.js";
import type { Caller } from "../features/account/store/api-keys.js";
import type { GuardedMethod } from "./guard.js";
import { createRestRouter, type RestRequest } from "./rest.js";

/** A router over the Application API whose every method reports whether its call was aborted when it ran. */
function routerSeeingAborts(seen: boolean[]) {
  const method: GuardedMethod = async (_request, ctx: HandlerContext) => {
    seen.push(ctx.signal.aborted);
    return {};
  };
  const methods = new Proxy({}, { get: () => method }) as Record<string, GuardedMethod>;
  return createRestRouter([{ service: ApplicationService, methods }]);
}

function eventRequest(whenClientGone: RestRequest["whenClientGone"]): RestRequest {
  const url = new URL("http://localhost/api/metrics/words/event");
  const body = Buffer.from(JSON.stringify({ user: { id: "u1" }, value: 1 }));
  return { method: "POST", url, headers: { "content-type": "application/json" }, body, whenClientGone, caller: {} as Caller };
}

describe("REST router: a client gone before its answer", () => {
  it("aborts the call through the abort it hands to the transport, and only then", async () => {
    const seen: boolean[] = [];
    const router = routerSeeingAborts(seen);
    const match = router.match("POST", "/api/metrics/words/event");
    if (match.kind !== "route") throw new Error("no route");
    let handedOver: (() => void) | undefined;
    await router.serve(
      match.route,
      eventRequest((abort) => (handedOver = abort)),
    );
    await router.serve(
      match.route,
      eventRequest((abort) => abort()),
    ); // gone before the call started
    expect(seen).toEqual([false, true]);
    expect(handedOver).toBeTypeOf("function");
  });
});
