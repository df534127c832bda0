import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, type SignedUpUser, signUpUser, TestBrowser } from "#test/browser.ts";
import {
  authenticateOptions,
  newAuthenticator,
  PASSKEY_CHALLENGE_COOKIE,
  PASSKEY_ERR,
  registerOptions,
  registerPasskey,
} from "#test/passkey.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/**
 * Every refusal of a passkey registration (docs/passkeys.md "Security"): the answer, and nothing
 * stored afterwards.
 */
const openAuth = useFreshTestAuth();

async function setUp(overrides: Parameters<typeof openAuth>[0] = {}) {
  const t = await openAuth(overrides, { frozen: true });
  const ada = await signUpUser(t, { email: "ada@example.com" });
  return { t, ada };
}

const storedPasskeys = (t: TestAuth) => t.db.collection("passkeys").find({}).toArray();

/** Ada's browser's answer to a fresh registration challenge, not yet posted. */
async function answerReady(ada: SignedUpUser, authenticator = newAuthenticator()) {
  const options = await registerOptions(ada.browser);
  expect(options.status).toBe(200);
  return { options: options.body, response: authenticator.createCredential(options.body), authenticator };
}

describe("a registration challenge", () => {
  it("answers once: the same answer posted again finds no challenge", async () => {
    const { t, ada } = await setUp();
    const { response } = await answerReady(ada);
    const cookie = ada.browser.cookieHeader();
    const first = await ada.browser.post("/passkey/verify-registration", { response });
    expect(first.status).toBe(200);
    const replay = await ada.browser.post(
      "/passkey/verify-registration",
      { response },
      { headers: { cookie } },
    );
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(PASSKEY_ERR.CHALLENGE_NOT_FOUND);
    expect(await storedPasskeys(t)).toHaveLength(1);
  });

  it("lives 5 minutes", async () => {
    const { t, ada } = await setUp();
    const late = await answerReady(ada);
    t.advance(301);
    const refused = await ada.browser.post("/passkey/verify-registration", { response: late.response });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(PASSKEY_ERR.CHALLENGE_NOT_FOUND);
    expect(await storedPasskeys(t)).toHaveLength(0);

    const inTime = await answerReady(ada);
    t.advance(299);
    const accepted = await ada.browser.post("/passkey/verify-registration", { response: inTime.response });
    expect(accepted.status).toBe(200);
  });

  it("is bound to the browser that asked: the same session in another browser finds none", async () => {
    const { t, ada } = await setUp();
    const { response } = await answerReady(ada);
    const other = new TestBrowser(t.auth);
    other.cookies.set(SESSION_COOKIE, ada.browser.cookies.get(SESSION_COOKIE)!);
    const refused = await other.post("/passkey/verify-registration", { response });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(PASSKEY_ERR.CHALLENGE_NOT_FOUND);
    // A cookie naming a challenge without the server's signature is no better.
    const signed = decodeURIComponent(ada.browser.cookies.get(PASSKEY_CHALLENGE_COOKIE)!);
    other.cookies.set(PASSKEY_CHALLENGE_COOKIE, encodeURIComponent(signed.slice(0, signed.lastIndexOf("."))));
    const unsigned = await other.post("/passkey/verify-registration", { response });
    expect(unsigned.body).toEqual(PASSKEY_ERR.CHALLENGE_NOT_FOUND);
    expect(await storedPasskeys(t)).toHaveLength(0);
  });

  it("of a sign-in does not register", async () => {
    const { t, ada } = await setUp();
    const signIn = await authenticateOptions(ada.browser);
    const response = newAuthenticator().createCredential({
      challenge: signIn.body.challenge,
      rp: { id: "localhost" },
      user: { id: "AAAA" },
    });
    const refused = await ada.browser.post("/passkey/verify-registration", { response });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(PASSKEY_ERR.CHALLENGE_NOT_FOUND);
    expect(await storedPasskeys(t)).toHaveLength(0);
  });

  it("is the user's who asked: another signed-in user cannot answer it", async () => {
    const { t, ada } = await setUp();
    const bob = await signUpUser(t, { email: "bob@example.com" });
    const { response } = await answerReady(ada);
    bob.browser.cookies.set(PASSKEY_CHALLENGE_COOKIE, ada.browser.cookies.get(PASSKEY_CHALLENGE_COOKIE)!);
    const refused = await bob.browser.post("/passkey/verify-registration", { response });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(PASSKEY_ERR.NOT_ALLOWED);
    expect(await storedPasskeys(t)).toHaveLength(0);
  });
});

