import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/engine/store/database.js";
import { ensureAdminKey, findCaller, listAdminKeys } from "../../src/features/account/store/api-keys.js";
import { openTestStore } from "../helpers/database.js";

let opened: Awaited<ReturnType<typeof openTestStore>>;
let database: Database;
const now = new Date("2026-06-01T12:00:00Z");

beforeAll(async () => {
  opened = await openTestStore();
  database = opened.database;
});
afterAll(() => opened.close());

describe("an operator's ADMIN_API_KEY without a prefix", () => {
  const key = "correcthorsebatterystaple-0123456789";

  it("is stored and listed without any character of it, and still admits its caller", async () => {
    const { apiKeys } = database.collections;
    await ensureAdminKey(apiKeys, key, now);
    const stored = JSON.stringify(await apiKeys.find({}).toArray());
    expect(stored).not.toContain(key.slice(0, 4));
    expect((await listAdminKeys(apiKeys)).map((info) => info.prefix)).toEqual([expect.stringMatching(/^sha256:[0-9a-f]{12}$/)]);
    expect(await findCaller(apiKeys, key)).toMatchObject({ kind: "admin", tenantId: null });
    expect(await findCaller(apiKeys, `${key}x`)).toBeNull();
  });

  it("stored by an earlier version under its first 8 characters, is moved to the hashed prefix at start-up", async () => {
    const { apiKeys } = database.collections;
    await apiKeys.deleteMany({});
    await ensureAdminKey(apiKeys, key, now);
    const [document] = await apiKeys.find({}).toArray();
    await apiKeys.updateOne({ _id: document!._id }, { $set: { prefix: key.slice(0, 8) } }); // as before
    await ensureAdminKey(apiKeys, key, now);
    const documents = await apiKeys.find({}).toArray();
    expect(documents.map((doc) => [doc._id, doc.prefix])).toEqual([[document!._id, document!.prefix]]);
    expect(await findCaller(apiKeys, key)).toMatchObject({ keyId: document!._id });
  });
});

describe("an operator's ADMIN_API_KEY with a dot", () => {
  const key = "CorrectHorseBatteryStaple2026.x";

  it("is listed by a part of its hash, not by the part before the dot", async () => {
    const { apiKeys } = database.collections;
    await apiKeys.deleteMany({});
    await ensureAdminKey(apiKeys, key, now);
    expect(JSON.stringify(await apiKeys.find({}).toArray())).not.toContain("Correct");
    expect((await listAdminKeys(apiKeys)).map((info) => info.prefix)).toEqual([expect.stringMatching(/^sha256:[0-9a-f]{12}$/)]);
    expect(await findCaller(apiKeys, key)).toMatchObject({ kind: "admin" });
  });

  it("stored by an earlier version under the part before the dot, is moved to the hashed prefix at start-up", async () => {
    const { apiKeys } = database.collections;
    const [document] = await apiKeys.find({}).toArray();
    await apiKeys.updateOne({ _id: document!._id }, { $set: { prefix: "CorrectHorseBatteryStaple2026" } }); // as before
    expect(await ensureAdminKey(apiKeys, key, now)).toBe("active");
    expect((await apiKeys.find({}).toArray()).map((doc) => [doc._id, doc.prefix])).toEqual([[document!._id, document!.prefix]]);
  });
});

describe("a revoked ADMIN_API_KEY", () => {
  it("stays revoked at the next start-up (a leaked key's revocation outlasts restarts)", async () => {
    const { apiKeys } = database.collections;
    const key = "adm_operator01.secret-value";
    expect(await ensureAdminKey(apiKeys, key, now)).toBe("active");
    await apiKeys.updateOne({ prefix: "adm_operator01" }, { $set: { revoked: now } });
    expect(await ensureAdminKey(apiKeys, key, now)).toBe("revoked");
    expect(await findCaller(apiKeys, key)).toBeNull();
  });
});
