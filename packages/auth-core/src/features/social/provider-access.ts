import type { AuthContext } from "../../context.ts";
import { type OAuthProvider, PROVIDER_IDS, type ProviderOptions } from "./providers/types.ts";

/**
 * The configured provider with this id, ready to use (a generic provider's discovery document
 * loaded); null when it is unknown or not configured. Throws ProviderError when discovery fails — a
 * provider outage, not a client error.
 */
export async function findProvider(auth: AuthContext, id: string): Promise<OAuthProvider | null> {
  if (!providerSettings(auth, id)) return null;
  const provider = auth.providers.get(id) ?? null;
  await provider?.prepare?.();
  return provider;
}

/** The options of a configured provider (built-in or generic); null when not configured. */
export function providerSettings(auth: AuthContext, id: string): ProviderOptions | null {
  if ((PROVIDER_IDS as readonly string[]).includes(id)) {
    const builtIn = auth.options.socialProviders[id as (typeof PROVIDER_IDS)[number]];
    return builtIn ?? null;
  }
  return auth.options.genericOAuth.find((provider) => provider.providerId === id) ?? null;
}

/** Where the provider sends the browser back: fixed server-side, never from the request. */
export function providerRedirectURI(auth: AuthContext, id: string): string {
  return providerSettings(auth, id)?.redirectURI ?? `${auth.apiURL}/callback/${encodeURIComponent(id)}`;
}
