/**
 * The users erased on this instance, for the batches it is processing. A batch attempt reads its
 * events once; an erasure empties the stored events of batches not completed (privacy/erase-user.ts),
 * but the attempt in progress holds its own copy, and an event it recorded after the erasure would
 * create the user anew. The attempt takes a `mark` before it reads its events and drops the events
 * of users erased since. Bounded: the most recent erasures only (an attempt saves its progress and
 * lives a lease, 30 s by default, while erasures are rare).
 */
export class ErasedUsers {
  private sequence = 0;
  private readonly erased = new Map<string, number>();

  constructor(private readonly limit = 10_000) {}

  /** Where the erasures so far end: later ones are `erasedSince` it. */
  get mark(): number {
    return this.sequence;
  }

  note(tenantId: string, userId: string): void {
    const key = JSON.stringify([tenantId, userId]);
    this.erased.delete(key); // re-inserted last: the oldest go first
    this.erased.set(key, ++this.sequence);
    if (this.erased.size > this.limit) this.erased.delete(this.erased.keys().next().value!);
  }

  erasedSince(tenantId: string, userId: string, mark: number): boolean {
    return (this.erased.get(JSON.stringify([tenantId, userId])) ?? 0) > mark;
  }
}
