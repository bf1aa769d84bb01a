import type { AnyBulkWriteOperation, Collection, UpdateFilter } from "mongodb";
import type { WebhookEventType } from "../domain/webhooks.js";
import { LISTING_PURGE_PREFIX, purgeUserListing } from "./user-deliveries.js";
import { isDuplicateKeyError, onlyDuplicateKeys, retryOnDuplicate, type Collections, type Database } from "../../../engine/store/database.js";
import { writeIfCurrent as writeDeliveryIfCurrent } from "../../../engine/store/conditional-write.js";
import { addToBucket, clearBucket, readBucket } from "../../../engine/store/keyed-buckets.js";
import type { KeyedLock } from "../../../engine/store/keyed-lock.js";
import type { WriteMode } from "../../../engine/store/user-documents.js";
import { processNow, processNowMs } from "../../../engine/process-clock.js";

/**
 * A webhook endpoint of a tenant. The signing secrets are stored in their at-rest form (see
 * webhook-secrets.ts) and never leave the store except to sign.
 */
export interface WebhookEndpointDocument {
  _id: string;
  tenantId: string;
  url: string;
  description: string | null;
  eventTypes: WebhookEventType[];
  enabled: boolean;
  /** Why the service disabled the endpoint (a 410 Gone answer); null when enabled or disabled by an admin. */
  disabledReason: string | null;
  secret: string;
  /** The secret before the latest rotation, still signing until `previousSecretExpires`. */
  previousSecret: string | null;
  previousSecretExpires: Date | null;
  /** Also sign deliveries the reference's way (`X-Trophy-Signature`); absent in documents from before the option: false. */
  referenceSignature?: boolean;
  /** Compare-and-set version of admin changes. */
  version: number;
  created: Date;
  updated: Date;
}

/** The endpoint without its secrets, as the Admin API and the caches see it. */
export type WebhookEndpointView = Omit<WebhookEndpointDocument, "secret" | "previousSecret">;

export type DeliveryStatus = "pending" | "delivered" | "failed";

/** One HTTP attempt (or a refusal to attempt, e.g. a private address), as the Admin API shows it. */
export interface WebhookAttempt {
  at: Date;
  durationMs: number;
  /** The HTTP status answered, or null when there was none (network error, timeout, refused address). */
  responseStatus: number | null;
  succeeded: boolean;
  /** What went wrong, when something did. */
  error: string | null;
}

/**
 * One message for one endpoint: the unit of delivery, retry and lease. `_id` is
 * `messageId/endpointId`, so handing a message over twice (after a crash) creates nothing twice.
 *
 * Finding work uses equality only (FerretDB may not use an index for a range): `ready` marks
 * deliveries to attempt now; a delivery waiting for a retry (or held by an attempt in progress)
 * carries the minute it is next due in `dueMinute`, which a leased walker turns into `ready`.
 */
export interface WebhookDeliveryDocument {
  _id: string;
  tenantId: string;
  endpointId: string;
  messageId: string;
  type: WebhookEventType;
  /** The exact JSON text signed and sent. */
  body: string;
  /** When the event happened. */
  eventAt: Date;
  status: DeliveryStatus;
  ready: boolean;
  dueMinute: number | null;
  nextAttemptAt: Date | null;
  /** Attempts in the current round (a redelivery starts a new round with the full schedule). */
  roundAttempts: number;
  /** Every attempt ever made. */
  attemptCount: number;
  /** The latest attempts, oldest first (at most MAX_LOGGED_ATTEMPTS). */
  attempts: WebhookAttempt[];
  lastError: string | null;
  /** The instance attempting it now, if any. */
  leaseOwner: string | null;
  version: number;
  created: Date;
  updated: Date;
  /** When it was delivered or failed. */
  finishedAt: Date | null;
  /** The UTC day (days since the epoch) from which a finished delivery and its attempt log may be deleted. */
  purgeDay: number | null;
}

