import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

// Single fetch (v3_singleFetch) keeps Node's own fetch, Request and Headers (server.mjs installs no
// polyfill): Remix's polyfill Headers lack getSetCookie, with which the auth routes read the
// Set-Cookie lines of auth.api answers. The server, its port and the development base URL: server.mjs.
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
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
  ],
  // The auth core, its database driver and the embedded database run on the server only.
  ssr: { external: ["@tessera/auth-core", "@tessera/dev-db", "mongodb"] },
  // Never bundled for the browser: found late (through auth.server.ts), they would make Vite reload
  // the first page a visitor opens, losing what they typed into the form.
  optimizeDeps: { exclude: ["@tessera/auth-core", "@tessera/dev-db", "mongodb", "@remix-run/node"] },
});
