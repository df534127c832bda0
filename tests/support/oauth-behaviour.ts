/** Per-provider server behaviour of tests/support/oauth-server.ts: the documented quirks a client must get right. */

/** How a provider's server behaves: the documented quirks the client must get right. */
export interface ProviderBehaviour {
  /** Where client credentials must be: HTTP basic (Reddit), or either. */
  clientAuth: "basic" | "any";
  /** The parameter naming the client (TikTok: client_key). */
  clientIdParam: "client_id" | "client_key";
  issuesRefreshTokens: boolean;
  /** Apple answers the authorization with an auto-posting form. */
  responseMode: "query" | "form_post";
  /** VK ID returns a device_id on the callback and requires it in the token request. */
  deviceId: boolean;
  /** Scope separator in token responses. */
  scopeSeparator: " " | ",";
  expiresIn: number;
}

const DEFAULT_BEHAVIOUR: ProviderBehaviour = {
  clientAuth: "any",
  clientIdParam: "client_id",
  issuesRefreshTokens: true,
  responseMode: "query",
  deviceId: false,
  scopeSeparator: " ",
  expiresIn: 3600,
};

const PROVIDER_BEHAVIOUR: Record<string, Partial<ProviderBehaviour>> = {
  apple: { responseMode: "form_post" },
  facebook: { issuesRefreshTokens: false },
  reddit: { clientAuth: "basic" },
  spotify: { clientAuth: "basic" },
  zoom: { clientAuth: "basic" },
  tiktok: { clientIdParam: "client_key", scopeSeparator: "," },
  vk: { deviceId: true },
};

export function behaviourFor(providerId: string): ProviderBehaviour {
  return { ...DEFAULT_BEHAVIOUR, ...PROVIDER_BEHAVIOUR[providerId] };
}
