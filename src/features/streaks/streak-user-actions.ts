import { randomUUID } from "node:crypto";
import type { BulkResult } from "../../engine/domain/bulk.js";
import { DomainError, notFound } from "../../engine/domain/errors.js";
import { effectiveStreakSettings } from "../users/domain/preferences.js";
import type { StreakSettings } from "./domain/streak-config.js";
import {
  addPause,
  catchUpStreak,
  grantFreezes,
  removePause,
  resetStreak,
  restoreStreak,
  type StreakDomainEvent,
  type StreakPause,
  type StreakState,
} from "./domain/streak.js";
import type { UserState } from "../../engine/domain/user.js";
import type { ServiceContext } from "../../engine/context.js";
import { loadEngineConfig } from "../../engine/engine-config.js";
import { findPauseOwner, forgetPauseOwner, pauseIdOf, recordPauseOwner } from "./store/streak-pauses.js";
import { applyStreakChange } from "./streak-reads.js";
import { userStreak } from "./domain/streak-frequency.js";
import { changeUserState } from "../../engine/user-state.js";
import { dueWorkFirst } from "../../workers/due-work.js";
import type { StreakGrowth } from "../../engine/domain/reactions.js";

/** A change of a user's streak: the next streak, what to answer, the events to announce, and the user's count of pauses when it created one. */
interface StreakChange<T> {
  streak: StreakState;
  result: T;
  events?: StreakDomainEvent[];
  pausesCreated?: number;
  /** The lengths a restore reached, to reward. */
  restored?: Omit<StreakGrowth, "at">;
}

/**
 * Changes one user's streak through the same compare-and-set path as events; the user must
 * exist, be outside the control group (which has no streak) and the tenant must have streak settings. Returns an issue message instead of throwing.
 * The streak is caught up to now first (as a read shows it: periods that ended judged, with the
 * pauses and freezes in force then), so a change acts on the present: a pause deleted after the
 * day it held has ended keeps that day held, a freeze granted after a loss does not undo it.
 * Events of the catch-up and of the change are announced to webhooks in the same write.
 */
async function changeStreak<T>(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  change: (streak: StreakState, user: UserState, now: Date, settings: StreakSettings) => StreakChange<T> | Promise<StreakChange<T>>,
): Promise<{ ok: true; result: T } | { ok: false; message: string }> {
  const engine = await loadEngineConfig(ctx, tenantId);
  const settings = engine.streak;
  if (!settings) throw notFound("Streaks are not configured for this tenant (set them with PUT /admin/v1/streaks/settings)");
  try {
    const result = await changeUserState(
      ctx,
      tenantId,
      userId,
      async (stored, now) => {
        if (!stored) throw new DomainError("not_found", "User does not exist");
        const user = stored.state;
        if (user.control) throw new DomainError("unprocessable", "User is in the control group (experimentation settings), which has no streak");
        // The user's own rules (their preferences, when the tenant enables customization).
        const mine = effectiveStreakSettings(settings, user.preferences)!;
        const caught = catchUpStreak(userStreak(user, mine, now), mine, user.tzHistory, now);
        const changed = await change(caught.state, user, now, mine);
        const counted = changed.pausesCreated === undefined ? user : { ...user, pausesCreated: changed.pausesCreated };
        const events = [...caught.events, ...(changed.events ?? [])];
        // A restore brings a length back, a catch-up may lose one: streak leaderboards follow at once.
        return { write: await applyStreakChange(ctx, tenantId, engine, counted, changed.streak, events, now, false, changed.restored), result: changed.result };
      },
      { catchUp: dueWorkFirst(ctx, tenantId, engine) },
    );
    return { ok: true, result };
  } catch (error) {
    if (error instanceof DomainError && error.code !== "conflict") return { ok: false, message: error.message };
    throw error;
  }
}

/** Grants one freeze per listed user ID (a user listed twice gets two), up to the maximum. */
export async function grantStreakFreezes(ctx: ServiceContext, tenantId: string, userIds: string[]): Promise<BulkResult<string>> {
  const result: BulkResult<string> = { done: [], issues: [] };
  for (const userId of userIds) {
    const outcome = await changeStreak(ctx, tenantId, userId, (streak, _user, _now, settings) => {
      const granted = grantFreezes(streak, settings, 1);
      return { streak: granted.state, result: granted.granted };
    });
    if (!outcome.ok) result.issues.push({ userId, severity: "error", message: outcome.message });
    else if (outcome.result === 0) result.issues.push({ userId, severity: "warning", message: "Would exceed maximum freeze limit" });
    else result.done.push(userId);
  }
  return result;
}

