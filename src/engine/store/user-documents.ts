import { isDeepStrictEqual } from "node:util";
import { LRUCache } from "lru-cache";
import type { Collection } from "mongodb";
import { createUserState, type UserState } from "../domain/user.js";
import { decodeUserState, derivedFieldsStored, encodeUserState, PATH_SEGMENT, type StoredUserState } from "./user-encoding.js";
import { storePages, type PageIndex, type UserPageDocument } from "./list-pages.js";
import { rotatePagedLists } from "./user-pages.js";

/**
 * One document per user and tenant: the user's whole game state (laid out as engine/store/user-encoding.ts
 * describes) plus a version for compare-and-set. The older part of its long lists (awards, rank
 * history, streak periods) is kept in pages of its own (`pages` names them; `rotatePagedLists`).
 */
export interface UserDocument extends StoredUserState {
  _id: string;
  tenantId: string;
  version: number;
  pages?: PageIndex;
}

/**
 * How user writes are made safe.
 * - "versioned" (MongoDB): the write names the version it read (`{_id, version}`, atomic and served
 *   by the `_id` index there), so instances sharing the database never overwrite each other.
 * - "single-instance" (FerretDB): FerretDB pushes down only a plain `_id` filter and applies an
 *   update as a read then a write, so a version in the filter costs a scan of every user and still
 *   is not atomic. One instance holds the database (workers/store/instance-lease.ts), its per-user lock
 *   serializes writers, and writes name the `_id` alone.
 */
export type WriteMode = "versioned" | "single-instance";

/** The scheduler's bucket of an instant: whole minutes since the epoch. */
export function minuteOf(at: Date): number {
  return Math.floor(at.getTime() / 60_000);
}

export interface VersionedUser {
  state: UserState;
  /** 0 when the user does not exist yet. */
  version: number;
  /** Stored in an earlier layout (lists as arrays): the next write replaces changed fields whole. */
  earlierLayout?: boolean;
  /** Fields stored explicitly that the layout now derives (`derivedFieldsStored`): the next write unsets them. */
  derivedStored?: string[];
  /**
   * The pages holding the older items of the state's paged lists (absent: none). The state holds
   * only each list's recent items; reads that show more call `withPagedItems` (engine/store/user-pages.ts).
   */
  pages?: PageIndex;
}

/** Tenant IDs never contain "/", so the pair is unambiguous. */
export function userDocumentId(tenantId: string, userId: string): string {
  return `${tenantId}/${userId}`;
}

/** The stored document of a user's state at a version. */
export function userDocument(tenantId: string, state: UserState, version = 1): UserDocument {
  return { ...encodeUserState(state), _id: userDocumentId(tenantId, state.userId), tenantId, version };
}

/**
 * Single-instance mode only: the latest written state of recently used users, so an event costs one
 * write and no read. It is exact because this instance is the database's only writer (the lease);
 * in versioned mode other instances write too, and every load reads the database. Entries are
 * dropped on any failed write, and bounded by count. A cached state is shared with the callers
 * that load it, not copied (copying every list of a user twice per event cost more than the
 * engine's own work on it): the engine builds each next state without changing the one it read,
 * and the cache freezes what it holds (`freezeState`), so code that changed a loaded state would
 * fail at once rather than change the cache.
 */
const caches = new WeakMap<Collection<UserDocument>, LRUCache<string, VersionedUser>>();

/** Turns the cache on for a collection written in single-instance mode; 0 entries turns it off. */
export function cacheUsers(users: Collection<UserDocument>, maxEntries: number): void {
  if (maxEntries > 0) caches.set(users, new LRUCache({ max: maxEntries }));
  else caches.delete(users);
}

/** Forgets cached users of a tenant (its data was deleted). */
export function forgetCachedTenant(users: Collection<UserDocument>, tenantId: string): void {
  const cache = caches.get(users);
  if (!cache) return;
  for (const key of [...cache.keys()]) if (key.startsWith(`${tenantId}/`)) cache.delete(key);
}

