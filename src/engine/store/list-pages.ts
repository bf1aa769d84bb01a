import type { AnyBulkWriteOperation, Collection } from "mongodb";
import { packList, unpackList } from "./user-encoding.js";

/**
 * The older part of a long list of a user's state, kept in pages of its own so the user document
 * holds only the recent part (its TAIL) however long the user's history is. FerretDB reads and
 * rewrites a whole document on every update, so a document that carries a hundred awards per
 * points system costs several times the database CPU of one that carries a few dozen.
 *
 * A list named `key` (e.g. `awards:<points system ID>`) has pages `first` .. `next - 1`, each of
 * PAGE_SIZE items in order, oldest first, then the tail in the user document. When a write's tail
 * grows past TAIL_MAX items, its oldest PAGE_SIZE items move to page `next`; pages no longer needed
 * to show `keep` items are deleted. A page's content is a function of the tail it was cut from, so
 * writers that start from the same stored state write the same pages (a writer that loses a version
 * conflict on MongoDB rewrites a page with what the winner wrote), and a write that a crash stopped
 * before the user document leaves a page the next rotation writes again.
 */
export const PAGE_SIZE = 16;
export const TAIL_MAX = 32;

/**
 * Per list, the pages that hold its older items: `first` .. `next - 1`; for lists whose items
 * expire by date, `newest` holds each of those pages' newest date, in order.
 */
export type PageRange = { first: number; next: number; newest?: string[] };
export type PageIndex = Record<string, PageRange>;

export interface UserPageDocument {
  _id: string;
  /** For deleting a tenant's documents with the tenant. */
  tenantId: string;
  /** The page's items as one JSON string (FerretDB's cost is per field; see engine/store/user-encoding.ts). */
  items: string;
}

/** What a write must do to keep one list's tail short. */
export interface Rotation<T> {
  tail: T[];
  range: PageRange | null;
  written: Array<{ page: number; items: T[] }>;
  dropped: number[];
}

/** For lists whose items expire: each page's newest date, and the oldest date still kept (null: none expire). */
export interface Expiry<T> {
  newestOf: (items: readonly T[]) => string;
  oldestKept: string | null;
}

/**
 * Cuts a list's tail down to TAIL_MAX items or fewer: the oldest PAGE_SIZE items at a time become
 * the next pages. Pages go once the later pages and the tail hold `keep` items without them, or
 * (with `expiry`) once everything on them is older than the oldest date kept.
 */
export function rotateList<T>(tail: readonly T[], range: PageRange | undefined, keep: number, expiry?: Expiry<T>): Rotation<T> {
  let { first, next } = range ?? { first: 0, next: 0 };
  const newest = expiry ? [...(range?.newest ?? [])] : undefined;
  let rest = [...tail];
  const written: Rotation<T>["written"] = [];
  while (rest.length > TAIL_MAX) {
    const items = rest.slice(0, PAGE_SIZE);
    written.push({ page: next++, items });
    newest?.push(expiry!.newestOf(items));
    rest = rest.slice(PAGE_SIZE);
  }
  const expired = () => expiry?.oldestKept != null && newest !== undefined && newest.length === next - first && newest[0]! < expiry.oldestKept;
  const dropped: number[] = [];
  while (first < next && ((next - first - 1) * PAGE_SIZE + rest.length >= keep || expired())) {
    dropped.push(first++);
    newest?.shift();
  }
  // A page cut and dropped by the same write is never stored.
  const kept = written.filter(({ page }) => page >= first);
  const nextRange = { first, next, ...(newest && { newest }) };
  return {
    tail: rest,
    range: first === next && range === undefined ? null : nextRange,
    written: kept,
    dropped: dropped.filter((page) => page < (range?.next ?? 0)),
  };
}

export function pageId(tenantId: string, userId: string, key: string, page: number): string {
  return `${tenantId}/${userId}/${key}/${page}`;
}

/**
 * The page IDs a user may have for a list: those of its range, and the few past it that a write
 * stopped by a crash may have left (at most one write's worth) — an erasure deletes them all.
 */
export function possiblePageIds(tenantId: string, userId: string, key: string, range: PageRange, maxPerWrite: number): string[] {
  const ids: string[] = [];
  for (let page = range.first; page < range.next + maxPerWrite; page++) ids.push(pageId(tenantId, userId, key, page));
  return ids;
}

/**
 * Writes pages (each replaced whole, created if new) and deletes dropped ones, all by `_id` in one
 * bulk write: a crash before the user write leaves either a page the next rotation writes again or a
 * dropped page the user document still names, which reads as empty until that write.
 */
export async function storePages(
  pages: Collection<UserPageDocument>,
  tenantId: string,
  userId: string,
  changes: Array<{ key: string; written: Array<{ page: number; items: unknown[] }>; dropped: number[] }>,
): Promise<void> {
  const writes = changes.flatMap(({ key, written }): Array<AnyBulkWriteOperation<UserPageDocument>> =>
    written.map(({ page, items }) => ({
      replaceOne: { filter: { _id: pageId(tenantId, userId, key, page) }, replacement: { tenantId, items: packList(items) }, upsert: true },
    })),
  );
  const deletes = changes.flatMap(({ key, dropped }) => dropped.map((page) => ({ deleteOne: { filter: { _id: pageId(tenantId, userId, key, page) } } })));
  if (writes.length + deletes.length > 0) await pages.bulkWrite([...writes, ...deletes], { ordered: false });
}

/** Deletes pages by `_id` (each statement keyed; one command), those that exist or not. */
export async function deletePages(pages: Collection<UserPageDocument>, ids: readonly string[]): Promise<void> {
  if (ids.length > 0)
    await pages.bulkWrite(
      ids.map((_id) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
}

/** A list's paged items in order (a page a crash left deleted before its range moved reads as empty). */
export async function readPages(pages: Collection<UserPageDocument>, tenantId: string, userId: string, key: string, range: PageRange): Promise<unknown[]> {
  const ids = [];
  for (let page = range.first; page < range.next; page++) ids.push(pageId(tenantId, userId, key, page));
  const found = await Promise.all(ids.map((_id) => pages.findOne({ _id })));
  return found.flatMap((doc) => (doc ? unpackList(doc.items) : []));
}
