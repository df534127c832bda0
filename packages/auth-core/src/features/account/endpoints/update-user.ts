import { updateUserContract } from "../../../contracts/account.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { setCookieCache } from "../../session/index.ts";
import { updateUser } from "../../users/index.ts";

export const updateUserEndpoint = defineEndpoint(updateUserContract, {
  async handler(ctx): Promise<{ status: true }> {
    const { auth, body } = ctx;
    const fields: { name?: string; image?: string | null; language?: string } = {};
    if (body.name !== undefined) fields.name = body.name;
    if (body.image !== undefined) fields.image = body.image;
    if (body.language !== undefined) fields.language = body.language;
    if (Object.keys(fields).length === 0) throw new AuthError("NO_FIELDS_TO_UPDATE");
    const caller = ctx.session!;
    const updated = await updateUser(auth, caller.user._id, fields);
    // Null: a user update hook refused, or the user was deleted meanwhile.
    if (!updated) throw new AuthError("FAILED_TO_UPDATE_USER");
    // With the cookie cache on, get-session must show the new name at once, not after maxAge.
    setCookieCache(auth, ctx.cookies, caller.session, updated);
    return { status: true };
  },
});
