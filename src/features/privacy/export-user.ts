import type { JsonObject } from "@bufbuild/protobuf";
import { notFound } from "../../engine/domain/errors.js";
import { findDeliveriesNamingUser } from "../webhooks/store/user-deliveries.js";
import { userDeliveriesStore } from "../webhooks/webhook-outbox.js";
import type { UserState } from "../../engine/domain/user.js";
import { findErasure } from "./store/user-erasures.js";
import { readStoredUser } from "../../engine/store/user-documents.js";
import { findMovedRecords } from "../../engine/store/idempotency-records.js";
import { withOlderItems } from "../../engine/user-access.js";
import type { ServiceContext } from "../../engine/context.js";
import type { PointsBoostConfig } from "../points/domain/points-config.js";

/** What is stored about a user beside what the Application API's reads show (see docs/privacy.md). */
export interface StoredUserData {
  state: UserState;
  /** The keys of the points systems and leaderboards the user has state in (for their reads). */
  pointsSystemKeys: string[];
  leaderboardKeys: string[];
  /** Idempotency records moved out of the user's document. */
  idempotencyRecords: JsonObject[];
  /** Webhook deliveries whose payload names the user, delivered or not. */
  webhookDeliveries: Array<{ messageId: string; endpointId: string; type: string; status: string; body: string }>;
  /** The points boosts made for the user alone, with their system's ID and key. */
  boosts: Array<{ systemId: string; systemKey: string; boost: PointsBoostConfig }>;
}

/**
 * Reads what is stored about a user for an export (GET /admin/v1/users/{id}/export). NOT_FOUND for
 * a user the tenant does not hold, or whose erasure is unfinished. The idempotency records moved out
 * of the user's document and the webhook deliveries naming them are read by `_id` from their listings.
 */
export async function readStoredUserData(ctx: ServiceContext, tenantId: string, userId: string): Promise<StoredUserData> {
  const c = ctx.database.collections;
  const [stored, erasing] = await Promise.all([readStoredUser(c.users, tenantId, userId), findErasure(c.userErasures, tenantId, userId)]);
  if (!stored || erasing) throw notFound(`User "${userId}" not found`);
  const [points, leaderboards, records, deliveries] = await Promise.all([
    ctx.config.pointsConfig(tenantId),
    ctx.config.leaderboards(tenantId),
    findMovedRecords(c.idempotencyKeys, c.userPages, tenantId, userId, stored.state.idempotencyMoves),
    findDeliveriesNamingUser(userDeliveriesStore(ctx), c.webhookDeliveries, tenantId, userId, ctx.now()),
  ]);
  const state = await withOlderItems(ctx, tenantId, stored);
  return {
    state,
    pointsSystemKeys: points.systems.filter((s) => state.points[s.system.id]).map((s) => s.system.key),
    leaderboardKeys: leaderboards.filter((l) => state.leaderboards[l.config.id]).map((l) => l.config.key),
    idempotencyRecords: records.map(({ _id, tenantId: _t, ...record }) => asJson(record)),
    webhookDeliveries: deliveries.map((d) => ({ messageId: d.messageId, endpointId: d.endpointId, type: d.type, status: d.status, body: d.body })),
    boosts: points.systems
      .flatMap(({ system, boosts }) =>
        boosts.filter((boost) => boost.userId === userId).map((boost) => ({ systemId: system.id, systemKey: system.key, boost })),
      )
      .sort((a, b) => a.boost.created.getTime() - b.boost.created.getTime()),
  };
}

/** A stored value as JSON (dates as ISO 8601 strings). */
export function asJson(value: unknown): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}
