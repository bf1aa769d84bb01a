// The listing of each tenant's users (engine/store/tenant-users.ts): what the walks over a tenant's
// users (points and level summaries, achievement backdating) read instead of a query on `users`.
import { afterEach, describe, expect, it } from "vitest";
import type { CommandStartedEvent } from "mongodb";
import { createUserState } from "../../src/engine/domain/user.js";
import { openDatabase, type Database } from "../../src/engine/store/database.js";
import { ConfigCache } from "../../src/engine/store/config-cache.js";
import { TenantCalls } from "../../src/engine/tenant-calls.js";
import { KeyedLock } from "../../src/engine/store/keyed-lock.js";
import { deleteTenantListings, unlistTenantUser, userIdsOfTenant } from "../../src/engine/store/tenant-users.js";
import { cacheUsers, storedStatesOfTenant, userDocument } from "../../src/engine/store/user-documents.js";
import { commitUserChange } from "../../src/engine/user-commit.js";
import type { ServiceContext } from "../../src/engine/context.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";

const T0 = new Date("2026-06-01T12:00:00Z");
const opened: Array<{ testDb: TestDatabase; database: Database }> = [];

afterEach(async () => {
  for (const { testDb, database } of opened.splice(0)) {
    await database.close();
    await testDb.close();
  }
});

/** A store on a new database, after `before` wrote to it (as an earlier version would have). */
async function store(before: (testDb: TestDatabase) => Promise<unknown> = async () => {}) {
  const testDb = await openTestDatabase();
  await before(testDb);
  const database = await openDatabase(`${testDb.uri}?monitorCommands=true`, testDb.dbName);
  opened.push({ testDb, database });
  const ctx: ServiceContext = {
    database,
    config: new ConfigCache(database.collections),
    userLocks: new KeyedLock(),
    tenantCalls: new TenantCalls(),
    now: () => T0,
    idempotencyWindowMs: null,
  };
  const queriesOnUsers: CommandStartedEvent[] = [];
  database.client.on("commandStarted", (c) => {
    const filter = (c.command.filter ?? {}) as Record<string, unknown>;
    if (c.commandName === "find" && c.command.find === "users" && !("_id" in filter)) queriesOnUsers.push(c);
  });
  const create = async (tenantId: string, userId: string) => expect(await commitUserChange(ctx, tenantId, null, createUserState(userId, T0), 1)).toBe(true);
  const listed = async (tenantId: string) =>
    (await userIdsOfTenant(database.collections.tenantUsers, database.collections.users, ctx.userLocks, tenantId)).sort();
  return { database, ctx, create, listed, queriesOnUsers };
}

describe("the users of a tenant, listed by key", () => {
  it("lists each user its creating write makes, per tenant; takes out an erased one and a deleted tenant's; never queries users", async () => {
    const { database, ctx, create, listed, queriesOnUsers } = await store();
    await create("t1", "ann");
    await create("t1", "bob");
    await create("t2", "ann"); // the same ID in another tenant is another user
    expect(await listed("t1")).toEqual(["ann", "bob"]);
    expect(await listed("t2")).toEqual(["ann"]);

    await unlistTenantUser(database.collections.tenantUsers, ctx.userLocks, "t1", "bob");
    expect(await listed("t1")).toEqual(["ann"]);
    const pages = await database.collections.tenantUsers.find({}).toArray();
    expect(JSON.stringify(pages)).not.toContain("bob");

    await deleteTenantListings(database.collections.tenantUsers, "t1");
    expect(await listed("t1")).toEqual([]);
    expect(await listed("t2")).toEqual(["ann"]);
    expect(queriesOnUsers).toEqual([]);
  });

  it("on a database that held users before, lists a tenant's earlier users once, with one query, then follows the writes", async () => {
    const { database, create, listed, queriesOnUsers } = await store((testDb) =>
      testDb.db
        .collection("users")
        .insertMany([
          userDocument("t1", createUserState("old-1", T0)),
          userDocument("t1", createUserState("old-2", T0)),
          userDocument("t2", createUserState("other", T0)),
        ] as never[]),
    );
    await create("t1", "new");
    expect(await listed("t1")).toEqual(["new", "old-1", "old-2"]);
    expect(queriesOnUsers).toHaveLength(1);

    // Listed now: a document written past the service (as no version of it does) is not looked for again.
    await database.collections.users.insertOne(userDocument("t1", createUserState("unseen", T0)));
    expect(await listed("t1")).toEqual(["new", "old-1", "old-2"]);
    expect(queriesOnUsers).toHaveLength(1);
    // Each tenant is listed on its own first walk.
    expect(await listed("t2")).toEqual(["other"]);
    expect(queriesOnUsers).toHaveLength(2);
  });

  it("a walk reads the same states from the cache as from the database", async () => {
    const { database, ctx, listed } = await store();
    const state = { ...createUserState("ann", T0), attributes: { plan: "pro" }, achievements: { a1: { completedAt: T0 } } };
    expect(await commitUserChange(ctx, "t1", null, state as never, 1)).toBe(true);
    await commitUserChange(ctx, "t1", null, createUserState("bob", T0), 1);
    const walk = async () => {
      const states = [];
      for await (const { userId, stored } of storedStatesOfTenant(database.collections.users, "t1", await listed("t1"), ["achievements", "attributes"]))
        states.push({ userId, attributes: stored.attributes, achievements: stored.achievements });
      return states;
    };
    const fromCache = await walk();
    cacheUsers(database.collections.users, 0, 0); // off: every user read from the database
    expect(await walk()).toEqual(fromCache);
    expect(fromCache).toEqual([
      { userId: "ann", attributes: { plan: "pro" }, achievements: { a1: { completedAt: T0 } } },
      { userId: "bob", attributes: {}, achievements: {} },
    ]);
  });
});
