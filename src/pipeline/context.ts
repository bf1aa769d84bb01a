import type { ConfigCache } from "../store/config-cache.js";
import type { Database } from "../store/database.js";
import type { KeyedLock } from "../store/keyed-lock.js";

/** What the use cases need from the outside world; tests pass their own clock. */
export interface ServiceContext {
  database: Database;
  config: ConfigCache;
  userLocks: KeyedLock;
  now: () => Date;
}
