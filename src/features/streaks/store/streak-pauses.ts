import type { Collection } from "mongodb";

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
