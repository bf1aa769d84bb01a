import { isDeepStrictEqual } from "node:util";
import { LRUCache } from "lru-cache";
import type { Collection } from "mongodb";
import { createUserState, type UserState } from "../domain/user.js";
import { decodeUserState, encodeUserState, packUserFields, unpackUserFields, type PackedUserFields, type StoredUserState } from "./user-encoding.js";
import { storePages, type PageIndex, type UserPageDocument } from "./list-pages.js";
import { rotatePagedLists } from "./user-pages.js";
import { createStandingsRegistry, forgetStandings, noteDeleted, noteWritten, standingOf, type StandingsRegistry } from "./tenant-standings.js";

/**
 * One document per user and tenant: the user's whole game state, packed (`s`, `p` and `e`, laid out as
 * engine/store/user-encoding.ts describes), plus a version for compare-and-set. The older part of
 * its long lists (awards, rank history, streak periods) is kept in pages of its own (`pages` names
 * them; `rotatePagedLists`). Documents written before the state was packed hold the stored state's
 * fields at the top level instead; they read the same, and their next write packs them.
 */
export interface UserDocument extends Partial<PackedUserFields> {
  _id: string;
  tenantId: string;
  /** The user's ID, outside the packed state for listing the users stored before `tenant_users` (engine/store/tenant-users.ts). */
  userId: string;
  version: number;
  pages?: PageIndex;
  /** The stored state's fields, in documents written before it was packed. */
  [earlierField: string]: unknown;
}

/** The document fields that are not the user's state. */
const DOCUMENT_FIELDS = new Set(["_id", "tenantId", "userId", "version", "pages", "s", "p", "e"]);

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
  /** Stored before the state was packed: these top-level fields, which the next write unsets as it packs the state. */
  unpackedFields?: string[];
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

/** A state's packed fields, kept per state: the state a write starts from is the one the last write packed. */
const packedStates = new WeakMap<UserState, PackedUserFields>();

function packedFieldsOf(state: UserState): PackedUserFields {
  let packed = packedStates.get(state);
  if (!packed) packedStates.set(state, (packed = packUserFields(encodeUserState(state))));
  return packed;
}

/** The stored document of a user's state at a version. */
export function userDocument(tenantId: string, state: UserState, version = 1): UserDocument {
  const { s, p, e } = packedFieldsOf(state);
  return { _id: userDocumentId(tenantId, state.userId), tenantId, userId: state.userId, version, s, p, ...(Object.keys(e).length > 0 && { e }) };
}

/** How many users a walk over a tenant's users reads at once. */
const WALK_READS = 32;

/**
 * The stored states of a tenant's users, `userIds` from its listing (engine/store/tenant-users.ts):
 * those the cache holds as they are (encoded: their encodings are remembered from their last
 * write), the others read by `_id`, a few at a time (an aggregate read, never on a hot path),
 * without what accumulates: packed states without their entries (`e`), documents stored before
 * states were packed with `fields` only. A listed user without a document is skipped.
 */
export async function* storedStatesOfTenant(
  users: Collection<UserDocument>,
  tenantId: string,
  userIds: readonly string[],
  fields: readonly string[],
): AsyncGenerator<{ userId: string; stored: StoredUserState }> {
  const cache = caches.get(users);
  const unread: string[] = [];
  for (const id of userIds) {
    // `peek`: a walk does not make every user recently used.
    const cached = cache?.peek(userDocumentId(tenantId, id));
    if (cached) yield { userId: id, stored: encodeUserState(cached.state) };
    else unread.push(id);
  }
  const projection: Record<string, 0 | 1> = { _id: 0, s: 1, p: 1 };
  for (const field of fields) projection[field] = 1;
  for (let from = 0; from < unread.length; from += WALK_READS) {
    const ids = unread.slice(from, from + WALK_READS);
    const docs = await Promise.all(ids.map((id) => users.findOne({ _id: userDocumentId(tenantId, id) }, { projection })));
    for (const [i, doc] of docs.entries()) if (doc) yield { userId: ids[i]!, stored: storedStateOf(doc) };
  }
}

