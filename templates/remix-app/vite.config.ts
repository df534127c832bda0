import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, loadEnv, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

// Single fetch (v3_singleFetch) also keeps Node's own fetch, Request and Headers: remix-serve
// otherwise installs Remix's fetch polyfill, whose Headers lack getSetCookie (the auth routes read
// the Set-Cookie lines of auth.api answers with it).
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * In development the app's base URL is the address the dev server really got: Vite moves to the
 * next port when 5173 is taken, and a base URL naming the old one would refuse every signed-in
 * form as coming from another origin. The auth instance is created on the first request, after this.
 * A base URL you set yourself for another host (a tunnel, a custom domain) is kept.
 */
function tesseraDevBaseURL(): Plugin {
  return {
    name: "tessera-dev-base-url",
    apply: "serve",
    configureServer(server) {
      const set =
        process.env.TESSERA_BASE_URL ??
        loadEnv(server.config.mode, server.config.root, "TESSERA_").TESSERA_BASE_URL;
      if (set && !/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/.test(set)) return;
      server.httpServer?.once("listening", () => {
        const address = server.httpServer?.address();
        if (address && typeof address === "object")
          process.env.TESSERA_BASE_URL = `http://localhost:${address.port}`;
      });
    },
  };
}

export default defineConfig({
  plugins: [
    tesseraDevBaseURL(),
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
