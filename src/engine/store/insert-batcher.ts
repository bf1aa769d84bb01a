import { MongoBulkWriteError, type Collection, type WriteError, type Document, type OptionalUnlessRequiredId } from "mongodb";

/**
 * Inserts into one collection, coalesced: the inserts asked for while the current turn of the event
 * loop runs go out as ONE unordered `insertMany`, and each caller learns the fate of its own
 * documents (a duplicate `_id` of one caller fails that caller alone, with the server's error code).
 * Callers that run side by side (the rankings of one event's leaderboards, the events of several
 * users) thus cost one round trip per collection instead of one each. Unordered inserts are
 * independent on MongoDB and FerretDB alike, so an insert used as a commit (a unique `_id`) keeps
 * its meaning.
 */
export type BatchedInsert<T extends Document> = (docs: ReadonlyArray<OptionalUnlessRequiredId<T>>) => Promise<void>;

interface Pending<T> {
  docs: ReadonlyArray<OptionalUnlessRequiredId<T>>;
  resolve(): void;
  reject(error: unknown): void;
}

export function batchInserts<T extends Document>(collection: Collection<T>): BatchedInsert<T> {
  let queue: Array<Pending<T>> = [];

  async function flush(): Promise<void> {
    const batch = queue;
    queue = [];
    const docs = batch.flatMap((p) => p.docs);
    try {
      await collection.insertMany(docs, { ordered: false });
      for (const p of batch) p.resolve();
    } catch (error) {
      if (!(error instanceof MongoBulkWriteError)) {
        for (const p of batch) p.reject(error);
        return;
      }
      // Each failed document's index in the batch names its caller.
      const failed = new Map<number, unknown>();
      const writeErrors: WriteError[] = [error.writeErrors].flat();
      for (const e of writeErrors) failed.set(e.index, Object.assign(new Error(e.errmsg ?? "insert failed"), { code: e.code }));
      let start = 0;
      for (const p of batch) {
        const own = [...failed.entries()].find(([index]) => index >= start && index < start + p.docs.length);
        start += p.docs.length;
        if (own) p.reject(own[1]);
        else p.resolve();
      }
    }
  }

  return (docs) =>
    new Promise<void>((resolve, reject) => {
      if (docs.length === 0) return resolve();
      if (queue.length === 0) setImmediate(() => void flush());
      queue.push({ docs, resolve, reject });
    });
}
