import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [
    remix({ future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true } }),
    tsconfigPaths(),
  ],
  // The auth core and its database driver run on the server only.
  ssr: { external: ["@tessera/auth-core", "mongodb"] },
});