/** Attempts kept per delivery (a round has at most the schedule's length; redeliveries add rounds). */
export const MAX_LOGGED_ATTEMPTS = 50;

const ENDPOINT_VIEW_PROJECTION = { secret: 0, previousSecret: 0 } as const;

export function deliveryId(messageId: string, endpointId: string): string {
  return `${messageId}/${endpointId}`;
}

/** The endpoint a delivery `_id` names (endpoint IDs are UUIDs: the part after the last slash). */
export function endpointOfDelivery(id: string): string {
  return id.slice(id.lastIndexOf("/") + 1);
}

// ---------------------------------------------------------------------------------------------
// Endpoints

export async function findEndpointViews(
  endpoints: Collection<WebhookEndpointDocument>,
  tenantId: string,
  page?: { limit: number; skip: number },
): Promise<WebhookEndpointView[]> {
  let cursor = endpoints.find({ tenantId }, { projection: ENDPOINT_VIEW_PROJECTION }).sort({ created: 1, _id: 1 });
  if (page) cursor = cursor.skip(page.skip).limit(page.limit);
  return await cursor.toArray();
}

export async function findEndpointView(endpoints: Collection<WebhookEndpointDocument>, tenantId: string, id: string): Promise<WebhookEndpointView | null> {
  return await endpoints.findOne({ _id: id, tenantId }, { projection: ENDPOINT_VIEW_PROJECTION });
}

/** The whole endpoint, secrets included: for signing and for admin changes only. */
export async function findEndpointDocument(
  endpoints: Collection<WebhookEndpointDocument>,
  tenantId: string,
  id: string,
): Promise<WebhookEndpointDocument | null> {
  return endpoints.findOne({ _id: id, tenantId });
}

/** Writes an endpoint if its version is still `expectedVersion` (0: it must not exist yet). */
export async function saveEndpoint(endpoints: Collection<WebhookEndpointDocument>, doc: WebhookEndpointDocument, expectedVersion: number): Promise<boolean> {
  if (expectedVersion === 0) {
    await endpoints.insertOne(doc);
    return true;
  }
  const result = await endpoints.replaceOne({ _id: doc._id, tenantId: doc.tenantId, version: expectedVersion }, doc);
  return result.matchedCount === 1;
}

/**
 * Deletes an endpoint and its deliveries (their attempt logs included): those its log lists (every
 * delivery the endpoint still has: the log keeps each page until its deliveries are gone), by
 * `_id`, then the log.
 */
export async function deleteEndpoint(collections: WebhookCollections, tenantId: string, id: string): Promise<boolean> {
  const { webhookEndpoints, webhookDeliveries, webhookEndpointLog: log } = collections;
  const result = await webhookEndpoints.deleteOne({ _id: id, tenantId });
  const head = await log.findOne({ _id: logHeadId(tenantId, id) });
  if (head?.seq) {
    const pageIds = Array.from({ length: Math.ceil(head.seq / LOG_PAGE) }, (_, page) => logPageId(tenantId, id, page));
    const pages = await Promise.all(pageIds.slice(head.floor ?? 0).map((_id) => log.findOne({ _id })));
    const deliveryIds = [...new Set(pages.flatMap((p) => p?.ids ?? []))];
    for (let i = 0; i < deliveryIds.length; i += DELETES_AT_ONCE) {
      await webhookDeliveries.bulkWrite(
        deliveryIds.slice(i, i + DELETES_AT_ONCE).map((_id) => ({ deleteOne: { filter: { _id } } })),
        { ordered: false },
      );
    }
    await log.bulkWrite(
      [...pageIds, head._id].map((_id) => ({ deleteOne: { filter: { _id } } })),
      { ordered: false },
    );
  }
  return result.deletedCount === 1;
}

/** Deletes sent in one command when an endpoint's deliveries go. */
const DELETES_AT_ONCE = 1_000;

