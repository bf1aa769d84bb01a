import { sha256 } from "../../engine/sha256.js";
import { forEachLimited } from "../../engine/for-each-limited.js";
import type { Logger } from "pino";
import type { UserState } from "../../engine/domain/user.js";
import { HISTORY_LIMIT } from "../leaderboards/domain/leaderboard-entries.js";
import { runOnDate, runStartsBetween } from "../leaderboards/domain/leaderboard-runs.js";
import { addDays, isoDate } from "../../engine/domain/plain-dates.js";
import { rankingIdOf } from "../leaderboards/domain/leaderboard-config.js";
import { createMessage, deterministicMessageId } from "../webhooks/domain/webhooks.js";
import { deleteUserListings, findDeliveriesNamingUser } from "../webhooks/store/user-deliveries.js";
import { applyStatsChanges } from "../achievements/store/achievement-stats.js";
import type { RankingScope } from "../leaderboards/store/leaderboard-rankings.js";
import { deleteErasure, erasureId, findErasure, findUnfinishedErasures, saveErasure, type UserErasureDocument } from "./store/user-erasures.js";
import { deleteUserDocument, readStoredUser } from "../../engine/store/user-documents.js";
import { unlistTenantUser } from "../../engine/store/tenant-users.js";
import { userPageIds } from "../../engine/store/user-pages.js";
import { deletePages } from "../../engine/store/list-pages.js";
import { deleteMovedRecords } from "../../engine/store/idempotency-records.js";
import { forgetPauseOwnersOf, pauseIdsOf } from "../streaks/store/streak-pauses.js";
import type { ServiceContext } from "../../engine/context.js";
import { erasedBatchEvent } from "../batches/event-batches.js";
import { withOlderItems } from "../../engine/user-access.js";
import { rankingScope, rankingsOf } from "../leaderboards/ranking-updates.js";
import { streakRankingScopes } from "../streaks/streak-rankings.js";
import { deleteUserBoosts } from "../points/admin-points.js";
import { handOverMessages, userDeliveriesStore } from "../webhooks/webhook-outbox.js";

/** Rankings rewritten at once by one erasure (each reads and writes its whole ranking). */
const RANKINGS_AT_ONCE = 4;
/** Rankings checked at once for the user's line (`holding`). */
const RANKING_CHECKS_AT_ONCE = 8;
/** Runs older than a user's rank history checked per leaderboard, at most (over five years of daily runs). */
const MAX_EARLIER_RUNS = 2_000;

/**
 * Erases every trace of a user in a tenant (DELETE /admin/v1/users/{id}); see docs/privacy.md.
 *
 * Runs under the user's lock, so events, reads that write and the webhook worker's hand-over of the
 * user's outbox wait for it (and then find no user: an event after the erasure creates a fresh
 * user). Crash-safe: the ERASURE document (features/privacy/store/user-erasures.ts), holding the rankings to clean,
 * is written first and deleted last; calling again (or the next start-up) finishes an erasure left
 * unfinished, every step being harmless to repeat. The counters behind achievement rarity go down
 * with the deletion of the user's document (once: only the call that deleted it updates them).
 *
 * Idempotent: a user the tenant does not hold (never seen or erased already, and on no ranking)
 * answers `{ erased: false }`; only application keys made for the ID and listings are deleted then.
 * A user whose first event was cut short before their document was written, but ranked, is erased.
 */
