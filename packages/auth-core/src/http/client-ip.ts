import { isIP } from "node:net";

/**
 * The client address: the socket's, unless the socket peer is a configured trusted proxy — only
 * then is the forwarded header believed, read right to left past the trusted hops.
 */
export function resolveClientIp(
  socketAddress: string | null,
  headers: Headers,
  trustedProxies: readonly string[],
  headerName: string,
): string | null {
  const socket = normalizeIp(socketAddress);
  const trusted = new Set(trustedProxies.map((proxy) => normalizeIp(proxy) ?? proxy));
  if (!socket || !trusted.has(socket)) return socket;
  const forwarded = headers.get(headerName);
  if (!forwarded) return socket;
  const hops = forwarded.split(",").map((hop) => normalizeIp(hop.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    // A malformed hop where a proxy should have written an address: believe nothing left of it.
    if (!hop) return socket;
    if (!trusted.has(hop)) return hop;
  }
  return hops[0] ?? socket;
}

/** IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is the IPv4 address; IPv6 is lower-cased. Null when not an IP. */
function normalizeIp(value: string | null): string | null {
  if (!value) return null;
  const lower = value.toLowerCase();
  const ip = lower.startsWith("::ffff:") && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
  return isIP(ip) ? ip : null;
}

/**
 * The rate-limit identity of an address: IPv4 as is, IPv6 by its /64 — one subscriber usually holds
 * a whole /64, and rotating addresses inside it must not buy new buckets (CVE-2026-45364 class).
 * Textual variants (`::1` vs `0:0::1`) map to one key.
 */
export function rateLimitAddress(ip: string | null): string {
  if (!ip) return "unknown";
  if (isIP(ip) !== 6) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(":")}::/64`;
}

function expandIpv6(ip: string): string[] {
  let address = ip.split("%")[0]!;
  // A trailing dotted IPv4 part (`::1.2.3.4`) is two groups.
  const dotted = address.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    const tail = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    address = address.slice(0, dotted.index) + tail;
  }
  const [head, rest] = address.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const zeros = rest === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}
