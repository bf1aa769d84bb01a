import { randomUUID } from "node:crypto";
import type { Collection, Document, Filter } from "mongodb";
import type { BulkResult } from "../../engine/domain/bulk.js";
import { isDuplicateKeyError } from "../../engine/store/database.js";
import { writeIfCurrent } from "../../engine/store/conditional-write.js";
import type { ServiceContext } from "../../engine/context.js";

/** Where a configuration resource lives: a tenant, and for nested resources (a points system's triggers) its parent. */
export interface ResourceScope {
  tenantId: string;
  parent?: { field: string; id: string };
}

/**
 * What makes one kind of configuration resource: how to check and build it from a draft, how to
 * check and apply changes, and what may stop its deletion. The bulk create, list, get, update and
 * delete calls of the Admin API are the same for every kind and live once, below.
 */
export interface ResourceSpec<T extends { id: string }, Draft, Changes> {
  /** Singular display noun for messages ("Metric"). */
  noun: string;
  collection(ctx: ServiceContext): Collection<Document>;
  /** What is wrong with a draft (field and rule), or null. May read other configuration. */
  checkDraft(ctx: ServiceContext, scope: ResourceScope, draft: Draft): Promise<string | null>;
  build(draft: Draft, id: string, now: Date): T;
  /** What is wrong with an update, or null. */
  checkChanges(ctx: ServiceContext, scope: ResourceScope, current: T, changes: Changes): Promise<string | null>;
  applyChanges(current: T, changes: Changes, now: Date): T;
  /** The message for a unique-index violation (e.g. a key already in use). */
  duplicateMessage(resource: T): string;
  /** Why the resource cannot be deleted (e.g. what still refers to it), or null. */
  checkDelete?(ctx: ServiceContext, scope: ResourceScope, current: T): Promise<string | null>;
  /**
   * Work that follows a successful create or update, once the configuration cache is fresh;
   * `previous`: the resource before an update (undefined after a create).
   */
  afterSave?(ctx: ServiceContext, scope: ResourceScope, resource: T, previous?: T): Promise<void>;
  /** Work that must see the resource before it is deleted (a crash after it leaves the resource, and a repeated delete repeats it). */
  beforeDelete?(ctx: ServiceContext, scope: ResourceScope, current: T): Promise<void>;
  /** Clean-up of data derived from a deleted resource (runs after the resource is gone). */
  afterDelete?(ctx: ServiceContext, scope: ResourceScope, resource: T): Promise<void>;
  /** Sort order of lists; creation order by default. */
  sort?: Record<string, 1 | -1>;
  /**
   * Fields another writer sets on the stored document (the boost check's marks): an update is
   * written only if they are still as read (missing counts as null), else checked again.
   */
  versionFields?: readonly string[];
}

function scopeFilter(scope: ResourceScope): Filter<Document> {
  return scope.parent ? { tenantId: scope.tenantId, [scope.parent.field]: scope.parent.id } : { tenantId: scope.tenantId };
}

function toDocument<T extends { id: string }>(scope: ResourceScope, resource: T): Document {
  const { id, ...rest } = resource;
  return { _id: id, ...scopeFilter(scope), ...rest };
}

function fromDocument<T>(scope: ResourceScope, doc: Document): T {
  const { _id, tenantId: _tenant, ...rest } = doc;
  if (scope.parent) delete rest[scope.parent.field];
  return { id: _id as string, ...rest } as T;
}

/**
 * Creation instants for the items of one call: now, but each at least a millisecond after the one
 * before. Lists and the configuration cache order resources by `created` (then by their random ID),
 * so items created in one call keep the order they were given (points triggers apply in it) even
 * when the clock has not moved between them (a fast database, a test's fixed clock).
 */
export function creationClock(ctx: Pick<ServiceContext, "now">): () => Date {
  let last = -Infinity;
  return () => {
    last = Math.max(ctx.now().getTime(), last + 1);
    return new Date(last);
  };
}

/** Creates the drafts in the order given; `clock` dates them (one clock may serve several calls). */
export async function createResources<T extends { id: string }, D, C>(
  spec: ResourceSpec<T, D, C>,
  ctx: ServiceContext,
  scope: ResourceScope,
  drafts: D[],
  clock: () => Date = creationClock(ctx),
): Promise<BulkResult<T>> {
  const result: BulkResult<T> = { done: [], issues: [] };
  for (const [index, draft] of drafts.entries()) {
    const problem = await spec.checkDraft(ctx, scope, draft);
    if (problem) {
      result.issues.push({ index, severity: "error", message: problem });
      continue;
    }
    const resource = spec.build(draft, randomUUID(), clock());
    try {
      await spec.collection(ctx).insertOne(toDocument(scope, resource));
      result.done.push(resource);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      result.issues.push({ index, severity: "error", message: spec.duplicateMessage(resource) });
    }
  }
  ctx.config.invalidate();
  await runAfterSave(spec, ctx, scope, result.done);
  return result;
}

async function runAfterSave<T extends { id: string }>(
  spec: ResourceSpec<T, never, never>,
  ctx: ServiceContext,
  scope: ResourceScope,
  saved: T[],
  previous?: ReadonlyMap<string, T>,
): Promise<void> {
  for (const resource of saved) await spec.afterSave?.(ctx, scope, resource, previous?.get(resource.id));
}

