import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Runs this package's tests on their own, without the root config's globalSetup (which itself uses dev-db).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["src/**/*.test.ts"],
    // The first FerretDB build downloads Go modules (~70 s); later runs start in about a second.
    testTimeout: 240_000,
  },
});
