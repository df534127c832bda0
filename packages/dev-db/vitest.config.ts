import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Runs this package's tests on their own, without the root config's globalSetup (which itself uses dev-db).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["src/**/*.test.ts"],
  },
});
