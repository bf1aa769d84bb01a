import { vi } from "vitest";

/** Runs `body` with the process clock (`Date`) stopped; `moveOn(ms)` moves it on. Timers still run in real time. */
export async function onStoppedClock<T>(body: (moveOn: (ms: number) => void) => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"] });
  try {
    return await body((ms) => vi.setSystemTime(Date.now() + ms));
  } finally {
    vi.useRealTimers();
  }
}
