import type { Collection, Document, Filter, UpdateFilter, WithoutId } from "mongodb";
import type { KeyedLock } from "./keyed-lock.js";
import type { WriteMode } from "./user-documents.js";

/**
 * Writes a document by `_id` only if it still has the `expected` field values (a version, an
 * owner, ...); false when it changed meanwhile (or is gone).
 * - "versioned" (MongoDB): the expected values go into the filter, atomic and served by `_id`.
 * - "single-instance" (FerretDB, one process): a filter with more than `_id` is a scan there and
 *   not atomic anyway, so under this process's lock of the document it is read by `_id`, checked,
 *   and written by `_id` alone.
 */
export async function writeIfCurrent<T extends Document & { _id: string }>(
  collection: Collection<T>,
  mode: WriteMode,
  locks: KeyedLock,
  id: string,
  expected: Partial<T>,
  write: { replacement: WithoutId<T> | T } | { update: UpdateFilter<T> },
): Promise<boolean> {
  const apply = (filter: Filter<T>) => ("replacement" in write ? collection.replaceOne(filter, write.replacement) : collection.updateOne(filter, write.update));
  if (mode === "versioned") return (await apply({ _id: id, ...expected })).matchedCount === 1;
  return locks.run(documentLock(collection, id), async () => {
    const current = (await collection.findOne({ _id: id } as Filter<T>)) as Record<string, unknown> | null;
    // A missing field is null, as MongoDB's `{field: null}` filter of the versioned mode matches it.
    if (!current || Object.entries(expected).some(([field, value]) => !sameValue(current[field] ?? null, value))) return false;
    return (await apply({ _id: id } as Filter<T>)).matchedCount === 1;
  });
}

function sameValue(a: unknown, b: unknown): boolean {
  return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
}

/**
 * The key of this process's lock of one document, which `writeIfCurrent` takes in single-instance
 * mode: another write of the same document that must not land between its read and its write takes it too.
 */
export function documentLock(collection: Pick<Collection, "collectionName">, id: string): string {
  return `${collection.collectionName}:${id}`;
}