/** Disables an endpoint that asked not to be called again (410 Gone). */
/** Disables an endpoint that answered 410 Gone at `url` (false: it was moved to another URL meanwhile, or already disabled). */
export async function disableEndpoint(
  endpoints: Collection<WebhookEndpointDocument>,
  tenantId: string,
  id: string,
  url: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const result = await endpoints.updateOne(
    { _id: id, tenantId, enabled: true, url },
    { $set: { enabled: false, disabledReason: reason, updated: now }, $inc: { version: 1 } },
  );
  return result.modifiedCount > 0;
}

// ---------------------------------------------------------------------------------------------
// Deliveries

export type WebhookCollections = Pick<Collections, "webhookEndpoints" | "webhookDeliveries" | "webhookEndpointLog">;

/**
 * Per endpoint, its deliveries in hand-over order, for the Admin API's listing (newest first)
 * without a query over all deliveries: a head `tenant/endpoint` counts them (`seq`), and page `n`,
 * `tenant/endpoint/n`, holds the IDs of deliveries `n·LOG_PAGE` to `(n+1)·LOG_PAGE - 1`. IDs are
 * logged before their deliveries are inserted (a hand-over repeated after a crash logs them again;
 * the listing skips repeats and IDs without a delivery). Retention deletes the oldest deliveries
 * first, so the listing stops at the first page whose deliveries are all gone and moves the head's
 * `floor` above it, deleting the pages below.
 */
export interface WebhookEndpointLogDocument {
  _id: string;
  tenantId: string;
  /** Head: deliveries logged so far. */
  seq?: number;
  /** Head: pages below this one are gone. */
  floor?: number;
  /** Page: delivery IDs. */
  ids?: string[];
}

const LOG_PAGE = 100;
const logHeadId = (tenantId: string, endpointId: string) => `${tenantId}/${endpointId}`;
const logPageId = (tenantId: string, endpointId: string, page: number) => `${tenantId}/${endpointId}/${page}`;

/** Appends deliveries to their endpoints' logs (see WebhookEndpointLogDocument). */
async function logDeliveries(store: DeliveryStore, docs: readonly WebhookDeliveryDocument[]): Promise<void> {
  const log = store.collections.webhookEndpointLog;
  const byEndpoint = new Map<string, WebhookDeliveryDocument[]>();
  for (const d of docs) byEndpoint.set(logHeadId(d.tenantId, d.endpointId), [...(byEndpoint.get(logHeadId(d.tenantId, d.endpointId)) ?? []), d]);
  await Promise.all(
    [...byEndpoint.values()].map((list) => {
      const { tenantId, endpointId } = list[0]!;
      const headId = logHeadId(tenantId, endpointId);
      // FerretDB applies `$inc` as a read then a write: this process counts one append at a time.
      return store.locks.run(`webhook_endpoint_log:${headId}`, async () => {
        const head = await retryOnDuplicate(() =>
          log.findOneAndUpdate({ _id: headId }, { $inc: { seq: list.length }, $setOnInsert: { tenantId } }, { upsert: true, returnDocument: "after" }),
        );
        const first = head!.seq! - list.length;
        const pages = new Map<number, string[]>();
        list.forEach((d, i) => pages.set(Math.floor((first + i) / LOG_PAGE), [...(pages.get(Math.floor((first + i) / LOG_PAGE)) ?? []), d._id]));
        await Promise.all(
          [...pages].map(([page, ids]) =>
            retryOnDuplicate(() =>
              log.updateOne({ _id: logPageId(tenantId, endpointId, page) }, { $push: { ids: { $each: ids } }, $setOnInsert: { tenantId } }, { upsert: true }),
            ),
          ),
        );
      });
    }),
  );
}

