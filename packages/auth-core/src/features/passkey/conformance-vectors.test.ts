import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUpUser, TestBrowser } from "#test/browser.ts";
import { PASSKEY_ERR } from "#test/passkey.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";
import { CookieJar } from "../../http/cookie-jar.ts";
import { issueChallenge } from "./challenge.ts";
import type { Ceremony } from "./rules.ts";
import { insertPasskey } from "./store.ts";

/**
 * Responses recorded from real authenticators (fido-u2f, packed with and without a certificate, none,
 * tpm, android-key, android-safetynet; ES256, RS256, PS256), run through our endpoints exactly as a
 * browser would post them, against the challenge each was made for (issued as the options endpoints
 * issue theirs)
 * (docs/passkeys.md "Security"). The data and its source: conformance-vectors.json.
 */

// biome-ignore lint/suspicious/noExplicitAny: WebAuthn response JSON, posted as recorded.
type Json = any;
interface Vector {
  name: string;
  origin: string;
  rpID: string;
  challenge: string;
  response: Json;
}
interface RegistrationVector extends Vector {
  format: string;
  expected?: {
    credentialID: string;
    counter: number;
    userVerified: boolean;
    deviceType: string;
    backedUp: boolean;
    aaguid: string | null;
  };
  refusedBecause?: string;
}
interface AuthenticationVector extends Vector {
  credential: { credentialID: string; publicKey: string; counter: number };
  userHandle: string | null;
  expected: { counter: number; userVerified: boolean };
}

const vectors = JSON.parse(readFileSync(new URL("./conformance-vectors.json", import.meta.url), "utf8")) as {
  registrations: RegistrationVector[];
  authentications: AuthenticationVector[];
};
const accepted = vectors.registrations.filter((vector) => vector.expected);
const refusedByPolicy = vectors.registrations.filter((vector) => vector.refusedBecause);
const byName = <V extends Vector>(list: V[], name: string) => list.find((v) => v.name.startsWith(name))!;

const openAuth = useFreshTestAuth();

/** An RP at the vector's origin and RP id; user verification as given (default: the vector's own flag decides nothing). */
function openRelyingParty(vector: Vector, userVerification: "required" | "preferred" = "preferred") {
  return openAuth(
    { passkey: { rpID: vector.rpID, origin: vector.origin, userVerification } },
    { frozen: true },
  );
}

/**
 * A browser holding a challenge cookie for `ceremony`, issued by our challenge module as the options
 * endpoints issue it: the recorded answer is then posted against the challenge it was made for.
 */
async function browserHolding(t: TestAuth, ceremony: Ceremony): Promise<TestBrowser> {
  const jar = new CookieJar(null, {});
  await issueChallenge(t.auth.context, jar, ceremony);
  const browser = new TestBrowser(t.auth);
  const [pair] = jar.setCookieLines()[0]!.split(";");
  const eq = pair!.indexOf("=");
  browser.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  return browser;
}

/** A passkey-first sign-up whose authenticator answers with the recorded response. */
async function signUpWith(
  t: TestAuth,
  vector: Vector,
  response: Json = vector.response,
  challenge = vector.challenge,
) {
  const signUp = { email: "ada@example.com", name: "", callbackURL: null, language: null };
  const browser = await browserHolding(t, { kind: "sign-up", challenge, userHandle: "bmV3LXVzZXI", signUp });
  return browser.post<Json>("/passkey/verify-registration", { response });
}

async function expectRegistrationRefused(t: TestAuth, res: { status: number; body: unknown }) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual(PASSKEY_ERR.FAILED_REGISTRATION);
  expect(await t.db.collection("users").countDocuments()).toBe(0);
  expect(await t.db.collection("passkeys").countDocuments()).toBe(0);
}

/** The bytes of a base64url value, changed by `edit`, back as base64url. */
function editBytes(value: string, edit: (bytes: Buffer) => void): string {
  const bytes = Buffer.from(value, "base64url");
  edit(bytes);
  return bytes.toString("base64url");
}
const withResponse = (response: Json, fields: Record<string, unknown>) => ({
  ...response,
  response: { ...response.response, ...fields },
});

/** The index of `needle` in a response's bytes; the tampering tests edit what they found there. */
function indexIn(bytes: Buffer, needle: Buffer): number {
  const at = bytes.indexOf(needle);
  if (at < 0) throw new Error("the recorded response lacks the bytes to edit");
  return at;
}
const rpIdHashOf = (rpID: string) => createHash("sha256").update(rpID).digest();
// CBOR text "sig" then a byte string of one length byte (WebAuthn §8.2 packed attStmt).
const PACKED_SIG_KEY = Buffer.from([0x63, 0x73, 0x69, 0x67, 0x58]);

