import { Resolver } from "node:dns/promises";
import type { ProofFetch, TxtResolver } from "../../config/sso-options.ts";
import type { AuthContext } from "../../context.ts";
import { createOutboundFetch } from "../../http/outbound.ts";
import { challengeFilePath, challengeHostname, fileBodyProves, txtRecordsProve } from "./rules.ts";

/**
 * The two proofs of a claimed domain (docs/security.md "Verified domains"): a TXT record at
 * `_tessera-challenge.<domain>` with `tessera-domain-verification=<token>`, or a file at
 * `https://<domain>/.well-known/tessera-challenge/<token>` whose body is the token. Always https:
 * a plain-http answer could come from anyone on the path. The resolver and fetch are
 * `sso.domainVerification` options (tests run a DNS and an HTTP server on 127.0.0.1).
 */

/** The most of the file read: the token and some whitespace. */
const MAX_FILE_BYTES = 1024;

export type ProofMethod = "dns" | "http";

/** Which proof is published ("dns" first); null when neither is, or neither could be read. */
export async function findPublishedProof(
  auth: AuthContext,
  domain: string,
  token: string,
): Promise<ProofMethod | null> {
  if (await isTxtPublished(auth, domain, token)) return "dns";
  if (await isFilePublished(auth, domain, token)) return "http";
  return null;
}

async function isTxtPublished(auth: AuthContext, domain: string, token: string): Promise<boolean> {
  const { resolver, timeoutMs } = auth.options.sso.domainVerification;
  const dns: TxtResolver = resolver ?? new Resolver({ timeout: timeoutMs, tries: 2 });
  try {
    const records = await withDeadline(dns.resolveTxt(challengeHostname(domain)), timeoutMs);
    return txtRecordsProve(records, token);
  } catch (error) {
    // NXDOMAIN / no data is the usual "not published yet"; anything else is worth a line in the log.
    const code = (error as { code?: string }).code;
    if (code !== "ENOTFOUND" && code !== "ENODATA")
      auth.options.logger.warn(`domain proof: TXT lookup for ${domain} failed`, { code });
    return false;
  }
}

async function isFilePublished(auth: AuthContext, domain: string, token: string): Promise<boolean> {
  const { fetch: injected, timeoutMs } = auth.options.sso.domainVerification;
  // The default goes through the outbound guard (http/outbound.ts): the domain is the customer's,
  // and its address could be one inside the server's own network.
  const fetcher: ProofFetch =
    injected ??
    createOutboundFetch({
      allowPrivateAddresses: auth.options.outbound.allowPrivateAddresses,
      ...(auth.options.outbound.resolveHost ? { resolveHost: auth.options.outbound.resolveHost } : {}),
      timeoutMs,
      maxBodyBytes: MAX_FILE_BYTES,
    });
  try {
    const response = await fetcher(`https://${domain}${challengeFilePath(token)}`, {
      method: "GET",
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: "text/plain" },
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return false;
    }
    const body = await readCapped(response, MAX_FILE_BYTES);
    return body !== null && fileBodyProves(body, token);
  } catch (error) {
    auth.options.logger.warn(`domain proof: fetching the file on ${domain} failed`, {
      error: (error as Error).message,
    });
    return false;
  }
}

/** The body as text, or null past `max` bytes (a page, not the token). */
async function readCapped(response: Response, max: number): Promise<string | null> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("timed out"), { code: "ETIMEOUT" })), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
