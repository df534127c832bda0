import { describe, expect, it } from "vitest";
import { SESSION_COOKIE, signUpUser, TestBrowser } from "#test/browser.ts";
import { newAuthenticator, registerPasskey, signInWithPasskey } from "#test/passkey.ts";
import type { AttestationFormat, KeyType } from "#test/software-authenticator.ts";
import { useTestAuth } from "#test/test-auth.ts";

const t = useTestAuth();

const KINDS: [KeyType, AttestationFormat][] = [
  ["ES256", "none"],
  ["ES256", "packed"],
  ["RS256", "none"],
  ["RS256", "packed"],
];

describe("a passkey registers and signs in", () => {
  it.each(KINDS)("with an %s key and %s attestation", async (keyType, format) => {
    const email = `${keyType}-${format}@example.com`.toLowerCase();
    const ada = await signUpUser(t, { email });
    const authenticator = newAuthenticator({
      keyType,
      format,
      aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
      flags: { be: true, bs: true },
    });
    const registered = await registerPasskey(ada.browser, authenticator, { name: "Laptop" });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: "Laptop",
      userId: ada.id,
      credentialID: authenticator.credentialID,
      publicKey: expect.any(String),
      counter: 1,
      deviceType: "multiDevice",
      backedUp: true,
      transports: "internal,hybrid",
      aaguid: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
      authenticatorName: "Google Password Manager",
      createdAt: expect.any(String),
      lastUsedAt: null,
    });

    const browser = new TestBrowser(t.auth);
    const signedIn = await signInWithPasskey(browser, authenticator);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id: ada.id, email });
    expect(signedIn.body.session).toMatchObject({ userId: ada.id });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    const me = await browser.get<{ user: { id: string } }>("/get-session");
    expect(me.body.user.id).toBe(ada.id);

    const stored = await t.db.collection("passkeys").findOne({ credentialID: authenticator.credentialID });
    expect(stored).toMatchObject({ counter: 2, backedUp: true, lastUsedAt: expect.any(Date) });
  });
});
