import type { AnyBulkWriteOperation, Collection, Filter } from "mongodb";
import type { WebhookEventType } from "../domain/webhooks.js";
import { isDuplicateKeyError, type Collections } from "./database.js";

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

export function dayOf(at: Date): number {
  return Math.floor(at.getTime() / 86_400_000);
}

export function deliveryId(messageId: string, endpointId: string): string {
  return `${messageId}/${endpointId}`;
}

// ---------------------------------------------------------------------------------------------
// Endpoints

export async function findEndpointViews(endpoints: Collection<WebhookEndpointDocument>, tenantId: string, page?: { limit: number; skip: number }): Promise<WebhookEndpointView[]> {
  let cursor = endpoints.find({ tenantId }, { projection: ENDPOINT_VIEW_PROJECTION }).sort({ created: 1, _id: 1 });
  if (page) cursor = cursor.skip(page.skip).limit(page.limit);
  return (await cursor.toArray()) as WebhookEndpointView[];
}

export async function findEndpointView(endpoints: Collection<WebhookEndpointDocument>, tenantId: string, id: string): Promise<WebhookEndpointView | null> {
  return (await endpoints.findOne({ _id: id, tenantId }, { projection: ENDPOINT_VIEW_PROJECTION })) as WebhookEndpointView | null;
}