export async function eraseUser(ctx: ServiceContext, tenantId: string, userId: string): Promise<{ erased: boolean }> {
  return ctx.userLocks.run(`${tenantId}/${userId}`, async () => {
    const { users, userErasures } = ctx.database.collections;
    const [unfinished, stored, strays] = await Promise.all([
      findErasure(userErasures, tenantId, userId),
      readStoredUser(users, tenantId, userId),
      strayRankingScopes(ctx, tenantId, userId),
    ]);
    if (!unfinished && !stored && strays.length === 0) {
      // No document or ranking, but an application key may have been made for the ID (configuration:
      // cheap), a first event cut short lists the user before writing them, and a batch waiting to be
      // processed may hold the user's first events: then the user is erased there.
      const [, , emptied] = await Promise.all([
        deleteApplicationKeys(ctx, tenantId, userId),
        unlistUser(ctx, tenantId, userId),
        eraseBatchEvents(ctx, tenantId, userId),
      ]);
      if (emptied === 0) return { erased: false };
      // Erased as any held user is: announced.
      await announceErasure(ctx, { tenantId, userId, started: ctx.now() });
      return { erased: true };
    }
    // A user seen again after an erasure was cut short holds rankings of their own: add them.
    const scopes = uniqueScopes(
      unfinished?.scopes ?? [],
      strays,
      stored ? await rankingScopesOf(ctx, tenantId, await withOlderItems(ctx, tenantId, stored)) : [],
    );
    const erasure: UserErasureDocument = {
      _id: erasureId(tenantId, userId),
      tenantId,
      userId,
      started: unfinished?.started ?? ctx.now(),
      scopes,
      idempotencyMoves: larger(unfinished ? (unfinished.idempotencyMoves ?? null) : 0, stored ? stored.state.idempotencyMoves : 0),
      pauseIds: bothKnown(unfinished ? (unfinished.pauseIds ?? null) : [], stored ? pauseIdsOf(tenantId, stored.state) : []),
    };
    await saveErasure(userErasures, erasure);
    await ctx.atPipelinePoint?.("erase-step", 1);

    // Before the document that names them (a retry after a crash reads it again).
    if (stored) await deletePages(ctx.database.collections.userPages, userPageIds(tenantId, stored));

    if (await deleteUserDocument(users, tenantId, userId)) await uncount(ctx, tenantId, stored?.state ?? null);
    await ctx.atPipelinePoint?.("erase-step", 2);

    await forEachLimited(scopes, RANKINGS_AT_ONCE, (scope) => rankingsOf(ctx).eraseEntry(scope, userId));
    await ctx.atPipelinePoint?.("erase-step", 3);

    await eraseStoredTraces(ctx, erasure);
    await announceErasure(ctx, erasure);
    await deleteErasure(userErasures, tenantId, userId);
    return { erased: true };
  });
}

/** Finishes the erasures a crash left unfinished (at start-up); failures are logged and left for a retry. */
export async function finishUnfinishedErasures(ctx: ServiceContext, logger: Logger): Promise<void> {
  for (const erasure of await findUnfinishedErasures(ctx.database.collections.userErasures)) {
    try {
      await eraseUser(ctx, erasure.tenantId, erasure.userId);
      logger.info({ tenantId: erasure.tenantId }, "finished an unfinished user erasure");
    } catch (error) {
      logger.error({ err: error, tenantId: erasure.tenantId }, "an unfinished user erasure failed again; erase the user again to finish it");
    }
  }
}

/**
 * Every ranking that may hold the user: per leaderboard of their state, each run they took part
 * in (the current entry's and those of their rank history) and every group of that run (a user may
 * have moved between groups); and the tenant's two streak rankings once their streak was ranked.
 * Once the rank history is full (HISTORY_LIMIT items, older ones dropped), or whenever it is trimmed
 * by age (RANK_HISTORY_RETENTION_DAYS), the leaderboard's runs before the history's oldest are
 * checked too (a few reads by `_id` per run and group), and kept where the user has a line.
 */
async function rankingScopesOf(ctx: ServiceContext, tenantId: string, state: UserState): Promise<RankingScope[]> {
  const configs = new Map((await ctx.config.leaderboards(tenantId)).map((l) => [l.config.id, l.config]));
  const perBoard = await Promise.all(
    Object.entries(state.leaderboards).map(async ([leaderboardId, entry]) => {
      // The rankings of the entry's own definition of the leaderboard (`rankingIdOf`).
      const rankingId = rankingIdOf(leaderboardId, entry.generation);
      const runs = [...new Set([entry.run, ...entry.history.map((h) => h.run)])];
      const scopes = await scopesOfRuns(ctx, tenantId, rankingId, runs);
      scopes.push(rankingScope(tenantId, rankingId, entry.run, entry.group));
      const config = configs.get(leaderboardId);
      // The history may lack older runs: it is full (older items dropped), or trimmed by age.
      const trimmed = entry.history.length >= HISTORY_LIMIT || (ctx.retention?.rankHistoryDays ?? null) !== null;
      if (config && (config.rankingGeneration ?? 0) === (entry.generation ?? 0) && trimmed) {
        const oldest = runs.reduce((a, b) => (a < b ? a : b));
        // From the leaderboard's start: events may be older than the user's creation (admin timestamps).
        const earlier = runStartsBetween(config, config.start, oldest, MAX_EARLIER_RUNS).filter((run) => run < oldest);
        for (const run of earlier) scopes.push(...(await holding(ctx, await scopesOfRuns(ctx, tenantId, rankingId, [run]), state.userId)));
      }
      return scopes;
    }),
  );
  const streak = state.streakRanks !== null || state.streak !== null ? streakRankingScopes(tenantId) : [];
  return uniqueScopes(...perBoard, streak);
}

/**
 * The rankings holding the user that their document may not know of: a change cut short between
 * its ranking writes and its user write (the rankings are written first; a retry with the same key
 * heals it, a client that gives up leaves the line, even of a user never written). The runs of each
 * of the tenant's leaderboards around now (the dates now has anywhere on Earth: the user's zone is
 * not known), every group, and the two streak rankings; kept where the user has a line. A few reads
 * by `_id` per leaderboard and group.
 */