/** An endpoint's deliveries, newest first (see WebhookEndpointLogDocument). */
async function listEndpointDeliveries(
  { webhookDeliveries, webhookEndpointLog: log }: WebhookCollections,
  tenantId: string,
  endpointId: string,
  status: DeliveryStatus | undefined,
  page: { limit: number; skip: number },
): Promise<WebhookDeliveryDocument[]> {
  const head = await log.findOne({ _id: logHeadId(tenantId, endpointId) });
  if (!head?.seq) return [];
  const floor = head.floor ?? 0;
  const found: WebhookDeliveryDocument[] = [];
  const seen = new Set<string>();
  for (let p = Math.floor((head.seq - 1) / LOG_PAGE); p >= floor && found.length < page.skip + page.limit; p--) {
    const ids = [...((await log.findOne({ _id: logPageId(tenantId, endpointId, p) }))?.ids ?? [])].reverse().filter((id) => !seen.has(id) && seen.add(id));
    const live = (await Promise.all(ids.map((_id) => webhookDeliveries.findOne({ _id })))).filter(
      (d): d is WebhookDeliveryDocument => d !== null && d.tenantId === tenantId,
    );
    if (ids.length > 0 && live.length === 0) {
      // Every delivery of this page is gone (retention): so are those of older pages.
      await log.updateOne({ _id: head._id }, { $max: { floor: p + 1 } });
      await log.bulkWrite(
        Array.from({ length: p + 1 - floor }, (_, i) => ({ deleteOne: { filter: { _id: logPageId(tenantId, endpointId, floor + i) } } })),
        { ordered: false },
      );
      break;
    }
    found.push(...live.filter((d) => status === undefined || d.status === status));
  }
  return found.sort((a, b) => b.created.getTime() - a.created.getTime() || (a._id < b._id ? -1 : 1)).slice(page.skip, page.skip + page.limit);
}

/**
 * Deletes an endpoint's log pages whose deliveries are all gone (retention deletes the oldest
 * first), from the bottom up to the first page with a delivery left, and moves the head's `floor`
 * above them, as a listing does; the newest page is left to the appends. Reads by `_id` only: the
 * pages deleted and, per page, its IDs until one is found. Returns how many pages it deleted.
 */
export async function trimEndpointLog(
  { webhookDeliveries, webhookEndpointLog: log }: WebhookCollections,
  tenantId: string,
  endpointId: string,
): Promise<number> {
  const head = await log.findOne({ _id: logHeadId(tenantId, endpointId) });
  if (!head?.seq) return 0;
  const floor = head.floor ?? 0;
  const newest = Math.floor((head.seq - 1) / LOG_PAGE);
  let page = floor;
  for (; page < newest; page++) {
    const ids = (await log.findOne({ _id: logPageId(tenantId, endpointId, page) }))?.ids ?? [];
    let live = false;
    for (const _id of ids) if ((live = (await webhookDeliveries.findOne({ _id }, { projection: { _id: 1 } })) !== null)) break;
    if (live) break;
  }
  if (page === floor) return 0;
  await log.updateOne({ _id: head._id }, { $max: { floor: page } });
  await log.bulkWrite(
    Array.from({ length: page - floor }, (_, i) => ({ deleteOne: { filter: { _id: logPageId(tenantId, endpointId, floor + i) } } })),
    { ordered: false },
  );
  return page - floor;
}

/**
 * Deliveries are reached by `_id` only (FerretDB's SQLite backend serves nothing else by index, and
 * `webhook_deliveries` grows with every message). What the loops must find is kept beside them, keyed:
 * - `webhook_ready`: one marker per delivery ready to attempt (`_id` = the delivery's), written
 *   before the write that makes it ready, removed after the write that takes it (a claim) or when
 *   the deliverer finds the delivery finished or gone; the deliverer reads it whole (pending work);
 * - `webhook_due`: per minute, the deliveries due then (a retry, or the end of an attempt's claim),
 *   keyed buckets (engine/store/keyed-buckets.ts) added before the write that sets `dueMinute`;
 * - `webhook_purge`: per UTC day, the finished deliveries whose retention ends then, added before
 *   the write that finishes them.
 * Every write of a delivery goes through `writeMarkers` first. Conditional writes name the version
 * read: on MongoDB in the filter (`versioned`), on FerretDB (`single-instance`, one process) under
 * this process's lock of the delivery, read by `_id` and checked, then written by `_id` alone.
 */
