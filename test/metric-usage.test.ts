import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/store/database.js";
import { hasMetricEvents, markMetricsUsed } from "../src/store/metric-usage.js";
import { openTestStore } from "./helpers/database.js";

let opened: Awaited<ReturnType<typeof openTestStore>>;
let database: Database;

beforeAll(async () => {
  opened = await openTestStore();
  database = opened.database;
});
afterAll(() => opened.close());

describe("metric usage markers", () => {
  it("mark a metric once, however many first events race (concurrent upserts of one _id may fail with a duplicate key)", async () => {
    const usage = database.collections.metricUsage;
    expect(await hasMetricEvents(usage, "m1")).toBe(false);
    await Promise.all(Array.from({ length: 20 }, () => markMetricsUsed(usage, ["m1", "m2"], new Date())));
    expect([await hasMetricEvents(usage, "m1"), await hasMetricEvents(usage, "m2"), await hasMetricEvents(usage, "m3")]).toEqual([true, true, false]);
  });
});
