import type { Collection } from "mongodb";
import { v5 as uuidFromName } from "uuid";
import type { UserState } from "../../../engine/domain/user.js";

/**
 * Which user holds a streak pause, by pause ID: `_id` = `tenantId/pauseId`. Deleting pauses by ID
 * reads it instead of searching every user's pauses (a scan of users).
 */
export interface StreakPauseOwnerDocument {
  _id: string;
  tenantId: string;
  userId: string;
}

const ownerId = (tenantId: string, pauseId: string) => `${tenantId}/${pauseId}`;

/** Written before the user write that adds the pause, so a pause never exists without its owner. */
export async function recordPauseOwner(owners: Collection<StreakPauseOwnerDocument>, tenantId: string, pauseId: string, userId: string): Promise<void> {
  await owners.replaceOne({ _id: ownerId(tenantId, pauseId) }, { tenantId, userId }, { upsert: true });
}

export async function findPauseOwner(owners: Collection<StreakPauseOwnerDocument>, tenantId: string, pauseId: string): Promise<string | null> {
  return (await owners.findOne({ _id: ownerId(tenantId, pauseId) }))?.userId ?? null;
}

export async function forgetPauseOwner(owners: Collection<StreakPauseOwnerDocument>, tenantId: string, pauseId: string): Promise<void> {
  await owners.deleteOne({ _id: ownerId(tenantId, pauseId) });
}

/** The namespace of pause IDs (a random UUID, fixed: changing it would change every future ID). */
const PAUSE_ID_NAMESPACE = "3f0c5bd4-27a8-4c4b-9a55-6f8e1f0d2b71";

/**
 * The ID of the user's pause number `n` (their `pausesCreated` before it): a name-based UUID of the
 * user (and when they were created: a user erased and seen again gets new IDs), so the owner
 * documents of every pause a user had follow from their document alone. A creation a crash stopped
 * before the user write is made again under the same number, and the same ID.
 */
export function pauseIdOf(tenantId: string, userId: string, created: Date, n: number): string {
  return uuidFromName(JSON.stringify([tenantId, userId, created.getTime(), n]), PAUSE_ID_NAMESPACE);
}

/**
 * The IDs of every pause a user may have had: their `pausesCreated` and the one a creation a crash
 * stopped may have left past them; null for a state stored before pauses were counted.
 */
export function pauseIdsOf(tenantId: string, user: Pick<UserState, "userId" | "created" | "pausesCreated">): string[] | null {
  if (user.pausesCreated === null) return null;
  return Array.from({ length: user.pausesCreated + 1 }, (_, n) => pauseIdOf(tenantId, user.userId, user.created, n));
}

/** Deletes the owner documents of a user's pauses (an erasure): by `_id`, or for `pauseIds` null by a query on the user (a scan on FerretDB). */
export async function forgetPauseOwnersOf(
  owners: Collection<StreakPauseOwnerDocument>,
  tenantId: string,
  userId: string,
  pauseIds: readonly string[] | null,
): Promise<void> {
  if (pauseIds === null) {
    await owners.deleteMany({ tenantId, userId });
    return;
  }
  if (pauseIds.length === 0) return;
  await owners.bulkWrite(
    pauseIds.map((id) => ({ deleteOne: { filter: { _id: ownerId(tenantId, id) } } })),
    { ordered: false },
  );
}