export interface DeliveryStore {
  collections: Pick<
    Collections,
    "webhookDeliveries" | "webhookClaims" | "webhookReady" | "webhookDue" | "webhookPurge" | "webhookEndpointLog" | "webhookUserDeliveries"
  >;
  mode: WriteMode;
  locks: KeyedLock;
}

export function deliveryStore(database: Pick<Database, "collections" | "writeMode">, locks: KeyedLock): DeliveryStore {
  return { collections: database.collections, mode: database.writeMode, locks };
}

/** A delivery ready to attempt (see DeliveryStore); `at`: when the marker was last written. */
export interface WebhookReadyDocument {
  _id: string;
  at: Date;
}

/**
 * A marker is written just before the write that makes its delivery ready, so a reader may find
 * one whose delivery is not ready (or not there) YET; only a marker this old that still points at
 * nothing ready is dropped.
 */
const READY_MARKER_GRACE_MS = 60_000;

/** What the loops need to find a delivery in the state `doc` is about to be written in. */
async function writeMarkers(store: DeliveryStore, docs: readonly WebhookDeliveryDocument[]): Promise<void> {
  const { webhookReady, webhookDue, webhookPurge } = store.collections;
  const ready = docs.filter((d) => d.ready && d.status === "pending");
  const at = processNow();
  await Promise.all([
    ready.length > 0
      ? webhookReady
          .bulkWrite(
            ready.map((d) => ({ replaceOne: { filter: { _id: d._id }, replacement: { at }, upsert: true } })),
            { ordered: false },
          )
          .catch((error) => {
            if (!onlyDuplicateKeys(error)) throw error; // written at the same moment by another writer
          })
      : null,
    ...docs.filter((d) => d.status === "pending" && d.dueMinute !== null).map((d) => addToBucket(webhookDue, store.locks, d.dueMinute!, d._id)),
    ...docs.filter((d) => d.status !== "pending" && d.purgeDay !== null).map((d) => addToBucket(webhookPurge, store.locks, d.purgeDay!, d._id)),
  ]);
}

/** Drops the ready marker of a delivery written as not ready (after that write). */
async function dropReadyMarker(store: DeliveryStore, doc: WebhookDeliveryDocument): Promise<void> {
  if (!doc.ready || doc.status !== "pending") await store.collections.webhookReady.deleteOne({ _id: doc._id });
}

/** A delivery write that applies only if the delivery still has the `expected` values (see engine/store/conditional-write.ts). */
function writeIfCurrent(
  store: DeliveryStore,
  id: string,
  expected: Partial<WebhookDeliveryDocument> & { version: number },
  write: { replacement: WebhookDeliveryDocument } | { update: UpdateFilter<WebhookDeliveryDocument> },
): Promise<boolean> {
  return writeDeliveryIfCurrent(store.collections.webhookDeliveries, store.mode, store.locks, id, expected, write);
}

/** Stores deliveries that do not exist yet; existing ones (a hand-over repeated after a crash) are left as they are. */
export async function insertDeliveries(store: DeliveryStore, docs: WebhookDeliveryDocument[]): Promise<void> {
  if (docs.length === 0) return;
  await Promise.all([writeMarkers(store, docs), logDeliveries(store, docs)]);
  const ops: AnyBulkWriteOperation<WebhookDeliveryDocument>[] = docs.map((doc) => ({ insertOne: { document: doc } }));
  try {
    await store.collections.webhookDeliveries.bulkWrite(ops, { ordered: false });
  } catch (error) {
    if (!onlyDuplicateKeys(error)) throw error;
  }
}

