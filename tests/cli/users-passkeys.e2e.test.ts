import { createAuth, createDevOutbox } from "@tessera/auth-core";
import { ObjectId } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { signUpUser } from "#test/browser.ts";
import { newAuthenticator, registerPasskey } from "#test/passkey.ts";
import { TEST_ORIGIN } from "#test/test-auth.ts";
import { useBuiltCli } from "./built-cli.ts";
import { runCli } from "./cli-process.ts";

/** tessera users passkeys / remove-passkey through the built binary, on passkeys registered over HTTP. */
const cli = useBuiltCli("passkeys", { operator: "ops", migrate: true });

const ICLOUD_KEYCHAIN = "fbfc3007-154e-4ecc-8c0b-6e020557d7bd";
const YUBIKEY_5_NFC = "fa2b99dc-9e39-4257-8f92-4a30d23c4118";

let adaId: string;
let laptopId: string;
let keyId: string;

const storedPasskeyIds = async (userId: string) =>
  (
    await cli
      .db()
      .collection("passkeys")
      .find({ userId: new ObjectId(userId) })
      .toArray()
  ).map((row) => row._id.toHexString());

beforeAll(async () => {
  const auth = createAuth({
    database: cli.db(),
    secret: cli.env.TESSERA_SECRET!,
    baseURL: TEST_ORIGIN,
    mailer: createDevOutbox({ print: () => {} }),
    rateLimit: { enabled: false },
  });
  const ada = await signUpUser({ auth, db: cli.db() }, { email: "ada@example.com" });
  adaId = ada.id;
  const laptop = await registerPasskey(
    ada.browser,
    newAuthenticator({ aaguid: ICLOUD_KEYCHAIN, flags: { be: true, bs: true } }),
    { name: "Laptop" },
  );
  const key = await registerPasskey(ada.browser, newAuthenticator({ aaguid: YUBIKEY_5_NFC }), {
    name: "Key",
  });
  laptopId = laptop.body.id;
  keyId = key.body.id;
  await signUpUser({ auth, db: cli.db() }, { email: "bob@example.com" });
}, 300_000);

describe("tessera users passkeys", () => {
  it("lists a user's passkeys: a table (id, name, authenticator, created, last used, kind), or JSON", async () => {
    const json = await runCli(["users", "passkeys", "ada@example.com", "--json"], { env: cli.env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      userId: adaId,
      passkeys: [
        { id: laptopId, name: "Laptop", authenticatorName: "iCloud Keychain", deviceType: "multiDevice" },
        {
          id: keyId,
          name: "Key",
          authenticatorName: "YubiKey 5 Series with NFC",
          deviceType: "singleDevice",
        },
      ],
    });
    const plain = await runCli(["users", "passkeys", adaId], { env: cli.env });
    expect(plain.code).toBe(0);
    const rows = plain.stdout
      .trimEnd()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(
      rows.map(([id, name, authenticator, , lastUsed, kind]) => [id, name, authenticator, lastUsed, kind]),
    ).toEqual([
      [laptopId, "Laptop", "iCloud Keychain", "-", "synced"],
      [keyId, "Key", "YubiKey 5 Series with NFC", "-", "device-bound"],
    ]);
    expect(rows[0]?.[3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("says so on stderr for a user without passkeys, and exits 3 for an unknown user", async () => {
    const none = await runCli(["users", "passkeys", "bob@example.com"], { env: cli.env });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("");
    expect(none.stderr).toBe("No passkeys for bob@example.com.\n");
    const unknown = await runCli(["users", "passkeys", "nobody@example.com"], { env: cli.env });
    expect(unknown.code).toBe(3);
  });
});

describe("tessera users remove-passkey", () => {
  it("asks first: without a terminal and without --yes, exit 2 and the passkey stays", async () => {
    const refused = await runCli(["users", "remove-passkey", "ada@example.com", keyId], { env: cli.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /Remove the passkey “Key” \(YubiKey 5 Series with NFC, device-bound\) of .*<ada@example\.com>.*: refused without --yes/,
    );
    expect(await storedPasskeyIds(adaId)).toEqual([laptopId, keyId]);
  });

  it("a passkey the user does not have: exit 3, nothing removed", async () => {
    const result = await runCli(["users", "remove-passkey", "bob@example.com", keyId, "--yes", "--json"], {
      env: cli.env,
    });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: "PASSKEY_NOT_FOUND" } });
    expect(await storedPasskeyIds(adaId)).toEqual([laptopId, keyId]);
  });

  it("with --yes removes it, recorded in the audit trail as the operator's passkey.remove", async () => {
    const removed = await runCli(["users", "remove-passkey", "ada@example.com", keyId, "--yes", "--json"], {
      env: cli.env,
    });
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ success: true, userId: adaId, passkeyId: keyId });
    expect(await storedPasskeyIds(adaId)).toEqual([laptopId]);
    const audit = await runCli(["audit", "list", "--json"], { env: cli.env });
    const events = (JSON.parse(audit.stdout) as { events: { action: string; actor: string }[] }).events;
    expect(events.map((event) => [event.action, event.actor])).toEqual([["passkey.remove", "cli:ops"]]);
  });
});
