import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../src/server/embedded-db.js";
import { startChildServer } from "../helpers/child-server.js";
import { openTestDatabase, type TestDatabase } from "../helpers/database.js";

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe("durability", () => {
  it("keeps data across a restart, and shuts down cleanly on SIGTERM", async () => {
    const port = await findFreePort();
    const first = await startChildServer(database, port);
    expect((await first.post("/admin/v1/metrics", [{ key: "pages", name: "Pages" }])).status).toBe(201);
    expect((await first.post("/api/metrics/pages/event", { user: { id: "reader" }, value: 12.5 })).body.total).toBe(12.5);
    expect(await first.stop()).toBe(0);

    const second = await startChildServer(database, port);
    try {
      const next = await second.post("/api/metrics/pages/event", { user: { id: "reader" }, value: 0.25 });
      expect(next).toMatchObject({ status: 201, body: { total: 12.75 } });
    } finally {
      await second.stop();
    }
  });
});
