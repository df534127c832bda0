import { signInMagicLinkContract } from "../../../contracts/passwordless.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { mailSignIn } from "../mailing.ts";
import { assertMagicLinkEnabled } from "./guards.ts";

/** The same answer for every address: whether a mail left, and what it held, is never told. */
export const signInMagicLink = defineEndpoint(signInMagicLinkContract, {
  fieldErrors: { email: "INVALID_EMAIL" },
  async handler(ctx): Promise<{ status: true }> {
    assertMagicLinkEnabled(ctx.auth);
    const { body } = ctx;
    answerRefusal(
      await mailSignIn(
        ctx.auth,
        body.email,
        { name: body.name, language: body.language, sender: { kind: "client", address: ctx.ip } },
        body,
      ),
    );
    return { status: true };
  },
});
