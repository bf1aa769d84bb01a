import type { Document, WithId } from "mongodb";
import type { PointsBoostConfig } from "../points/domain/points-config.js";
import {
  boostPayload,
  createMessage,
  decideBoostNotices,
  decideDeletedBoostNotices,
  deterministicMessageId,
  nextRound,
  type BoostAnnouncements,
  type BoostNotices,
  type OutboxMessage,
} from "./domain/webhooks.js";
import type { ServiceContext } from "../../engine/context.js";
import { handOverMessages } from "./webhook-outbox.js";
import { sha256 } from "../../engine/sha256.js";
import { documentLock } from "../../engine/store/conditional-write.js";

type AnnouncedBoost = PointsBoostConfig & BoostAnnouncements;

/**
 * Announces boosts that started or finished since the last check (`decideBoostNotices`), for every
 * tenant, each fact once per round (an edit of a boost's dates may start a new one:
 * `reopenedBoostAnnouncements`): the messages get IDs derived from the boost and the fact, are handed over
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
    const boost = { id: String(_id), ...rest } as AnnouncedBoost;
    const notices = decideBoostNotices(boost, { started: boost.webhookStartedAt !== undefined }, now);
    if (!notices.markStarted && !notices.markFinished && !notices.reopen) continue;
    announced += await handOverNotices(ctx, tenantId, systemId, boost, notices);
    // What was handed over is a fact, recorded whatever changed meanwhile (under the boost's lock,
    // as an edit writes): an edit that read the marks before is checked again and decides on them.
    const record = notices.reopen
      ? { $set: nextRound(boost, now), $unset: { webhookStartedAt: "", webhookFinishedAt: "" } }
      : { $set: { ...(notices.markStarted && { webhookStartedAt: now }), ...(notices.markFinished && { webhookFinishedAt: now }) } };
    await ctx.userLocks.run(documentLock(boosts, String(_id)), () => boosts.updateOne({ _id, tenantId }, record));
  }
  return announced;
}

/**
 * Announces the finish of a boost that is about to be deleted (`decideDeletedBoostNotices`): receivers
 * told it started learn that it finished. Called before the deletion, so a crash in between leaves
 * the boost, and a later announcement of the same fact creates nothing twice.
 */
export async function announceBoostDeletion(ctx: ServiceContext, tenantId: string, systemId: string, boost: AnnouncedBoost): Promise<void> {
  if (boost.webhookFinishedAt !== undefined) return;
  const notices = decideDeletedBoostNotices(boost, { started: boost.webhookStartedAt !== undefined }, ctx.now());
  await handOverNotices(ctx, tenantId, systemId, boost, notices);
}

/** Hands the announced facts of one boost over to delivery; returns how many messages it wrote. */
async function handOverNotices(ctx: ServiceContext, tenantId: string, systemId: string, boost: AnnouncedBoost, notices: BoostNotices): Promise<number> {
  if (notices.announce.length === 0) return 0;
  const [webhooks, points] = await Promise.all([ctx.config.webhooks(tenantId), ctx.config.pointsConfig(tenantId)]);
  const system = points.systems.find((s) => s.system.id === systemId)?.system;
  if (!system) return 0;
  // Each round's facts are their own messages (the first round's IDs are those from before rounds).
  const round = boost.webhookRound ? `${boost.webhookRound}/` : "";
  const messages: OutboxMessage[] = notices.announce.map(({ type, at }) =>
    createMessage(
      type,
      { boost: boostPayload(boost, system, type === "points.boost_started" ? "active" : "finished") },
      { id: deterministicMessageId(`${tenantId}/boost/${boost.id}/${round}${type}`, sha256), tenant: webhooks.tenant, at },
    ),
  );
  await handOverMessages(ctx, tenantId, messages);
  return messages.length;
}
