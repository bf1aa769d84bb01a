import type { Filter, Document } from "mongodb";
import type { Collections } from "./store/database.js";
import type { ServiceContext } from "./context.js";

export type ReferencedKind = "metric" | "attribute" | "achievement" | "points_system";

/**
 * One way a configuration resource refers to another: deleting a resource that something still
 * refers to is refused with a message naming the referrer.
 */
export interface Reference {
  kind: ReferencedKind;
  collection: keyof Collections;
  /** The display noun of the referring resource. */
  noun: string;
  /** The filter matching referrers of the resource with this ID and key. */
  filter(id: string, key: string): Filter<Document>;
}

/**
 * Every delete protection, in one table (no module registers its own: one that is not imported
 * would silently lose its protection). A new reference between resources gets a row here, and
 * test/account/references.test.ts checks every row refuses a delete.
 */
export const REFERENCES: readonly Reference[] = [
  // Achievements.
  { kind: "metric", collection: "achievements", noun: "achievement", filter: (id) => ({ metricId: id }) },
  { kind: "achievement", collection: "achievements", noun: "achievement", filter: (id) => ({ achievementIds: id }) },
  // Achievement attribute filters name attributes by key. Keys are unique per type only, so a user and
  // an event attribute with the same key both count as used by a filter of either kind (a refusal, never a loss).
  { kind: "attribute", collection: "achievements", noun: "achievement", filter: (_id, key) => ({ "userAttributes.key": key }) },
  { kind: "attribute", collection: "achievements", noun: "achievement", filter: (_id, key) => ({ "eventAttributes.key": key }) },
  // Points triggers and boosts.
  { kind: "metric", collection: "pointsTriggers", noun: "points trigger", filter: (id) => ({ metricId: id }) },
  { kind: "achievement", collection: "pointsTriggers", noun: "points trigger", filter: (id) => ({ achievementId: id }) },
  { kind: "attribute", collection: "pointsTriggers", noun: "points trigger", filter: (id) => ({ "userAttributes.attributeId": id }) },
  { kind: "attribute", collection: "pointsTriggers", noun: "points trigger", filter: (id) => ({ "eventAttributes.attributeId": id }) },
  { kind: "attribute", collection: "pointsBoosts", noun: "points boost", filter: (id) => ({ "userAttributes.attributeId": id }) },
  // Leaderboards.
  { kind: "metric", collection: "leaderboards", noun: "leaderboard", filter: (id) => ({ metricId: id }) },
  { kind: "points_system", collection: "leaderboards", noun: "leaderboard", filter: (id) => ({ pointsSystemId: id }) },
  { kind: "attribute", collection: "leaderboards", noun: "leaderboard", filter: (id) => ({ breakdownAttributes: id }) },
  { kind: "attribute", collection: "leaderboards", noun: "leaderboard", filter: (id) => ({ "userAttributes.attributeId": id }) },
  // Streak settings: a metric that is a streak condition.
  { kind: "metric", collection: "streakSettings", noun: "streak settings", filter: (id) => ({ "metrics.metricId": id }) },
];

/** Why the resource cannot be deleted (what still refers to it), or null. */
export async function describeReferrers(ctx: ServiceContext, tenantId: string, kind: ReferencedKind, id: string, key: string): Promise<string | null> {
  for (const reference of REFERENCES.filter((r) => r.kind === kind)) {
    const referrer: Document | null = await ctx.database.collections[reference.collection].findOne({ tenantId, ...reference.filter(id, key) } as never);
    if (referrer) {
      const { _id, name, key: referrerKey } = referrer as { _id: string; name?: string; key?: string };
      const label = name ?? referrerKey;
      return `Cannot delete: still used by ${reference.noun} ${label === undefined ? `"${_id}"` : `"${label}" (${_id})`}; remove that reference first`;
    }
  }
  return null;
}
