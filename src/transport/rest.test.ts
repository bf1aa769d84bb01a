import { describe, expect, it } from "vitest";
import type { HandlerContext } from "@connectrpc/connect";
import { AchievementAdminService } from "../gen/gamification/v1/achievement_admin_service_pb.js";
import { AdminService } from "../gen/gamification/v1/admin_service_pb.js";
import { ApplicationService } from "../gen/gamification/v1/application_service_pb.js";
import { LeaderboardAdminService } from "../gen/gamification/v1/leaderboard_admin_service_pb.js";
import { LeaderboardService } from "../gen/gamification/v1/leaderboard_service_pb.js";
import { PointsAdminService } from "../gen/gamification/v1/points_admin_service_pb.js";
import { PointsService } from "../gen/gamification/v1/points_service_pb.js";
import { PrivacyAdminService } from "../gen/gamification/v1/privacy_admin_service_pb.js";
import { StreakAdminService } from "../gen/gamification/v1/streak_admin_service_pb.js";
import { WebhookAdminService } from "../gen/gamification/v1/webhook_admin_service_pb.js";
import type { Caller } from "../features/account/store/api-keys.js";
import type { GuardedMethod } from "./guard.js";
import { createRestRouter, type RestMatch, type RestRequest, type RestRoute } from "./rest.js";

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

describe("REST router: matching a path", () => {
  const services = [
    ApplicationService,
    AdminService,
    AchievementAdminService,
    LeaderboardAdminService,
    LeaderboardService,
    PointsAdminService,
    PointsService,
    StreakAdminService,
    WebhookAdminService,
  ];
  const method: GuardedMethod = async () => ({});
  const methods = new Proxy({}, { get: () => method }) as Record<string, GuardedMethod>;
  const router = createRestRouter(services.map((service) => ({ service, methods })));

  /** What matching was before routes were indexed by their segments: every route's pattern tested. */
  function testingEveryRoute(httpMethod: string, pathname: string): RestMatch {
    const candidates = router.routes.filter((r) => r.pattern.test(pathname));
    if (candidates.length === 0) return { kind: "none" };
    const literals = Math.max(...candidates.map((r) => r.literals));
    const owners = candidates.filter((r) => r.literals === literals);
    const route = owners.find((r) => r.httpMethod === httpMethod);
    return route ? { kind: "route", route } : { kind: "wrong-method", allowed: [...new Set(owners.map((r) => r.httpMethod))] };
  }
  const described = (m: RestMatch) => (m.kind === "route" ? `${m.route.httpMethod} ${m.route.template}` : JSON.stringify(m));

  it("finds what testing every route's pattern finds, for every template and its near misses", () => {
    const paths = router.routes.flatMap((r: RestRoute) => {
      const path = r.template.replace(/\{[^}]+\}/g, "x");
      const shorter = path.slice(0, path.lastIndexOf("/"));
      return [path, `${path}/`, `${path}/y`, shorter, path.replace("/x", "/"), path.replace("/x", "/x%2Fy"), `${path}x`];
    });
    expect(router.routes.length).toBeGreaterThan(80);
    let routesFound = 0;
    for (const path of new Set(paths))
      for (const httpMethod of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const found = router.match(httpMethod, path);
        expect(described(found), `${httpMethod} ${path}`).toBe(described(testingEveryRoute(httpMethod, path)));
        if (found.kind === "route") routesFound++;
      }
    expect(routesFound).toBeGreaterThanOrEqual(router.routes.length);
  });
});

describe("REST router: list query parameters", () => {
  const received: unknown[] = [];
  const method: GuardedMethod = async (request) => {
    received.push((request as unknown as { ids: string[] }).ids);
    return {};
  };
  const methods = new Proxy({}, { get: () => method }) as Record<string, GuardedMethod>;
  const router = createRestRouter([{ service: PrivacyAdminService, methods }]);

  async function idsOf(search: string): Promise<unknown> {
    const match = router.match("DELETE", "/admin/v1/users");
    if (match.kind !== "route") throw new Error("no route");
    const url = new URL(`http://localhost/admin/v1/users${search}`);
    received.length = 0;
    await router.serve(match.route, { method: "DELETE", url, headers: {}, body: Buffer.alloc(0), whenClientGone: () => {}, caller: {} as Caller });
    return received[0];
  }

  it("split at literal commas only: an escaped comma belongs to its item", async () => {
    expect(await idsOf("?ids=c%2Cd")).toEqual(["c,d"]);
    expect(await idsOf("?ids=a,b&ids=c%2Cd")).toEqual(["a", "b", "c,d"]);
    expect(await idsOf("?ids=a%20b,x+y,%E2%82%AC")).toEqual(["a b", "x y", "€"]);
  });

  it("keep an empty item between commas (for validation to refuse), and give none for an empty parameter", async () => {
    expect(await idsOf("?ids=a,,b")).toEqual(["a", "", "b"]);
    expect(await idsOf("?ids=")).toEqual([]);
    expect(await idsOf("?ids")).toEqual([]);
  });
});
