/**
 * The two servers of bench/versus.ts and the data both are given: starting and stopping each
 * product's standalone server, and the seed through each one's own HTTP API.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { SERVER_ENV, SERVER_NODE_FLAGS } from "../packages/auth-core/src/server/build.ts";
import { spawnServerProcess } from "../tests/e2e/serve-process.ts";
import { type BundledServer, spawnBundledServer } from "./serve-bundle.ts";
import { BETTER_AUTH_SERVER } from "./versus/build.ts";
import { promoteToAdmin } from "./versus/database.ts";
import type { Product } from "./versus-report.ts";

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef";
export const PASSWORD = "versus-password-1";
/** Users versus-0..99: user 0 owns the organization and is an admin, all are its members. */
export const MEMBERS = 100;
/** Seed requests in flight at once (a few: enough to keep both cores busy while seeding). */
const SEED_BATCH = 4;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);
export const emailOf = (i: number) => `versus-${i}@example.com`;
const USERS_COLLECTION: Record<Product, string> = { tessera: "users", betterAuth: "user" };

export interface ProductServer {
  product: Product;
  process: BundledServer;
  origin: string;
  api: string;
  uri: string;
}

export interface Databases {
  uris: Record<Product, string>;
  tesseraConfigs: { database: string; cookieCache: string };
  /** The SSO row's identity provider (bench/sso-idp.ts), trusted by both servers; absent without it. */
  idpOrigin?: string;
}

/**
 * BENCH_VERSUS_CPU_PROF=<dir>: each server writes a V8 CPU profile into <dir>/<product> when it
 * stops (node --cpu-prof; open it in Chrome DevTools), to see where a row's time goes.
 */
