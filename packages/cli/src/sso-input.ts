import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { usageError } from "./errors.ts";
import type { RunContext } from "./kit.ts";

/**
 * The body of /sso/register from `tessera orgs sso add` flags. Only the shape is assembled here: the
 * core checks it with the endpoint's own schema and rules (operator-sso.ts).
 */
export interface SsoAddOptions {
  type: "oidc" | "saml";
  providerId: string;
  issuer: string;
  domain: string;
  defaultRole?: string | undefined;
  disabled?: boolean | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  clientSecretEnv?: string | undefined;
  clientSecretStdin?: boolean | undefined;
  discoveryUrl?: string | undefined;
  skipDiscovery?: boolean | undefined;
  authorizationUrl?: string | undefined;
  tokenUrl?: string | undefined;
  jwksUrl?: string | undefined;
  userinfoUrl?: string | undefined;
  metadataFile?: string | undefined;
  entryPoint?: string | undefined;
  certFile?: string | undefined;
  idpEntityId?: string | undefined;
}

const OIDC_ONLY = [
  ["clientId", "--client-id"],
  ["clientSecret", "--client-secret"],
  ["clientSecretEnv", "--client-secret-env"],
  ["clientSecretStdin", "--client-secret-stdin"],
  ["discoveryUrl", "--discovery-url"],
  ["skipDiscovery", "--skip-discovery"],
  ["authorizationUrl", "--authorization-url"],
  ["tokenUrl", "--token-url"],
  ["jwksUrl", "--jwks-url"],
  ["userinfoUrl", "--userinfo-url"],
] as const;
const SAML_ONLY = [
  ["metadataFile", "--metadata-file"],
  ["entryPoint", "--entry-point"],
  ["certFile", "--cert-file"],
  ["idpEntityId", "--idp-entity-id"],
] as const;

function refuseOthers(options: SsoAddOptions, flags: readonly (readonly [keyof SsoAddOptions, string])[]) {
  const given = flags.filter(([key]) => options[key] !== undefined).map(([, flag]) => flag);
  if (given.length > 0) throw usageError(`${given.join(", ")}: not for --type ${options.type}`);
}

/** The client secret from exactly one of --client-secret-env, --client-secret-stdin, --client-secret. */
async function readClientSecret(run: RunContext, options: SsoAddOptions): Promise<string> {
  const ways = [options.clientSecret, options.clientSecretEnv, options.clientSecretStdin].filter(
    (way) => way !== undefined,
  );
  if (ways.length !== 1)
    throw usageError(
      "give the client secret once: --client-secret-env NAME, --client-secret-stdin or --client-secret",
    );
  if (options.clientSecretEnv !== undefined) {
    const value = run.io.env[options.clientSecretEnv];
    if (!value) throw usageError(`--client-secret-env: ${options.clientSecretEnv} is not set`);
    return value;
  }
  if (options.clientSecretStdin) {
    let text = "";
    for await (const chunk of run.io.stdin) text += String(chunk);
    const line = text.split(/\r?\n/)[0] ?? "";
    if (line === "") throw usageError("--client-secret-stdin: stdin is empty");
    return line;
  }
  return options.clientSecret!;
}

async function readText(run: RunContext, flag: string, path: string): Promise<string> {
  try {
    return await readFile(resolve(run.io.cwd, path), "utf8");
  } catch (error) {
    throw usageError(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
}

/**
 * The IdP's entity id, sign-in URL and signing certificates from its metadata XML (SAML 2.0
 * Metadata §2.4.3): read by pattern, for the operator's own file — the connection then verifies
 * every response's signature with node-saml, never with this.
 */
function readIdpMetadata(xml: string): { entityID: string; entryPoint: string; certs: string[] } | null {
  const entityID = /<(?:\w+:)?EntityDescriptor\b[^>]*\bentityID="([^"]+)"/.exec(xml)?.[1];
  const services = [...xml.matchAll(/<(?:\w+:)?SingleSignOnService\b([^>]*)>/g)].map((match) => ({
    binding: /\bBinding="([^"]+)"/.exec(match[1]!)?.[1] ?? "",
    location: /\bLocation="([^"]+)"/.exec(match[1]!)?.[1] ?? "",
  }));
  const service = services.find((one) => one.binding.endsWith("HTTP-Redirect")) ?? services[0];
  const certs = [...xml.matchAll(/<(?:\w+:)?X509Certificate>([^<]+)</g)].map((match) => toPem(match[1]!));
  if (!entityID || !service?.location || certs.length === 0) return null;
  return { entityID, entryPoint: service.location, certs: [...new Set(certs)] };
}

function toPem(base64: string): string {
  const body =
    base64
      .replace(/\s+/g, "")
      .match(/.{1,64}/g)
      ?.join("\n") ?? "";
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

async function samlConfigOf(run: RunContext, options: SsoAddOptions): Promise<Record<string, unknown>> {
  if (options.metadataFile !== undefined) {
    if (options.entryPoint !== undefined || options.certFile !== undefined)
      throw usageError("--metadata-file or --entry-point with --cert-file, not both");
    const metadata = readIdpMetadata(await readText(run, "--metadata-file", options.metadataFile));
    if (!metadata)
      throw usageError(
        `--metadata-file: ${options.metadataFile} has no EntityDescriptor entityID, SingleSignOnService Location or X509Certificate`,
      );
    return {
      entryPoint: metadata.entryPoint,
      cert: metadata.certs.length === 1 ? metadata.certs[0] : metadata.certs,
      idpMetadata: { entityID: options.idpEntityId ?? metadata.entityID },
    };
  }
  if (options.entryPoint === undefined || options.certFile === undefined || options.idpEntityId === undefined)
    throw usageError("SAML needs --metadata-file, or --entry-point, --cert-file and --idp-entity-id");
  return {
    entryPoint: options.entryPoint,
    cert: await readText(run, "--cert-file", options.certFile),
    idpMetadata: { entityID: options.idpEntityId },
  };
}

export async function buildRegisterInput(
  run: RunContext,
  options: SsoAddOptions,
): Promise<Record<string, unknown>> {
  const base = {
    providerId: options.providerId,
    issuer: options.issuer,
    domain: options.domain,
    ...(options.defaultRole === undefined ? {} : { defaultRole: options.defaultRole }),
    ...(options.disabled ? { enabled: false } : {}),
  };
  if (options.type === "saml") {
    refuseOthers(options, OIDC_ONLY);
    return { ...base, samlConfig: await samlConfigOf(run, options) };
  }
  refuseOthers(options, SAML_ONLY);
  if (options.clientId === undefined) throw usageError("OIDC needs --client-id");
  if (options.skipDiscovery && !(options.authorizationUrl && options.tokenUrl && options.jwksUrl))
    throw usageError("--skip-discovery needs --authorization-url, --token-url and --jwks-url");
  const endpoints = {
    discoveryEndpoint: options.discoveryUrl,
    skipDiscovery: options.skipDiscovery,
    authorizationEndpoint: options.authorizationUrl,
    tokenEndpoint: options.tokenUrl,
    jwksEndpoint: options.jwksUrl,
    userInfoEndpoint: options.userinfoUrl,
  };
  return {
    ...base,
    oidcConfig: {
      clientId: options.clientId,
      clientSecret: await readClientSecret(run, options),
      ...Object.fromEntries(Object.entries(endpoints).filter(([, value]) => value !== undefined)),
    },
  };
}
