import type { RegistrationOptions } from "../../../contracts/passkey.ts";
import { passkeyRegisterOptionsContract } from "../../../contracts/passkey.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { startSignUpRegistration, startUserRegistration } from "../registration.ts";
import { assertFreshCaller } from "./guards.ts";

/**
 * GET /passkey/generate-register-options. With a session: a new passkey for the caller, who must have
 * signed in recently (the fresh-session rule of change-email and delete-user, docs/passkeys.md).
 * Without one: passkey-first sign-up for `email`, unless `passkey.disableSignUp`.
 */
export const passkeyRegisterOptions = defineEndpoint(passkeyRegisterOptionsContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  // The session row, never the cookie cache: a revoked session must not start a registration.
  sensitive: true,
  // Adding a way into the account outlives an impersonation (docs/security.md).
  highRisk: true,
  async handler(ctx): Promise<RegistrationOptions> {
    const { auth, query } = ctx;
    if (ctx.session) {
      assertFreshCaller(auth, ctx.session);
      return startUserRegistration(auth, ctx.cookies, ctx.session.user, query);
    }
    if (auth.options.passkey.disableSignUp || !query.email) throw new AuthError("SESSION_REQUIRED");
    const signUp = {
      email: query.email,
      name: query.displayName ?? "",
      callbackURL: query.callbackURL ?? null,
      language: query.language ?? null,
    };
    return startSignUpRegistration(auth, ctx.cookies, signUp, query);
  },
});
