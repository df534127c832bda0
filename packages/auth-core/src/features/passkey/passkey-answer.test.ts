import { describe, expect, it } from "vitest";
import { passkeySchema } from "../../contracts/passkey-models.ts";
import type { PasskeyDoc } from "../../db/documents.ts";
import { ObjectId } from "../../db/ids.ts";
import { toPasskey } from "./rules.ts";

const id = ObjectId.createFromHexString("64b7f0a1c2d3e4f5a6b7c8d9");
const userId = ObjectId.createFromHexString("64b7f0a1c2d3e4f5a6b7c8da");
const at = new Date("2026-03-04T05:06:07.089Z");

/** A stored passkey with every field the API shows set, and the ones it never shows. */
const stored: PasskeyDoc = {
  _id: id,
  userId,
  name: "Laptop",
  credentialID: "Y3JlZGVudGlhbA",
  publicKey: "cHVibGljLWtleQ",
  counter: 7,
  deviceType: "multiDevice",
  backedUp: true,
  transports: ["internal", "hybrid"],
  aaguid: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd",
  userHandle: "handle-never-shown",
  uvInitialized: true,
  registeredUnverified: true,
  createdAt: at,
  lastUsedAt: at,
};

describe("a passkey as the API answers it", () => {
  it("is the stored passkey in Better Auth's key order, with its model's name, and no handle or marks", () => {
    const answer = toPasskey(stored);
    expect(JSON.stringify(answer)).toBe(
      `{"id":"${id}","name":"Laptop","userId":"${userId}","credentialID":"Y3JlZGVudGlhbA",` +
        `"publicKey":"cHVibGljLWtleQ","counter":7,"deviceType":"multiDevice","backedUp":true,` +
        `"transports":"internal,hybrid","aaguid":"fbfc3007-154e-4ecc-8c0b-6e020557d7bd",` +
        `"authenticatorName":"iCloud Keychain","createdAt":"2026-03-04T05:06:07.089Z",` +
        `"lastUsedAt":"2026-03-04T05:06:07.089Z"}`,
    );
    expect(passkeySchema.safeParse(answer).success).toBe(true);
  });

  it("answers null for each unset field and an empty transports list as an empty string", () => {
    const unset: PasskeyDoc = { ...stored, name: null, transports: [], aaguid: null, lastUsedAt: null };
    expect(JSON.stringify(toPasskey(unset))).toBe(
      `{"id":"${id}","name":null,"userId":"${userId}","credentialID":"Y3JlZGVudGlhbA",` +
        `"publicKey":"cHVibGljLWtleQ","counter":7,"deviceType":"multiDevice","backedUp":true,` +
        `"transports":"","aaguid":null,"authenticatorName":null,"createdAt":"2026-03-04T05:06:07.089Z",` +
        `"lastUsedAt":null}`,
    );
  });
});