/** The whole endpoint, secrets included: for signing and for admin changes only. */
export async function findEndpointDocument(endpoints: Collection<WebhookEndpointDocument>, tenantId: string, id: string): Promise<WebhookEndpointDocument | null> {
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

/** Deletes an endpoint and its deliveries (their attempt logs included). */
export async function deleteEndpoint(collections: WebhookCollections, tenantId: string, id: string): Promise<boolean> {
  const result = await collections.webhookEndpoints.deleteOne({ _id: id, tenantId });
  await collections.webhookDeliveries.deleteMany({ tenantId, endpointId: id });
  return result.deletedCount === 1;
}

/** Disables an endpoint that asked not to be called again (410 Gone). */
export async function disableEndpoint(endpoints: Collection<WebhookEndpointDocument>, tenantId: string, id: string, reason: string, now: Date): Promise<void> {
  await endpoints.updateOne({ _id: id, tenantId, enabled: true }, { $set: { enabled: false, disabledReason: reason, updated: now }, $inc: { version: 1 } });
}

// ---------------------------------------------------------------------------------------------
// Deliveries

export type WebhookCollections = Pick<Collections, "webhookEndpoints" | "webhookDeliveries">;

/** Stores deliveries that do not exist yet; existing ones (a hand-over repeated after a crash) are left as they are. */
export async function insertDeliveries(deliveries: Collection<WebhookDeliveryDocument>, docs: WebhookDeliveryDocument[]): Promise<void> {
  if (docs.length === 0) return;
  const ops: AnyBulkWriteOperation<WebhookDeliveryDocument>[] = docs.map((doc) => ({ insertOne: { document: doc } }));
  try {
    await deliveries.bulkWrite(ops, { ordered: false });
  } catch (error) {
    const writeErrors = (error as { writeErrors?: unknown[] | unknown }).writeErrors;
    const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
    if (list.length === 0 ? !isDuplicateKeyError(error) : !list.every((e) => (e as { code?: unknown }).code === 11000)) throw error;
  }
}

/** Deliveries to attempt now (any instance may take them; the claim decides who does). */
export async function findReadyDeliveries(deliveries: Collection<WebhookDeliveryDocument>, limit: number): Promise<WebhookDeliveryDocument[]> {
  return deliveries.find({ ready: true }).limit(limit).toArray();
}

/**
 * A claim marker: one per delivery version. Inserting it is the exclusive step of a claim, because
 * a unique `_id` holds even where a version-checked update does not (FerretDB applies an update as
 * a read, then a write, so two concurrent updates filtered on the same version can both succeed).
 */
export interface WebhookClaimDocument {
  /** `deliveryId@version`. */
  _id: string;
  at: Date;
}

/**
 * Claims a ready delivery for one attempt, so two instances never attempt one delivery at once:
 * first the claim marker for the version read (only one instance can insert it), then a
 * version-checked update (which refuses a version that is no longer current). The claim parks the
 * delivery in the minute of `leaseUntil`: should this instance die mid-attempt, the walker makes it
 * ready again once that minute has passed. Returns the claimed delivery and the marker to release.
 */
export async function claimDelivery(
  collections: Pick<Collections, "webhookDeliveries" | "webhookClaims">,
  doc: WebhookDeliveryDocument,
  owner: string,
  now: Date,
  leaseUntil: Date,
): Promise<{ delivery: WebhookDeliveryDocument; claimId: string } | null> {
  const claimId = `${doc._id}@${doc.version}`;
  try {
    await collections.webhookClaims.insertOne({ _id: claimId, at: now });
  } catch (error) {
    if (isDuplicateKeyError(error)) return null; // another instance claimed this version
    throw error;
  }
  const dueMinute = Math.floor(leaseUntil.getTime() / 60_000);
  const result = await collections.webhookDeliveries.updateOne(
    { _id: doc._id, version: doc.version, ready: true },
    { $set: { ready: false, leaseOwner: owner, dueMinute, updated: now }, $inc: { version: 1 } },
  );
  if (result.matchedCount !== 1) {
    await releaseClaim(collections, claimId);
    return null;
  }
  return { delivery: { ...doc, ready: false, leaseOwner: owner, dueMinute, updated: now, version: doc.version + 1 }, claimId };
}

/** Removes a claim marker once its attempt is recorded (its version is history by then). */
export async function releaseClaim(collections: Pick<Collections, "webhookClaims">, claimId: string): Promise<void> {
  await collections.webhookClaims.deleteOne({ _id: claimId });
}

/** Writes a delivery's next state if nobody else changed it meanwhile. */
export async function saveDelivery(deliveries: Collection<WebhookDeliveryDocument>, doc: WebhookDeliveryDocument, expectedVersion: number): Promise<boolean> {
  const result = await deliveries.replaceOne({ _id: doc._id, version: expectedVersion }, { ...doc, version: expectedVersion + 1 });
  return result.matchedCount === 1;
}

/** Deliveries parked in a minute (waiting for a retry, or held by an attempt). */
export async function findDeliveriesDueInMinute(deliveries: Collection<WebhookDeliveryDocument>, minute: number, limit: number) {
  return deliveries.find({ dueMinute: minute }, { projection: { _id: 1, version: 1, status: 1, ready: 1 } }).limit(limit).toArray();
}

/** Makes a waiting delivery ready (version-checked). */
export async function markReady(deliveries: Collection<WebhookDeliveryDocument>, id: string, version: number, now: Date): Promise<boolean> {
  const result = await deliveries.updateOne(
    { _id: id, version, status: "pending", ready: false },
    { $set: { ready: true, dueMinute: null, leaseOwner: null, updated: now }, $inc: { version: 1 } },
  );
  return result.matchedCount === 1;
}

export interface DeliveryFilter {
  endpointId?: string;
  messageId?: string;
  status?: DeliveryStatus;
}

export async function listDeliveries(
  deliveries: Collection<WebhookDeliveryDocument>,
  tenantId: string,
  filter: DeliveryFilter,
  page: { limit: number; skip: number },
): Promise<WebhookDeliveryDocument[]> {
  const query: Filter<WebhookDeliveryDocument> = { tenantId };
  if (filter.endpointId !== undefined) query.endpointId = filter.endpointId;
  if (filter.messageId !== undefined) query.messageId = filter.messageId;
  if (filter.status !== undefined) query.status = filter.status;
  return deliveries.find(query).sort({ created: -1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
}

export async function findDelivery(deliveries: Collection<WebhookDeliveryDocument>, tenantId: string, endpointId: string, messageId: string): Promise<WebhookDeliveryDocument | null> {
  // By `_id` alone (the index), then the tenant checked here: an extra field in the filter is a scan on FerretDB.
  const delivery = await deliveries.findOne({ _id: deliveryId(messageId, endpointId) });
  return delivery?.tenantId === tenantId ? delivery : null;
}

/** Deletes finished deliveries whose retention ended on `day` (an equality lookup per day). */
export async function purgeDeliveries(deliveries: Collection<WebhookDeliveryDocument>, day: number): Promise<number> {
  return (await deliveries.deleteMany({ purgeDay: day })).deletedCount;
}
