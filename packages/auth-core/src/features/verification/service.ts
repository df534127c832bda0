import type { AuthContext } from "../../context.ts";
import { signJwt } from "../../crypto/index.ts";
import type { UserDoc } from "../../db/documents.ts";
import { apiLink, dispatchMail, toMailUser } from "../mail-dispatch.ts";

/**
 * Email verification tokens are signed JWTs (DECISIONS.md: HS256, 3600 s) carrying the email and,
 * for an email change, the new address. Stateless: no row is stored.
 */
export async function createEmailVerificationToken(
  auth: AuthContext,
  email: string,
  updateTo?: string,
): Promise<string> {
  const payload: Record<string, unknown> = { email, purpose: "verify-email" };
  if (updateTo) payload.updateTo = updateTo;
  return signJwt(payload, auth.options.secret, auth.options.emailVerification.expiresIn, auth.now());
}

export async function sendVerificationEmail(
  auth: AuthContext,
  user: UserDoc,
  callbackURL: string | undefined,
): Promise<void> {
  const token = await createEmailVerificationToken(auth, user.email);
  const url = apiLink(auth, "/verify-email", { token, callbackURL: callbackURL ?? "/" });
  const hook = auth.options.mail?.sendVerificationEmail;
  await dispatchMail(
    auth,
    "verify-email",
    user,
    { url, name: user.name },
    hook && (() => hook({ user: toMailUser(user), url, token })),
  );
}
