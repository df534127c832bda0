import { describe, expect, it } from "vitest";
import {
  buildTotpURI,
  DEFAULT_TOTP_PARAMS,
  decodeBase32,
  encodeBase32,
  findTotpStep,
  generateHotp,
  generateTotp,
  generateTotpSecret,
  type TotpAlgorithm,
} from "./totp.ts";

const ascii = (text: string) => new TextEncoder().encode(text);

describe("HOTP (RFC 4226 Appendix D)", () => {
  const key = ascii("12345678901234567890");
  const expected = [
    "755224",
    "287082",
    "359152",
    "969429",
    "338314",
    "254676",
    "287922",
    "162583",
    "399871",
    "520489",
  ];
  it.each(expected.map((code, counter) => [counter, code] as const))("counter %i → %s", (counter, code) => {
    expect(generateHotp(key, counter)).toBe(code);
  });
});

describe("TOTP (RFC 6238 Appendix B, 8 digits, 30 s)", () => {
  const keys: Record<TotpAlgorithm, Uint8Array> = {
    sha1: ascii("12345678901234567890"),
    sha256: ascii("12345678901234567890123456789012"),
    sha512: ascii("1234567890123456789012345678901234567890123456789012345678901234"),
  };
  const vectors: [number, TotpAlgorithm, string][] = [
    [59, "sha1", "94287082"],
    [59, "sha256", "46119246"],
    [59, "sha512", "90693936"],
    [1111111109, "sha1", "07081804"],
    [1111111109, "sha256", "68084774"],
    [1111111109, "sha512", "25091201"],
    [1111111111, "sha1", "14050471"],
    [1111111111, "sha256", "67062674"],
    [1111111111, "sha512", "99943326"],
    [1234567890, "sha1", "89005924"],
    [1234567890, "sha256", "91819424"],
    [1234567890, "sha512", "93441116"],
    [2000000000, "sha1", "69279037"],
    [2000000000, "sha256", "90698825"],
    [2000000000, "sha512", "38618901"],
    [20000000000, "sha1", "65353130"],
    [20000000000, "sha256", "77737706"],
    [20000000000, "sha512", "47863826"],
  ];
  it.each(vectors)("T=%i %s → %s", (seconds, algorithm, code) => {
    const params = { digits: 8, period: 30, algorithm };
    expect(generateTotp(keys[algorithm], new Date(seconds * 1000), params)).toBe(code);
  });
});

describe("TOTP verification window", () => {
  const key = ascii("12345678901234567890");
  const now = new Date(1111111111 * 1000);
  const step = Math.floor(1111111111 / 30);
  const at = (offsetSteps: number) => generateHotp(key, step + offsetSteps);

  it("accepts the current step and one step either side, and names the step that matched", () => {
    expect(findTotpStep(key, at(0), now)).toBe(step);
    expect(findTotpStep(key, at(-1), now)).toBe(step - 1);
    expect(findTotpStep(key, at(1), now)).toBe(step + 1);
  });

  it("refuses codes two steps away, wrong codes, and malformed input", () => {
    expect(findTotpStep(key, at(-2), now)).toBeNull();
    expect(findTotpStep(key, at(2), now)).toBeNull();
    const wrong = String((Number(at(0)) + 1) % 1_000_000).padStart(6, "0");
    expect([at(-1), at(1)]).not.toContain(wrong);
    expect(findTotpStep(key, wrong, now)).toBeNull();
    expect(findTotpStep(key, at(0).slice(0, 5), now)).toBeNull();
    expect(findTotpStep(key, `${at(0)}0`, now)).toBeNull();
    expect(findTotpStep(key, "12345a", now)).toBeNull();
    expect(findTotpStep(key, "１２３４５６", now)).toBeNull();
  });

  it("uses SHA-1, 6 digits and 30 s by default (docs/decisions/)", () => {
    expect(DEFAULT_TOTP_PARAMS).toEqual({ digits: 6, period: 30, algorithm: "sha1" });
    expect(generateTotp(key, new Date(59_000))).toBe("287082");
  });
});

describe("base32 (RFC 4648 §10 test vectors)", () => {
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ];
  it.each(vectors)("%j ↔ %s", (plain, encoded) => {
    expect(encodeBase32(ascii(plain))).toBe(encoded);
    expect(Buffer.from(decodeBase32(encoded)!).toString()).toBe(plain);
    expect(Buffer.from(decodeBase32(`${encoded.toLowerCase()}===`)!).toString()).toBe(plain);
  });

  it("refuses characters outside the alphabet", () => {
    expect(decodeBase32("MZXW1")).toBeNull();
    expect(decodeBase32("MZ XW")).toBeNull();
  });
});

describe("secrets and URIs", () => {
  it("generates 160-bit secrets, different each time", () => {
    const a = generateTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(decodeBase32(a)).toHaveLength(20);
    expect(generateTotpSecret()).not.toBe(a);
  });

  it("builds the otpauth URI with issuer, account and parameters, escaped", () => {
    const uri = buildTotpURI("JBSWY3DPEHPK3PXP", "Acme & Co", "ada@example.com");
    expect(uri).toBe(
      "otpauth://totp/Acme%20%26%20Co:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Acme+%26+Co&algorithm=SHA1&digits=6&period=30",
    );
  });
});
