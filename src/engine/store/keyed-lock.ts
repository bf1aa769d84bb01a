/**
 * Runs tasks one at a time per key, in arrival order, and tasks of different keys in parallel.
 * The event pipeline takes one per user: FerretDB applies an update as a read then a write, so two
 * concurrent writes to one user document could lose one; inside one process they never overlap.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
