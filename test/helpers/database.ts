import { randomBytes } from "node:crypto";
import { MongoClient, type Db } from "mongodb";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, type Database } from "../../src/engine/store/database.js";

/** A database of its own for one test file, on the server started by test/global-setup.ts. */
export interface TestDatabase {
  client: MongoClient;
  db: Db;
  /** Connection string naming this database, for servers started by the test as child processes. */
  uri: string;
  dbName: string;
  /** Drops the database and closes the client. */
  close(): Promise<void>;
}

/**
 * Opens a new, uniquely named, empty database. Call it once per test file (in `beforeAll`) and
 * `close()` it in `afterAll`, so files running in parallel never see each other's data.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const serverUri = inject("mongoUri");
  const dbName = `t_${randomBytes(6).toString("hex")}`;
  const url = new URL(serverUri);
  url.pathname = `/${dbName}`;
  const uri = url.toString();

  const client = await new MongoClient(uri).connect();
  const db = client.db(dbName);
  return {
    client,
    db,
    uri,
    dbName,
    async close() {
      try {
        await db.dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

/**
 * The service's own store (`openDatabase`: collections, indexes, write mode) on a new test database,
 * for tests that drive the store or the background loops directly. Open it in `beforeAll`; `close()`
 * closes the store and drops the database.
 */
export async function openTestStore(): Promise<{ database: Database; close(): Promise<void> }> {
  const testDb = await openTestDatabase();
  const database = await openDatabase(testDb.uri, testDb.dbName);
  return {
    database,
    async close() {
      await database.close();
      await testDb.close();
    },
  };
}

/**
 * `openTestStore` for the tests of one file: opened before them, closed after them. Read
 * `.database` inside tests (it exists once `beforeAll` has run).
 */
export function useTestStore(): { readonly database: Database } {
  let opened: Awaited<ReturnType<typeof openTestStore>> | undefined;
  beforeAll(async () => {
    opened = await openTestStore();
  });
  afterAll(() => opened?.close());
  return {
    get database() {
      if (!opened) throw new Error("the test store is opened in beforeAll");
      return opened.database;
    },
  };
}
