import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OAuthServer, startOAuthServer, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from "./oauth-server.ts";

// The fixture server itself: if it accepted what a real provider refuses, provider tests would prove nothing.
let server: OAuthServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());

const REDIRECT = "http://localhost:3000/api/auth/callback/google";
const VERIFIER = "v".repeat(64);
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");

function authorizationURL(id: string, extra: Record<string, string> = {}): string {
  const url = new URL(server.endpoints(id).authorization);
  const params = {
    response_type: "code",
    client_id: TEST_CLIENT_ID,
    redirect_uri: REDIRECT,
    state: "s1",
    ...extra,
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

async function token(id: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(server.endpoints(id).token, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe("test OAuth server", () => {
  it("redirects with code and state, then exchanges the code once with the right PKCE verifier", async () => {
    const result = await server.authorize(
      authorizationURL("google", { code_challenge: CHALLENGE, code_challenge_method: "S256", nonce: "n1" }),
    );
    expect(result).toMatchObject({ method: "GET", state: "s1", error: null });
    const form = { grant_type: "authorization_code", code: result.code ?? "", redirect_uri: REDIRECT };
    const secret = { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET };
    const wrong = await token("google", { ...form, ...secret, code_verifier: "x".repeat(64) });
    expect(wrong).toEqual({
      status: 400,
      body: { error: "invalid_grant", error_description: "PKCE verification failed" },
    });
    // A failed exchange burns the code, as RFC 6749 §4.1.2 allows: the retry is refused too.
    const retry = await token("google", { ...form, ...secret, code_verifier: VERIFIER });
    expect(retry.body.error).toBe("invalid_grant");
  });

  it("issues tokens with an id_token carrying the nonce, and user info for the access token", async () => {
    const result = await server.authorize(
      authorizationURL("google", { code_challenge: CHALLENGE, code_challenge_method: "S256", nonce: "n1" }),
    );
    const basic = Buffer.from(`${TEST_CLIENT_ID}:${TEST_CLIENT_SECRET}`).toString("base64");
    const ok = await token(
      "google",
      {
        grant_type: "authorization_code",
        code: result.code ?? "",
        redirect_uri: REDIRECT,
        code_verifier: VERIFIER,
      },
      { authorization: `Basic ${basic}` },
    );
    expect(ok.status).toBe(200);
    const payload = JSON.parse(Buffer.from(ok.body.id_token?.split(".")[1] ?? "", "base64url").toString());
    expect(payload).toMatchObject({ iss: server.issuer("google"), aud: TEST_CLIENT_ID, nonce: "n1" });
    const info = await fetch(server.endpoints("google").userInfo, {
      headers: { authorization: `Bearer ${ok.body.access_token}` },
    });
    expect(await info.json()).toMatchObject({ sub: "1234567890", email: "ada@example.com" });
  });

  it("refuses plain PKCE, unknown clients and Reddit token requests without basic auth", async () => {
    const plain = await server.authorize(
      authorizationURL("google", { code_challenge: "abc", code_challenge_method: "plain" }),
    );
    expect(plain.error).toBe("invalid_request");
    const unknown = await server.authorize(authorizationURL("google", { client_id: "nobody" }));
    expect(unknown.refusal).toMatchObject({ error: "invalid_request" });
    const code = server.issueCode("reddit", { redirectURI: REDIRECT });
    const body = await token("reddit", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: TEST_CLIENT_ID,
      client_secret: TEST_CLIENT_SECRET,
    });
    expect(body).toEqual({ status: 401, body: { error: "invalid_client" } });
  });

  it("answers Apple with a form_post carrying the user JSON on the first consent only", async () => {
    const first = await server.authorize(authorizationURL("apple", { response_mode: "form_post" }));
    expect(first.method).toBe("POST");
    expect(first.callbackURL).toBe(REDIRECT);
    expect(JSON.parse(first.form?.user ?? "null")).toMatchObject({
      name: { firstName: "Ada", lastName: "Lovelace" },
    });
    const second = await server.authorize(authorizationURL("apple", { response_mode: "form_post" }));
    expect(second.form?.user).toBeUndefined();
    expect(second.code).toMatch(/^code_/);
  });

  it("injects an authorization error and a failing token endpoint", async () => {
    server.fail("github", "authorize", {
      error: "access_denied",
      errorDescription: "user said no",
      times: 1,
    });
    const denied = await server.authorize(authorizationURL("github"));
    expect(denied).toMatchObject({
      error: "access_denied",
      errorDescription: "user said no",
      state: "s1",
      code: null,
    });
    server.fail("github", "token", { status: 503, body: { error: "temporarily_unavailable" }, times: 1 });
    expect(await token("github", {})).toEqual({ status: 503, body: { error: "temporarily_unavailable" } });
    expect((await token("github", {})).status).toBe(401);
  });
});
