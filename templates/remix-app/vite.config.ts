import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

// Single fetch (v3_singleFetch) also keeps Node's own fetch, Request and Headers: remix-serve
// otherwise installs Remix's fetch polyfill, whose Headers lack getSetCookie (the auth routes read
// the Set-Cookie lines of auth.api answers with it).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
      },
    }),
    tsconfigPaths(),
  ],
  // The auth core and its database driver run on the server only.
  ssr: { external: ["@tessera/auth-core", "mongodb"] },
});
