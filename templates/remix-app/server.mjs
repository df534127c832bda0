/**
 * The app's server, for `npm run dev` (Vite's dev server as middleware) and `npm start` (the build in
 * build/). Express hands each request to Remix with the socket's address in the load context, where
 * `remix.handler` and `remix.onBehalfOf` (app/auth.server.ts) read it: each visitor has rate limits
 * of their own without any forwarded header being trusted (`remix vite:dev` and `remix-serve` give
 * no address). Behind a proxy, set advanced.trustedProxies in tessera.config.ts.
 */
import { createServer } from "node:http";
import { createRequestHandler } from "@remix-run/express";
import { CROSS_SITE_REFUSED_PATH, isCrossSiteForm } from "@tessera/auth-core/remix";
import express from "express";
import { devBaseURL, listen, readListenOptions } from "./server-listen.mjs";

const production = process.env.NODE_ENV === "production";
const options = readListenOptions(process.argv.slice(2), process.env, production);
// The app's settings, as tessera.config.ts reads them: needed here first for TESSERA_BASE_URL.
try {
  process.loadEnvFile(".env");
} catch {
  // No .env: the environment is already set.
}

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

const getLoadContext = (req) => ({ remoteAddress: req.socket.remoteAddress ?? null });
if (production) {
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  app.use(express.static("build/client", { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build: await import("./build/server/index.js"), getLoadContext }));
} else {
  const { createServer: createViteServer } = await import("vite");
  // Vite's live reload shares this server's port.
  const vite = await createViteServer({
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

const port = await listen(server, options);
// The auth is created on the first request (app/auth.server.ts), after this.
if (!production) process.env.TESSERA_BASE_URL = devBaseURL(process.env.TESSERA_BASE_URL, port);
console.log(`  ready: http://${options.host ?? "localhost"}:${port}/`);
