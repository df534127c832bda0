import type { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import type { TestAuth } from "#test/test-auth.ts";
import { codeAt, ERR, PASSWORD, totpFromURI, useTwoFactorFixtures } from "#test/two-factor.ts";

const twoFactor = useTwoFactorFixtures();

/**
 * Confirming an enrollment (verify-totp with a session) while the owner disables two-factor must
 * never leave `twoFactorEnabled` true without a `twoFactors` document: that user could no longer
 * sign in (every challenge answers TOTP not enabled).
 */

async function stateOf(t: TestAuth, userId: ObjectId) {
  const user = await t.db.collection("users").findOne({ _id: userId });
  const doc = await t.db.collection("twoFactors").findOne({ userId });
  return { enabled: user?.twoFactorEnabled === true, doc: doc !== null };
}

/** Resolves once `flag()` holds (polled): the forced interleavings wait on the other request. */
async function until(flag: () => boolean): Promise<void> {
  while (!flag()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("confirm racing disable", () => {
  it("disable running between confirm's read and its flag write: the flag goes back off", async () => {
    let disabled = false;
    let held = false;
    const value = await twoFactor.pending({
      hooks: {
        user: {
          update: {
            before: async (data) => {
              if (data.twoFactorEnabled === true && !held) {
                held = true;
                await until(() => disabled);
              }
              return undefined;
            },
          },
        },
      },
    });
    const { t, ada, userId, code } = value;
    const confirm = ada.post("/two-factor/verify-totp", { code: code() });
    await until(() => held);
    const disable = await ada.post("/two-factor/disable", { password: PASSWORD });
    expect(disable.status).toBe(200);
    disabled = true;
    const confirmed = await confirm;
    expect({ status: confirmed.status, body: confirmed.body }).toEqual({
      status: 400,
      body: ERR.TOTP_NOT_ENABLED,
    });
    expect(await stateOf(t, userId)).toEqual({ enabled: false, doc: false });
  });

  it("confirm finishing between disable's first flag write and its delete: disable writes the flag off again", async () => {
    let confirmed = false;
    let held = false;
    const value = await twoFactor.pending({
      hooks: {
        user: {
          update: {
            after: async (user) => {
              if (user.twoFactorEnabled === false && !held) {
                held = true;
                await until(() => confirmed);
              }
            },
          },
        },
      },
    });
    const { t, ada, userId, code } = value;
    const disable = ada.post("/two-factor/disable", { password: PASSWORD });
    await until(() => held);
    const confirm = await ada.post("/two-factor/verify-totp", { code: code() });
    expect(confirm.status).toBe(200);
    confirmed = true;
    expect((await disable).status).toBe(200);
    expect(await stateOf(t, userId)).toEqual({ enabled: false, doc: false });
  });

  it("in parallel over rounds, flag and document always agree", async () => {
    const value = await twoFactor.pending();
    const { t, ada, userId } = value;
    let secret = value.secret;
    for (let round = 0; round < 5; round++) {
      const [confirm, disable] = await Promise.all([
        ada.post("/two-factor/verify-totp", { code: codeAt(secret, t.now()) }),
        ada.post("/two-factor/disable", { password: PASSWORD }),
      ]);
      expect(disable.status).toBe(200);
      expect([200, 400]).toContain(confirm.status);
      const state = await stateOf(t, userId);
      expect(state.enabled).toBe(state.doc);
      if (state.enabled)
        expect((await ada.post("/two-factor/disable", { password: PASSWORD })).status).toBe(200);
      t.advance(30);
      const enabled = await ada.post<{ totpURI: string }>("/two-factor/enable", { password: PASSWORD });
      expect(enabled.status).toBe(200);
      secret = totpFromURI(enabled.body.totpURI);
    }
  });
});
