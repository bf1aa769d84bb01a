import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./test/global-setup.ts"],
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests start server child processes; forks keep each file in a process of its own.
    pool: "forks",
    // The default summary, then one plain "N passed, N failed" line that CI can read.
    reporters: ["default", "./test/closing-line-reporter.ts"],
  },
});
