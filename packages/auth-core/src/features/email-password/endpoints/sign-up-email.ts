import { signUpEmailContract } from "../../../contracts/email-password.ts";
import { hashPassword } from "../../../crypto/index.ts";
import { ObjectId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { establishSession, toUser, type User } from "../../session/index.ts";
import { assertSignInWithoutSso } from "../../sso-domains/index.ts";
import { assertPasswordAllowed, createUserWithPassword } from "../../users/index.ts";
import { createSignedUpUser } from "../../verification/index.ts";

export const signUpEmail = defineEndpoint(signUpEmailContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ token: string | null; user: User }> {
    const { auth, body } = ctx;
    const config = auth.options.emailAndPassword;
    if (!config.enabled) throw new AuthError("EMAIL_PASSWORD_DISABLED");
    // A password account for an address whose verified domain requires SSO would be a way around it.
    await assertSignInWithoutSso(auth, { email: body.email }, "password", {
      ip: ctx.ip,
      userAgent: ctx.headers.get("user-agent"),
    });
    await assertPasswordAllowed(auth, body.password, { email: body.email });
    // Hashed while the mail's row and the address's claim are written, not before them: scrypt takes
    // 0.3 s of a core (more when sign-ups queue), and a database that is down must be found by the
    // first command, answering 503 within the driver's selection time, not after the hash too
    // (tests/reliability database-down). Awaited on every path that answers: a taken address costs
    // the hash like a new one (timing).
    const passwordHash = hashPassword(body.password);
    passwordHash.catch(() => {});
    const fields = {
      email: body.email,
      name: body.name,
      image: body.image ?? null,
      emailVerified: false,
      ...(body.language && { language: body.language }),
    };
    // User and credential account, or neither; the user's after hook runs once both are stored.
    // Mailed: the verification mail's row is stored before the user, and sent after it (a crash
    // between never leaves an unverified user nobody mailed). Not awaited: with verification
    // required an existing address answers without any mail, so a new one must not wait for the
    // mailer either (timing, docs/security.md); and a failing mailer must not answer 500 for a
    // user who is already stored (they can ask for a new link).
    const created = await createSignedUpUser(
      auth,
      fields,
      body.callbackURL,
      { kind: "client", address: ctx.ip },
      (id) => createUserWithPassword(auth, { ...fields, ...(id && { id }) }, passwordHash),
    );
    await passwordHash;
    if (!created.ok) {
      // docs/decisions/: with verification required, an existing address answers exactly like a new
      // one (same shape, no session, nothing sent) so sign-up cannot enumerate accounts.
      if (created.reason === "exists" && config.requireEmailVerification) {
        const now = auth.now();
        return {
          token: null,
          user: toUser({
            _id: new ObjectId(),
            email: body.email,
            name: body.name,
            image: body.image ?? null,
            emailVerified: false,
            createdAt: now,
            updatedAt: now,
          }),
        };
      }
      if (created.reason === "exists") throw new AuthError("USER_ALREADY_EXISTS");
      throw new AuthError("UNABLE_TO_CREATE_ACCOUNT");
    }
    const user = created.user;
    if (!config.autoSignIn || config.requireEmailVerification) return { token: null, user: toUser(user) };
    // A user this request created has no ban to check and no second factor yet.
    const request = { cookies: ctx.cookies, ip: ctx.ip, userAgent: ctx.headers.get("user-agent") };
    const { session } = await establishSession(auth, request, user, {
      rememberMe: body.rememberMe !== false,
      ban: "not-applicable",
      secondFactor: "not-applicable",
    });
    return { token: session.token, user: toUser(user) };
  },
});