/** Creates pauses; a start before today in the user's zone, or an end before the start, is an issue. */
export async function createStreakPauses(
  ctx: ServiceContext,
  tenantId: string,
  drafts: Array<{ userId: string; start: string; end: string }>,
): Promise<BulkResult<StreakPause & { userId: string }>> {
  const result: BulkResult<StreakPause & { userId: string }> = { done: [], issues: [] };
  const { streakPauseOwners } = ctx.database.collections;
  for (const draft of drafts) {
    const outcome = await changeStreak(ctx, tenantId, draft.userId, async (streak, user, now) => {
      const n = user.pausesCreated;
      // A state stored before pauses were counted keeps random IDs (an erasure finds its owners by a query).
      const pause = { id: n === null ? randomUUID() : pauseIdOf(tenantId, draft.userId, user.created, n), start: draft.start, end: draft.end };
      const next = addPause(streak, pause, user.tzHistory, now);
      // The owner before the write that adds the pause; a refused pause records none.
      await recordPauseOwner(streakPauseOwners, tenantId, pause.id, draft.userId);
      return { streak: next, result: pause, ...(n !== null && { pausesCreated: n + 1 }) };
    });
    if (outcome.ok) result.done.push({ ...outcome.result, userId: draft.userId });
    else result.issues.push({ userId: draft.userId, severity: "error", message: outcome.message });
  }
  return result;
}

/** Deletes pauses by ID, wherever (whichever user of the tenant) they are. */
export async function deleteStreakPauses(ctx: ServiceContext, tenantId: string, ids: string[]): Promise<BulkResult<{ id: string }>> {
  const result: BulkResult<{ id: string }> = { done: [], issues: [] };
  for (const id of ids) {
    const { streakPauseOwners } = ctx.database.collections;
    const holder = await findPauseOwner(streakPauseOwners, tenantId, id);
    const outcome = holder
      ? await changeStreak(ctx, tenantId, holder, (streak) => {
          const removed = removePause(streak, id);
          return { streak: removed.state, result: removed.removed };
        })
      : { ok: true as const, result: false };
    if (outcome.ok && holder) await forgetPauseOwner(streakPauseOwners, tenantId, id);
    if (outcome.ok && outcome.result) result.done.push({ id });
    else result.issues.push({ id, severity: "error", message: outcome.ok ? "Pause not found by ID" : outcome.message });
  }
  return result;
}

/**
 * Changes each user's streak one by one; a user the change finds nothing to do for (`false`) is a
 * warning saying `nothing`, a user it cannot change an error.
 */
async function changeEachStreak(
  ctx: ServiceContext,
  tenantId: string,
  userIds: string[],
  nothing: string,
  change: Parameters<typeof changeStreak<boolean>>[3],
): Promise<BulkResult<string>> {
  const result: BulkResult<string> = { done: [], issues: [] };
  for (const userId of userIds) {
    const outcome = await changeStreak(ctx, tenantId, userId, change);
    if (!outcome.ok) result.issues.push({ userId, severity: "error", message: outcome.message });
    else if (!outcome.result) result.issues.push({ userId, severity: "warning", message: nothing });
    else result.done.push(userId);
  }
  return result;
}

/** Restores each user's streak to the length when last lost (continued by the run since). */
export function restoreStreaks(ctx: ServiceContext, tenantId: string, userIds: string[]): Promise<BulkResult<string>> {
  return changeEachStreak(ctx, tenantId, userIds, "No streak to restore", (streak, user, now, settings) => {
    // Their streak stays 0 while they keep it off (preferences).
    if (user.preferences?.streak?.enabled === false)
      throw new DomainError("unprocessable", "User has turned streaks off (preferences), so their streak stays 0");
    const restored = restoreStreak(streak, settings, user.tzHistory, now);
    return { streak: restored.state, result: restored.restored, events: restored.events, restored: restored.reached };
  });
}

/** Resets each user's streak to zero (the reference's reset call); a user without a streak is a warning. */
export function resetStreaks(ctx: ServiceContext, tenantId: string, userIds: string[]): Promise<BulkResult<string>> {
  return changeEachStreak(ctx, tenantId, userIds, "No streak to reset", (streak, user, now, settings) => {
    const reset = resetStreak(streak, settings, user.tzHistory, now);
    return { streak: reset.state, result: reset.reset, events: reset.events };
  });
}
