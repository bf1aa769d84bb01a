import type { Collection } from "mongodb";
import type { IdempotencyRecord } from "../domain/idempotency.js";

/** Idempotency records moved out of user documents; `_id` is `tenantId/userId/recordId`. */
export interface IdempotencyDocument extends Omit<IdempotencyRecord, "id"> {
  _id: string;
  tenantId: string;
  userId: string;
}

function documentId(tenantId: string, userId: string, recordId: string): string {
  return `${tenantId}/${userId}/${recordId}`;
}

export async function findIdempotencyRecord(
  records: Collection<IdempotencyDocument>,
  tenantId: string,
  userId: string,
  recordId: string,
): Promise<IdempotencyRecord | null> {
  const doc = await records.findOne({ _id: documentId(tenantId, userId, recordId) });
  if (!doc) return null;
  const { _id, tenantId: _t, userId: _u, ...record } = doc;
  return { id: recordId, ...record };
}

/** Stores records; idempotent (upserts by ID), so a retry after a crash completes instead of doubling. */
export async function saveIdempotencyRecords(
  records: Collection<IdempotencyDocument>,
  tenantId: string,
  userId: string,
  batch: IdempotencyRecord[],
): Promise<void> {
  if (batch.length === 0) return;
  await records.bulkWrite(
    batch.map(({ id, ...record }) => ({
      replaceOne: {
        filter: { _id: documentId(tenantId, userId, id) },
        replacement: { _id: documentId(tenantId, userId, id), tenantId, userId, ...record },
        upsert: true,
      },
    })),
    { ordered: false },
  );
}
