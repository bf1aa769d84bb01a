import { randomUUID } from "node:crypto";
import { ZERO, type DecimalString } from "./domain/decimal.js";
import { DomainError, invalidArgument } from "./domain/errors.js";
import { applyEvent, validateEvent, type EventOutcome, type MetricEvent } from "./domain/event.js";
import { isWithinWindow, type IdempotencyRecord } from "./domain/idempotency.js";
import type { UserState, UserUpsert } from "./domain/user.js";
import {
  findIdempotencyRecord,
  fingerprintRequest,
  idempotencyRecordId,
  listForPurge,
  listMovedRecords,
  saveIdempotencyRecords,
} from "./store/idempotency-records.js";
import { applyUserChange, changeUserState, type UserChange } from "./user-state.js";
import { dueWorkFirst, payTimeTriggers } from "../workers/due-work.js";
import { checkAttributeKeys, findMetricByKeyOrFail } from "./user-access.js";
import type { ServiceContext } from "./context.js";
import { loadEngineConfig } from "./engine-config.js";
import { currentStreakView, eventsOf, newUserState, NO_REACTIONS } from "./domain/reactions.js";
import { contributionOf } from "../features/leaderboards/domain/leaderboard-entries.js";

export interface EventInput {
  metricKey: string;
  user: UserUpsert;
  value: number;
  attributes: Record<string, string>;
  /** Admin-set event time; absent means now. */
  timestamp?: Date;
  idempotencyKey?: string;
}

/** A processed event, or the replay of an earlier one with the same idempotency key. */
export type EventResult = { kind: "applied"; outcome: EventOutcome } | { kind: "replayed"; outcome: EventOutcome };

/** Idempotency records kept in the user document before they are moved to their collection. */
export const RECENT_IDEMPOTENCY_LIMIT = 50;
/** Admin timestamps may lead the server clock by this much (clock skew), no more. */
const MAX_FUTURE_MS = 60_000;

/**
 * Records one metric event for a user in a tenant, exactly once.
 *
 * The user's state changes through `changeUserState` (per-user lock, version-checked write, retry on
 * conflict). An idempotency key is recorded in
 * that same document write, so the state change and the record of it cannot be separated by a crash:
 * a retry after a crash at any point finds the record (202, nothing applied again) or finds nothing
 * applied (201). Records move to the `idempotency_keys` collection in batches, before the write that
 * drops them from the document.
 */
