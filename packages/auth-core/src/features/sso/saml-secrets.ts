import type { SsoSamlConfig } from "../../contracts/sso-models.ts";
import { encryptString } from "../../crypto/index.ts";

/**
 * A SAML connection's private keys and their passphrases are sealed at rest with the app secret
 * (crypto/encryption.ts, docs/security.md "Single sign-on"); the rest of its config is public
 * (certificates, metadata, URLs) and kept as given. Nothing opens them yet: Tessera neither signs
 * AuthnRequests nor takes encrypted assertions (docs/security.md "SAML").
 */

const SECRET_KEYS = ["privateKey", "privateKeyPass", "encPrivateKey", "encPrivateKeyPass"] as const;

type WithSecrets = Partial<Record<(typeof SECRET_KEYS)[number], string>>;

function mapSecrets<T extends WithSecrets>(part: T, change: (value: string) => string | null): T {
  const copy: T = { ...part };
  for (const key of SECRET_KEYS) {
    const value = part[key];
    if (value === undefined) continue;
    const changed = change(value);
    if (changed === null) delete copy[key];
    else copy[key] = changed as T[typeof key];
  }
  return copy;
}

function mapConfig<T extends Partial<SsoSamlConfig> & { mapping?: unknown }>(
  config: T,
  change: (value: string) => string | null,
): Omit<T, "mapping"> {
  const { mapping: _, ...rest } = config;
  const mapped = mapSecrets(rest as Omit<T, "mapping"> & WithSecrets, change);
  if (config.idpMetadata) Object.assign(mapped, { idpMetadata: mapSecrets(config.idpMetadata, change) });
  if (config.spMetadata) Object.assign(mapped, { spMetadata: mapSecrets(config.spMetadata, change) });
  return mapped;
}

/** The config as stored: every private key and passphrase an envelope, the mapping left to the connection. */
export function sealSamlSecrets<T extends Partial<SsoSamlConfig> & { mapping?: unknown }>(
  config: T,
  secret: string,
): Omit<T, "mapping"> {
  return mapConfig(config, (value) => encryptString(value, secret));
}
