import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { addMember, createOrganization, errorBody, type SignedIn, signIn } from "#test/organization.ts";
import { newAuthenticator, registerPasskey, signInWithPasskey } from "#test/passkey.ts";
import { type TestAuth, useFreshTestAuth } from "#test/test-auth.ts";

/** An organization's authenticator policy: set-passkey-policy, get-passkey-policy, check-passkey-policy. */
const openAuth = useFreshTestAuth();

const YUBIKEY_5_NFC = "fa2b99dc-9e39-4257-8f92-4a30d23c4118";
const GOOGLE_PASSWORD_MANAGER = "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4";
const UNKNOWN_MODEL = "12345678-1234-1234-1234-123456789abc";

const INVALID_AAGUID = errorBody(
  "INVALID_AAGUID",
  "Invalid aaguids: each must be an authenticator AAGUID (a UUID such as fa2b99dc-9e39-4257-8f92-4a30d23c4118), at most 100",
);

interface Cast {
  t: TestAuth;
  owner: SignedIn;
  admin: SignedIn;
  member: SignedIn;
  outsider: SignedIn;
  org: string;
}

async function setUp(overrides: Parameters<typeof openAuth>[0] = {}): Promise<Cast> {
  const t = await openAuth(overrides);
  const [owner, admin, member, outsider] = await Promise.all(
    ["owner", "admin", "member", "outsider"].map((name) => signIn(t, name)),
  );
  const org = await createOrganization(owner!, "acme");
  await addMember(t, org, admin!, "admin");
  await addMember(t, org, member!, "member");
  for (const user of [admin!, member!])
    await user.browser.post("/organization/set-active", { organizationId: org });
  return { t, owner: owner!, admin: admin!, member: member!, outsider: outsider!, org };
}

const storedPolicy = async (cast: Cast) =>
  (await cast.t.db.collection("organizations").findOne({ _id: new ObjectId(cast.org) }))?.passkeyPolicy;

const allowYubiKeys = { requireUserVerification: false, mode: "allow-list", aaguids: [YUBIKEY_5_NFC] };