export async function recordEvent(
  ctx: ServiceContext,
  tenantId: string,
  input: EventInput,
  /** Run under the user's lock before the event is decided; throws to refuse it (a batch event whose user was erased). */
  checkUnderLock?: () => void,
): Promise<EventResult> {
  const metric = await findMetricByKeyOrFail(ctx, tenantId, input.metricKey);
  const recordId = input.idempotencyKey ? idempotencyRecordId(metric.id, input.idempotencyKey) : null;
  // With a key, attribute keys are checked after its lookup: a request replayed after one of its
  // attributes was deleted was applied while it was valid, and is answered as a replay.
  const checkAttributes = () => checkAttributeKeys(ctx, tenantId, { event: input.attributes, user: input.user.attributes });
  if (!recordId) await checkAttributes();
  if (input.timestamp && input.timestamp.getTime() > ctx.now().getTime() + MAX_FUTURE_MS) {
    throw invalidArgument(`timestamp ${input.timestamp.toISOString()} is in the future`);
  }
  // Only a request with a key is remembered and compared (a hash per event otherwise spent for nothing).
  const fingerprint = recordId ? fingerprintRequest(input) : "";
  const event: MetricEvent = {
    eventId: randomUUID(),
    metricId: metric.id,
    at: input.timestamp ?? ctx.now(), // set again per attempt below
    user: input.user,
    value: input.value,
    attributes: input.attributes,
  };
  validateEvent(event);
  const { idempotencyKeys } = ctx.database.collections;
  const engine = await loadEngineConfig(ctx, tenantId);

  const findMovedRecord = async () => (recordId ? findIdempotencyRecord(idempotencyKeys, tenantId, input.user.id, recordId) : null);
  // Alone on the database (single-instance mode), this instance reads a moved record beside the
  // user. On several instances it reads it after the user: another instance's move after that
  // read fails this write's version check, and the next attempt reads both again. Read beside the
  // user, a move could land between the two reads and the key would look unused (applied twice).
  const alone = ctx.database.writeMode === "single-instance";
  return changeUserState(
    ctx,
    tenantId,
    input.user.id,
    async (stored, now, prefetched): Promise<UserChange<EventResult>> => {
      checkUnderLock?.();
      // A user first seen in a backdated event (an import) exists from that event's moment: their
      // `created` is not later than their history (streak freezes and time triggers count from it).
      const current = stored?.state ?? newUserState(input.user.id, input.timestamp && input.timestamp < now ? input.timestamp : now, engine);
      const movedRecord = alone ? async () => prefetched ?? null : findMovedRecord;
      const earlier = recordId ? await findRecord(current, movedRecord, recordId, now, ctx.idempotencyWindowMs) : null;
      if (earlier) {
        if (earlier.fingerprint !== fingerprint) {
          throw new DomainError(
            "unprocessable",
            `Idempotency key "${input.idempotencyKey}" was already used for a different request on this metric (request fingerprint ${fingerprint}, original ${earlier.fingerprint}); use a new key for a new request`,
          );
        }
        // A replay changes nothing and shows the current state (the streak as of now, not extended).
        const reactions = { ...NO_REACTIONS, streak: currentStreakView(current, engine.streak, now) };
        const outcome = { eventId: earlier.eventId, metricId: metric.id, total: totalOf(current, metric.id), reactions };
        return { write: null, result: { kind: "replayed", outcome } };
      }
      if (recordId) await checkAttributes();
      // Without an admin timestamp the event happens now, never before the latest applied event
      // (clocks of several instances may differ slightly).
      const at = input.timestamp ?? new Date(Math.max(now.getTime(), current.lastEventAt?.getTime() ?? 0));
      // A backdated event (an import) comes after the time-triggered points due before its moment,
      // paid as visits on time would have paid them (the wait after a backdated event holds the
      // scheduler's visit, which would judge streak periods; points judge nothing early), and
      // counted in the runs of their moments, final ones included, as the event itself is.
      const paidBefore = at < now ? payTimeTriggers(engine, current, at) : null;
      const applied = applyEvent(paidBefore ? { ...current, points: paidBefore.points } : current, { ...event, at }, now, engine, stored === null);
      const { reactions } = applied.outcome;
      const contribution = contributionOf({ metricId: metric.id, value: input.value }, reactions.points, reactions.streak?.length);
      const events = eventsOf(reactions);
      const { state, leaderboards } = await applyUserChange(ctx, tenantId, engine, {
        state: applied.state,
        events: paidBefore ? { ...events, pointsEvents: [...paidBefore.events, ...(events.pointsEvents ?? [])] } : events,
        earlier: paidBefore?.earlier,
        contribution,
        at,
      });
      const outcome = { ...applied.outcome, reactions: { ...reactions, leaderboards } };
      const kept = await moveRecentRecordsIfFull(ctx, tenantId, state, now);
      const record = recordId ? [{ id: recordId, metricId: metric.id, fingerprint, eventId: event.eventId, at: now }] : [];
      return { write: { ...state, ...kept, recentIdempotency: [...kept.recentIdempotency, ...record] }, result: { kind: "applied", outcome } };
    },
    { prefetch: alone ? findMovedRecord : undefined, catchUp: dueWorkFirst(ctx, tenantId, engine) },
  );
}

/** The earlier use of a key: in the user document (recent) or moved to the collection (none when no record was ever moved). */
async function findRecord(
  state: UserState,
  movedRecord: () => Promise<IdempotencyRecord | null>,
  recordId: string,
  now: Date,
  windowMs: number | null,
): Promise<IdempotencyRecord | null> {
  const record = state.recentIdempotency.find((r) => r.id === recordId) ?? (state.idempotencyMoves === 0 ? null : await movedRecord());
  return record && isWithinWindow(record, now, windowMs) ? record : null;
}

/**
 * Keeps the user document small: once it holds the limit of recent records, they are listed (for
 * the user's export and erasure) and stored in the idempotency collection (idempotent upserts)
 * before the write that drops them from the document and counts the move.
 */
async function moveRecentRecordsIfFull(
  ctx: ServiceContext,
  tenantId: string,
  state: UserState,
  now: Date,
): Promise<Pick<UserState, "recentIdempotency" | "idempotencyMoves">> {
  const live = state.recentIdempotency.filter((r) => isWithinWindow(r, now, ctx.idempotencyWindowMs));
  if (live.length < RECENT_IDEMPOTENCY_LIMIT) return { recentIdempotency: live, idempotencyMoves: state.idempotencyMoves };
  const c = ctx.database.collections;
  const moves = state.idempotencyMoves;
  if (moves !== null) await listMovedRecords(c.userPages, c.idempotencyPurge, ctx.userLocks, tenantId, state.userId, moves, live, ctx.idempotencyWindowMs);
  await listForPurge(c.idempotencyPurge, ctx.userLocks, tenantId, state.userId, live, ctx.idempotencyWindowMs);
  await saveIdempotencyRecords(c.idempotencyKeys, tenantId, state.userId, live);
  await ctx.atPipelinePoint?.("after-idempotency-flush", 0);
  return { recentIdempotency: [], idempotencyMoves: moves === null ? null : moves + 1 };
}

function totalOf(state: UserState, metricId: string): DecimalString {
  return state.metrics[metricId]?.total ?? ZERO;
}
