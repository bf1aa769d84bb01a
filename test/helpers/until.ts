import { setTimeout as sleep } from "node:timers/promises";

/** Polls a REST read until `predicate` holds (work done in the background); throws with the last body after `timeoutMs`. */
export async function until(read: () => Promise<{ body: any }>, predicate: (body: any) => boolean, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await read();
    if (predicate(body)) return body;
    if (Date.now() > deadline) throw new Error(`condition not met: ${JSON.stringify(body)}`);
    await sleep(100);
  }
}
