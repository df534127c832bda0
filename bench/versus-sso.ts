/**
 * The single sign-on row of bench/versus.ts (issue 31 §4): an SSO sign-in through an OIDC
 * connection — POST /sign-in/sso by provider id, then GET /sso/callback/{providerId} with the IdP's
 * code, answered with a redirect and a session cookie — on both servers, interleaved as the other rows.
 * Both keep Better Auth 1.7's @better-auth/sso paths and payloads, so one script drives both.
 *
 * Set-up, not timed: on each server an owner signs up, creates an organization and registers the
 * connection with /sso/register (each product fetches the IdP's discovery document then); each worker
 * then signs in once, which creates its user and membership (just in time), so the load measures the
 * sign-in of a known SSO user: the code exchanged at the IdP's token endpoint, the id token checked
 * against its JWKS, the user found by the connection's account, a session created.
 */
import { createSend, measurePairs, type Send } from "./pair-load.ts";
import { positiveInteger } from "./settings.ts";
import type { BenchIdp } from "./sso-idp.ts";
import { type Product, type VersusResults, withLoadAverage } from "./versus-report.ts";
import type { ProductServer } from "./versus-servers.ts";

const API = "/api/auth";
/** Pairs in flight at once on each server, as the passwordless rows. */
const SSO_CONNECTIONS = positiveInteger("BENCH_VERSUS_SSO_CONNECTIONS", 8);
const PROVIDER_ID = "bench-idp";
const DOMAIN = "bench.test";

export const SSO_SCENARIO = "SSO sign-in, OIDC (start + callback)";

/** One OIDC client per product at the IdP (each server's redirect URI has its own port). */
export const SSO_CLIENTS: Record<Product, { clientId: string; clientSecret: string }> = {
  tessera: { clientId: "tessera-bench", clientSecret: "tessera-bench-secret-0123456789abcdef" },
  betterAuth: { clientId: "better-auth-bench", clientSecret: "better-auth-bench-secret-0123456789" },
};

const personOf = (worker: number) => ({
  sub: `bench-${worker}`,
  email: `sso-${worker}@${DOMAIN}`,
  name: `SSO ${worker}`,
});

/** One sign-in of worker `worker`'s person; throws unless the callback answers a session cookie. */
async function signInBySso(send: Send, idp: BenchIdp, worker: number): Promise<void> {
  const started = await send("POST", `${API}/sign-in/sso`, {
    body: { providerId: PROVIDER_ID, callbackURL: "/" },
  });
  const { url } = JSON.parse(started.body) as { url?: string };
  if (!url) throw new Error(`sign-in/sso answered ${started.body.slice(0, 200)}`);
  const callback = new URL(idp.authorize(url, personOf(worker)));
  const answer = await send("GET", `${callback.pathname}${callback.search}`, {
    cookie: started.cookies,
    redirect: true,
  });
  if (!/session_token=[^;\s]/.test(answer.cookies))
    throw new Error(`the callback answered ${answer.status} to ${answer.location} without a session`);
}

/** The owner's organization and its OIDC connection, through the server's own API. */
async function registerConnection(server: ProductServer, idp: BenchIdp): Promise<void> {
  const send = createSend(server.origin, 1);
  try {
    const owner = await send("POST", `${API}/sign-up/email`, {
      body: { email: "sso-owner@example.com", password: "sso-owner-password-1", name: "SSO owner" },
    });
    const organization = await send("POST", `${API}/organization/create`, {
      body: { name: "SSO bench", slug: "sso-bench" },
      cookie: owner.cookies,
    });
    const { id } = JSON.parse(organization.body) as { id: string };
    await send("POST", `${API}/sso/register`, {
      body: {
        providerId: PROVIDER_ID,
        issuer: idp.issuer,
        domain: DOMAIN,
        organizationId: id,
        oidcConfig: { ...SSO_CLIENTS[server.product], pkce: true, scopes: ["openid", "email", "profile"] },
      },
      cookie: owner.cookies,
    });
    // Each worker's user and membership, created by its first sign-in.
    const workers = Array.from({ length: SSO_CONNECTIONS }, (_, worker) => worker);
    await Promise.all(workers.map((worker) => signInBySso(send, idp, worker)));
  } finally {
    send.close();
  }
}

/** Sets both servers up, then runs the row's rounds into `results` (the product going first alternating). */
export async function runSso(
  servers: ProductServer[],
  idp: BenchIdp,
  run: { seconds: number; rounds: number; watch: { database?: number } },
  results: VersusResults,
  watchOf: (server: ProductServer) => Record<string, number | string | undefined>,
): Promise<void> {
  for (const server of servers) await registerConnection(server, idp);
  for (let round = 0; round < run.rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const measurement = await withLoadAverage(
        measurePairs({
          name: SSO_SCENARIO,
          origin: server.origin,
          seconds: run.seconds,
          connections: SSO_CONNECTIONS,
          pair: (send, worker) => signInBySso(send, idp, worker),
          // The load generator and the IdP run in this process, on the same cores.
          watch: { ...watchOf(server), ...run.watch, client: process.pid },
        }),
      );
      results.scenarios[SSO_SCENARIO] ??= {
        target: "×2",
        connections: SSO_CONNECTIONS,
        tessera: [],
        betterAuth: [],
      };
      results.scenarios[SSO_SCENARIO]![server.product].push(measurement);
    }
  }
}
