import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

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
  ],
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  // The core is TypeScript source in the workspace: bundle it (and its CommonJS-free deps resolve from here).
  build: { target: "es2022" },
  ssr: { noExternal: ["@tessera/auth-core", "@tessera/dev-db"] },
  server: { hmr: { port: 24679 } },
});
