import { describe, expect, it } from "vitest";
import { decryptString, encryptionKeyOf, encryptString } from "./encryption.ts";
import { generateRandomString, generateSessionToken, LOWER_ALPHANUMERIC } from "./random.ts";
import { signJwt, signValue, unsignValue, verifyJwt } from "./signing.ts";

const SECRET = "a-test-secret-of-enough-length";

describe("signed values", () => {
  it("round-trips and refuses a changed value, a changed signature or another secret", () => {
    const signed = signValue("token123", SECRET);
    expect(unsignValue(signed, SECRET)).toBe("token123");
    expect(unsignValue(signed.replace("token123", "token124"), SECRET)).toBeNull();
    expect(unsignValue(`${signed.slice(0, -1)}${signed.endsWith("A") ? "B" : "A"}`, SECRET)).toBeNull();
    expect(unsignValue(signed, `${SECRET}x`)).toBeNull();
    expect(unsignValue("no-dot", SECRET)).toBeNull();
    expect(unsignValue(".onlysig", SECRET)).toBeNull();
  });
});

describe("JWTs", () => {
  it("verifies before expiry, reports expiry after it, and refuses tampering", async () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const token = await signJwt({ email: "a@b.co" }, SECRET, 3600, now);
    const ok = await verifyJwt(token, SECRET, new Date(now.getTime() + 3599_000));
    expect(ok.ok && ok.payload.email).toBe("a@b.co");
    expect(await verifyJwt(token, SECRET, new Date(now.getTime() + 3601_000))).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(await verifyJwt(token, "another-secret-of-enough-len", now)).toEqual({
      ok: false,
      reason: "invalid",
    });
    const [h, , s] = token.split(".");
    const forged = `${h}.${Buffer.from(JSON.stringify({ email: "x@y.co", exp: 9e9 })).toString("base64url")}.${s}`;
    expect(await verifyJwt(forged, SECRET, now)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses alg none", async () => {
    const body = Buffer.from(JSON.stringify({ email: "a@b.co", exp: 9e9 })).toString("base64url");
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${body}.`;
    expect(await verifyJwt(none, SECRET, new Date())).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("encryption at rest", () => {
  it("round-trips, uses a fresh IV each time, and refuses tampering or another secret", () => {
    const a = encryptString("provider-token", SECRET);
    const b = encryptString("provider-token", SECRET);
    expect(a).not.toBe(b);
    expect(a).not.toContain("provider-token");
    expect(decryptString(a, SECRET)).toBe("provider-token");
    expect(decryptString(a, `${SECRET}x`)).toBeNull();
    const parts = a.split(".");
    parts[3] = `${parts[3]!.slice(0, -2)}AA`;
    expect(decryptString(parts.join("."), SECRET)).toBeNull();
    expect(decryptString("garbage", SECRET)).toBeNull();
  });

  it("derives a secret's key once and keeps it, one key per secret", () => {
    const key = encryptionKeyOf(SECRET);
    encryptString("provider-token", SECRET);
    expect(encryptionKeyOf(SECRET)).toBe(key);
    expect(encryptionKeyOf(`${SECRET}x`)).not.toBe(key);
    expect(encryptionKeyOf(`${SECRET}x`).equals(key)).toBe(false);
  });

  it("opens an envelope sealed when every seal derived its key anew, also once the kept keys have turned over", () => {
    // Made by the encryption.ts of 7027ae1 (HKDF at each call): the derivation is unchanged.
    const secret = "known-answer-secret-0123456789abcdef";
    const envelope = "v1.fHUMLYdGwDaKoP9v.o-sUO72T9O3rRCIU8uZ9Rg.mIYP28gOe-W90i6mnLoKIN0t_ZPX05u4_Dpcc3m6";
    expect(decryptString(envelope, secret)).toBe("sealed before the key was kept");
    // Past the bound the oldest key goes: derived again, it opens the same envelopes.
    for (let index = 0; index < 40; index++) encryptString("x", `${secret}-${index}`);
    expect(decryptString(envelope, secret)).toBe("sealed before the key was kept");
    expect(decryptString(envelope, `${secret}-0`)).toBeNull();
  });
});

describe("random tokens", () => {
  it("session tokens are 32 characters of [A-Za-z0-9] and do not repeat", () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateSessionToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it("uses only the given alphabet", () => {
    expect(generateRandomString(32, LOWER_ALPHANUMERIC)).toMatch(/^[0-9a-z]{32}$/);
  });
});

describe("domain separation", () => {
  it("an HS256 JWT made with the same secret is not a validly signed cookie value", async () => {
    const jwt = await signJwt({ email: "a@b.co" }, SECRET, 3600, new Date());
    const dot = jwt.lastIndexOf(".");
    // A JWT is "<signing input>.<HMAC of it>": exactly the shape of a signed value.
    expect(unsignValue(jwt, SECRET)).toBeNull();
    expect(jwt.slice(0, dot).length).toBeGreaterThan(0);
  });
});
