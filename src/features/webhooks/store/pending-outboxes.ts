import type { Collection } from "mongodb";
import type { WriteMode } from "../../../engine/store/user-documents.js";

/**
 * Users whose outbox holds webhook messages not yet handed over to delivery: one small document
 * per such user, `_id` = `tenant/user`. The collection holds pending work only (a marker is removed
 * once the outbox is drained), so the webhook worker may read it whole, however many users there are.
 *
 * `version` is the user version whose write added messages. A drain removes the marker only up to
 * the version it drained, so messages added meanwhile by another instance (versioned mode) keep it.
 */
export interface PendingOutboxDocument {
  _id: string;
  tenantId: string;
  userId: string;
  version: number;
}

/** Written BEFORE the user write that adds messages: a crash in between leaves a marker, never a lost outbox. */
export async function markOutboxPending(markers: Collection<PendingOutboxDocument>, tenantId: string, userId: string, version: number): Promise<void> {
  await markers.updateOne({ _id: `${tenantId}/${userId}` }, { $max: { version }, $setOnInsert: { tenantId, userId } }, { upsert: true });
}

/** Removes the marker once the outbox is empty as of `drainedVersion`. */
export async function clearOutboxPending(
  markers: Collection<PendingOutboxDocument>,
  tenantId: string,
  userId: string,
  drainedVersion: number,
  mode: WriteMode,
): Promise<void> {
  const _id = `${tenantId}/${userId}`;
  // Single instance: the user's lock is held, no one can add messages meanwhile; a plain `_id` delete.
  await markers.deleteOne(mode === "versioned" ? { _id, version: { $lte: drainedVersion } } : { _id });
}

export async function findPendingOutboxes(markers: Collection<PendingOutboxDocument>, limit: number): Promise<Array<{ tenantId: string; userId: string }>> {
  return markers
    .find({}, { projection: { tenantId: 1, userId: 1 } })
    .limit(limit)
    .toArray();
}
