/**
 * A React Router 7 (framework mode) app using `@tessera/auth-core/remix`, outside the repository:
 * the fixture (tests/e2e/fixtures/react-router-app) copied to a temp directory, this checkout's
 * packages packed into its vendor/, `npm install` from them and the npm registry, its dev server
 * started, then a sign-up in Chromium (issue 29 §2: the helpers work with React Router 7, with a test
 * app in CI beside the Remix 2 one in new-app.test.ts). The fixture holds only what React Router
 * needs of its own (package.json, its config, the route table, an auth.server.ts without the
 * template's config file); its pages, root and server are the Remix template's (templates/), copied
 * in with their imports moved to React Router's packages, so one change to the template is tested
 * on both. The server puts the socket's address in the load context (server.mjs), where
 * `remix.handler` and `remix.onBehalfOf` read it. Prints the seconds it took.
 */
import type { ChildProcess } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { MongoClient } from "mongodb";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, freePort, killGroup, runInGroup, startInGroup } from "#test/app-process.ts";
import { packPackage } from "#test/pack.ts";
import { REPO_ROOT } from "./serve-process.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FIXTURE = join(import.meta.dirname, "fixtures", "react-router-app");
const TEMPLATES = join(REPO_ROOT, "templates");

/** The template's files the fixture reuses: where they are in templates/, where they go in the app. */
const FROM_TEMPLATE: [string, string][] = [
  ["remix-app/server.mjs", "server.mjs"],
  ["remix-app/server-listen.mjs", "server-listen.mjs"],
  ["remix-app/public/favicon.svg", "public/favicon.svg"],
  ["remix-app/app/root.tsx", "app/root.tsx"],
  ["remix-app/app/routes/_index.tsx", "app/routes/_index.tsx"],
  ["remix-app/app/routes/cross-site-refused.tsx", "app/routes/cross-site-refused.tsx"],
  ["auth/app/routes/api.auth.$.ts", "app/routes/api.auth.$.ts"],
  ["auth/app/routes/sign-up.tsx", "app/routes/sign-up.tsx"],
  ["auth/app/routes/sign-in.tsx", "app/routes/sign-in.tsx"],
  ["auth/app/routes/account.tsx", "app/routes/account.tsx"],
  // The sign-in page's passkey button (the template's default features include passkeys).
  ["auth/app/components/passkeys.tsx", "app/components/passkeys.tsx"],
  // The pages' words (init writes the chosen language's; these pages are English).
  ["strings/en.ts", "app/strings.ts"],
];

/**
 * A Remix 2 module as React Router 7 reads it: what React Router's upgrade guide renames — Remix's
 * runtime and React packages are react-router, its Express adapter and server build are React
 * Router's — and the template's `~/` alias (app/) as a path relative to the file at `to` (the
 * fixture has no alias): ./ in app/, ../ in its folders.
 */
function toReactRouter(source: string, to: string): string {
  const app = to.split("/").length > 2 ? "../" : "./";
  return source
    .replace(/"@remix-run\/(node|react)"/g, '"react-router"')
    .replace(/"@remix-run\/express"/g, '"@react-router/express"')
    .replace(/"virtual:remix\/server-build"/g, '"virtual:react-router/server-build"')
    .replace(/"~\//g, `"${app}`);
}

let dir = "";
let browser: Browser | null = null;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tessera-react-router-app-"));
});

afterAll(async () => {
  await browser?.close().catch(() => {});
  for (const child of children) killGroup(child);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The fixture in `app` with this checkout's auth-core and dev-db packed into vendor/ and depended on. */
async function createApp(app: string): Promise<void> {
  await cp(FIXTURE, app, { recursive: true });
  for (const [from, to] of FROM_TEMPLATE) {
    const target = join(app, to);
    await mkdir(dirname(target), { recursive: true });
    const source = await readFile(join(TEMPLATES, from), "utf8");
    const moved = from.endsWith(".svg") ? source : toReactRouter(source, to);
    // A Remix import left over would fail the install or the page; say which file has it.
    expect(moved, `${from} imports a Remix package toReactRouter does not move`).not.toMatch(/@remix-run\//);
    await writeFile(target, moved);
  }
  const vendor = join(app, "vendor");
  await mkdir(vendor);
  const pkgPath = join(app, "package.json");
  const pkg = JSON.parse(await readFile(pkgPath, "utf8")) as Record<string, Record<string, string>>;
  for (const name of ["auth-core", "dev-db"]) {
    const tarball = await packPackage(name, vendor);
    pkg.dependencies = { ...pkg.dependencies, [`@tessera/${name}`]: `file:${relative(app, tarball)}` };
  }
  await writeFile(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
}

describe("a React Router 7 app with @tessera/auth-core/remix", () => {
  it("a signed-out visit goes to sign-in, a visitor signs up and sees their account, the session has their address", {
    timeout: 300_000,
  }, async () => {
    const started = performance.now();
    const app = join(dir, "rr-app");
    await createApp(app);
    const packed = performance.now();
    await runInGroup(children, "npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], app);

    const port = await freePort();
    // The template's server: the port asked for, and the base URL set to it (localhost).
    const url = `http://localhost:${port}`;
    const dev = startInGroup(children, "npm", ["run", "dev", "--", "--port", String(port), "--strictPort"], {
      cwd: app,
      env: { ...cleanEnv(), TESSERA_SECRET: "react-router-app-test-secret-0123456789abcdef" },
      readyText: `localhost:${port}`,
    });
    await dev.ready;
    const running = performance.now();

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    const page = await browser.newPage();

    // requireSession: a signed-out visitor is sent to sign-in with the way back.
    await page.goto(`${url}/account`, { timeout: 120_000 });
    expect(page.url(), dev.log()).toBe(`${url}/sign-in?redirectTo=%2Faccount`);
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();

    await page.goto(`${url}/sign-up`);
    await page.getByLabel("Name").fill("Grace Hopper");
    await page.getByLabel("Email").fill("grace@example.com");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor({ timeout: 120_000 });
    expect(page.url()).toBe(`${url}/account`);
    expect(await page.locator("main").textContent()).toContain(
      "Signed in as Grace Hopper (grace@example.com)",
    );

    // A form from another site: the template's refusal page, as in the Remix app.
    const refused = await page.request.post(`${url}/account`, {
      headers: { origin: "https://evil.example" },
      form: {},
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain("This form was sent from another site, so it was not accepted.");
    const at = (mark: number) => ((mark - started) / 1000).toFixed(1);
    console.info(
      `React Router 7 app: a signed-up user in ${at(performance.now())} s ` +
        `(packed at ${at(packed)} s, installed and dev server up at ${at(running)} s)`,
    );

    // The session row records the client's address, from the load context (server.mjs).
    const portFile = join(app, ".data", "db", "ferretdb.port");
    const client = new MongoClient(`mongodb://127.0.0.1:${(await readFile(portFile, "utf8")).trim()}`, {
      serverSelectionTimeoutMS: 5000,
    });
    try {
      const db = client.db("app");
      const user = await db.collection("users").findOne({ email: "grace@example.com" });
      expect(user?.name).toBe("Grace Hopper");
      const sessions = await db.collection("sessions").find({ userId: user?._id }).toArray();
      expect(sessions.map((session) => session.ipAddress)).toEqual([
        expect.stringMatching(/127\.0\.0\.1|::1/),
      ]);
    } finally {
      await client.close();
    }
  });
});
