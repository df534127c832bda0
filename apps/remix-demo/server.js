// The demo's HTTP server, in development (Vite middleware, `pnpm dev`) and production (`pnpm start`):
// Express serves the assets and hands every other request to Remix with the socket address in the
// load context, which the /api/auth splat route passes to auth.handler (rate limits, sessions' IP).
import { createRequestHandler } from "@remix-run/express";
import express from "express";
import { keepSignedInAnswersPrivate, setNoSniff } from "./answer-headers.js";

const isProduction = process.env.NODE_ENV === "production";
const port = Number(process.env.PORT || 5173);
const host = process.env.HOST || (isProduction ? undefined : "127.0.0.1");

const vite = isProduction
  ? null
  : await import("vite").then(({ createServer }) =>
      createServer({ server: { middlewareMode: true }, appType: "custom" }),
    );

/** @returns {Promise<import("@remix-run/node").ServerBuild>} */
const loadBuild = () =>
  vite ? vite.ssrLoadModule("virtual:remix/server-build") : import("./build/server/index.js");

const app = express();
app.disable("x-powered-by");
app.use(setNoSniff);
app.use(refuseCrossSiteActions);
if (vite) app.use(vite.middlewares);
else {
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  app.use(express.static("build/client", { maxAge: "1h" }));
}
// Requests are served only after `started` is set (the server listens then).
app.use(keepSignedInAnswersPrivate(() => started.auth.context.cookies.sessionToken));
app.all(
  "*",
  createRequestHandler({
    build: vite ? () => loadBuild() : await loadBuild(),
    getLoadContext: (req) => ({ remoteAddress: req.socket.remoteAddress ?? null }),
  }),
);

/**
 * A form posted to an app page from another site (its Origin names another host), or with no
 * Origin at all (browsers send one with every POST), becomes a GET of /cross-site-refused, whose
 * loader answers the app's 403 page: no action, no loader of the target and no database write runs.
 * Remix would answer an empty 500 and log a stack, and checks nothing for action-only routes
 * (sign-out, language). The rule is the core's isCrossSiteForm (docs/security.md, "Forms sent from
 * another site"), taken from the build (entry.server.tsx); assertSameOrigin still checks every
 * action. /api/auth is left to the core, which checks the Origin itself.
 * @type {import("express").RequestHandler}
 */
function refuseCrossSiteActions(req, _res, next) {
  const { isCrossSiteForm, CROSS_SITE_REFUSED_PATH } = build.entry.module;
  if (isCrossSiteForm({ method: req.method, path: req.path, header: (name) => req.get(name) })) {
    req.method = "GET";
    // Remix builds the request's URL from originalUrl.
    req.url = req.originalUrl = CROSS_SITE_REFUSED_PATH;
  }
  next();
}

// Starts the database, migrates and seeds before the URL is printed: the first page is then fast.
const build = await loadBuild();
const started = await build.entry.module.startApp().catch(refuseToStart);

const server = app.listen(port, host, () => {
  const address = server.address();
  const url = process.env.TESSERA_BASE_URL || `http://localhost:${address.port}`;
  console.log(`\n  Tessera demo ready: ${url}\n`);
  if (started.mail === "outbox") console.log(`  Mails go to the dev outbox: ${url}/dev/outbox`);
  // TESSERA_MAIL=disabled: which mails will reach nobody, where an operator reads it at start.
  if (started.mail === "disabled") console.warn(build.entry.module.MAIL_DISABLED_WARNING);
  if (!isProduction) {
    const { uri, name } = started.database;
    console.log(`  Database: ${uri} (database ${name}); from a terminal in the repository's root:`);
    console.log(`    npx -y pnpm@10.34.9 tessera --uri ${uri} --db ${name} users list`);
  }
  if (started.seeded) {
    console.log("  Demo accounts (seeded now):");
    console.log(`    admin  ${started.seeded.admin.email} / ${started.seeded.admin.password}`);
    for (const user of started.seeded.users) console.log(`    user   ${user.email} / ${user.password}`);
  } else if (!isProduction) {
    console.log(
      "  Demo accounts: admin@example.com / tessera-demo-admin, grace@example.com / tessera-demo-user",
    );
  }
  console.log("");
});

/**
 * A setting the app cannot run with (app/lib/env.server.ts AppConfigError): its message alone, exit 1.
 * @param {unknown} error
 * @returns {never}
 */
function refuseToStart(error) {
  if (!(error instanceof Error && error.name === "AppConfigError")) throw error;
  console.error(`remix-demo cannot start: ${error.message}`);
  vite?.close();
  process.exit(1);
}

const shutdown = () => {
  server.close();
  void started.close().finally(() => process.exit(0));
  vite?.close();
};
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