async function strayRankingScopes(ctx: ServiceContext, tenantId: string, userId: string): Promise<RankingScope[]> {
  const today = isoDate(ctx.now().getTime());
  const perBoard = await Promise.all(
    (await ctx.config.leaderboards(tenantId)).map(({ config }) => {
      const runs = new Set([-1, 0, 1].map((days) => runOnDate(config, addDays(today, days))?.runStart).filter((run) => run !== undefined));
      return scopesOfRuns(ctx, tenantId, rankingIdOf(config.id, config.rankingGeneration), [...runs]);
    }),
  );
  return holding(ctx, [...perBoard.flat(), ...streakRankingScopes(tenantId)], userId);
}

/** Every group's ranking of the runs of a leaderboard's rankings. */
async function scopesOfRuns(ctx: ServiceContext, tenantId: string, rankingId: string, runs: readonly string[]): Promise<RankingScope[]> {
  const rankings = rankingsOf(ctx);
  const groups = await Promise.all(
    runs.map(async (run) => (await rankings.groupsOfRun(tenantId, rankingId, run)).map((g) => rankingScope(tenantId, rankingId, run, g.group))),
  );
  return groups.flat();
}

/** The scopes where the user has a line; a board broken down by an attribute of many values has as many groups: a few reads at a time. */
async function holding(ctx: ServiceContext, scopes: readonly RankingScope[], userId: string): Promise<RankingScope[]> {
  const rankings = rankingsOf(ctx);
  const held: RankingScope[] = [];
  await forEachLimited(scopes, RANKING_CHECKS_AT_ONCE, async (scope) => {
    if (await rankings.rankOf(scope, userId)) held.push(scope);
  });
  return held;
}

/** The user leaves the tenant's listing and the scheduler's due buckets (pending work: a bounded scan). */
async function unlistUser(ctx: ServiceContext, tenantId: string, userId: string): Promise<void> {
  const c = ctx.database.collections;
  const key = `${tenantId}/${userId}`;
  await Promise.all([
    unlistTenantUser(c.tenantUsers, ctx.userLocks, tenantId, userId),
    c.dueUsers.updateMany({ keys: key }, { $pull: { keys: key } }),
    c.dueUsers.updateMany({ users: key }, { $pull: { users: key } }),
  ]);
}

/**
 * Of two counts of moves of idempotency records, the one to erase up to: a user seen again after an
 * erasure was cut short counts from 0 again, in the same listing pages (a listing adds to what its
 * page holds). null: unknown.
 */
function larger(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : Math.max(a, b);
}

/** Both lists of IDs (an erasure cut short, the user seen again since); null when either is unknown. */
function bothKnown(a: readonly string[] | null, b: readonly string[] | null): string[] | null {
  return a === null || b === null ? null : [...new Set([...a, ...b])];
}

/** The scopes of the lists, each once. */
function uniqueScopes(...lists: ReadonlyArray<readonly RankingScope[]>): RankingScope[] {
  const byKey = new Map(lists.flat().map((s) => [JSON.stringify([s.leaderboardId, s.run, s.group]), s]));
  return [...byKey.values()];
}

/** The counters behind achievement rarity stop counting the user and their completions. */
async function uncount(ctx: ServiceContext, tenantId: string, state: UserState | null): Promise<void> {
  if (!state) return;
  const changes = new Map<string, number>([["users", -1]]);
  for (const id of Object.keys(state.achievements)) changes.set(`a/${id}`, -1);
  await applyStatsChanges(ctx.database.collections.achievementStats, ctx.userLocks, tenantId, changes);
}

/**
 * What is stored about the user outside their document and the rankings. Keyed by `_id` where the
 * key follows from the user alone (the pending-outbox marker) or from what the erasure read from
 * their document (the idempotency records moved out of it, listed by the user's moves; the owners
 * of their streak pauses, whose IDs follow from the user and their count of pauses; the webhook
 * deliveries whose payload names the user, listed per user and day, with their ready markers, not
 * `user.deleted`); the rest needs a query on a field over collections that do not grow with users:
 * application keys acting for the user (configuration), due-minute entries and events of
 * unfinished batches (pending work). See docs/privacy.md.
 */
