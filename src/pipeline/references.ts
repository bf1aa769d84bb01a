import type { Filter, Document } from "mongodb";
import type { Collections } from "../store/database.js";
import type { ServiceContext } from "./context.js";

export type ReferencedKind = "metric" | "attribute" | "achievement" | "points_system";

/**
 * Which configuration refers to which: deleting a resource that something still refers to is
 * refused with a message naming the referrer. Each feature registers the references its own
 * resources make, so the delete rules of every kind stay in this one table.
 */
interface Reference {
  kind: ReferencedKind;
  collection: keyof Collections;
  /** The display noun of the referring resource. */
  noun: string;
  /** The filter matching referrers of the resource with this ID and key. */
  filter(id: string, key: string): Filter<Document>;
}

const REFERENCES: Reference[] = [];

/** Registers a reference; called once per kind of reference at module load. */
export function registerReference(reference: Reference): void {
  REFERENCES.push(reference);
}

/** Why the resource cannot be deleted (what still refers to it), or null. */
export async function describeReferrers(ctx: ServiceContext, tenantId: string, kind: ReferencedKind, id: string, key: string): Promise<string | null> {
  for (const reference of REFERENCES.filter((r) => r.kind === kind)) {
    const referrer: Document | null = await ctx.database.collections[reference.collection].findOne({ tenantId, ...reference.filter(id, key) } as never);
    if (referrer) {
      const { _id, name, key: referrerKey } = referrer as { _id: string; name?: string; key?: string };
      return `Cannot delete: still used by ${reference.noun} "${name ?? referrerKey ?? _id}" (${_id}); remove that reference first`;
    }
  }
  return null;
}
