/**
 * The promise's value, or `fallback` when it has not settled within `ms`: for probes that must
 * answer in bounded time even when the database hangs (it keeps running; a late outcome, a
 * rejection included, is ignored).
 */
export async function settledWithin<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(resolve, ms, fallback);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
