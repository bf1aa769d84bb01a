/**
 * The process clock: real time, for what is about processes rather than the game. Everything the
 * game dates (events, streak days, created/updated, due work, leases on game work) takes the
 * injected clock (`ServiceContext.now`, which tests move); this one serves only:
 * - grace periods of writes still in flight (a queue or ready marker written just before the
 *   document it points at), and retention for readers still reading an old rankings version;
 * - the instance lease (a crashed process's lease runs out in real time);
 * - in-memory cache lifetimes.
 * A test that moves the game a day ahead must not make a marker written a millisecond ago look
 * stale, so these never follow the injected clock. Pure elapsed-time measurements (request
 * durations, startup timeouts) use `performance.now()`/`Date.now()` where they are measured.
 */
export function processNow(): Date {
  return new Date();
}

/** `processNow()` in milliseconds since the epoch. */
export function processNowMs(): number {
  return Date.now();
}