describe("recorded registrations from real authenticators", () => {
  it.each(accepted.map((vector) => [vector.name, vector] as const))("%s is accepted", async (_, vector) => {
    const t = await openRelyingParty(vector);
    const res = await signUpWith(t, vector);
    const expected = vector.expected!;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      credentialID: expected.credentialID,
      counter: expected.counter,
      deviceType: expected.deviceType,
      backedUp: expected.backedUp,
      aaguid: expected.aaguid,
    });
    expect(res.body.session).not.toBeNull();
    const stored = await t.db.collection("passkeys").findOne({ credentialID: expected.credentialID });
    expect(stored).toMatchObject({
      userId: new ObjectId(res.body.user.id),
      counter: expected.counter,
      uvInitialized: expected.userVerified,
    });
  });

  it.each(refusedByPolicy.map((vector) => [vector.name, vector] as const))(
    "%s is refused: see the vector's refusedBecause",
    async (_, vector) => {
      const t = await openRelyingParty(vector);
      await expectRegistrationRefused(t, await signUpWith(t, vector));
    },
  );
});

describe("a recorded registration, tampered with, is refused", () => {
  const none = byName(vectors.registrations, "Firefox on Android");
  const packed = byName(vectors.registrations, "Chrome on Mac");
  const attestationOf = (vector: Vector) => vector.response.response.attestationObject as string;

  it("with a flipped signature byte", async () => {
    const t = await openRelyingParty(packed);
    const attestationObject = editBytes(attestationOf(packed), (bytes) => {
      const at = indexIn(bytes, PACKED_SIG_KEY) + PACKED_SIG_KEY.length;
      bytes[at + bytes[at]!]! ^= 0x01;
    });
    await expectRegistrationRefused(
      t,
      await signUpWith(t, packed, withResponse(packed.response, { attestationObject })),
    );
  });

  it("from another origin", async () => {
    const t = await openRelyingParty(none);
    const clientData = JSON.parse(Buffer.from(none.response.response.clientDataJSON, "base64url").toString());
    const clientDataJSON = Buffer.from(
      JSON.stringify({ ...clientData, origin: "https://dev.dontneeda.pw.evil.example" }),
    ).toString("base64url");
    await expectRegistrationRefused(
      t,
      await signUpWith(t, none, withResponse(none.response, { clientDataJSON })),
    );
  });

  it("for another RP id (its RP id hash changed)", async () => {
    const t = await openRelyingParty(none);
    const attestationObject = editBytes(attestationOf(none), (bytes) => {
      bytes[indexIn(bytes, rpIdHashOf(none.rpID))]! ^= 0x01;
    });
    await expectRegistrationRefused(
      t,
      await signUpWith(t, none, withResponse(none.response, { attestationObject })),
    );
  });

  it("answering another challenge", async () => {
    const t = await openRelyingParty(none);
    await expectRegistrationRefused(
      t,
      await signUpWith(t, none, none.response, "c29tZS1vdGhlci1jaGFsbGVuZ2U"),
    );
  });

  it("with its user-verified flag cleared, where user verification is required", async () => {
    const t = await openRelyingParty(none, "required");
    const attestationObject = editBytes(attestationOf(none), (bytes) => {
      bytes[indexIn(bytes, rpIdHashOf(none.rpID)) + 32]! &= ~0x04;
    });
    await expectRegistrationRefused(
      t,
      await signUpWith(t, none, withResponse(none.response, { attestationObject })),
    );
    // The same answer with the flag as recorded is accepted under the same settings.
    expect((await signUpWith(t, none)).status).toBe(200);
  });
});

/** A user holding the vector's credential, as a registration would have stored it. */
async function holderOf(
  t: TestAuth,
  vector: AuthenticationVector,
  stored: { counter?: number; userHandle?: string } = {},
) {
  const ada = await signUpUser(t, { email: "ada@example.com" });
  await insertPasskey(t.auth.context.collections, {
    _id: new ObjectId(),
    userId: new ObjectId(ada.id),
    name: null,
    credentialID: vector.credential.credentialID,
    publicKey: vector.credential.publicKey,
    counter: stored.counter ?? vector.credential.counter,
    deviceType: "singleDevice",
    backedUp: false,
    transports: [],
    aaguid: null,
    userHandle: stored.userHandle ?? vector.userHandle ?? "bm8taGFuZGxl",
    createdAt: t.now(),
    lastUsedAt: null,
  });
  return ada.id;
}