/** Deletes a user's document (and forgets it in the cache); true when it existed. */
export async function deleteUserDocument(users: Collection<UserDocument>, tenantId: string, userId: string): Promise<boolean> {
  const _id = userDocumentId(tenantId, userId);
  caches.get(users)?.delete(_id);
  const result = await users.deleteOne({ _id });
  caches.get(users)?.delete(_id);
  return result.deletedCount === 1;
}

export async function findUser(users: Collection<UserDocument>, tenantId: string, userId: string): Promise<VersionedUser | null> {
  const _id = userDocumentId(tenantId, userId);
  const cache = caches.get(users);
  const cached = cache?.get(_id);
  if (cached) return { ...cached };
  const found = await readStoredUser(users, tenantId, userId);
  if (found && cache) cache.set(_id, freezeState({ ...found }));
  return found;
}

/**
 * Freezes a cache entry (the state, the page index) and every object and array in it, but not what
 * is already frozen: a next state shares what an event left unchanged with the frozen one it was
 * built from, so only the new parts are walked. (Freezing leaves a Date's time settable; no code
 * sets one in place.)
 */
function freezeState<T>(value: T): T {
  // Bytes (a buffer's elements) cannot be frozen.
  if (typeof value !== "object" || value === null || Object.isFrozen(value) || ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) freezeState(inner);
  return value;
}

/** The user as stored in the database, past any cache. */
export async function readStoredUser(users: Collection<UserDocument>, tenantId: string, userId: string): Promise<VersionedUser | null> {
  const doc = await users.findOne({ _id: userDocumentId(tenantId, userId) });
  if (!doc) return null;
  // `dueMinute` and `outboxPending` were stored by earlier versions; they are not state.
  const { _id: _stored, tenantId: _tenant, version, dueMinute: _due, outboxPending: _pending, pages, ...stored } = doc;
  // Fields added after a document was written take their defaults.
  const state = { ...createUserState(userId, stored.created as Date), ...decodeUserState(stored) };
  const derived = derivedFieldsStored(stored, state);
  return {
    state,
    version,
    ...(isEarlierLayout(stored) && { earlierLayout: true }),
    ...(derived.length > 0 && { derivedStored: derived }),
    ...(pages && Object.keys(pages).length > 0 && { pages }),
  };
}

/** Lists an earlier version stored as arrays, now linked maps (see engine/store/user-encoding.ts). */
function isEarlierLayout(stored: Record<string, unknown>): boolean {
  const points = Object.values((stored.points ?? {}) as Record<string, { awardParts?: unknown }>);
  const boards = Object.values((stored.leaderboards ?? {}) as Record<string, { history?: unknown }>);
  const streak = stored.streak as { history?: unknown } | null | undefined;
  const metrics = Object.values((stored.metrics ?? {}) as Record<string, { daily?: Record<string, unknown> }>);
  const daysOneByOne = (daily: Record<string, unknown> | undefined) => Object.keys(daily ?? {}).some((key) => key.length !== 7);
  return (
    metrics.some((m) => daysOneByOne(m.daily)) ||
    Object.values((stored.points ?? {}) as Record<string, { daily?: Record<string, unknown> }>).some((p) => daysOneByOne(p.daily)) ||
    Array.isArray(stored.recentIdempotency) ||
    points.some((p) => p.awardParts === undefined) ||
    boards.some((b) => Array.isArray(b.history)) ||
    Array.isArray(streak?.history)
  );
}

/**
 * What changed between two states, as `$set` and `$unset` paths into the stored layout: the diff
 * goes down into nested maps (per metric, per day, per points system, per award, ...) as long as
 * their keys can be update paths, so a write sends what an event changed, never the user's whole
 * history. `wholeFields`: replace changed top-level fields whole (a document in an earlier layout).
 * `derivedStored`: paths the document holds that the layout now derives; unset unless the state
 * after holds them or a change replaces what contains them.
 */
