import { MongoServerError } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";

describe("test database harness", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  });

  afterAll(async () => {
    await database?.close();
  });

  it("stores and reads back a document", async () => {
    const users = database.db.collection<{ _id: string; points: number; badges: string[] }>("users");
    await users.insertOne({ _id: "u1", points: 42, badges: ["first-step"] });

    expect(await users.findOne({ _id: "u1" })).toEqual({ _id: "u1", points: 42, badges: ["first-step"] });
    expect(database.uri).toContain(`/${database.dbName}`);
  });

  it("gives every caller its own database and drops it on close", async () => {
    const other = await openTestDatabase();
    try {
      expect(other.dbName).not.toBe(database.dbName);
      await other.db.collection<{ _id: number }>("probe").insertOne({ _id: 1 });
      expect(await database.db.collection("probe").countDocuments()).toBe(0);
    } finally {
      await other.close();
    }

    const { databases } = await database.client.db("admin").admin().listDatabases();
    expect(databases.map((d) => d.name)).not.toContain(other.dbName);
  });

  it("enforces unique indexes", async () => {
    const tenants = database.db.collection<{ slug: string }>("tenants");
    await tenants.createIndex({ slug: 1 }, { unique: true });
    await tenants.insertOne({ slug: "acme" });

    const duplicate = tenants.insertOne({ slug: "acme" });
    await expect(duplicate).rejects.toBeInstanceOf(MongoServerError);
    await expect(duplicate).rejects.toMatchObject({ code: 11000 });
    expect(await tenants.countDocuments({ slug: "acme" })).toBe(1);
  });
});
