import { DomainError } from "../domain/errors.js";
import type { UserState } from "../domain/user.js";
import { findUser, type VersionedUser } from "../store/users.js";
import type { ServiceContext } from "./context.js";
import { commitUserChange } from "./user-commit.js";

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
 * The write itself, with what must be stored alongside it, is `commitUserChange` (user-commit.ts).
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
      if (await commitUserChange(ctx, tenantId, stored, change.write, attempt)) return change.result;
    }
    throw new DomainError("conflict", "The user was modified concurrently too many times; retry the request");
  });
}
