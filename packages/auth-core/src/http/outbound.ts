import { lookup as lookupAll } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { BlockList, isIP } from "node:net";

/**
 * The one way the server fetches a URL a customer supplied (an SSO discovery document and its JWKS,
 * a webhook receiver): docs/security.md "Outbound requests (SSRF)". https only; the host is resolved
 * once, every address it resolves to must be public, and the connection goes to that checked address
 * (no second resolution a rebinding DNS server could answer differently); redirects are never
 * followed; the whole exchange has a deadline and the answer a size cap.
 */

/** One resolved address, as node:dns lookup `{ all: true }` answers. */
interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; injectable so tests use no DNS. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundOptions {
  /**
   * Allows private, loopback and link-local targets and plain http (a development IdP on localhost,
   * tests). Off in production: a customer's URL could otherwise reach the server's own network.
   * @default false
   */
  allowPrivateAddresses: boolean;
  /** @default node:dns lookup with `all: true` */
  resolveHost?: ResolveHost;
  /** @default 10000 */
  timeoutMs?: number;
  /** @default 1000000 */
  maxBodyBytes?: number;
}

export type OutboundRefusalReason =
  | "invalid_url"
  | "not_https"
  | "private_address"
  | "unresolvable"
  | "redirect"
  | "too_large"
  | "timeout"
  | "network";

/** A refused or failed outbound request; the message names the host, never a query or secret. */
export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundRefusalReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "OutboundError";
  }
}

export type OutboundFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY_BYTES = 1_000_000;

/**
 * Addresses no customer URL may reach: RFC 6890 special-purpose blocks (this network, private,
 * CGNAT RFC 6598, loopback, link-local, IETF protocol, documentation, benchmarking, multicast,
 * reserved, broadcast) and their IPv6 counterparts (unspecified, loopback, unique-local RFC 4193,
 * link-local, site-local, multicast, documentation, discard). IPv4-mapped and NAT64/6to4 forms are
 * unwrapped first (embeddedIPv4) so `::ffff:127.0.0.1` is judged as 127.0.0.1.
 */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

function parseIPv6Groups(address: string): number[] | null {
  const [head = "", tail] = address.toLowerCase().split("::");
  const part = (text: string) => (text === "" ? [] : text.split(":"));
  const expand = (groups: string[]): number[] =>
    groups.flatMap((group) => {
      if (!group.includes(".")) return [Number.parseInt(group, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const left = expand(part(head));
  const right = tail === undefined ? [] : expand(part(tail));
  const groups = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

/** The IPv4 address an IPv6 address carries: mapped (::ffff:a.b.c.d), NAT64 64:ff9b::/96, 6to4 2002::/16. */
function embeddedIPv4(address: string): string | null {
  const g = parseIPv6Groups(address);
  if (!g) return null;
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return quad(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return quad(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x2002) return quad(g[1] ?? 0, g[2] ?? 0);
  return null;
}

/** True for an address a customer URL may reach (a public unicast address). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NON_PUBLIC.check(address, "ipv4");
  if (family !== 6) return false;
  const inner = embeddedIPv4(address);
  if (inner !== null) return isPublicAddress(inner);
  return !NON_PUBLIC.check(address, "ipv6");
}

const resolveWithDns: ResolveHost = async (hostname) =>
  (await lookupAll(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** The address to connect to, every resolved address checked; throws OutboundError. */
async function checkTarget(url: URL, options: OutboundOptions): Promise<ResolvedAddress> {
  const allowPrivate = options.allowPrivateAddresses;
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:"))
    throw new OutboundError("not_https", `only https URLs are fetched (${url.protocol}//${url.host})`);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (options.resolveHost ?? resolveWithDns)(host);
    } catch (cause) {
      throw new OutboundError("unresolvable", `${url.host} does not resolve`, { cause });
    }
  }
  const first = addresses[0];
  if (!first) throw new OutboundError("unresolvable", `${url.host} does not resolve`);
  // Every address, not just the first: a name answering both a public and a private address is refused.
  if (!allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address)))
    throw new OutboundError("private_address", `${url.host} resolves to a private or reserved address`);
  return first;
}

/** Hands the TCP connect the address already checked, whatever it asks for. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
}

async function readCapped(response: IncomingMessage, maxBytes: number, where: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).byteLength;
    if (size > maxBytes) {
      response.destroy();
      throw new OutboundError("too_large", `the answer of ${where} is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headersOf(init: RequestInit | undefined, request: Request | null): Record<string, string> {
  const headers = new Headers(request?.headers);
  for (const [key, value] of new Headers(init?.headers)) headers.set(key, value);
  return Object.fromEntries(headers);
}

function toResponse(message: IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(message.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item);
  }
  const status = message.statusCode ?? 502;
  const empty = status === 204 || status === 304;
  return new Response(empty ? null : new Uint8Array(body), { status, headers });
}

/**
 * A fetch that obeys the rules above; answers like fetch (any status, the body already read within
 * the cap) and throws OutboundError for a refused target, a redirect, a timeout or a network failure.
 */
export function createOutboundFetch(options: OutboundOptions): OutboundFetch {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return async (input, init) => {
    const request = input instanceof Request ? input : null;
    let url: URL;
    try {
      url = new URL(request ? request.url : input.toString());
    } catch {
      throw new OutboundError("invalid_url", "not a URL");
    }
    const where = `${url.host}${url.pathname}`;
    const target = await checkTarget(url, options);
    const method = init?.method ?? request?.method ?? "GET";
    const body = typeof init?.body === "string" ? init.body : undefined;
    const signals = [AbortSignal.timeout(timeoutMs), init?.signal, request?.signal].filter(
      (signal): signal is AbortSignal => signal instanceof AbortSignal,
    );
    const signal = AbortSignal.any(signals);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    return new Promise<Response>((resolve, reject) => {
      const outgoing = send(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method,
          headers: headersOf(init, request),
          lookup: pinnedLookup(target),
          ...(isIP(host) === 0 && url.protocol === "https:" ? { servername: host } : {}),
          signal,
        },
        (message) => {
          const status = message.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            message.resume();
            reject(new OutboundError("redirect", `${where} answered a redirect, which is not followed`));
            return;
          }
          readCapped(message, maxBodyBytes, where).then(
            (buffer) => resolve(toResponse(message, buffer)),
            (error: unknown) => reject(wrapFailure(error, where, signal)),
          );
        },
      );
      outgoing.on("error", (error) => reject(wrapFailure(error, where, signal)));
      outgoing.end(body);
    });
  };
}

function wrapFailure(error: unknown, where: string, signal: AbortSignal): OutboundError {
  if (error instanceof OutboundError) return error;
  if (signal.aborted)
    return new OutboundError("timeout", `${where} did not answer in time`, { cause: error });
  return new OutboundError("network", `${where} could not be reached`, { cause: error });
}