/** Ready markers a search reads at most, looking past endpoints without room (one slow endpoint's backlog). */
const MAX_READY_SCAN = 1000;

/**
 * Deliveries to attempt now (any instance may take them; the claim decides who does): the ready
 * markers, each delivery read by `_id`, at most `limit` of them and at most `room(endpointId)` per
 * endpoint (pickWithRoom), so a backlog of one endpoint does not hide the others'. A marker older
 * than READY_MARKER_GRACE_MS whose delivery is not ready (finished, deleted, or taken by a claim
 * whose marker removal was cut short) is dropped.
 */
export async function findReadyDeliveries(
  store: DeliveryStore,
  limit: number,
  room: (endpointId: string) => number = () => limit,
): Promise<WebhookDeliveryDocument[]> {
  const { webhookReady, webhookDeliveries } = store.collections;
  const cursor = webhookReady.find({}).batchSize(Math.min(MAX_READY_SCAN, Math.max(2 * limit, 16)));
  let markers: WebhookReadyDocument[];
  try {
    markers = await pickWithRoom(cursor, limit, (m) => endpointOfDelivery(m._id), room, MAX_READY_SCAN);
  } finally {
    await cursor.close();
  }
  const docs = await Promise.all(markers.map((m) => webhookDeliveries.findOne({ _id: m._id })));
  const isReady = (d: WebhookDeliveryDocument | null) => d !== null && d.status === "pending" && d.ready;
  const graceEnded = processNowMs() - READY_MARKER_GRACE_MS;
  const stale = markers.filter((m, i) => !isReady(docs[i]!) && (m.at?.getTime() ?? 0) < graceEnded);
  if (stale.length > 0)
    await webhookReady.bulkWrite(
      stale.map((m) => ({ deleteOne: { filter: { _id: m._id } } })),
      { ordered: false },
    );
  return docs.filter((d): d is WebhookDeliveryDocument => isReady(d));
}

/**
 * The first `limit` items in order, taking at most `room(group)` of each group and reading at most
 * `maxRead` items.
 */
export async function pickWithRoom<T>(
  items: AsyncIterable<T>,
  limit: number,
  groupOf: (item: T) => string,
  room: (group: string) => number,
  maxRead: number,
): Promise<T[]> {
  const picked: T[] = [];
  const taken = new Map<string, number>();
  let read = 0;
  if (limit <= 0) return picked;
  for await (const item of items) {
    const group = groupOf(item);
    const n = taken.get(group) ?? 0;
    if (n < room(group)) {
      taken.set(group, n + 1);
      picked.push(item);
      if (picked.length >= limit) break;
    }
    if (++read >= maxRead) break;
  }
  return picked;
}

/**
 * A claim marker: one per delivery version. Inserting it is the exclusive step of a claim, because
 * a unique `_id` holds even where a version-checked update does not (FerretDB applies an update as
 * a read, then a write, so two concurrent updates filtered on the same version can both succeed).
 */
export interface WebhookClaimDocument {
  /** `deliveryId@version`, then `deliveryId@version#n` for the n-th takeover of a claim that ran out. */
  _id: string;
  at: Date;
  /** When the claim runs out (markers written before this field: `at` + `LEGACY_CLAIM_MS`). */
  until?: Date;
}

/** How long a marker without `until` held its claim (longer than any attempt's timeout). */
const LEGACY_CLAIM_MS = 15 * 60_000;
/** Takeovers of one version's claim tried before leaving it (each needs a claimant that died). */
const MAX_CLAIM_TAKEOVERS = 20;

/**
 * Claims a ready delivery for one attempt, so two instances never attempt one delivery at once:
 * first the claim marker for the version read (only one instance can insert it), then a
 * version-checked update (which refuses a version that is no longer current). The claim parks the
 * delivery in the minute of `leaseUntil`: should this instance die mid-attempt, the walker makes it
 * ready again once that minute has passed. Returns the claimed delivery and the marker to release.
 */
