import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFERENCES, type ReferencedKind, type Reference } from "../../src/engine/references.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/**
 * Every row of the delete-protection table (src/engine/references.ts) refuses a delete through
 * the Admin API: a referrer shaped as the row describes is stored, the referenced resource's
 * delete is refused naming it, and once the referrer is gone the delete goes through.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 180_000);
afterAll(async () => {
  await server?.close();
});

/** A row's identity: its collection and the filter it builds for ID "ID" and key "KEY". */
function rowName(reference: Reference): string {
  return `${reference.kind} <- ${reference.collection} ${JSON.stringify(reference.filter("ID", "KEY"))}`;
}

/** For each row, the fields of a stored referrer of the resource with this ID and key. */
const REFERRER_FIELDS: Record<string, (id: string, key: string) => Record<string, unknown>> = {
  'metric <- achievements {"metricId":"ID"}': (id) => ({ trigger: "metric", metricId: id }),
  'achievement <- achievements {"achievementIds":"ID"}': (id) => ({ trigger: "achievement", achievementIds: [id] }),
  'attribute <- achievements {"userAttributes.key":"KEY"}': (_id, key) => ({ userAttributes: [{ key, value: "x" }] }),
  'attribute <- achievements {"eventAttributes.key":"KEY"}': (_id, key) => ({ eventAttributes: [{ key, value: "x" }] }),
  'metric <- pointsTriggers {"metricId":"ID"}': (id) => ({ type: "metric", metricId: id }),
  'achievement <- pointsTriggers {"achievementId":"ID"}': (id) => ({ type: "achievement", achievementId: id }),
  'attribute <- pointsTriggers {"userAttributes.attributeId":"ID"}': (id) => ({ userAttributes: [{ attributeId: id, value: "x" }] }),
  'attribute <- pointsTriggers {"eventAttributes.attributeId":"ID"}': (id) => ({ eventAttributes: [{ attributeId: id, value: "x" }] }),
  'attribute <- pointsBoosts {"userAttributes.attributeId":"ID"}': (id) => ({ userAttributes: [{ attributeId: id, value: "x" }] }),
  'metric <- leaderboards {"metricId":"ID"}': (id) => ({ rankBy: "metric", metricId: id }),
  'points_system <- leaderboards {"pointsSystemId":"ID"}': (id) => ({ rankBy: "points", pointsSystemId: id }),
  'attribute <- leaderboards {"breakdownAttributes":"ID"}': (id) => ({ breakdownAttributes: [id] }),
  'attribute <- leaderboards {"userAttributes.attributeId":"ID"}': (id) => ({ userAttributes: [{ attributeId: id, value: "x" }] }),
  'metric <- streakSettings {"metrics.metricId":"ID"}': (id) => ({ metrics: [{ metricId: id, threshold: 1 }] }),
};

/** Creates a resource of this kind in the tenant through the Admin API; returns its ID, key and delete path. */
async function createReferenced(kind: ReferencedKind, tenantId: string): Promise<{ id: string; key: string; path: string }> {
  const create = async (path: string, body: unknown) => {
    const response = await server.rest("POST", path, { tenantId, body: [body] });
    expect(response.status).toBe(201);
    return response.body.created[0].id as string;
  };
  switch (kind) {
    case "metric":
      return { id: await create("/admin/v1/metrics", { key: "words", name: "Words" }), key: "words", path: "/admin/v1/metrics" };
    case "attribute":
      return { id: await create("/admin/v1/attributes", { key: "plan", name: "Plan", type: "user" }), key: "plan", path: "/admin/v1/attributes" };
    case "points_system":
      return { id: await create("/admin/v1/points", { key: "coins", name: "Coins" }), key: "coins", path: "/admin/v1/points" };
    case "achievement": {
      const metricId = await create("/admin/v1/metrics", { key: "steps", name: "Steps" });
      const id = await create("/admin/v1/achievements", { key: "first-steps", name: "First steps", trigger: "metric", metricId, metricValue: 1 });
      return { id, key: "first-steps", path: "/admin/v1/achievements" };
    }
  }
}

describe("delete protection table", () => {
  it("names a referrer shape for every row, and every row is distinct", () => {
    const names = REFERENCES.map(rowName);
    expect(new Set(names).size).toBe(names.length);
    expect(names.toSorted()).toEqual(Object.keys(REFERRER_FIELDS).toSorted());
  });

  it.each(REFERENCES.map((reference, index) => [rowName(reference), reference, index] as const))(
    "refuses the delete while referred to: %s",
    async (_name, reference, index) => {
      const tenantId = `references-${index}`;
      const tenant = await server.rest("POST", "/admin/v1/tenants", { body: [{ customerId: tenantId, name: tenantId }] });
      expect(tenant.status).toBe(201);
      const scope: string = tenant.body.created[0].id;
      const referenced = await createReferenced(reference.kind, tenantId);
      const collection = server.service.context.database.collections[reference.collection];
      const referrerId = `referrer-${index}`;
      const fields = REFERRER_FIELDS[rowName(reference)]!(referenced.id, referenced.key);
      await collection.insertOne({ _id: referrerId, tenantId: scope, key: "referrer", name: "The referrer", ...fields } as never);

      const refused = await server.rest("DELETE", `${referenced.path}?ids=${referenced.id}`, { tenantId });
      expect(refused.body.deleted).toEqual([]);
      expect(refused.body.issues).toEqual([
        expect.objectContaining({
          id: referenced.id,
          severity: "error",
          message: `Cannot delete: still used by ${reference.noun} "The referrer" (${referrerId}); remove that reference first`,
        }),
      ]);

      await collection.deleteOne({ _id: referrerId } as never);
      expect((await server.rest("DELETE", `${referenced.path}?ids=${referenced.id}`, { tenantId })).body.deleted).toEqual([{ id: referenced.id }]);
    },
  );
});
