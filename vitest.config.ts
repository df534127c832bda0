import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./tests/support/slow-first-sequencer.ts";

export default defineConfig({
  // Tests reach their helpers as `#test/<file>` (tsconfig.json paths says the same to tsc).
  resolve: {
    alias: [
      { find: /^#test\/(.*)$/, replacement: fileURLToPath(new URL("./tests/support/$1", import.meta.url)) },
      // The tests' software authenticator (tests/support/software-authenticator.ts) encodes CBOR with
      // the core's dev dependency; tests/ does not list it (tsconfig.json paths says the same to tsc).
      {
        find: /^@levischuck\/tiny-cbor$/,
        replacement: fileURLToPath(
          new URL("./packages/auth-core/node_modules/@levischuck/tiny-cbor/esm/index.js", import.meta.url),
        ),
      },
      // The tests' SAML identity provider (tests/support/saml-idp.ts) signs with the core's dev dependency.
      {
        find: /^xml-crypto$/,
        replacement: fileURLToPath(
          new URL("./packages/auth-core/node_modules/xml-crypto/lib/index.js", import.meta.url),
        ),
      },
    ],
  },
  test: {
    globalSetup: ["./tests/support/global-setup.ts"],
    include: ["packages/*/src/**/*.test.ts", "tests/**/*.test.ts"],
    testTimeout: 30_000,
    // expect.poll waits for a page or a mailbox to show something; on 2 loaded cores a form post can
    // take over a second (vitest's default), and a poll only waits this long when it would fail.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    pool: "forks",
    // 2 cores: the database server and scrypt compete with the test workers.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    sequence: { sequencer: SlowFirstSequencer },
  },
});
