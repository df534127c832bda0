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
  // Vite pre-bundles the browser's dependencies; one it meets only on a first visit makes it
  // re-bundle and reload the page (which threw away a two-factor set-up on screen). i18next is the
  // browser's (lib/i18n.tsx); the others are imported by loaders and actions only, which Remix
  // strips from the browser's modules, but Vite still met them while reading route modules.
  optimizeDeps: {
    // The client loads @simplewebauthn/browser on a passkey page (a dynamic import Vite would find only
    // then, and re-bundle and reload the page).
    include: ["i18next", "@tessera/auth-core > @simplewebauthn/browser"],
    exclude: ["qrcode", "mongodb", "@remix-run/node"],
  },
  server: { hmr: { port: 24679 } },
  // A test starts the development server on a fresh cache (tests/browser/dev-first-visit.test.ts).
  cacheDir: process.env.DEMO_VITE_CACHE_DIR || undefined,
});