export async function claimDelivery(
  store: DeliveryStore,
  doc: WebhookDeliveryDocument,
  owner: string,
  now: Date,
  leaseUntil: Date,
): Promise<{ delivery: WebhookDeliveryDocument; claimId: string } | null> {
  const claimId = await insertClaimMarker(store, `${doc._id}@${doc.version}`, now, leaseUntil);
  if (claimId === null) return null; // another instance claimed this version
  const dueMinute = Math.floor(leaseUntil.getTime() / 60_000);
  const delivery = { ...doc, ready: false, leaseOwner: owner, dueMinute, updated: now, version: doc.version + 1 };
  await writeMarkers(store, [delivery]);
  const claimed = await writeIfCurrent(
    store,
    doc._id,
    { version: doc.version, ready: true },
    {
      update: { $set: { ready: false, leaseOwner: owner, dueMinute, updated: now }, $inc: { version: 1 } },
    },
  );
  if (!claimed) {
    await releaseClaim(store, claimId);
    return null;
  }
  await dropReadyMarker(store, delivery);
  return { delivery, claimId };
}

/**
 * Inserts the claim marker of a delivery version and returns its ID, or null while another claim
 * holds the version. A marker whose claim ran out while the delivery stayed ready at that version
 * was left by a claimant that died between its insert and its update: the next claim takes it over
 * with a marker of its own (`#1`, `#2`, ...), so a takeover too has one winner, and deletes the
 * dead ones. Without this a crash at that moment left the delivery pending for good.
 */
