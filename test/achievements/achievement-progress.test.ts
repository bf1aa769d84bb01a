import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createdIds } from "../helpers/admin-items.js";

// A metric achievement with event attribute filters counts the matching events while it is active;
// a change of its metric or filters starts the count over (the events counted before were counted
// toward something else).

let server: TestServer;
const ids: Record<string, string> = {};

const created = (path: string, body: unknown[]) => createdIds(server, path, body);
async function event(metric: string, userId: string, value: number, src: string): Promise<string[]> {
  const r = await server.rest("POST", `/v1/metrics/${metric}/event`, { body: { user: { id: userId }, value, attributes: { src } } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return (r.body.achievements ?? []).map((a: { key: string }) => a.key);
}
async function patch(item: Record<string, unknown>) {
  const r = await server.rest("PATCH", "/admin/v1/achievements", { body: [item] });
  expect(r.body.issues, JSON.stringify(r.body)).toEqual([]);
}
async function achievement(key: string, metric: string, extra: Record<string, unknown> = {}) {
  const body = { key, name: key, trigger: "metric", metricId: ids[metric], metricValue: 10, eventAttributes: [{ key: "src", value: "web" }], status: "active" };
  ids[key] = (await created("/admin/v1/achievements", [{ ...body, ...extra }]))[0]!;
}

beforeAll(async () => {
  server = await startTestServer();
  const metrics = ["pages", "notes", "posts", "clips", "films"];
  (
    await created(
      "/admin/v1/metrics",
      metrics.map((key) => ({ key, name: key })),
    )
  ).forEach((id, i) => (ids[metrics[i]!] = id));
  await created("/admin/v1/attributes", [{ key: "src", name: "Source", type: "event" }]);
});
afterAll(() => server.close());

describe("progress of an achievement with event attribute filters", () => {
  it("moved to another metric counts that metric's matching events only", async () => {
    await achievement("moved", "pages");
    expect(await event("pages", "u1", 8, "web")).toEqual([]);
    await patch({ id: ids.moved, metricId: ids.notes });
    expect(await event("notes", "u1", 2, "web")).toEqual([]); // 2 of 10, not 8 + 2
    expect(await event("notes", "u1", 8, "web")).toEqual(["moved"]);
  });

  it("given another filter counts the events matching the new one only", async () => {
    await achievement("refiltered", "posts");
    expect(await event("posts", "u2", 8, "web")).toEqual([]);
    await patch({ id: ids.refiltered, eventAttributes: [{ key: "src", value: "app" }] });
    expect(await event("posts", "u2", 2, "app")).toEqual([]);
    expect(await event("posts", "u2", 8, "app")).toEqual(["refiltered"]);
  });

  it("a new threshold keeps the count", async () => {
    await achievement("lowered", "clips");
    expect(await event("clips", "u3", 6, "web")).toEqual([]);
    await patch({ id: ids.lowered, metricValue: 7 });
    expect(await event("clips", "u3", 1, "web")).toEqual(["lowered"]);
  });

  it("a threshold lowered to what was counted backdates it, silently; an event it does not apply to completes nothing", async () => {
    await achievement("reached", "clips");
    expect(await event("clips", "u5", 6, "web")).toEqual([]);
    await patch({ id: ids.reached, metricValue: 5 });
    const held = (await server.rest("GET", "/v1/users/u5/achievements")).body.map((a: { key: string }) => a.key);
    expect(held).toEqual(["reached"]);
    expect(await event("clips", "u5", 1, "app")).toEqual([]); // held already: not completed again, nor live
  });

  it("counts nothing while inactive", async () => {
    await achievement("dormant", "films", { status: "inactive" });
    expect(await event("films", "u4", 10, "web")).toEqual([]);
    await patch({ id: ids.dormant, status: "active" });
    expect(await event("films", "u4", 9, "web")).toEqual([]);
    expect(await event("films", "u4", 1, "web")).toEqual(["dormant"]);
  });
});
