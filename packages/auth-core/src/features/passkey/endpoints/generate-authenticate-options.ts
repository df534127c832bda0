import type { AuthenticationOptions } from "../../../contracts/passkey.ts";
import { passkeyAuthenticateOptionsContract } from "../../../contracts/passkey.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { startAuthentication } from "../authentication.ts";

/** GET /passkey/generate-authenticate-options: a challenge for any discoverable passkey, or the caller's own. */
export const passkeyAuthenticateOptions = defineEndpoint(passkeyAuthenticateOptionsContract, {
  async handler(ctx): Promise<AuthenticationOptions> {
    return startAuthentication(ctx.auth, ctx.cookies, ctx.session?.user ?? null);
  },
});
