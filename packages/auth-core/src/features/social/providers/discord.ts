import { createProviderFromSpec } from "./base.ts";
import { asId, asRecord, asString, pickName } from "./fields.ts";
import type { OAuthProvider, ProviderDeps, ProviderOptions, ProviderProfile } from "./types.ts";

/**
 * Discord. Quirk: the avatar is a hash, turned into a CDN URL (animated hashes start with "a_");
 * users without one get a default avatar chosen from their id (new usernames, discriminator "0")
 * or their discriminator (legacy usernames).
 */

const CDN = "https://cdn.discordapp.com";

/** @internal Exported for quirks.test.ts. */
export function discordAvatarURL(id: string, avatar: string | null, discriminator: string | null): string {
  if (avatar !== null) return `${CDN}/avatars/${id}/${avatar}.${avatar.startsWith("a_") ? "gif" : "png"}`;
  const index =
    discriminator === null || discriminator === "0"
      ? Number((BigInt(id) >> 22n) % 6n)
      : Number.parseInt(discriminator, 10) % 5;
  return `${CDN}/embed/avatars/${index}.png`;
}

function mapDiscordUser(body: unknown): ProviderProfile | null {
  const user = asRecord(body);
  const id = asId(user?.id);
  if (!user || id === null || !/^\d+$/.test(id)) return null;
  const email = asString(user.email);
  return {
    id,
    email,
    emailVerified: email !== null && user.verified === true,
    name: pickName([user.global_name, user.username], email),
    image: discordAvatarURL(id, asString(user.avatar), asString(user.discriminator)),
  };
}

export function createDiscordProvider(options: ProviderOptions, deps: ProviderDeps): OAuthProvider {
  return createProviderFromSpec(
    {
      id: "discord",
      name: "Discord",
      endpoints: {
        authorization: "https://discord.com/oauth2/authorize",
        token: "https://discord.com/api/oauth2/token",
        userInfo: "https://discord.com/api/users/@me",
        revocation: "https://discord.com/api/oauth2/token/revoke",
      },
      defaultScopes: ["identify", "email"],
      pkce: false,
      clientAuth: "body",
      refresh: true,
      mapUserInfo: mapDiscordUser,
    },
    options,
    deps,
  );
}
