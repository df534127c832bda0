import { BlockList, isIP } from "node:net";

/**
 * Which socket peers may speak for the client through the forwarded header
 * (`advanced.trustedProxies`): addresses and CIDR ranges, IPv4 or IPv6, and "*" — one proxy hop in
 * front whatever its address, for platforms whose edge sets the header and for `auth.handler`
 * mounted where no socket address is at hand.
 */
export interface TrustedProxies {
  /** "*" was listed: the socket peer (or, without a socket, the platform) is trusted. */
  anyPeer: boolean;
  /** True when `ip` (normalised) is in a listed address or range. */
  lists(ip: string): boolean;
}

/** `"*"`, an address, or `address/prefix`; null when the entry is none of these. */
export function parseTrustedProxy(
  entry: string,
): "*" | { address: string; prefix: number; family: "ipv4" | "ipv6" } | null {
  if (entry === "*") return "*";
  const [raw, prefixText, extra] = entry.split("/");
  const address = normalizeIp(raw ?? null);
  if (!address || extra !== undefined) return null;
  const family = isIP(address) === 4 ? "ipv4" : "ipv6";
  const max = family === "ipv4" ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { address, prefix: Number(prefixText), family };
}

export function compileTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  let anyPeer = false;
  for (const entry of entries) {
    const parsed = parseTrustedProxy(entry);
    // options.ts refuses malformed entries at startup; this only guards direct callers.
    if (parsed === null) throw new Error(`advanced.trustedProxies: "${entry}" is not an address or range`);
    if (parsed === "*") anyPeer = true;
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  // Most deployments list none: every request then skips the lookup.
  if (entries.every((entry) => entry === "*")) return { anyPeer, lists: () => false };
  return {
    anyPeer,
    lists: (ip) => list.check(ip, isIP(ip) === 4 ? "ipv4" : "ipv6"),
  };
}

/**
 * The client address: the socket's, unless the socket peer is a trusted proxy — only then is the
 * forwarded header believed, read right to left past the listed hops. Null when there is no socket
 * address and no "*" (the caller shares one rate-limit bucket then: limits fail closed).
 */
export function resolveClientIp(
  socketAddress: string | null,
  headers: Headers,
  proxies: TrustedProxies,
  headerName: string,
): string | null {
  const socket = normalizeIp(socketAddress);
  const viaProxy = socket ? proxies.anyPeer || proxies.lists(socket) : proxies.anyPeer;
  if (!viaProxy) return socket;
  const forwarded = headers.get(headerName);
  if (!forwarded) return socket;
  const hops = forwarded.split(",").map((hop) => normalizeIp(hop.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    // A malformed hop where a proxy should have written an address: believe nothing left of it.
    if (!hop) return socket;
    if (!proxies.lists(hop)) return hop;
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
