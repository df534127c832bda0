import { describe, expect, it } from "vitest";
import { safeRedirect } from "../../packages/auth-core/src/remix/safe-redirect.ts";
import { EVIL_CALLBACKS } from "./redirect-payloads.ts";

/**
 * The Remix app's `redirectTo`/`next` values. Whatever safeRedirect returns, a
 * browser resolving it against the app's page must stay on the app's origin (WHATWG URL parsing,
 * as Chromium does for a Location header or a link).
 */
const APP = "https://app.example.com/sign-in?redirectTo=x";

function landsOn(value: string): string {
  return new URL(safeRedirect(value), APP).origin;
}

describe("safeRedirect keeps the browser on the app's origin", () => {
  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r/evil.example",
    "/\\evil.example",
    "/%5Cevil.example",
    "/%5C/evil.example",
    "/%09/evil.example",
    "/%2F/evil.example",
    "/%2F%2Fevil.example",
    "//evil.example",
    "/\\\\evil.example",
    "/\t\\evil.example",
    "/.//evil.example",
    "/a/..//evil.example",
    "/./\\evil.example",
    "javascript:alert(1)",
    "https://evil.example/",
    "http://redirect-check.invalid//evil.example",
    ...EVIL_CALLBACKS,
  ])("%j", (value) => {
    expect(landsOn(value)).toBe("https://app.example.com");
  });

  it.each([
    ["/\t/evil.example", "/"],
    ["/\\evil.example", "/"],
    ["//evil.example", "/"],
    ["/.//evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["https://evil.example/", "/"],
    ["", "/"],
  ])("refuses %j for the fallback", (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
    expect(safeRedirect(value, "/account")).toBe(expected === "/" ? "/account" : expected);
  });

  it.each([
    ["/", "/"],
    ["/account", "/account"],
    ["/organizations/acme/members?tab=1#invite", "/organizations/acme/members?tab=1#invite"],
    ["/a/b/../c", "/a/c"],
    ["/two-factor?next=%2Faccount", "/two-factor?next=%2Faccount"],
  ])("keeps the same-site path %j", (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it("answers the fallback for a missing or non-text value", () => {
    expect(safeRedirect(null)).toBe("/");
    expect(safeRedirect(undefined, "/home")).toBe("/home");
  });
});
