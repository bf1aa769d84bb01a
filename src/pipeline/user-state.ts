import { DomainError } from "../domain/errors.js";
import type { UserState } from "../domain/user.js";
import { findUser, saveUser, type VersionedUser } from "../store/users.js";
import type { ServiceContext } from "./context.js";
import { handOverMessages, OUTBOX_LIMIT } from "./webhook-outbox.js";

/** What a change decides: the next state to write (or none) and the result to return. */
export type UserChange<T> = { write: UserState; result: T } | { write: null; result: T };

/** How often a version conflict (another instance wrote the user meanwhile) is retried. */
const MAX_ATTEMPTS = 10;

/**
 * Changes one user's state safely: under the user's lock (one writer per user in this process),
 * load, decide, and write with the version that was read, so writers on other instances never
 * overwrite each other; a conflict reloads and decides again. `decide` must be free of side effects
 * other than what it returns, since it may run more than once.
 *
 * Webhook messages ride in the written state's outbox (see pipeline/webhook-outbox.ts). Should the
 * stored outbox have grown to OUTBOX_LIMIT (the worker is behind), this write hands the stored,
 * committed messages over itself before dropping them, which keeps the document small.
 */
export async function changeUserState<T, P = undefined>(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  decide: (stored: VersionedUser | null, now: Date, prefetched: P) => Promise<UserChange<T>>,
  /** A read to run in parallel with loading the user (saves a round trip). */
  prefetch: () => Promise<P> = async () => undefined as P,
): Promise<T> {
  return ctx.userLocks.run(`${tenantId}/${userId}`, async () => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const [stored, prefetched] = await Promise.all([findUser(ctx.database.collections.users, tenantId, userId), prefetch()]);
      const now = ctx.now();
      const change = await decide(stored, now, prefetched);
      if (change.write === null) return change.result;
      // Work already overdue (e.g. after a backfilled event) is due now: the scheduler only walks
      // forward from its cursor, so a due time in the past would never be visited.
      let write = change.write.dueAt && change.write.dueAt < now ? { ...change.write, dueAt: now } : change.write;
      if (stored && stored.state.outbox.length >= OUTBOX_LIMIT) {
        // Only messages already committed may be handed over before the write; this call's own are not yet.
        const committed = new Set(stored.state.outbox.map((m) => m.id));
        await handOverMessages(ctx, tenantId, write.outbox.filter((m) => committed.has(m.id)));
        write = { ...write, outbox: write.outbox.filter((m) => !committed.has(m.id)) };
      }
      await ctx.atPipelinePoint?.("before-user-write", attempt);
      if (await saveUser(ctx.database.collections.users, tenantId, write, stored?.version ?? 0)) {
        await ctx.atPipelinePoint?.("after-user-write", attempt);
        if (write.outbox.length > 0) ctx.wakeWebhooks?.();
        return change.result;
      }
    }
    throw new DomainError("conflict", "The user was modified concurrently too many times; retry the request");
  });
}
