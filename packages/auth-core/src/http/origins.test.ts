import { describe, expect, it } from "vitest";
import { EVIL_CALLBACKS } from "../../../../tests/security/redirect-payloads.ts";
import { createOriginMatcher, isSafeRelativePath, normalizeOriginPattern, requestOrigin } from "./origins.ts";

const matcher = createOriginMatcher("http://localhost:3000", [
  "https://app.example.com",
  "https://*.tenant.example.com",
  "*.example.org",
  "https://admin.example.net/",
  "https://*.slash.example.com/",
  "HTTPS://Upper.Example.com:443",
]);

describe("isSafeRelativePath (docs/decisions/: one leading slash, no // or backslash, no encoded slash)", () => {
  it.each([
    "/",
    "/a",
    "/a/b-c_d.e~f",
    "/cb?next=%2Fhome",
    "/cb?x=1&y=//z",
    "/a#frag",
    "/a:b@c",
    "/dashboard?tab=1#x",
  ])("accepts %j", (path) => expect(isSafeRelativePath(path)).toBe(true));

  it.each([
    "",
    "a",
    "//evil.com",
    "/\\evil.com",
    "/a//b",
    "/%2f%2fevil.com",
    "/a%2Fb",
    "/%5cevil.com",
    "/a b",
    "/a\tb",
    "/\u0000",
    "/é",
    "/a<script>",
    '/a"b',
  ])("refuses %j", (path) => expect(isSafeRelativePath(path)).toBe(false));
});

describe("isTrustedOrigin", () => {
  it.each([
    "http://localhost:3000",
    "https://app.example.com",
    "https://a.tenant.example.com",
    "https://a.b.tenant.example.com",
    "https://x.example.org",
    "https://admin.example.net",
    "https://a.slash.example.com",
    "https://upper.example.com",
  ])("trusts %s", (origin) => expect(matcher.isTrustedOrigin(origin)).toBe(true));

  it.each([
    "",
    "null",
    "http://localhost:3001",
    "https://localhost:3000",
    "http://localhost:3000/",
    "https://app.example.com.evil.com",
    "https://evilapp.example.com",
    "http://app.example.com",
    "https://app.example.com:8443",
    "https://tenant.example.com",
    "https://evil.com/.tenant.example.com",
    "https://x.tenant.example.com.evil.io",
    "https://evil.com?.tenant.example.com",
    "http://x.example.org",
    "https://example.org",
    "https://x.example.org.evil.com",
    "https://x.example.org/path",
  ])("does not trust %s", (origin) => expect(matcher.isTrustedOrigin(origin)).toBe(false));

  it("never matches an unparseable exact pattern", () => {
    const broken = createOriginMatcher(undefined, ["not an origin"]);
    expect(broken.isTrustedOrigin("not an origin")).toBe(false);
    expect(broken.isTrustedOrigin("null")).toBe(false);
  });
});

describe("normalizeOriginPattern (one canonical form, refused at startup otherwise)", () => {
  it.each([
    ["https://app.example.com", "https://app.example.com"],
    ["https://app.example.com/", "https://app.example.com"],
    ["https://*.example.com/", "https://*.example.com"],
    ["HTTPS://*.Example.COM", "https://*.example.com"],
    ["https://*.example.com:443", "https://*.example.com"],
    ["http://*.example.test:80/", "http://*.example.test"],
    ["http://localhost:3000/", "http://localhost:3000"],
    ["http://[::1]:3000", "http://[::1]:3000"],
    ["*.example.org", "*.example.org"],
    ["*.example.org/", "*.example.org"],
    ["app.example.org:443", "app.example.org"],
    ["app.example.org:8443", "app.example.org:8443"],
    // An exact http(s) URL is trusted by its origin, as before: a path, query or fragment is dropped,
    // and an internationalised host is what a browser sends, its punycode.
    ["https://app.example.com/path", "https://app.example.com"],
    ["https://app.example.com//", "https://app.example.com"],
    ["https://app.example.com?x", "https://app.example.com"],
    ["https://app.example.com#x", "https://app.example.com"],
    ["https://bücher.de", "https://xn--bcher-kva.de"],
  ])("%j → %j", (entry, pattern) => expect(normalizeOriginPattern(entry)).toBe(pattern));

  it.each([
    "",
    "/",
    "https://",
    "https://user:pw@app.example.com",
    "https://app.example.com:*",
    "https://app.example.com:0",
    "https://app.example.com:65536",
    "ftp://app.example.com",
    "myapp://",
    "javascript:alert(1)",
    "not an origin",
    "https://app .example.com",
    "*.example.com/path",
  ])("refuses %j", (entry) => expect(normalizeOriginPattern(entry)).toBeNull());

  it("a wildcard entry with a trailing slash matches like the same entry without it", () => {
    const slashed = createOriginMatcher(undefined, ["https://*.example.com/"]);
    expect(slashed.isTrustedOrigin("https://app.example.com")).toBe(true);
    expect(slashed.isAllowedCallbackURL("https://app.example.com/welcome")).toBe(true);
    expect(slashed.isTrustedOrigin("https://example.com.evil.test")).toBe(false);
    const withPath = createOriginMatcher(undefined, ["https://app.example.com/path"]);
    expect(withPath.isTrustedOrigin("https://app.example.com")).toBe(true);
    expect(withPath.isTrustedOrigin("https://app.example.com.evil.test")).toBe(false);
  });
});

describe("isAllowedCallbackURL", () => {
  it.each([
    "/",
    "/after?x=1",
    "http://localhost:3000",
    "http://localhost:3000/cb?x=1#y",
    "HTTP://LOCALHOST:3000/cb",
    "https://app.example.com/x",
    "https://t1.tenant.example.com/x",
  ])("allows %j", (url) => expect(matcher.isAllowedCallbackURL(url)).toBe(true));

  it.each(EVIL_CALLBACKS.map((url) => [url]))("refuses %j", (url) => {
    expect(matcher.isAllowedCallbackURL(url)).toBe(false);
  });

  it("refuses credentials in a URL even on a trusted origin", () => {
    expect(matcher.isAllowedCallbackURL("http://user:pass@localhost:3000/")).toBe(false);
  });
});

describe("requestOrigin", () => {
  it("prefers Origin, falls back to the Referer's origin, and is null otherwise", () => {
    expect(requestOrigin(new Headers({ origin: "https://a.io", referer: "https://b.io/x" }))).toBe(
      "https://a.io",
    );
    expect(requestOrigin(new Headers({ referer: "https://b.io/x?y#z" }))).toBe("https://b.io");
    expect(requestOrigin(new Headers({ referer: "not a url" }))).toBeNull();
    expect(requestOrigin(new Headers())).toBeNull();
    expect(requestOrigin(new Headers({ origin: "null" }))).toBe("null");
  });
});
