import type { Collection } from "mongodb";
import { createUserState, type UserState } from "../domain/user.js";

/** One document per user and tenant: the user's whole game state plus a version for compare-and-set. */
export interface UserDocument extends UserState {
  _id: string;
  tenantId: string;
  version: number;
  /** `dueAt` in whole minutes since the epoch, for the scheduler's equality lookups; null: nothing due. */
  dueMinute: number | null;
  /** True while the outbox holds webhook messages, for the webhook worker's equality lookup. */
  outboxPending: boolean;
}

/** The scheduler's bucket of an instant: whole minutes since the epoch. */
export function minuteOf(at: Date): number {
  return Math.floor(at.getTime() / 60_000);
}

export interface VersionedUser {
  state: UserState;
  /** 0 when the user does not exist yet. */
  version: number;
}

/** Tenant IDs never contain "/", so the pair is unambiguous. */
function userDocumentId(tenantId: string, userId: string): string {
  return `${tenantId}/${userId}`;
}

export async function findUser(users: Collection<UserDocument>, tenantId: string, userId: string): Promise<VersionedUser | null> {
  const doc = await users.findOne({ _id: userDocumentId(tenantId, userId) });
  if (!doc) return null;
  const { _id, tenantId: _tenant, version, dueMinute: _due, outboxPending: _pending, ...stored } = doc;
  // Fields added after a document was written take their defaults.
  return { state: { ...createUserState(userId, stored.created), ...stored }, version };
}

/**
 * Writes the next state if the stored version is still `expectedVersion` (0: the user must not exist
 * yet). Returns false on a version conflict: another writer (another instance) got there first, and
 * the caller reloads and applies again.
 */
export async function saveUser(
  users: Collection<UserDocument>,
  tenantId: string,
  state: UserState,
  expectedVersion: number,
): Promise<boolean> {
  const _id = userDocumentId(tenantId, state.userId);
  const doc: UserDocument = {
    ...state,
    _id,
    tenantId,
    version: expectedVersion + 1,
    dueMinute: state.dueAt ? minuteOf(state.dueAt) : null,
    outboxPending: state.outbox.length > 0,
  };
  if (expectedVersion === 0) {
    try {
      await users.insertOne(doc);
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === 11000) return false;
      throw error;
    }
  }
  const result = await users.replaceOne({ _id, version: expectedVersion }, doc);
  return result.matchedCount === 1;
}

/** Users with webhook messages in their outbox (an index lookup by equality). */
export async function findUsersWithOutbox(users: Collection<UserDocument>, limit: number): Promise<Array<{ tenantId: string; userId: string }>> {
  return users.find({ outboxPending: true }, { projection: { tenantId: 1, userId: 1 } }).limit(limit).toArray();
}

/** Users whose time-driven work is due in the given minute (an index lookup by equality). */
export async function findUsersDueInMinute(users: Collection<UserDocument>, minute: number, limit: number): Promise<Array<{ tenantId: string; userId: string }>> {
  return users.find({ dueMinute: minute }, { projection: { tenantId: 1, userId: 1 } }).limit(limit).toArray();
}
