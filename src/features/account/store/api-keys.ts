import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Collection } from "mongodb";
import type { RateLimitSetting } from "../domain/rate-limits.js";

export type ApiKeyKind = "admin" | "application";

/**
 * An API key as stored: never the key itself, only its SHA-256 and its public prefix. Keys are 256
 * random bits, so a fast hash is safe; the prefix finds the record, the hash proves the key.
 */
export interface ApiKeyDocument {
  _id: string;
  prefix: string;
  sha256: Buffer;
  kind: ApiKeyKind;
  /** Application keys act for one user of one tenant. */
  tenantId: string | null;
  userId: string | null;
  created: Date;
  revoked: Date | null;
  /** The key's own rate limit; null or absent (keys made before rate limits): the configured default. */
  rateLimit?: RateLimitSetting | null;
}

export interface Caller {
  keyId: string;
  kind: ApiKeyKind;
  tenantId: string | null;
  userId: string | null;
  /** The key's own rate limit; null: the configured default. */
  rateLimit: RateLimitSetting | null;
}

/** An API key as the Admin API shows it: never the key itself. */
export interface ApiKeyInfo {
  id: string;
  prefix: string;
  userId: string | null;
  created: Date;
  rateLimit: RateLimitSetting | null;
}

function infoOf(doc: ApiKeyDocument): ApiKeyInfo {
  return { id: doc._id, prefix: doc.prefix, userId: doc.userId, created: doc.created, rateLimit: doc.rateLimit ?? null };
}

/** The prefix of a key the service generated (`adm_<hex>`, `app_<hex>`): public, it names the key in lists. */
const GENERATED_PREFIX = /^(adm|app)_[A-Za-z0-9]+$/;

/** The part of a key before its first ".", or null. */
function headOf(key: string): string | null {
  const dot = key.indexOf(".");
  return dot > 0 ? key.slice(0, dot) : null;
}

/**
 * A generated key's prefix is the part before the first "."; any other key (an operator's own
 * ADMIN_API_KEY, with or without a ".") is found by a part of its hash instead, so that no
 * character of it is stored or listed.
 */
export function prefixOf(key: string): string {
  const head = headOf(key);
  return head !== null && GENERATED_PREFIX.test(head) ? head : `sha256:${sha256(key).toString("hex").slice(0, 12)}`;
}

/**
 * What earlier versions stored as the prefix of an operator's key: the first 8 characters of one
 * without a ".", the part before the first "." of one with it. Null for a generated key.
 */
function legacyPrefixOf(key: string): string | null {
  const head = headOf(key);
  if (head === null) return key.slice(0, 8);
  return GENERATED_PREFIX.test(head) ? null : head;
}

function sha256(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}

/** Binary fields come back from the driver as a `Binary`; this is its bytes. */
function storedHash(doc: ApiKeyDocument): Buffer {
  const value = doc.sha256 as unknown as Buffer | { buffer: Uint8Array };
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer);
}

/** Creates a new key and returns it in full; it is not retrievable afterwards. */
export async function createApiKey(
  apiKeys: Collection<ApiKeyDocument>,
  kind: ApiKeyKind,
  scope: { tenantId: string | null; userId: string | null },
  now: Date,
  rateLimit: RateLimitSetting | null = null,
): Promise<{ id: string; key: string; prefix: string; rateLimit: RateLimitSetting | null }> {
  const prefix = `${kind === "admin" ? "adm" : "app"}_${randomBytes(6).toString("hex")}`;
  const key = `${prefix}.${randomBytes(32).toString("base64url")}`;
  const id = randomUUID();
  await apiKeys.insertOne({ _id: id, prefix, sha256: sha256(key), kind, ...scope, created: now, revoked: null, rateLimit });
  return { id, key, prefix, rateLimit };
}

/**
 * Makes sure an admin key with exactly this value exists (operator bootstrap through ADMIN_API_KEY),
 * unless it was revoked through the Admin API: a revocation (of a leaked key, say) outlasts restarts.
 * Answers whether the key is usable.
 */
export async function ensureAdminKey(apiKeys: Collection<ApiKeyDocument>, key: string, now: Date): Promise<"active" | "revoked"> {
  const prefix = prefixOf(key);
  const legacy = legacyPrefixOf(key);
  const stored = legacy === null ? null : await apiKeys.findOne({ prefix: legacy });
  if (stored && timingSafeEqual(storedHash(stored), sha256(key))) await apiKeys.updateOne({ _id: stored._id }, { $set: { prefix } });
  const existing = await apiKeys.findOne({ prefix });
  if (existing && timingSafeEqual(storedHash(existing), sha256(key))) return existing.revoked ? "revoked" : "active";
  if (existing) throw new Error(`ADMIN_API_KEY shares its prefix "${prefix}" with another key; choose another value`);
  await apiKeys.insertOne({
    _id: randomUUID(),
    prefix,
    sha256: sha256(key),
    kind: "admin",
    tenantId: null,
    userId: null,
    created: now,
    revoked: null,
  });
  return "active";
}

/** The caller a key belongs to, or null for an unknown or revoked key. Compares in constant time. */
export async function findCaller(apiKeys: Collection<ApiKeyDocument>, key: string): Promise<Caller | null> {
  const doc = await apiKeys.findOne({ prefix: prefixOf(key) });
  const presented = sha256(key);
  const stored = doc ? storedHash(doc) : Buffer.alloc(presented.length);
  const matches = stored.length === presented.length && timingSafeEqual(stored, presented);
  if (!doc || !matches || doc.revoked) return null;
  return { keyId: doc._id, kind: doc.kind, tenantId: doc.tenantId, userId: doc.userId, rateLimit: doc.rateLimit ?? null };
}

/** The account's active admin keys, oldest first (no secrets). */
export async function listAdminKeys(apiKeys: Collection<ApiKeyDocument>): Promise<ApiKeyInfo[]> {
  const docs = await apiKeys.find({ kind: "admin", revoked: null }).sort({ created: 1, _id: 1 }).toArray();
  return docs.map(infoOf);
}

/** A page of the tenant's active application keys, oldest first (no secrets). */
export async function listApplicationKeys(apiKeys: Collection<ApiKeyDocument>, tenantId: string, page: { limit: number; skip: number }): Promise<ApiKeyInfo[]> {
  const docs = await apiKeys.find({ kind: "application", tenantId, revoked: null }).sort({ created: 1, _id: 1 }).skip(page.skip).limit(page.limit).toArray();
  return docs.map(infoOf);
}

/** Sets an active key's own rate limit (null: back to the default); null when there is no such key. */
export async function setKeyRateLimit(
  apiKeys: Collection<ApiKeyDocument>,
  id: string,
  kind: ApiKeyKind,
  tenantId: string | null,
  rateLimit: RateLimitSetting | null,
): Promise<ApiKeyInfo | null> {
  const filter = kind === "admin" ? { _id: id, kind, revoked: null } : { _id: id, kind, tenantId, revoked: null };
  const doc = await apiKeys.findOneAndUpdate(filter, { $set: { rateLimit } }, { returnDocument: "after" });
  return doc ? infoOf(doc) : null;
}

/** Revokes a key of the given kind (and tenant, for application keys); false when there is none. */
export async function revokeApiKey(apiKeys: Collection<ApiKeyDocument>, id: string, kind: ApiKeyKind, tenantId: string | null, now: Date): Promise<boolean> {
  const filter = kind === "admin" ? { _id: id, kind, revoked: null } : { _id: id, kind, tenantId, revoked: null };
  const result = await apiKeys.updateOne(filter, { $set: { revoked: now } });
  return result.matchedCount === 1;
}