async function insertClaimMarker(store: Pick<DeliveryStore, "collections">, base: string, now: Date, until: Date): Promise<string | null> {
  const { webhookClaims } = store.collections;
  const idOf = (n: number) => (n === 0 ? base : `${base}#${n}`);
  for (let n = 0; n <= MAX_CLAIM_TAKEOVERS; n++) {
    try {
      await webhookClaims.insertOne({ _id: idOf(n), at: now, until });
      await Promise.all(Array.from({ length: n }, (_, dead) => webhookClaims.deleteOne({ _id: idOf(dead) })));
      return idOf(n);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const held = await webhookClaims.findOne({ _id: idOf(n) });
    if (held === null) return null; // released: its attempt is recorded, the version read is history
    const runsOut = held.until?.getTime() ?? held.at.getTime() + LEGACY_CLAIM_MS;
    if (runsOut > now.getTime()) return null;
  }
  return null;
}

/** Removes a claim marker once its attempt is recorded (its version is history by then). */
export async function releaseClaim(store: Pick<DeliveryStore, "collections">, claimId: string): Promise<void> {
  await store.collections.webhookClaims.deleteOne({ _id: claimId });
}

/** Writes a delivery's next state if nobody else changed it meanwhile. */
export async function saveDelivery(store: DeliveryStore, doc: WebhookDeliveryDocument, expectedVersion: number): Promise<boolean> {
  const next = { ...doc, version: expectedVersion + 1 };
  await writeMarkers(store, [next]);
  if (!(await writeIfCurrent(store, doc._id, { version: expectedVersion }, { replacement: next }))) return false;
  await dropReadyMarker(store, next);
  return true;
}

/** The deliveries listed as due in a minute (read by `_id`) and the bucket documents to clear once they are handled. */
export async function findDeliveriesDueInMinute(store: DeliveryStore, minute: number): Promise<{ deliveries: WebhookDeliveryDocument[]; bucketIds: string[] }> {
  const { keys, documentIds } = await readBucket(store.collections.webhookDue, minute);
  const docs = await Promise.all(keys.map((_id) => store.collections.webhookDeliveries.findOne({ _id })));
  return { deliveries: docs.filter((d): d is WebhookDeliveryDocument => d !== null && d.dueMinute === minute), bucketIds: documentIds };
}

export async function clearDueMinute(store: DeliveryStore, bucketIds: readonly string[]): Promise<void> {
  await clearBucket(store.collections.webhookDue, bucketIds);
}

/** Makes a waiting delivery ready (version-checked). */
export async function markReady(store: DeliveryStore, id: string, version: number, now: Date): Promise<boolean> {
  await writeMarkers(store, [{ _id: id, status: "pending", ready: true, dueMinute: null, purgeDay: null } as WebhookDeliveryDocument]);
  return writeIfCurrent(
    store,
    id,
    { version, status: "pending", ready: false },
    {
      update: { $set: { ready: true, dueMinute: null, leaseOwner: null, updated: now }, $inc: { version: 1 } },
    },
  );
}

/** Deliveries of an endpoint (in its log) or of a message (at known `_id`s); never all of a tenant's, which would be a query over every delivery. */
export type DeliveryFilter = { status?: DeliveryStatus } & ({ endpointId: string; messageId?: string } | { endpointId?: string; messageId: string });

export async function listDeliveries(
  collections: WebhookCollections,
  tenantId: string,
  filter: DeliveryFilter,
  page: { limit: number; skip: number },
): Promise<WebhookDeliveryDocument[]> {
  const { webhookDeliveries: deliveries, webhookEndpoints: endpoints } = collections;
  if (filter.messageId !== undefined) {
    // A message has one delivery per endpoint of its tenant, each at a known `_id`: no query needed.
    const endpointIds =
      filter.endpointId !== undefined ? [filter.endpointId] : (await endpoints.find({ tenantId }, { projection: { _id: 1 } }).toArray()).map((e) => e._id);
    const found = await Promise.all(endpointIds.map((endpointId) => deliveries.findOne({ _id: deliveryId(filter.messageId!, endpointId) })));
    return found
      .filter((d): d is WebhookDeliveryDocument => d !== null && d.tenantId === tenantId && (filter.status === undefined || d.status === filter.status))
      .sort((a, b) => b.created.getTime() - a.created.getTime() || (a._id < b._id ? -1 : 1))
      .slice(page.skip, page.skip + page.limit);
  }
  return listEndpointDeliveries(collections, tenantId, (filter as { endpointId: string }).endpointId, filter.status, page);
}

export async function findDelivery(
  deliveries: Collection<WebhookDeliveryDocument>,
  tenantId: string,
  endpointId: string,
  messageId: string,
): Promise<WebhookDeliveryDocument | null> {
  // By `_id` alone (the index), then the tenant checked here: an extra field in the filter is a scan on FerretDB.
  const delivery = await deliveries.findOne({ _id: deliveryId(messageId, endpointId) });
  return delivery?.tenantId === tenantId ? delivery : null;
}

/**
 * Deletes the finished deliveries whose retention ended on `day`: those listed in the day's purge
 * bucket, each checked (a delivery redelivered since is pending again, or finished later) and
 * deleted by `_id`; then the bucket.
 */
export async function purgeDeliveries(store: DeliveryStore, day: number): Promise<number> {
  const { webhookDeliveries, webhookPurge } = store.collections;
  const { keys, documentIds } = await readBucket(webhookPurge, day);
  let deleted = 0;
  for (const _id of keys) {
    if (_id.startsWith(LISTING_PURGE_PREFIX)) {
      await purgeUserListing({ listings: store.collections.webhookUserDeliveries, purge: webhookPurge, locks: store.locks }, webhookDeliveries, _id, day);
      continue;
    }
    deleted += await store.locks.run(`${webhookDeliveries.collectionName}:${_id}`, async () => {
      const doc = await webhookDeliveries.findOne({ _id }, { projection: { status: 1, purgeDay: 1 } });
      if (!doc || doc.status === "pending" || doc.purgeDay === null || doc.purgeDay > day) return 0;
      return (await webhookDeliveries.deleteOne({ _id })).deletedCount;
    });
  }
  await clearBucket(webhookPurge, documentIds);
  return deleted;
}