describe("the authenticator's answer", () => {
  it("from another origin is refused", async () => {
    const { t, ada } = await setUp();
    const res = await registerPasskey(ada.browser, newAuthenticator(), {
      overrides: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(PASSKEY_ERR.FAILED_REGISTRATION);
    expect(await storedPasskeys(t)).toHaveLength(0);
  });

  it("for another RP id is refused", async () => {
    const { t, ada } = await setUp();
    const res = await registerPasskey(ada.browser, newAuthenticator(), {
      overrides: { rpID: "evil.example" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(PASSKEY_ERR.FAILED_REGISTRATION);
    expect(await storedPasskeys(t)).toHaveLength(0);
  });

  it("without user verification is refused by default, accepted when the app prefers it only", async () => {
    const { t, ada } = await setUp();
    const unverified = newAuthenticator({ flags: { uv: false } });
    const res = await registerPasskey(ada.browser, unverified);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(PASSKEY_ERR.FAILED_REGISTRATION);
    expect(await storedPasskeys(t)).toHaveLength(0);

    const lenient = await setUp({ passkey: { userVerification: "preferred" } });
    const accepted = await registerPasskey(lenient.ada.browser, newAuthenticator({ flags: { uv: false } }));
    expect(accepted.status).toBe(200);
  });

  it("naming a credential another user registered is refused, and the credential stays theirs", async () => {
    const { t, ada } = await setUp();
    const bob = await signUpUser(t, { email: "bob@example.com" });
    const shared = newAuthenticator();
    expect((await registerPasskey(ada.browser, shared)).status).toBe(200);
    const res = await registerPasskey(bob.browser, shared);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(PASSKEY_ERR.ALREADY_REGISTERED);
    const stored = await storedPasskeys(t);
    expect(stored.map((row) => String(row.userId))).toEqual([ada.id]);
  });

  it("that is not a WebAuthn response is a 400 and stores nothing", async () => {
    const { t, ada } = await setUp();
    await registerOptions(ada.browser);
    const res = await ada.browser.post("/passkey/verify-registration", { response: { id: "x" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await storedPasskeys(t)).toHaveLength(0);
  });
});

describe("registering for a signed-in user", () => {
  it("needs a fresh session, when asking for options and when answering", async () => {
    const { t, ada } = await setUp({ session: { freshAge: 60 } });
    const { response } = await answerReady(ada);
    t.advance(61);
    const stale = await ada.browser.post("/passkey/verify-registration", { response });
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
    const options = await registerOptions(ada.browser);
    expect(options.status).toBe(403);
    expect(options.body).toEqual({ code: "SESSION_NOT_FRESH", message: "Session is not fresh" });
    expect(await storedPasskeys(t)).toHaveLength(0);
  });

  it("without a session and without an address is refused", async () => {
    const { t } = await setUp();
    const res = await registerOptions(new TestBrowser(t.auth));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(PASSKEY_ERR.SESSION_REQUIRED);
  });

  it("excludes the user's own passkeys from the options", async () => {
    const { ada } = await setUp();
    const first = newAuthenticator();
    await registerPasskey(ada.browser, first);
    const options = await registerOptions(ada.browser);
    expect(options.body.excludeCredentials).toEqual([
      { id: first.credentialID, type: "public-key", transports: ["internal", "hybrid"] },
    ]);
    expect(options.body.rp).toEqual({ name: "Tessera", id: "localhost" });
    expect(options.body.authenticatorSelection).toMatchObject({ userVerification: "required" });
  });
});
