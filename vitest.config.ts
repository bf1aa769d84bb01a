import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./test/global-setup.ts"],
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Generous: integration tests wait for conditions, and a 30 s limit was seen failing on a loaded
    // 2-core machine (load 12). A limit only matters for a test that hangs.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Tests start server child processes; forks keep each file in a process of its own.
    pool: "forks",
    // The default summary, then one plain "N passed, N failed" line that CI can read.
    reporters: ["default", "./test/closing-line-reporter.ts"],
  },
});
