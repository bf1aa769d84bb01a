import { expect } from "vitest";
import type { TestServer } from "./server.js";

/** Creates Admin API items by a bulk POST, expecting no issues; their IDs in order. */
export async function createdIds(server: TestServer, path: string, body: unknown[], tenantId?: string): Promise<string[]> {
  const r = await server.rest("POST", path, { body, tenantId });
  expect(r.body.issues, JSON.stringify(r.body)).toEqual([]);
  return r.body.created.map((i: { id: string }) => i.id);
}
