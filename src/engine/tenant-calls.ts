/**
 * The API calls in progress per tenant in this process. A tenant's deletion waits for the calls that
 * resolved the tenant before it was marked, so none of them writes after its data is gone (a
 * user left behind in a deleted tenant). Calls that start after the mark no longer find the tenant.
 */
export class TenantCalls {
  private readonly running = new Map<string, { count: number; idle: Array<() => void> }>();

  /** Runs a call of the tenant, counted while it runs. */
  async run<T>(tenantId: string, call: () => Promise<T>): Promise<T> {
    let entry = this.running.get(tenantId);
    if (!entry) this.running.set(tenantId, (entry = { count: 0, idle: [] }));
    entry.count++;
    try {
      return await call();
    } finally {
      if (--entry.count === 0) {
        this.running.delete(tenantId);
        for (const wake of entry.idle) wake();
      }
    }
  }

  /** Resolves true once no call of the tenant runs, or false after `timeoutMs` (a call that hangs). */
  drained(tenantId: string, timeoutMs: number): Promise<boolean> {
    const entry = this.running.get(tenantId);
    if (!entry) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      entry.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Calls of the tenant running now. */
  count(tenantId: string): number {
    return this.running.get(tenantId)?.count ?? 0;
  }
}
