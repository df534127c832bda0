import { describe, expect, it } from "vitest";
import { comparablePassword, isContextSpecificPassword } from "./password-rules.ts";

describe("comparablePassword: padding and case never make another password", () => {
  it.each([
    ["leading space", " password1"],
    ["trailing space", "password1 "],
    ["spaces both sides", "   password1   "],
    ["tab", "\tpassword1"],
    ["line feed and carriage return", "password1\r\n"],
    ["vertical tab and form feed", "\u000bpassword1\u000c"],
    ["no-break space U+00A0", "\u00a0password1"],
    ["narrow no-break space U+202F", "password1\u202f"],
    ["em space U+2003", "\u2003password1"],
    ["hair space U+200A", "password1\u200a"],
    ["ideographic space U+3000", "\u3000password1"],
    ["line separator U+2028", "\u2028password1"],
    ["Ogham space mark U+1680", "\u1680password1"],
    ["zero-width space U+200B", "\u200bpassword1"],
    ["word joiner U+2060", "password1\u2060"],
    ["byte order mark U+FEFF", "\ufeffpassword1"],
    ["upper case and NBSP", "\u00a0PassWord1\u00a0"],
    ["fullwidth letters (NFKC)", "ｐａｓｓｗｏｒｄ１"],
  ])("%s", (_name, typed) => {
    expect(comparablePassword(typed)).toBe("password1");
  });

  it("collapses inner runs of whitespace to one space, but keeps a space between words", () => {
    expect(comparablePassword("correct \u00a0\t horse")).toBe("correct horse");
    expect(comparablePassword("correct horse")).not.toBe(comparablePassword("correcthorse"));
  });
});

describe("isContextSpecificPassword (NIST SP 800-63B context-specific words)", () => {
  const context = { email: "Lovelace.Ada+work@Example.com", appName: "Acme Portal" };

  it.each([
    ["the address", "lovelace.ada+work@example.com"],
    ["the address, upper case and padded", "  LOVELACE.ADA+WORK@EXAMPLE.COM\t"],
    ["the local part", "lovelace.ada+work"],
    ["the local part without its +tag", "Lovelace.Ada"],
    ["the local part after an NBSP", "\u00a0lovelace.ada"],
    ["the app's name", "Acme Portal"],
    ["the app's name in capitals", "ACME PORTAL"],
    ["the app's name without its space", "acmeportal"],
    ["the app's name with spaces between", "acme  portal "],
  ])("refuses %s", (_name, password) => {
    expect(isContextSpecificPassword(password, context)).toBe(true);
  });

  it.each([
    ["a password that only contains the local part", "lovelace.ada 1815"],
    ["a password that only contains the app's name", "acme portal is mine"],
    ["the domain", "example.com"],
    ["an unrelated passphrase", "plum orbit lantern"],
  ])("accepts %s", (_name, password) => {
    expect(isContextSpecificPassword(password, context)).toBe(false);
  });
});
