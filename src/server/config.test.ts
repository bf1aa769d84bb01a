import { describe, expect, it } from "vitest";
import { readConfig } from "./config.js";

describe("rate limit configuration", () => {
  it("is off unless configured", () => {
    expect(readConfig({}).rateLimits).toEqual({ perKey: null, tenant: null });
  });

  it("reads the per-key and tenant limits with their bursts", () => {
    const env = { RATE_LIMIT_PER_KEY: "5", RATE_LIMIT_BURST: "20", RATE_LIMIT_TENANT: "50" };
    expect(readConfig(env).rateLimits).toEqual({
      perKey: { requestsPerSecond: 5, burst: 20 },
      tenant: { requestsPerSecond: 50, burst: null },
    });
  });

  it("refuses to start on a value that is not a whole number of requests from 1 to 1,000,000", () => {
    for (const value of ["abc", "0", "-1", "2.5", "1e3", "1000001", "NaN", "Infinity"]) {
      expect(() => readConfig({ RATE_LIMIT_PER_KEY: value }), value).toThrow(
        `RATE_LIMIT_PER_KEY must be a whole number of requests from 1 to 1000000, got "${value}"`,
      );
    }
    expect(() => readConfig({ RATE_LIMIT_TENANT: "50", RATE_LIMIT_TENANT_BURST: "x" })).toThrow(/RATE_LIMIT_TENANT_BURST must be a whole number/);
  });

  it("refuses a burst without its rate", () => {
    expect(() => readConfig({ RATE_LIMIT_BURST: "10" })).toThrow("RATE_LIMIT_BURST needs RATE_LIMIT_PER_KEY: set the rate too, or unset RATE_LIMIT_BURST");
  });
});

describe("embedded database durability", () => {
  it("syncs at checkpoints unless told to sync every commit, and refuses anything else", () => {
    expect(readConfig({}).embeddedDbSync).toBe("normal");
    expect(readConfig({ EMBEDDED_DB_SYNC: "full" }).embeddedDbSync).toBe("full");
    expect(() => readConfig({ EMBEDDED_DB_SYNC: "off" })).toThrow('EMBEDDED_DB_SYNC must be "normal" or "full", got "off"');
  });
});
