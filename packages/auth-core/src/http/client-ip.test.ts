import { describe, expect, it } from "vitest";
import { rateLimitAddress, resolveClientIp } from "./client-ip.ts";

const resolve = (socket: string | null, forwarded: string | null, proxies: string[] = []) =>
  resolveClientIp(
    socket,
    new Headers(forwarded === null ? {} : { "x-forwarded-for": forwarded }),
    proxies,
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
