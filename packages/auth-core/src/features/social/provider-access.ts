import type { ResolvedOptions } from "../../config/options.ts";
import type { AuthContext } from "../../context.ts";
import { createProviders, type ProviderRegistry } from "./providers/index.ts";
import { type OAuthProvider, PROVIDER_IDS, type ProviderOptions } from "./providers/types.ts";

/**
 * One provider registry per auth instance, built on first use. Keyed by the instance's resolved
 * options object, so two instances never share providers (or their JWKS caches) and nothing global
 * is mutated (STYLE.md). The registry belongs in AuthContext once create-auth.ts builds it there.
 */
const registries = new WeakMap<ResolvedOptions, ProviderRegistry>();

function registryOf(auth: AuthContext): ProviderRegistry {
  let registry = registries.get(auth.options);
  if (!registry) {
    registry = createProviders(auth.options, {
      fetch: globalThis.fetch,
      now: auth.now,
      timeoutMs: auth.options.advanced.providerTimeoutMs,
    });
    registries.set(auth.options, registry);
  }
  return registry;
}

/**
 * The configured provider with this id, ready to use (a generic provider's discovery document
 * loaded); null when it is unknown or not configured. Throws ProviderError when discovery fails — a
 * provider outage, not a client error.
 */
export async function findProvider(auth: AuthContext, id: string): Promise<OAuthProvider | null> {
  if (!providerSettings(auth, id)) return null;
  const provider = registryOf(auth).get(id) ?? null;
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

/** Where the provider sends the browser back: fixed server-side, never from the request (matrix H6). */
export function providerRedirectURI(auth: AuthContext, id: string): string {
  return providerSettings(auth, id)?.redirectURI ?? `${auth.apiURL}/callback/${encodeURIComponent(id)}`;
}