describe("set-passkey-policy and get-passkey-policy", () => {
  it("an owner sets the policy (AAGUIDs lower-cased, each once) and every member reads it", async () => {
    const cast = await setUp();
    const set = await cast.owner.browser.post("/organization/set-passkey-policy", {
      requireUserVerification: true,
      mode: "deny-list",
      aaguids: [GOOGLE_PASSWORD_MANAGER.toUpperCase(), GOOGLE_PASSWORD_MANAGER],
    });
    const expected = { requireUserVerification: true, mode: "deny-list", aaguids: [GOOGLE_PASSWORD_MANAGER] };
    expect(set.status).toBe(200);
    expect(set.body).toEqual(expected);
    expect(await storedPolicy(cast)).toEqual(expected);
    const read = await cast.member.browser.get(`/organization/get-passkey-policy?organizationId=${cast.org}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(expected);
  });

  it("an organization that never set one answers the default, which every member satisfies", async () => {
    const cast = await setUp();
    const read = await cast.member.browser.get("/organization/get-passkey-policy");
    expect(read.body).toEqual({ requireUserVerification: false, mode: "any", aaguids: [] });
    const check = await cast.member.browser.get("/organization/check-passkey-policy");
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ satisfied: true, passkeys: [] });
  });

  it("a role with the organization-update permission (admin) may set it", async () => {
    const cast = await setUp();
    const set = await cast.admin.browser.post("/organization/set-passkey-policy", allowYubiKeys);
    expect(set.status).toBe(200);
    expect(await storedPolicy(cast)).toEqual(allowYubiKeys);
  });

  it("a member without the permission, or an outsider, is refused and the stored policy is unchanged", async () => {
    const cast = await setUp();
    await cast.owner.browser.post("/organization/set-passkey-policy", allowYubiKeys);
    const loosen = { requireUserVerification: false, mode: "any", organizationId: cast.org };
    const byMember = await cast.member.browser.post("/organization/set-passkey-policy", loosen);
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual(
      errorBody("ORGANIZATION_UPDATE_NOT_ALLOWED", "not allowed to update or delete this organization"),
    );
    const byOutsider = await cast.outsider.browser.post("/organization/set-passkey-policy", loosen);
    expect(byOutsider.status).toBe(403);
    expect(byOutsider.body).toEqual(
      errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization"),
    );
    for (const read of ["get-passkey-policy", "check-passkey-policy"]) {
      const outsiderRead = await cast.outsider.browser.get(
        `/organization/${read}?organizationId=${cast.org}`,
      );
      expect({ read, status: outsiderRead.status, body: outsiderRead.body }).toEqual({
        read,
        status: 403,
        body: errorBody("NOT_A_MEMBER_OF_ORGANIZATION", "You are not a member of this organization"),
      });
    }
    expect(await storedPolicy(cast)).toEqual(allowYubiKeys);
  });

  it("a bad AAGUID is a 400 naming the field, and nothing is stored", async () => {
    const cast = await setUp();
    for (const aaguids of [
      ["not-an-aaguid"],
      [YUBIKEY_5_NFC, `${YUBIKEY_5_NFC}0`],
      ["fa2b99dc9e3942578f924a30d23c4118"],
      Array.from({ length: 101 }, (_, i) => `00000000-0000-0000-0000-${String(i).padStart(12, "0")}`),
    ]) {
      const set = await cast.owner.browser.post("/organization/set-passkey-policy", {
        requireUserVerification: false,
        mode: "allow-list",
        aaguids,
      });
      expect(set.status).toBe(400);
      expect(set.body).toEqual(INVALID_AAGUID);
    }
    expect(await storedPolicy(cast)).toBeUndefined();
  });
});

describe("check-passkey-policy", () => {
  it("a member with only a passkey the allow-list does not name is unsatisfied; one that fits satisfies", async () => {
    const cast = await setUp();
    await cast.owner.browser.post("/organization/set-passkey-policy", allowYubiKeys);
    const phone = await registerPasskey(
      cast.member.browser,
      newAuthenticator({ aaguid: GOOGLE_PASSWORD_MANAGER }),
      { name: "Phone" },
    );
    expect(phone.status).toBe(200);
    const before = await cast.member.browser.get("/organization/check-passkey-policy");
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      satisfied: false,
      policy: allowYubiKeys,
      passkeys: [
        {
          id: phone.body.id,
          name: "Phone",
          aaguid: GOOGLE_PASSWORD_MANAGER,
          authenticatorName: "Google Password Manager",
          fits: false,
          reason: "authenticator",
        },
      ],
    });
    const key = await registerPasskey(cast.member.browser, newAuthenticator({ aaguid: YUBIKEY_5_NFC }), {
      name: "Key",
    });
    const after = await cast.member.browser.get("/organization/check-passkey-policy");
    expect(after.body).toMatchObject({
      satisfied: true,
      passkeys: [
        { id: phone.body.id, fits: false },
        { id: key.body.id, authenticatorName: "YubiKey 5 Series with NFC", fits: true, reason: null },
      ],
    });
  });

  it("a deny-list refuses the models it names; an authenticator that names no model fits it but no allow-list", async () => {
    const cast = await setUp();
    await cast.owner.browser.post("/organization/set-passkey-policy", {
      requireUserVerification: false,
      mode: "deny-list",
      aaguids: [GOOGLE_PASSWORD_MANAGER],
    });
    await registerPasskey(cast.member.browser, newAuthenticator({ aaguid: GOOGLE_PASSWORD_MANAGER }));
    expect((await cast.member.browser.get("/organization/check-passkey-policy")).body).toMatchObject({
      satisfied: false,
      passkeys: [{ fits: false, reason: "authenticator" }],
    });
    await registerPasskey(cast.member.browser, newAuthenticator());
    expect((await cast.member.browser.get("/organization/check-passkey-policy")).body).toMatchObject({
      satisfied: true,
      passkeys: [{ fits: false }, { aaguid: null, authenticatorName: null, fits: true }],
    });
    await cast.owner.browser.post("/organization/set-passkey-policy", allowYubiKeys);
    expect((await cast.member.browser.get("/organization/check-passkey-policy")).body).toMatchObject({
      satisfied: false,
      passkeys: [{ fits: false }, { fits: false, reason: "authenticator" }],
    });
  });

  it("a member with no passkey is asked for one once the policy asks anything", async () => {
    const cast = await setUp();
    await cast.owner.browser.post("/organization/set-passkey-policy", {
      requireUserVerification: true,
      mode: "any",
    });
    expect((await cast.member.browser.get("/organization/check-passkey-policy")).body).toEqual({
      satisfied: false,
      policy: { requireUserVerification: true, mode: "any", aaguids: [] },
      passkeys: [],
    });
  });

  it("requiring user verification counts only passkeys whose authenticator verified the user, at registration or since", async () => {
    const cast = await setUp({ passkey: { userVerification: "preferred" } });
    await cast.owner.browser.post("/organization/set-passkey-policy", {
      requireUserVerification: true,
      mode: "any",
    });
    const authenticator = newAuthenticator({ aaguid: UNKNOWN_MODEL, flags: { uv: false } });
    const registered = await registerPasskey(cast.member.browser, authenticator);
    expect(registered.status).toBe(200);
    expect(registered.body.authenticatorName).toBeNull();
    const stored = await cast.t.db.collection("passkeys").findOne({ _id: new ObjectId(registered.body.id) });
    expect(stored?.uvInitialized).toBe(false);
    expect((await cast.member.browser.get("/organization/check-passkey-policy")).body).toMatchObject({
      satisfied: false,
      passkeys: [{ fits: false, reason: "user-verification" }],
    });
    // A sign-in without user verification changes nothing; one with it initialises it for good.
    // (A new session has no active organization: the check names it.)
    const check = `/organization/check-passkey-policy?organizationId=${cast.org}`;
    expect((await signInWithPasskey(cast.member.browser, authenticator)).status).toBe(200);
    expect((await cast.member.browser.get(check)).body).toMatchObject({ satisfied: false });
    authenticator.flags.uv = true;
    expect((await signInWithPasskey(cast.member.browser, authenticator)).status).toBe(200);
    expect((await cast.member.browser.get(check)).body).toMatchObject({
      satisfied: true,
      passkeys: [{ fits: true, reason: null }],
    });
  });
});