async function signInWith(
  t: TestAuth,
  vector: AuthenticationVector,
  response: Json = vector.response,
  challenge = vector.challenge,
) {
  const browser = await browserHolding(t, { kind: "authentication", challenge });
  const res = await browser.post<Json>("/passkey/verify-authentication", { response });
  return { res, signedIn: browser.cookies.has(SESSION_COOKIE) };
}

const passkeyOf = (t: TestAuth, vector: AuthenticationVector) =>
  t.db.collection("passkeys").findOne({ credentialID: vector.credential.credentialID });

/** Refused with AUTHENTICATION_FAILED: no session, and the stored passkey unchanged. */
async function expectSignInRefused(
  t: TestAuth,
  vector: AuthenticationVector,
  run: () => ReturnType<typeof signInWith>,
) {
  const before = await passkeyOf(t, vector);
  const { res, signedIn } = await run();
  expect(res.status).toBe(401);
  expect(res.body).toEqual(PASSKEY_ERR.AUTHENTICATION_FAILED);
  expect(signedIn).toBe(false);
  expect(await t.db.collection("sessions").countDocuments({ userId: before!.userId })).toBe(1);
  expect(await passkeyOf(t, vector)).toEqual(before);
}

describe("recorded sign-ins from real authenticators", () => {
  it.each(vectors.authentications.map((vector) => [vector.name, vector] as const))(
    "%s is accepted",
    async (_, vector) => {
      const t = await openRelyingParty(vector);
      const userId = await holderOf(t, vector);
      const { res, signedIn } = await signInWith(t, vector);
      expect(res.status).toBe(200);
      expect(res.body.user.id).toBe(userId);
      expect(signedIn).toBe(true);
      const stored = await passkeyOf(t, vector);
      expect(stored).toMatchObject({ counter: vector.expected.counter, lastUsedAt: t.now() });
      expect(stored!.uvInitialized === true).toBe(vector.expected.userVerified);
    },
  );
});

describe("a recorded sign-in, tampered with or out of place, is refused", () => {
  const verified = byName(vectors.authentications, "discoverable passkey");
  const unverified = byName(vectors.authentications, "authenticator without a counter");

  it("with a flipped signature byte", async () => {
    const t = await openRelyingParty(verified);
    await holderOf(t, verified);
    const signature = editBytes(verified.response.response.signature, (bytes) => {
      bytes[bytes.length - 1]! ^= 0x01;
    });
    await expectSignInRefused(t, verified, () =>
      signInWith(t, verified, withResponse(verified.response, { signature })),
    );
  });

  it("from an origin the RP does not list", async () => {
    const t = await openAuth(
      { passkey: { rpID: verified.rpID, origin: "http://localhost:9000" } },
      { frozen: true },
    );
    await holderOf(t, verified);
    await expectSignInRefused(t, verified, () => signInWith(t, verified));
  });

  it("for another RP id", async () => {
    const t = await openAuth(
      { passkey: { rpID: "auth.localhost", origin: verified.origin } },
      { frozen: true },
    );
    await holderOf(t, verified);
    await expectSignInRefused(t, verified, () => signInWith(t, verified));
  });

  it("answering another challenge", async () => {
    const t = await openRelyingParty(verified);
    await holderOf(t, verified);
    await expectSignInRefused(t, verified, () =>
      signInWith(t, verified, verified.response, "c29tZS1vdGhlci1jaGFsbGVuZ2U"),
    );
  });

  it("without user verification, where it is required", async () => {
    const t = await openRelyingParty(unverified, "required");
    await holderOf(t, unverified);
    await expectSignInRefused(t, unverified, () => signInWith(t, unverified));
  });

  it("with a counter that did not grow", async () => {
    const t = await openRelyingParty(verified);
    await holderOf(t, verified, { counter: verified.expected.counter });
    await expectSignInRefused(t, verified, () => signInWith(t, verified));
  });

  it("naming another account's user handle", async () => {
    const t = await openRelyingParty(verified);
    await holderOf(t, verified, { userHandle: "c29tZW9uZS1lbHNl" });
    await expectSignInRefused(t, verified, () => signInWith(t, verified));
  });
});
