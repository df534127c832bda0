/**
 * The OIDC identity provider of bench/versus-sso.ts: discovery, JWKS and the token endpoint over
 * HTTP on 127.0.0.1, and the authorization step as a function (the browser's visit to the IdP's
 * page is not what is compared). It does the least an IdP can — ES256 id tokens signed when the code
 * is issued, outside the timed requests; the token endpoint only looks the code up — so that the
 * figures are the two relying parties' own cost, not an IdP's on the same two cores. The tests use a
 * real IdP (tests/support/oidc-idp.ts, oidc-provider); this one still checks what a relying party
 * must send: the client's secret, the redirect URI, the PKCE verifier, and each code once.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";

interface Client {
  clientId: string;
  clientSecret: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  idToken: string;
}

export interface Person {
  sub: string;
  email: string;
  name: string;
}

export interface BenchIdp {
  issuer: string;
  /** The browser's visit: the callback URL the IdP sends it back to, with a fresh code. */
  authorize(authorizationUrl: string, person: Person): string;
  close(): Promise<void>;
}

const base64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString()));
    request.on("error", reject);
  });
}

/** The client the token request authenticates as (client_secret_basic or client_secret_post). */
function clientOf(request: IncomingMessage, form: URLSearchParams): { id: string; secret: string } | null {
  const basic = request.headers.authorization?.match(/^Basic (.+)$/)?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, "base64").toString().split(":").map(decodeURIComponent);
    return id && secret ? { id, secret } : null;
  }
  const id = form.get("client_id");
  const secret = form.get("client_secret");
  return id && secret ? { id, secret } : null;
}

export async function startBenchIdp(clients: Client[]): Promise<BenchIdp> {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const kid = randomBytes(8).toString("hex");
  const jwks = JSON.stringify({
    keys: [{ ...publicKey.export({ format: "jwk" }), kid, use: "sig", alg: "ES256" }],
  });
  const codes = new Map<string, IssuedCode>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  const issuer = `http://127.0.0.1:${address.port}`;
  const discovery = JSON.stringify({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
    scopes_supported: ["openid", "email", "profile"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    code_challenge_methods_supported: ["S256"],
    claims_supported: ["sub", "email", "email_verified", "name"],
  });

  const signIdToken = (claims: Record<string, unknown>) => {
    const input = `${base64url(JSON.stringify({ alg: "ES256", typ: "JWT", kid }))}.${base64url(JSON.stringify(claims))}`;
    return `${input}.${base64url(sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" }))}`;
  };

  const refuse = (status: number, error: string) => ({ status, body: JSON.stringify({ error }) });
  const exchange = (request: IncomingMessage, text: string) => {
    const form = new URLSearchParams(text);
    const issued = codes.get(form.get("code") ?? "");
    if (!issued) return refuse(400, "invalid_grant");
    codes.delete(form.get("code") ?? "");
    const client = clientOf(request, form);
    const known = clients.find((candidate) => candidate.clientId === client?.id);
    if (!client || !known || known.clientSecret !== client.secret || client.id !== issued.clientId)
      return refuse(401, "invalid_client");
    if (form.get("grant_type") !== "authorization_code" || form.get("redirect_uri") !== issued.redirectUri)
      return refuse(400, "invalid_grant");
    const verifier = form.get("code_verifier");
    if (
      issued.challenge !== null &&
      (!verifier || base64url(createHash("sha256").update(verifier).digest()) !== issued.challenge)
    )
      return refuse(400, "invalid_grant");
    return {
      status: 200,
      body: JSON.stringify({
        access_token: randomBytes(24).toString("base64url"),
        token_type: "Bearer",
        expires_in: 3600,
        scope: "openid email profile",
        id_token: issued.idToken,
      }),
    };
  };

  server.on("request", (request, response) => {
    const path = new URL(request.url ?? "/", issuer).pathname;
    const answer = (status: number, body: string) =>
      response
        .writeHead(status, { "content-type": "application/json", "cache-control": "no-store" })
        .end(body);
    if (path === "/.well-known/openid-configuration") return answer(200, discovery);
    if (path === "/jwks") return answer(200, jwks);
    if (path === "/token" && request.method === "POST")
      return void readBody(request).then((text) => {
        const result = exchange(request, text);
        answer(result.status, result.body);
      });
    answer(404, JSON.stringify({ error: "not_found" }));
  });

  return {
    issuer,
    authorize(authorizationUrl, person) {
      const params = new URL(authorizationUrl).searchParams;
      const clientId = params.get("client_id") ?? "";
      const redirectUri = params.get("redirect_uri") ?? "";
      if (!clients.some((client) => client.clientId === clientId))
        throw new Error(`unknown client ${clientId}`);
      const now = Math.floor(Date.now() / 1000);
      const code = randomBytes(24).toString("base64url");
      codes.set(code, {
        clientId,
        redirectUri,
        challenge: params.get("code_challenge"),
        idToken: signIdToken({
          iss: issuer,
          sub: person.sub,
          aud: clientId,
          iat: now,
          exp: now + 300,
          ...(params.get("nonce") ? { nonce: params.get("nonce") } : {}),
          email: person.email,
          email_verified: true,
          name: person.name,
        }),
      });
      const callback = new URL(redirectUri);
      callback.searchParams.set("code", code);
      const state = params.get("state");
      if (state) callback.searchParams.set("state", state);
      callback.searchParams.set("iss", issuer);
      return callback.toString();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
