import { describe, expect, it } from "vitest";
import { hasMetricEvents, markMetricsUsed } from "../../src/features/metrics/store/metric-usage.js";
import { useTestStore } from "../helpers/database.js";

const testStore = useTestStore();

describe("metric usage markers", () => {
  it("mark a metric once, however many first events race (concurrent upserts of one _id may fail with a duplicate key)", async () => {
    const usage = testStore.database.collections.metricUsage;
    expect(await hasMetricEvents(usage, "m1")).toBe(false);
    await Promise.all(Array.from({ length: 20 }, () => markMetricsUsed(usage, ["m1", "m2"], new Date())));
    expect([await hasMetricEvents(usage, "m1"), await hasMetricEvents(usage, "m2"), await hasMetricEvents(usage, "m3")]).toEqual([true, true, false]);
  });
});
