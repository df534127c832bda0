/**
 * The app's server, for `npm run dev` (Vite's dev server as middleware) and `npm start` (the build in
 * build/). Express hands each request to Remix with the socket's address in the load context, where
 * `remix.handler` and `remix.onBehalfOf` (app/auth.server.ts) read it: each visitor has rate limits
 * of their own without any forwarded header being trusted (`remix vite:dev` and `remix-serve` give
 * no address). Behind a proxy, set advanced.trustedProxies in tessera.config.ts.
 *
 * The auth starts before "ready" (app/auth.server.ts registers `__tesseraStart`): the embedded
 * database runs as soon as `npm run dev` says ready, and production refuses to start on a setting it
 * cannot run with (MONGODB_URI, SMTP_URL) with that one line and exit code 1.
 */
import { createServer } from "node:http";
import { createRequestHandler } from "@remix-run/express";
import { CROSS_SITE_REFUSED_PATH, isCrossSiteForm } from "@tessera/auth-core/remix";
import express from "express";
import { followedBaseURL, listen, readListenOptions } from "./server-listen.mjs";

const production = process.env.NODE_ENV === "production";
const options = readListenOptions(process.argv.slice(2), process.env, production);
// The app's settings, as tessera.config.ts reads them: needed here first for TESSERA_BASE_URL.
try {
  process.loadEnvFile(".env");
} catch {
  // No .env: the environment is already set.
}
// Production takes exactly its port (strictPort), known now: the built tessera.config.ts reads
// TESSERA_BASE_URL when the build is imported below.
if (production && options.port !== 0)
  process.env.TESSERA_BASE_URL = followedBaseURL(process.env.TESSERA_BASE_URL, options.port);

const app = express();
app.disable("x-powered-by");
const server = createServer(app);

// A form sent from another site becomes a GET of the page that refuses it (403, a sentence on the
// app's error page) instead of Remix's empty 500: no action runs (docs/security.md).
app.use((req, _res, next) => {
  if (isCrossSiteForm({ method: req.method, path: req.path, header: (name) => req.get(name) })) {
    req.method = "GET";
    // Remix builds the request's URL from originalUrl.
    req.url = req.originalUrl = CROSS_SITE_REFUSED_PATH;
  }
  next();
});

let vite;
const getLoadContext = (req) => ({ remoteAddress: req.socket.remoteAddress ?? null });
if (production) {
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  app.use(express.static("build/client", { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build: await import("./build/server/index.js"), getLoadContext }));
} else {
  const { createServer: createViteServer } = await import("vite");
  // Vite's live reload shares this server's port.
  vite = await createViteServer({
    server: { middlewareMode: true, hmr: { server } },
    appType: "custom",
  });
  app.use(vite.middlewares);
  app.all(
    "*",
    createRequestHandler({
      build: () => vite.ssrLoadModule("virtual:remix/server-build"),
      getLoadContext,
      mode: "development",
    }),
  );
}

/** The app's auth (app/auth.server.ts), started now: its database, its migrations, its settings. */
async function startAuth() {
  try {
    await globalThis.__tesseraStart?.();
  } catch (error) {
    // A setting the app cannot run with: its message alone, no stack.
    if (error?.name !== "AppConfigError") throw error;
    console.error(error.message);
    process.exit(1);
  }
}

if (production) await startAuth();
const port = await listen(server, options);
if (!production) {
  process.env.TESSERA_BASE_URL = followedBaseURL(process.env.TESSERA_BASE_URL, port);
  // Development's modules load through Vite: loading the build registers the auth's start.
  await vite.ssrLoadModule("virtual:remix/server-build");
  await startAuth();
}
console.log(`  ready: http://${options.host ?? "localhost"}:${port}/`);
