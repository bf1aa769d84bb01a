import { applyTimeTriggers } from "../domain/points.js";
import { nextDueAt } from "../domain/reactions.js";
import { catchUpStreak } from "../domain/streak.js";
import type { ServiceContext } from "./context.js";
import { loadEngineConfig } from "./engine-config.js";
import type { DueUserWork } from "./scheduler.js";
import { changeUserState } from "./user-state.js";

/**
 * The time-driven work of one user, run by the scheduler when it is due: the streak is brought up
 * to now (a missed period consumes a freeze or loses the streak; freezes are earned) and
 * time-triggered points are paid; then the next due time is stored. Idempotent: it recomputes from
 * the stored state and now, so running it twice changes nothing the second time.
 */
export const runDueWork: DueUserWork = async (ctx: ServiceContext, tenantId: string, userId: string) => {
  const engine = await loadEngineConfig(ctx, tenantId);
  await changeUserState(ctx, tenantId, userId, async (stored, now) => {
    if (!stored) return { write: null, result: undefined };
    let state = stored.state;
    if (engine.streak && state.streak) state = { ...state, streak: catchUpStreak(state.streak, engine.streak, state.tzHistory, now).state };
    state = { ...state, points: applyTimeTriggers(state.points, engine.points, state, now, engine.newId).states };
    state.dueAt = nextDueAt(state, engine);
    return { write: state, result: undefined };
  });
};
