import { z } from "zod";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { providerIdField } from "../schemas.ts";
import { unlinkUserAccount } from "../unlink.ts";

/**
 * SPEC §7 POST /unlink-account {providerId, accountId?} → {status}. Fresh session (reference-api
 * §1.7): removing a way to sign in is account management, not browsing.
 */
export const unlinkAccount = defineEndpoint({
  name: "unlinkAccount",
  method: "POST",
  path: "/unlink-account",
  auth: "fresh-session",
  sensitive: true,
  // An impersonation session lasts an hour; a provider token it reads (a refresh token above all)
  // or a change to the ways in outlives it (security-matrix J5): refused while impersonating.
  highRisk: true,
  body: z.strictObject({
    providerId: providerIdField,
    accountId: z.string().min(1).max(256).optional(),
  }),
  async handler(ctx): Promise<{ status: boolean }> {
    if (!ctx.session) throw new AuthError("UNAUTHORIZED");
    await unlinkUserAccount(ctx.auth, ctx.session.user._id, ctx.body.providerId, ctx.body.accountId);
    return { status: true };
  },
});