function profileFlags(product: Product): string[] {
  const dir = process.env.BENCH_VERSUS_CPU_PROF?.trim();
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${join(resolve(dir), product)}`] : [];
}

export async function startServer(product: Product, databases: Databases, cookieCache: boolean) {
  const uri = databases.uris[product];
  const server =
    product === "tessera"
      ? spawnBundledServer(
          {
            PORT: "0",
            HOST: "127.0.0.1",
            NODE_ENV: "production",
            MONGODB_URI: uri,
            TESSERA_SECRET: SECRET,
            TESSERA_CONFIG: cookieCache
              ? databases.tesseraConfigs.cookieCache
              : databases.tesseraConfigs.database,
          },
          30_000,
          profileFlags(product),
        )
      : spawnServerProcess(
          [...SERVER_NODE_FLAGS, ...profileFlags(product), BETTER_AUTH_SERVER],
          {
            ...SERVER_ENV,
            NODE_ENV: "production",
            MONGODB_URI: uri,
            BETTER_AUTH_SECRET: SECRET,
            VERSUS_COOKIE_CACHE: cookieCache ? "1" : "0",
            ...(databases.idpOrigin ? { VERSUS_IDP_ORIGIN: databases.idpOrigin } : {}),
          },
          30_000,
          /^Better Auth listening on (http:\/\/\S+)$/m,
        );
  const api = await server.listening.catch((error: unknown) => {
    server.kill();
    throw error;
  });
  const origin = new URL(api).origin;
  return { product, process: server, origin, api: `${origin}/api/auth`, uri } satisfies ProductServer;
}

/** Stops the server and answers its peak resident set (VmHWM, Linux; NaN elsewhere), bytes. */
export async function stopServer(server: ProductServer): Promise<number> {
  const status = await readFile(`/proc/${server.process.child.pid}/status`, "utf8").catch(() => "");
  const kb = Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? Number.NaN);
  server.process.child.kill("SIGTERM");
  await server.process.exited;
  return kb * 1024;
}

export async function request(
  server: ProductServer,
  path: string,
  init: { body?: unknown; cookie?: string } = {},
) {
  const response = await fetch(`${server.api}${path}`, {
    method: init.body === undefined ? "GET" : "POST",
    headers: {
      origin: server.origin,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.cookie ? { cookie: init.cookie } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!response.ok)
    throw new Error(`${server.product} ${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

export function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

export const signIn = async (server: ProductServer, i: number) =>
  cookieOf(await request(server, "/sign-in/email", { body: { email: emailOf(i), password: PASSWORD } }));

/**
 * The same data in both, through each product's own API: 100 sign-ups, user 0 promoted to admin,
 * an organization created by user 0, and 99 invitations, each accepted by its invitee.
 */
export async function seed(server: ProductServer): Promise<Seeded> {
  const cookies: string[] = [];
  for (let i = 0; i < MEMBERS; i += SEED_BATCH) {
    const responses = await Promise.all(
      range(i, Math.min(i + SEED_BATCH, MEMBERS)).map((n) =>
        request(server, "/sign-up/email", {
          body: { email: emailOf(n), password: PASSWORD, name: `Versus ${n}` },
        }),
      ),
    );
    cookies.push(...responses.map(cookieOf));
  }
  await promoteToAdmin(server.uri, USERS_COLLECTION[server.product], emailOf(0));
  const owner = await signIn(server, 0);
  const body = { name: "Versus", slug: "versus" };
  const organization = (await (
    await request(server, "/organization/create", { body, cookie: owner })
  ).json()) as {
    id: string;
  };
  const joinOrganization = async (i: number) => {
    const invite = { email: emailOf(i), role: "member", organizationId: organization.id };
    const invitation = (await (
      await request(server, "/organization/invite-member", { body: invite, cookie: owner })
    ).json()) as { id: string };
    await request(server, "/organization/accept-invitation", {
      body: { invitationId: invitation.id },
      cookie: cookies[i],
    });
  };
  for (let i = 1; i < MEMBERS; i += SEED_BATCH) {
    await Promise.all(range(i, Math.min(i + SEED_BATCH, MEMBERS)).map(joinOrganization));
  }
  return { owner, organizationId: organization.id };
}

/** What a server's seed left: the owner's session cookie and the organization's id (each database has its own). */
export interface Seeded {
  owner: string;
  organizationId: string;
}

/**
 * The relying party both products' passkeys belong to (Better Auth's in versus/better-auth-server.ts):
 * the software authenticators sign for it whatever port a server got.
 */
export const PASSKEY_RP = { id: "localhost", origin: "http://localhost:3000" };

/**
 * The line each server's code hook prints (here and in versus/better-auth-server.ts): the bench's
 * inbox (versus-passwordless.ts) reads the code from the server's stdout instead of a mailbox.
 */
const CODE_HOOK = `async ({ email, otp }) => { process.stdout.write("bench-otp " + email + " " + otp + "\\n"); }`;

export async function writeTesseraConfigs(dir: string, withIdp: boolean) {
  const config = (cookieCache: boolean) => {
    const options = JSON.stringify({
      // The SSO row's identity provider listens on 127.0.0.1 over http, which Tessera's outbound
      // guard refuses unless told otherwise (Better Auth is given its origin as trusted).
      ...(withIdp ? { outbound: { allowPrivateAddresses: true } } : {}),
      rateLimit: { enabled: false },
      session: { cookieCache: { enabled: cookieCache, maxAge: 60 } },
      // Better Auth's defaults where the seed meets them: invitees need no verified address.
      organization: { membershipLimit: 200, requireEmailVerificationOnInvitation: false },
      passkey: { rpID: PASSKEY_RP.id, origin: PASSKEY_RP.origin },
      // Better Auth has no mail limit (its emailOTP has only the rate limit, off in both): sign-in
      // codes are not counted here either; every other mail kind keeps Tessera's default limit.
      mailLimit: { kinds: { "sign-in-link": false } },
    });
    return `const options = ${options};\noptions.emailOTP = { enabled: true, sendVerificationOTP: ${CODE_HOOK} };\nexport default options;\n`;
  };
  const database = join(dir, "versus-database.mjs");
  const cookieCache = join(dir, "versus-cookie-cache.mjs");
  await writeFile(database, config(false));
  await writeFile(cookieCache, config(true));
  return { database, cookieCache };
}
