/**
 * The passwordless rows of bench/versus.ts: passkey sign-in (generate-authenticate-options, then
 * verify-authentication with the challenge cookie of the first answer) and code sign-in
 * (send-verification-otp of type sign-in, then sign-in/email-otp with the mailed code), each pair
 * on both servers, the products interleaved as the other rows are.
 *
 * Set-up, not timed: on each server one account per connection for each flow, made by a code
 * sign-in (both products sign an unknown address up by code); the passkey accounts then register
 * one passkey each, from a software authenticator (tests/support/software-authenticator.ts, ES256,
 * user verified) per account and server. Each worker of the load signs its own account in, so no
 * account has two sign-ins in flight (Tessera's sign-in throttle counts them per account).
 */
import { SoftwareAuthenticator } from "../tests/support/software-authenticator.ts";
import { createSend, measurePairs, type Send } from "./pair-load.ts";
import { positiveInteger } from "./settings.ts";
import { type VersusResults, withLoadAverage } from "./versus-report.ts";
import { PASSKEY_RP, type ProductServer } from "./versus-servers.ts";

const API = "/api/auth";
/**
 * Pairs in flight at once on each server. Each pair costs a few milliseconds of server and database
 * CPU, so eight keep both cores busy without a request waiting longer than a round lasts.
 */
const PASSWORDLESS_CONNECTIONS = positiveInteger("BENCH_VERSUS_PASSWORDLESS_CONNECTIONS", 8);
/** How long a pair waits for its code on the server's stdout before it counts as failed. */
const CODE_TIMEOUT_MS = 10_000;

export const PASSKEY_SCENARIO = "passkey sign-in (options + verify)";
export const CODE_SCENARIO = "code sign-in (send + sign-in)";

/**
 * The codes each server's hook prints (`bench-otp <email> <code>`, versus-servers.ts CODE_HOOK):
 * `expect` before the request that mails, then await the promise it gave.
 */
interface CodeInbox {
  expect(email: string): Promise<string>;
}

function openCodeInbox(server: ProductServer): CodeInbox {
  const waiting = new Map<string, (code: string) => void>();
  let partial = "";
  server.process.child.stdout?.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const [tag, email, code] = line.split(" ");
      if (tag !== "bench-otp" || !email || !code) continue;
      waiting.get(email)?.(code);
      waiting.delete(email);
    }
  });
  return {
    expect: (email) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(email);
          reject(new Error(`${server.product}: no code for ${email} in ${CODE_TIMEOUT_MS} ms`));
        }, CODE_TIMEOUT_MS);
        waiting.set(email, (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      }),
  };
}

/** The signed-in user's address in a sign-in answer (both products answer `{ user, … }`). */
function signedInAs(body: string): string | undefined {
  return (JSON.parse(body) as { user?: { email?: string } }).user?.email;
}

/** A code sign-in of `email`; answers the session cookie. Throws when the answer is not `email`'s session. */
async function signInByCode(send: Send, inbox: CodeInbox, email: string): Promise<string> {
  const code = inbox.expect(email);
  await send("POST", `${API}/email-otp/send-verification-otp`, { body: { email, type: "sign-in" } });
  const answer = await send("POST", `${API}/sign-in/email-otp`, { body: { email, otp: await code } });
  if (signedInAs(answer.body) !== email)
    throw new Error(`code sign-in answered ${answer.body.slice(0, 200)}`);
  return answer.cookies;
}

async function signInByPasskey(send: Send, authenticator: SoftwareAuthenticator, email: string) {
  const options = await send("GET", `${API}/passkey/generate-authenticate-options`);
  const response = authenticator.getAssertion(
    JSON.parse(options.body) as { challenge: string; rpId?: string },
  );
  const answer = await send("POST", `${API}/passkey/verify-authentication`, {
    body: { response },
    cookie: options.cookies,
  });
  if (signedInAs(answer.body) !== email)
    throw new Error(`passkey sign-in answered ${answer.body.slice(0, 200)}`);
}