export function userChanges(
  before: UserState,
  after: UserState,
  wholeFields = false,
  derivedStored: readonly string[] = [],
): { set: Record<string, unknown>; unset: Record<string, ""> } {
  const set: Record<string, unknown> = {};
  const unset: Record<string, ""> = {};
  const diff = (old: Record<string, unknown>, next: Record<string, unknown>, prefix: string, descend: boolean) => {
    for (const key of new Set([...Object.keys(old), ...Object.keys(next)])) {
      const a = old[key];
      const b = next[key];
      if (a === b) continue;
      const path = prefix + key;
      if (descend && isPlainObject(a) && isPlainObject(b) && [...Object.keys(a), ...Object.keys(b)].every((k) => PATH_SEGMENT.test(k))) {
        diff(a, b, `${path}.`, true);
      } else if (isDeepStrictEqual(a, b)) continue;
      else if (b === undefined) unset[path] = "";
      else set[path] = b;
    }
  };
  const stored = encodeUserState(after);
  diff(encodeUserState(before), stored, "", !wholeFields);
  const written = [...Object.keys(set), ...Object.keys(unset)];
  for (const path of derivedStored) {
    const held = path.split(".").reduce<unknown>((value, key) => (isPlainObject(value) ? value[key] : undefined), stored);
    if (held === undefined && !written.some((w) => w === path || path.startsWith(`${w}.`))) unset[path] = "";
  }
  return { set, unset };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * Writes the next state of a user read at `previous` (null: the user must not exist yet), sending
 * only what changed. A new user is an insert with a unique `_id`, atomic on every database. Returns
 * false on a conflict (versioned mode: another instance wrote the user since; the caller reloads and
 * applies again).
 */
export async function saveUser(
  users: Collection<UserDocument>,
  pages: Collection<UserPageDocument>,
  tenantId: string,
  previous: VersionedUser | null,
  next: UserState,
  mode: WriteMode,
  /** Rank history dated before this is not kept (the retention; null: kept by count only). */
  oldestRankDate: string | null = null,
): Promise<boolean> {
  const _id = userDocumentId(tenantId, next.userId);
  const cache = caches.get(users);
  try {
    // Pages first: the document that names them is written after them.
    const rotated = rotatePagedLists(next, previous?.pages, oldestRankDate);
    if (rotated.changes.length > 0) await storePages(pages, tenantId, next.userId, rotated.changes);
    const version = await writeUser(users, tenantId, previous, rotated.state, mode, rotated.index);
    if (version !== null) cache?.set(_id, freezeState({ state: rotated.state, version, ...(rotated.index && { pages: rotated.index }) }));
    else cache?.delete(_id);
    return version !== null;
  } catch (error) {
    // The write may or may not have happened: the next load reads the database.
    cache?.delete(_id);
    throw error;
  }
}

/** The version written (the stored one when nothing changed), or null on a conflict. */
async function writeUser(
  users: Collection<UserDocument>,
  tenantId: string,
  previous: VersionedUser | null,
  next: UserState,
  mode: WriteMode,
  pages: PageIndex | undefined,
): Promise<number | null> {
  if (!previous) {
    try {
      await users.insertOne({ ...userDocument(tenantId, next), ...(pages && { pages }) });
      return 1;
    } catch (error) {
      if ((error as { code?: unknown }).code === 11000) return null;
      throw error;
    }
  }
  const { set, unset } = userChanges(previous.state, next, previous.earlierLayout, previous.derivedStored);
  if (!isDeepStrictEqual(pages, previous.pages)) {
    if (pages) set.pages = pages;
    else unset.pages = "";
  }
  if (Object.keys(set).length === 0 && Object.keys(unset).length === 0) return previous.version;
  const _id = userDocumentId(tenantId, next.userId);
  const filter = mode === "versioned" ? { _id, version: previous.version } : { _id };
  const update = { $set: { ...set, version: previous.version + 1 }, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}) };
  const result = await users.updateOne(filter, update);
  return result.matchedCount === 1 ? previous.version + 1 : null;
}
