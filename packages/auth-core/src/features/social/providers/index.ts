import { createAppleProvider } from "./apple.ts";
import { createDiscordProvider } from "./discord.ts";
import { createDropboxProvider } from "./dropbox.ts";
import { createFacebookProvider } from "./facebook.ts";
import { createGenericProvider } from "./generic.ts";
import { createGithubProvider } from "./github.ts";
import { createGitlabProvider } from "./gitlab.ts";
import { createGoogleProvider } from "./google.ts";
import { createHuggingfaceProvider } from "./huggingface.ts";
import { createKickProvider } from "./kick.ts";
import { createLinkedinProvider } from "./linkedin.ts";
import { createMicrosoftProvider } from "./microsoft.ts";
import { createRedditProvider } from "./reddit.ts";
import { createRobloxProvider } from "./roblox.ts";
import { createSpotifyProvider } from "./spotify.ts";
import { createTiktokProvider } from "./tiktok.ts";
import { createTwitchProvider } from "./twitch.ts";
import { createTwitterProvider } from "./twitter.ts";
import type {
  BuiltInProviderId,
  GenericProviderOptions,
  OAuthProvider,
  ProviderDeps,
  ProviderOptions,
} from "./types.ts";
import { createVkProvider } from "./vk.ts";
import { createZoomProvider } from "./zoom.ts";

export * from "./types.ts";

type ProviderFactory = (options: ProviderOptions, deps: ProviderDeps) => OAuthProvider;

/** One factory per docs/decisions/ provider; the Record type makes a missing one a compile error. */
const PROVIDER_FACTORIES: Record<BuiltInProviderId, ProviderFactory> = {
  apple: createAppleProvider,
  discord: createDiscordProvider,
  facebook: createFacebookProvider,
  github: createGithubProvider,
  microsoft: createMicrosoftProvider,
  google: createGoogleProvider,
  huggingface: createHuggingfaceProvider,
  spotify: createSpotifyProvider,
  twitch: createTwitchProvider,
  twitter: createTwitterProvider,
  dropbox: createDropboxProvider,
  kick: createKickProvider,
  linkedin: createLinkedinProvider,
  gitlab: createGitlabProvider,
  tiktok: createTiktokProvider,
  reddit: createRedditProvider,
  roblox: createRobloxProvider,
  vk: createVkProvider,
  zoom: createZoomProvider,
};

export interface ProvidersConfig {
  socialProviders: Partial<Record<BuiltInProviderId, ProviderOptions | undefined>>;
  genericOAuth: GenericProviderOptions[];
}

/** The configured providers of one auth instance (each keeps its own JWKS and discovery caches). */
export interface ProviderRegistry {
  /** Undefined when no provider with this id is configured. */
  get(id: string): OAuthProvider | undefined;
  ids(): string[];
}

/**
 * Builds every configured provider once. Throws (a configuration error, at startup) when a generic
 * provider has neither a discovery URL nor explicit endpoints, or two generic providers share an id.
 */
export function createProviders(config: ProvidersConfig, deps: ProviderDeps): ProviderRegistry {
  const providers = new Map<string, OAuthProvider>();
  for (const [id, options] of Object.entries(config.socialProviders)) {
    const factory = PROVIDER_FACTORIES[id as BuiltInProviderId];
    if (options && factory) providers.set(id, factory(options, deps));
  }
  for (const options of config.genericOAuth) {
    if (providers.has(options.providerId)) {
      throw new Error(`genericOAuth: provider id "${options.providerId}" is configured twice`);
    }
    providers.set(options.providerId, createGenericProvider(options, deps));
  }
  return {
    get: (id) => providers.get(id),
    ids: () => [...providers.keys()],
  };
}
