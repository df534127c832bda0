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
 * Origin at all (browsers send one with every POST). Remix checks the Origin before a page's action
 * runs (server-runtime's throwIfPotentialCSRFAttack) but answers an empty 500 and logs a stack,
 * and it checks nothing for action-only routes (sign-out, language), where the app's own check
 * (app/lib/forms.server.ts assertSameOrigin) answered a bare text 403. Such a request is turned
 * here into a GET of /cross-site-refused, whose loader answers the app's 403 page: no action, no
 * loader of the target and no database write runs. The host compared is Remix's (X-Forwarded-Host,
 * else Host), so nothing Remix would refuse gets past; assertSameOrigin still checks every action.
 * /api/auth is left to the core, which checks the Origin itself (and answers CORS preflights).
 * @type {import("express").RequestHandler}
 */
function refuseCrossSiteActions(req, _res, next) {
  const isApi = req.path === "/api/auth" || req.path.startsWith("/api/auth/");
  if (!["GET", "HEAD", "OPTIONS"].includes(req.method) && !isApi) {
    const origin = req.get("origin");
    const host = req.get("x-forwarded-host")?.split(",")[0]?.trim() || req.get("host");
    if (!origin || !host || !isOriginOf(origin, host)) {
      req.method = "GET";
      req.url = "/cross-site-refused";
      req.originalUrl = req.url;
    }
  }
  next();
}

/** @param {string} origin @param {string} host */
function isOriginOf(origin, host) {
  try {
    return origin !== "null" && new URL(origin).host === host;
  } catch {
    return false;
  }
}

// Starts the database, migrates and seeds before the URL is printed: the first page is then fast.
const build = await loadBuild();
const started = await build.entry.module.startApp().catch(refuseToStart);

const server = app.listen(port, host, () => {
  const address = server.address();
  const url = process.env.TESSERA_BASE_URL || `http://localhost:${address.port}`;
  console.log(`\n  Tessera demo ready: ${url}\n`);
  if (started.mail === "outbox") console.log(`  Mails go to the dev outbox: ${url}/dev/outbox`);
  if (started.mail === "disabled") warnMailDisabled();
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

/** TESSERA_MAIL=disabled: which mails will not reach anyone, where an operator reads it at start. */
function warnMailDisabled() {
  console.warn(
    [
      "  WARNING: mail is disabled (TESSERA_MAIL=disabled). These mails will be lost:",
      "    email verification, password reset, email change confirmation and notice, account",
      "    deletion confirmation, organization invitations, emailed two-factor codes, API keys",
      "    revoked notices. Set SMTP_URL to send them.",
    ].join("\n"),
  );
}

const shutdown = () => {
  server.close();
  void started.close().finally(() => process.exit(0));
  vite?.close();
};
process.once("SIGINT", shutdown);
process.once("SIGTERM", shutdown);
