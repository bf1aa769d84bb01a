import type { Document, WithId } from "mongodb";
import type { PointsBoostConfig } from "../points/domain/points-config.js";
import { boostPayload, createMessage, decideBoostNotices, deterministicMessageId, type OutboxMessage } from "./domain/webhooks.js";
import type { ServiceContext } from "../../engine/context.js";
import { handOverMessages } from "./webhook-outbox.js";
import { sha256 } from "../../engine/sha256.js";

/** Fields the announcer records on a boost document: what it announced, and when. */
interface BoostAnnouncementFields {
  webhookStartedAt?: Date;
  webhookFinishedAt?: Date;
}

/**
 * Announces boosts that started or finished since the last check (`decideBoostNotices`), for every
 * tenant, each fact once: the messages get IDs derived from the boost and the fact, are handed over
 * to delivery (idempotent), and only then is the fact recorded on the boost document. A crash in
 * between repeats the hand-over on the next check, which creates nothing twice. Boosts are
 * configuration (few); the check reads those not yet announced as finished. Returns how many facts
 * it announced.
 */
export async function announceBoosts(ctx: ServiceContext): Promise<number> {
  const boosts = ctx.database.collections.pointsBoosts;
  const now = ctx.now();
  const docs = await boosts.find({ webhookFinishedAt: { $exists: false } }).toArray();
  let announced = 0;
  for (const doc of docs) {
    const { _id, tenantId, systemId, ...rest } = doc as WithId<Document> & { tenantId: string; systemId: string };
    const boost = { id: String(_id), ...rest } as PointsBoostConfig & BoostAnnouncementFields;
    const notices = decideBoostNotices(boost, { started: boost.webhookStartedAt !== undefined }, now);
    if (!notices.markStarted && !notices.markFinished) continue;
    if (notices.announce.length > 0) {
      const [webhooks, points] = await Promise.all([ctx.config.webhooks(tenantId), ctx.config.pointsConfig(tenantId)]);
      const system = points.systems.find((s) => s.system.id === systemId)?.system;
      const messages: OutboxMessage[] = system
        ? notices.announce.map(({ type, at }) =>
            createMessage(
              type,
              { boost: boostPayload(boost, system, type === "points.boost_started" ? "active" : "finished") },
              {
                id: deterministicMessageId(`${tenantId}/boost/${boost.id}/${type}`, sha256),
                tenant: webhooks.tenant,
                at,
              },
            ),
          )
        : [];
      await handOverMessages(ctx, tenantId, messages);
      announced += messages.length;
    }
    const set: BoostAnnouncementFields = {};
    if (notices.markStarted) set.webhookStartedAt = now;
    if (notices.markFinished) set.webhookFinishedAt = now;
    await boosts.updateOne({ _id, tenantId }, { $set: set });
  }
  return announced;
}
