// Load generation shared by the benchmarks: closed loops and latency percentiles.

export interface Driven {
  events: number;
  errors: number;
  firstError?: string;
  seconds: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Runs `concurrency` closed-loop workers (each waits for its answer before the next call) until the
 * deadline, and at least `minCalls` calls each; `stop` ends them early (Ctrl-C).
 */
export async function drive(
  concurrency: number,
  durationS: number,
  minCalls: number,
  call: (worker: number, i: number) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<Driven> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const end = start + durationS * 1000;
  const worker = async (w: number) => {
    for (let i = 0; !stop() && (i < minCalls || performance.now() < end); i++) {
      const t0 = performance.now();
      try {
        await call(w, i);
        latencies.push(performance.now() - t0);
      } catch (error) {
        errors++;
        firstError ??= (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)] ?? NaN;
  return { events: latencies.length, errors, firstError, seconds: elapsed, eventsPerSecond: latencies.length / elapsed, p50Ms: pct(50), p99Ms: pct(99) };
}

/** The server's URI with driver command monitoring turned on. */
export function monitoredUriOf(serverUri: string): string {
  return serverUri + (serverUri.includes("?") ? "&" : /^mongodb(\+srv)?:\/\/[^/]*$/.test(serverUri) ? "/?" : "?") + "monitorCommands=true";
}