async function eraseStoredTraces(ctx: ServiceContext, erasure: UserErasureDocument): Promise<void> {
  const c = ctx.database.collections;
  const { tenantId, userId } = erasure;
  const key = `${tenantId}/${userId}`;
  await Promise.all([
    // The user's lock is held: no record can be moved out meanwhile.
    deleteMovedRecords(
      c.idempotencyKeys,
      c.userPages,
      c.idempotencyPurge,
      ctx.userLocks,
      tenantId,
      userId,
      erasure.idempotencyMoves ?? null,
      ctx.idempotencyWindowMs,
    ),
    c.pendingOutboxes.deleteOne({ _id: key }),
    forgetPauseOwnersOf(c.streakPauseOwners, tenantId, userId, erasure.pauseIds ?? null),
    deleteApplicationKeys(ctx, tenantId, userId),
    unlistUser(ctx, tenantId, userId),
    eraseWebhookDeliveries(ctx, tenantId, userId),
    eraseBatchEvents(ctx, tenantId, userId),
    // Boosts made for the user alone name them, and would boost a new user of the same ID.
    deleteUserBoosts(ctx, tenantId, userId),
  ]);
}

/** Keys acting for the user act for no one now (and would name them): at once on this instance, within the key cache's second on others. */
async function deleteApplicationKeys(ctx: ServiceContext, tenantId: string, userId: string): Promise<void> {
  const { deletedCount } = await ctx.database.collections.apiKeys.deleteMany({ kind: "application", tenantId, userId });
  if (deletedCount > 0) ctx.config.invalidate();
}

/**
 * Sends `user.deleted` to the endpoints subscribed to it, handed over to delivery directly (not
 * through the user's outbox, which is gone): once the traces are erased, so it survives them, and
 * under an ID derived from the erasure, so a retried erasure creates no second message.
 */
async function announceErasure(ctx: ServiceContext, erasure: Pick<UserErasureDocument, "tenantId" | "userId" | "started">): Promise<void> {
  const webhooks = await ctx.config.webhooks(erasure.tenantId);
  if (!webhooks.subscribed.has("user.deleted")) return;
  const id = deterministicMessageId(`user.deleted/${JSON.stringify([erasure.tenantId, erasure.userId, erasure.started.toISOString()])}`, sha256);
  await handOverMessages(ctx, erasure.tenantId, [
    createMessage("user.deleted", { user: { id: erasure.userId } }, { id, tenant: webhooks.tenant, at: erasure.started }),
  ]);
}

/**
 * Deletes the webhook deliveries whose payload names the user, delivered or not (their attempt logs
 * go with them), and their ready markers. Tenant-level messages that list the user among others
 * (`leaderboard.*`) are deleted too.
 */
async function eraseWebhookDeliveries(ctx: ServiceContext, tenantId: string, userId: string): Promise<void> {
  const { webhookDeliveries, webhookReady } = ctx.database.collections;
  const listings = userDeliveriesStore(ctx);
  // `user.deleted` announces an erasure (a retried one keeps it).
  const naming = (await findDeliveriesNamingUser(listings, webhookDeliveries, tenantId, userId, ctx.now()))
    .filter((d) => d.type !== "user.deleted")
    .map((d) => d._id);
  const byId = (_id: string) => ({ deleteOne: { filter: { _id } } });
  if (naming.length > 0)
    await Promise.all([webhookDeliveries.bulkWrite(naming.map(byId), { ordered: false }), webhookReady.bulkWrite(naming.map(byId), { ordered: false })]);
  // The listings after the deliveries they list (a retry after a crash finds the rest through them).
  await deleteUserListings(listings, tenantId, userId, ctx.now());
}

/**
 * In batches not completed yet, the user's events are emptied in place (their position keeps the
 * batch's outcomes in line): the worker reports them failed, and an attempt of this instance in
 * progress, which read them before, drops them too (features/batches/erased-users.ts). Stored error
 * messages never quote an event's user ID (features/batches/event-batches.ts), so completed batches
 * hold nothing of theirs. Returns how many events were emptied.
 */
async function eraseBatchEvents(ctx: ServiceContext, tenantId: string, userId: string): Promise<number> {
  const { metricEventBatchQueue, metricEventBatchEvents } = ctx.database.collections;
  const queued = await metricEventBatchQueue.find({}, { projection: { _id: 1 } }).toArray();
  const emptied = await Promise.all(
    queued.map(async ({ _id }) => {
      const doc = await metricEventBatchEvents.findOne({ _id });
      if (!doc || doc.tenantId !== tenantId || !doc.events.some((e) => e.user.id === userId)) return 0;
      const events = doc.events.map((e) => (e.user.id === userId ? erasedBatchEvent(e.key) : e));
      await metricEventBatchEvents.updateOne({ _id }, { $set: { events } });
      return doc.events.filter((e) => e.user.id === userId).length;
    }),
  );
  // After the stored events are emptied: an attempt that read them before has taken its mark before this.
  ctx.erasedUsers?.note(tenantId, userId);
  return emptied.reduce((sum, n) => sum + n, 0);
}