/** The stored state of a document, packed or in a layout from before (`decodeUserState` reads either). */
export function storedStateOf(doc: Partial<UserDocument>): StoredUserState {
  if (typeof doc.s === "string") return unpackUserFields({ s: doc.s, p: doc.p, e: doc.e });
  const stored: StoredUserState = {};
  // `dueMinute` and `outboxPending` were stored by earlier versions; they are not state.
  for (const [field, value] of Object.entries(doc))
    if (!DOCUMENT_FIELDS.has(field) && field !== "dueMinute" && field !== "outboxPending") stored[field] = value;
  return stored;
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

/**
 * Turns the cache on for a collection written in single-instance mode, bounded by a count of users
 * and by an estimate of the memory their states take (`maxBytes`): a user with years of history
 * takes ten times a new one's. 0 entries turns it off.
 */
export function cacheUsers(users: Collection<UserDocument>, maxEntries: number, maxBytes: number): void {
  if (maxEntries > 0) caches.set(users, new LRUCache({ max: maxEntries, maxSize: maxBytes, sizeCalculation: (user) => estimatedMemory(user.state) }));
  else caches.delete(users);
}

/** Single-instance mode: the tenants' standings kept in memory (engine/store/tenant-standings.ts), told of every write below. */
const standings = new WeakMap<Collection<UserDocument>, StandingsRegistry>();

export function keepStandings(users: Collection<UserDocument>): void {
  standings.set(users, createStandingsRegistry());
}

/** The standings kept for a collection's users; undefined in versioned mode (other instances write too). */
export function standingsOf(users: Collection<UserDocument>): StandingsRegistry | undefined {
  return standings.get(users);
}

/**
 * A cached state's memory, estimated from its packed size: measured on full-profile users of 1 to
 * 700 days of events, a decoded state takes 1.9 to 3.9 times its packed characters (13 KB for a new
 * user, 140 KB after two years).
 */
const MEMORY_PER_PACKED_CHARACTER = 4;

function estimatedMemory(state: UserState): number {
  const { s, p, e } = packedFieldsOf(state);
  let characters = s.length + p.length;
  for (const [key, entry] of Object.entries(e)) characters += key.length + entry.length;
  return Math.max(1, characters * MEMORY_PER_PACKED_CHARACTER);
}

/** Forgets cached users of a tenant (its data was deleted). */
export function forgetCachedTenant(users: Collection<UserDocument>, tenantId: string): void {
  forgetStandings(standings.get(users), tenantId);
  const cache = caches.get(users);
  if (!cache) return;
  for (const key of [...cache.keys()]) if (key.startsWith(`${tenantId}/`)) cache.delete(key);
}

/** Deletes a user's document (and forgets it in the cache); true when it existed. */
export async function deleteUserDocument(users: Collection<UserDocument>, tenantId: string, userId: string): Promise<boolean> {
  const _id = userDocumentId(tenantId, userId);
  caches.get(users)?.delete(_id);
  let result;
  try {
    result = await users.deleteOne({ _id });
  } catch (error) {
    forgetStandings(standings.get(users), tenantId);
    throw error;
  }
  caches.get(users)?.delete(_id);
  noteDeleted(standings.get(users), tenantId, userId);
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

/**
 * The loaded user with a state derived from theirs before any decision (values that are not the
 * user's taken out): its next write diffs against what the document holds, so it writes what was
 * taken out.
 */
export function withLoadedState(loaded: VersionedUser, state: UserState): VersionedUser {
  if (state === loaded.state) return loaded;
  packedStates.set(state, packedFieldsOf(loaded.state));
  return { ...loaded, state };
}

/** The user as stored in the database, past any cache. */
export async function readStoredUser(users: Collection<UserDocument>, tenantId: string, userId: string): Promise<VersionedUser | null> {
  const doc = await users.findOne({ _id: userDocumentId(tenantId, userId) });
  if (!doc) return null;
  const stored = storedStateOf(doc);
  // Fields added after a document was written take their defaults; what was counted only since is unknown.
  const state = { ...createUserState(userId, stored.created as Date), idempotencyMoves: null, pausesCreated: null, ...decodeUserState(stored) };
  // The next write diffs against what the document holds, or packs a document stored before.
  const unpacked: string[] = [];
  if (typeof doc.s === "string") packedStates.set(state, { s: doc.s, p: doc.p ?? "", e: doc.e ?? {} });
  else for (const field of Object.keys(doc)) if (!DOCUMENT_FIELDS.has(field)) unpacked.push(field);
  const { version, pages } = doc;
  return {
    state,
    version,
    ...(unpacked.length > 0 && { unpackedFields: unpacked }),
    ...(pages && Object.keys(pages).length > 0 && { pages }),
  };
}

/**
 * What changed between two states, as `$set` and `$unset` paths of the document: the packed rest
 * `s` and profile `p` when they differ, and each entry of `e` that was added, changed or dropped, so a write sends
 * what an event changed, never the user's whole history. `unpackedFields`: the top-level fields of
 * a document stored before the state was packed, unset as the write packs it (`e` is then set whole).
 */
export function userChanges(
  before: UserState,
  after: UserState,
  unpackedFields: readonly string[] = [],
): { set: Record<string, unknown>; unset: Record<string, ""> } {
  const set: Record<string, unknown> = {};
  const unset: Record<string, ""> = {};
  const old = packedFieldsOf(before);
  const next = packedFieldsOf(after);
  if (unpackedFields.length > 0) {
    set.s = next.s;
    set.p = next.p;
    if (Object.keys(next.e).length > 0) set.e = next.e;
    for (const field of unpackedFields) unset[field] = "";
    return { set, unset };
  }
  if (old.s !== next.s) set.s = next.s;
  if (old.p !== next.p) set.p = next.p;
  for (const key of Object.keys(old.e)) if (!(key in next.e)) unset[`e.${key}`] = "";
  for (const [key, value] of Object.entries(next.e)) if (old.e[key] !== value) set[`e.${key}`] = value;
  return { set, unset };
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
    if (version !== null) {
      cache?.set(_id, freezeState({ state: rotated.state, version, ...(rotated.index && { pages: rotated.index }) }));
      noteWritten(standings.get(users), tenantId, next.userId, () => standingOf(rotated.state));
    } else cache?.delete(_id);
    return version !== null;
  } catch (error) {
    // The write may or may not have happened: the next load reads the database.
    cache?.delete(_id);
    forgetStandings(standings.get(users), tenantId);
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
  const { set, unset } = userChanges(previous.state, next, previous.unpackedFields);
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