export async function listResources<T extends { id: string }>(
  spec: ResourceSpec<T, never, never>,
  ctx: ServiceContext,
  scope: ResourceScope,
  page: { limit: number; skip: number },
): Promise<T[]> {
  const docs = await spec
    .collection(ctx)
    .find(scopeFilter(scope))
    .sort(spec.sort ?? { created: 1, _id: 1 })
    .skip(page.skip)
    .limit(page.limit)
    .toArray();
  return docs.map((doc) => fromDocument<T>(scope, doc));
}

export async function getResource<T extends { id: string }>(
  spec: ResourceSpec<T, never, never>,
  ctx: ServiceContext,
  scope: ResourceScope,
  id: string,
): Promise<T | null> {
  const doc = await spec.collection(ctx).findOne({ _id: id as never, ...scopeFilter(scope) });
  return doc ? fromDocument<T>(scope, doc) : null;
}

/** How often an update is checked again against what a concurrent write left before it gives up. */
export const UPDATE_ATTEMPTS = 5;

/**
 * Updates in the order given. Each is checked against the resource as stored and written only if
 * nothing was written to it since that read (its `updated`: `writeIfCurrent`), else checked again
 * against what won, so two concurrent calls changing different fields both take effect and neither
 * undoes an archive. An ID named twice in one call is updated twice, in order; the work after a
 * change (`afterSave`) runs once per resource, comparing its state before the call with its last.
 */
export async function updateResources<T extends { id: string; updated: Date }, D, C>(
  spec: ResourceSpec<T, D, C>,
  ctx: ServiceContext,
  scope: ResourceScope,
  updates: Array<{ id: string; changes: C }>,
): Promise<BulkResult<T>> {
  const result: BulkResult<T> = { done: [], issues: [] };
  const saved = new Map<string, { before: T; after: T }>();
  for (const { id, changes } of updates) {
    const outcome = await updateResource(spec, ctx, scope, id, changes);
    if (typeof outcome === "string") {
      result.issues.push({ id, severity: "error", message: outcome });
      continue;
    }
    result.done.push(outcome.next);
    saved.set(id, { before: saved.get(id)?.before ?? outcome.current, after: outcome.next });
  }
  ctx.config.invalidate();
  const last = [...saved.values()];
  await runAfterSave(
    spec,
    ctx,
    scope,
    last.map((s) => s.after),
    new Map(last.map((s) => [s.after.id, s.before])),
  );
  return result;
}

/** One update, checked and written as `updateResources` says; a string when it is an issue. */
async function updateResource<T extends { id: string; updated: Date }, D, C>(
  spec: ResourceSpec<T, D, C>,
  ctx: ServiceContext,
  scope: ResourceScope,
  id: string,
  changes: C,
): Promise<{ current: T; next: T } | string> {
  const collection = spec.collection(ctx) as unknown as Collection<Document & { _id: string }>;
  for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
    const current = await getResource(spec, ctx, scope, id);
    if (!current) return `${spec.noun} not found by ID`;
    const problem = await spec.checkChanges(ctx, scope, current, changes);
    if (problem) return problem;
    const next = spec.applyChanges(current, changes, ctx.now());
    try {
      const replacement = toDocument(scope, next) as Document & { _id: string };
      if (
        await writeIfCurrent(
          collection,
          ctx.database.writeMode,
          ctx.userLocks,
          id,
          { ...scopeFilter(scope), updated: current.updated, ...versionOf(spec, current) } as Partial<Document & { _id: string }>,
          { replacement },
        )
      ) {
        return { current, next };
      }
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return spec.duplicateMessage(next);
    }
  }
  return `${spec.noun} kept changing while this request updated it; send the update again`;
}

/** The values of a spec's `versionFields` as read (null when missing). */
function versionOf<T>(spec: { versionFields?: readonly string[] }, current: T): Record<string, unknown> {
  return Object.fromEntries((spec.versionFields ?? []).map((field) => [field, (current as Record<string, unknown>)[field] ?? null]));
}

/**
 * Deletes in the order given; an item refused because something still refers to it is tried again
 * once the others are gone, so a request deleting an item and what refers to it (an achievement and
 * the one it is a prerequisite of) succeeds in any order. Issues keep the request's order.
 */
export async function deleteResources<T extends { id: string }>(
  spec: ResourceSpec<T, never, never>,
  ctx: ServiceContext,
  scope: ResourceScope,
  ids: string[],
): Promise<BulkResult<{ id: string }>> {
  const result: BulkResult<{ id: string }> = { done: [], issues: [] };
  let pending = ids.map((id) => ({ id, problem: null as string | null }));
  for (let deleted = true; deleted && pending.length > 0;) {
    deleted = false;
    const refused: typeof pending = [];
    for (const item of pending) {
      const current = await getResource(spec, ctx, scope, item.id);
      if (!current) {
        result.issues.push({ id: item.id, severity: "error", message: `${spec.noun} not found by ID` });
        continue;
      }
      const problem = (await spec.checkDelete?.(ctx, scope, current)) ?? null;
      if (problem) {
        refused.push({ ...item, problem });
        continue;
      }
      await spec.beforeDelete?.(ctx, scope, current);
      await spec.collection(ctx).deleteOne({ _id: item.id as never, ...scopeFilter(scope) });
      await spec.afterDelete?.(ctx, scope, current);
      result.done.push({ id: item.id });
      deleted = true;
    }
    pending = refused;
  }
  for (const item of pending) result.issues.push({ id: item.id, severity: "error", message: item.problem! });
  result.issues.sort((a, b) => ids.indexOf(a.id!) - ids.indexOf(b.id!));
  ctx.config.invalidate();
  return result;
}

/** Keeps only the fields that are set, so an update changes only what it names. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
