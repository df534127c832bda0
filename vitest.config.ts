import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./tests/support/global-setup.ts"],
    include: ["packages/*/src/**/*.test.ts", "tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // 2 cores: the database server and scrypt compete with the test workers.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
