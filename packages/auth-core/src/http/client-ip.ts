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
  if (!socket || !trustedProxies.includes(socket)) return socket;
  const forwarded = headers.get(headerName);
  if (!forwarded) return socket;
  const hops = forwarded
    .split(",")
    .map((hop) => normalizeIp(hop.trim()))
    .filter((hop): hop is string => hop !== null);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!trustedProxies.includes(hop)) return hop;
  }
  return hops[0] ?? socket;
}

function normalizeIp(value: string | null): string | null {
  if (!value) return null;
  const ip = value.startsWith("::ffff:") && isIP(value.slice(7)) === 4 ? value.slice(7) : value;
  return isIP(ip) ? ip : null;
}
