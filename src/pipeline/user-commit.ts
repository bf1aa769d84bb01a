import type { UserState } from "../domain/user.js";
import { saveUser, type VersionedUser } from "../store/users.js";
import type { ServiceContext } from "./context.js";
import { handOverMessages, OUTBOX_LIMIT } from "./webhook-outbox.js";

/**
 * Writes a user's next state after `stored` (null: a new user), with everything that must be
 * stored with it. Returns false on a version conflict (another instance wrote the user meanwhile):
 * the caller reloads and decides again. Called under the user's lock.
 *
 * Should the stored outbox have grown to OUTBOX_LIMIT (the worker is behind), this write hands the
 * stored, committed messages over itself before dropping them, which keeps the document small.
 */
export async function commitUserChange(ctx: ServiceContext, tenantId: string, stored: VersionedUser | null, next: UserState, attempt: number): Promise<boolean> {
  const now = ctx.now();
  // Work already overdue (e.g. after a backfilled event) is due now: the scheduler only walks
  // forward from its cursor, so a due time in the past would never be visited.
  let write = next.dueAt && next.dueAt < now ? { ...next, dueAt: now } : next;
  if (stored && stored.state.outbox.length >= OUTBOX_LIMIT) {
    // Only messages already committed may be handed over before the write; this call's own are not yet.
    const committed = new Set(stored.state.outbox.map((m) => m.id));
    await handOverMessages(ctx, tenantId, write.outbox.filter((m) => committed.has(m.id)));
    write = { ...write, outbox: write.outbox.filter((m) => !committed.has(m.id)) };
  }
  await ctx.atPipelinePoint?.("before-user-write", attempt);
  if (!(await saveUser(ctx.database.collections.users, tenantId, write, stored?.version ?? 0))) return false;
  await ctx.atPipelinePoint?.("after-user-write", attempt);
  if (write.outbox.length > 0) ctx.wakeWebhooks?.();
  return true;
}