/** Adds a passkey from `authenticator` to the account whose session cookie is `session`. */
async function registerPasskey(send: Send, authenticator: SoftwareAuthenticator, session: string) {
  const options = await send("GET", `${API}/passkey/generate-register-options`, { cookie: session });
  const response = authenticator.createCredential(
    JSON.parse(options.body) as { challenge: string; rp: { id?: string }; user: { id: string } },
  );
  await send("POST", `${API}/passkey/verify-registration`, {
    body: { response, name: "bench" },
    cookie: `${session}; ${options.cookies}`,
  });
}

interface Prepared {
  server: ProductServer;
  inbox: CodeInbox;
  authenticators: SoftwareAuthenticator[];
}

const passkeyEmail = (worker: number) => `passkey-${worker}@example.com`;
const codeEmail = (worker: number) => `code-${worker}@example.com`;

async function prepare(server: ProductServer, flows: Flows): Promise<Prepared> {
  const inbox = openCodeInbox(server);
  const send = createSend(server.origin, PASSWORDLESS_CONNECTIONS);
  const workers = Array.from({ length: PASSWORDLESS_CONNECTIONS }, (_, worker) => worker);
  const authenticators = workers.map(() => new SoftwareAuthenticator({ origin: PASSKEY_RP.origin }));
  try {
    await Promise.all(
      workers.map(async (worker) => {
        if (flows.code) await signInByCode(send, inbox, codeEmail(worker));
        if (!flows.passkey) return;
        const session = await signInByCode(send, inbox, passkeyEmail(worker));
        await registerPasskey(send, authenticators[worker]!, session);
        // Checked once before the load: a wrong answer would measure nothing.
        await signInByPasskey(send, authenticators[worker]!, passkeyEmail(worker));
      }),
    );
  } finally {
    send.close();
  }
  return { server, inbox, authenticators };
}

interface Flows {
  passkey: boolean;
  code: boolean;
}

/**
 * Sets both servers up for `flows`, then runs each flow's rounds (the product going first
 * alternating by round) into `results`, at PASSWORDLESS_CONNECTIONS pairs in flight.
 */
export async function runPasswordless(
  servers: ProductServer[],
  flows: Flows,
  run: { seconds: number; rounds: number; watch: { database?: number } },
  results: VersusResults,
  watchOf: (server: ProductServer) => Record<string, number | string | undefined>,
): Promise<void> {
  const prepared: Prepared[] = [];
  for (const server of servers) {
    const started = performance.now();
    prepared.push(await prepare(server, flows));
    console.error(
      `versus: passwordless set-up of ${server.product} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  const scenarios = [
    ...(flows.passkey
      ? [
          {
            name: PASSKEY_SCENARIO,
            pair:
              ({ authenticators }: Prepared) =>
              (send: Send, worker: number) =>
                signInByPasskey(send, authenticators[worker]!, passkeyEmail(worker)),
          },
        ]
      : []),
    ...(flows.code
      ? [
          {
            name: CODE_SCENARIO,
            pair:
              ({ inbox }: Prepared) =>
              async (send: Send, worker: number) =>
                void (await signInByCode(send, inbox, codeEmail(worker))),
          },
        ]
      : []),
  ];
  for (let round = 0; round < run.rounds; round++) {
    for (const scenario of scenarios) {
      const order = round % 2 === 0 ? prepared : [...prepared].reverse();
      for (const side of order) {
        const measurement = await withLoadAverage(
          measurePairs({
            name: scenario.name,
            origin: side.server.origin,
            seconds: run.seconds,
            connections: PASSWORDLESS_CONNECTIONS,
            pair: scenario.pair(side),
            // The load generator runs in this process on the same cores: its CPU a request is what
            // no server can win back, printed beside the servers' own.
            watch: { ...watchOf(side.server), ...run.watch, client: process.pid },
          }),
        );
        console.error(
          `versus: ${scenario.name}, ${side.server.product}: load generator ${measurement.cpuMs.client?.toFixed(2)} ms CPU a request`,
        );
        results.scenarios[scenario.name] ??= {
          target: "×2",
          connections: PASSWORDLESS_CONNECTIONS,
          tessera: [],
          betterAuth: [],
        };
        results.scenarios[scenario.name]![side.server.product].push(measurement);
      }
    }
  }
}
