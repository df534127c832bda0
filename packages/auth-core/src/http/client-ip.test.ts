import { describe, expect, it } from "vitest";
import { compileTrustedProxies, parseTrustedProxy, rateLimitAddress, resolveClientIp } from "./client-ip.ts";

const resolve = (socket: string | null, forwarded: string | null, proxies: string[] = []) =>
  resolveClientIp(
    socket,
    new Headers(forwarded === null ? {} : { "x-forwarded-for": forwarded }),
    compileTrustedProxies(proxies),
    "x-forwarded-for",
  );

describe("resolveClientIp (ASVS 4.1.3: forwarded headers only from a trusted proxy)", () => {
  it("uses the socket address and ignores X-Forwarded-For without a trusted proxy", () => {
    expect(resolve("192.0.2.1", "1.1.1.1")).toBe("192.0.2.1");
    expect(resolve("192.0.2.1", "1.1.1.1", ["10.0.0.1"])).toBe("192.0.2.1");
  });

  it("reads the right-most untrusted hop when the socket is a trusted proxy", () => {
    expect(resolve("10.0.0.1", "203.0.113.5", ["10.0.0.1"])).toBe("203.0.113.5");
    expect(resolve("10.0.0.1", "6.6.6.6, 203.0.113.5", ["10.0.0.1"])).toBe("203.0.113.5");
    expect(resolve("10.0.0.1", "6.6.6.6, 203.0.113.5, 10.0.0.2", ["10.0.0.1", "10.0.0.2"])).toBe(
      "203.0.113.5",
    );
  });

  it("falls back to the proxy's address when the header is absent or a hop is malformed", () => {
    expect(resolve("10.0.0.1", null, ["10.0.0.1"])).toBe("10.0.0.1");
    expect(resolve("10.0.0.1", "203.0.113.5, garbage", ["10.0.0.1"])).toBe("10.0.0.1");
    expect(resolve("10.0.0.1", "", ["10.0.0.1"])).toBe("10.0.0.1");
  });

  it("normalises IPv4-mapped IPv6 on both sides of the comparison", () => {
    expect(resolve("::ffff:10.0.0.1", "203.0.113.5", ["10.0.0.1"])).toBe("203.0.113.5");
    expect(resolve("10.0.0.1", "203.0.113.5", ["::ffff:10.0.0.1"])).toBe("203.0.113.5");
    expect(resolve("::ffff:192.0.2.1", null)).toBe("192.0.2.1");
  });

  it("is null for no or a non-IP socket address", () => {
    expect(resolve(null, "1.1.1.1")).toBeNull();
    expect(resolve("not-an-ip", null)).toBeNull();
  });

  it("matches CIDR ranges, IPv4 and IPv6, for the socket and for the hops it skips", () => {
    expect(resolve("10.1.2.3", "203.0.113.5", ["10.0.0.0/8"])).toBe("203.0.113.5");
    expect(resolve("11.0.0.1", "203.0.113.5", ["10.0.0.0/8"])).toBe("11.0.0.1");
    expect(resolve("10.0.0.7", "203.0.113.5, 10.9.9.9", ["10.0.0.0/8"])).toBe("203.0.113.5");
    expect(resolve("2001:db8::7", "198.51.100.2", ["2001:db8::/32"])).toBe("198.51.100.2");
    expect(resolve("2001:db9::7", "198.51.100.2", ["2001:db8::/32"])).toBe("2001:db9::7");
    expect(resolve("::ffff:10.0.0.7", "198.51.100.2", ["10.0.0.0/24"])).toBe("198.51.100.2");
  });

  it('trusts one hop of any address with "*", also without a socket address, taking the right-most hop', () => {
    expect(resolve(null, "6.6.6.6, 203.0.113.5", ["*"])).toBe("203.0.113.5");
    expect(resolve("192.0.2.9", "203.0.113.5", ["*"])).toBe("203.0.113.5");
    expect(resolve(null, null, ["*"])).toBeNull();
    // Listed internal hops are skipped after the trusted peer.
    expect(resolve(null, "203.0.113.5, 10.0.0.2", ["*", "10.0.0.0/8"])).toBe("203.0.113.5");
  });
});

describe("parseTrustedProxy", () => {
  it("accepts addresses, ranges and *, and refuses anything else", () => {
    expect(parseTrustedProxy("10.0.0.1")).toEqual({ address: "10.0.0.1", prefix: 32, family: "ipv4" });
    expect(parseTrustedProxy("10.0.0.0/8")).toEqual({ address: "10.0.0.0", prefix: 8, family: "ipv4" });
    expect(parseTrustedProxy("2001:DB8::/32")).toEqual({ address: "2001:db8::", prefix: 32, family: "ipv6" });
    expect(parseTrustedProxy("*")).toBe("*");
    for (const bad of [
      "",
      "10.0.0.0/33",
      "10.0.0.0/8/1",
      "10.0.0.0/",
      "10.0.0.0/x",
      "proxy.internal",
      "::/129",
    ])
      expect(parseTrustedProxy(bad)).toBeNull();
  });
});

describe("rateLimitAddress", () => {
  it("keeps IPv4 and groups IPv6 by /64 whatever its spelling", () => {
    expect(rateLimitAddress("192.0.2.1")).toBe("192.0.2.1");
    expect(rateLimitAddress(null)).toBe("unknown");
    const key = rateLimitAddress("2001:db8:1:2::1");
    expect(key).toBe("2001:db8:1:2::/64");
    for (const variant of [
      "2001:0db8:0001:0002:0000:0000:0000:0009",
      "2001:DB8:1:2:ffff:ffff:ffff:ffff",
      "2001:db8:1:2::",
    ]) {
      expect(rateLimitAddress(variant)).toBe(key);
    }
    expect(rateLimitAddress("2001:db8:1:3::1")).not.toBe(key);
    expect(rateLimitAddress("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitAddress("::192.0.2.1")).toBe("0:0:0:0::/64");
  });
});
