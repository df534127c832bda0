import { z } from "zod";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { queryBoolean } from "../../schemas.ts";
import { readSession } from "../service.ts";
import { type Session, toSession, toUser, type User } from "../types.ts";

export const getSession = defineEndpoint({
  name: "getSession",
  method: "GET",
  path: "/get-session",
  auth: "none",
  query: z.strictObject({
    disableCookieCache: queryBoolean.optional(),
    disableRefresh: queryBoolean.optional(),
  }),
  async handler(ctx): Promise<{ session: Session; user: User } | null> {
    const found = await readSession(ctx.auth, ctx.cookies, {
      useCookieCache: ctx.query.disableCookieCache !== true,
      disableRefresh: ctx.query.disableRefresh === true,
    });
    if (!found) return null;
    return { session: toSession(found.session), user: toUser(found.user) };
  },
});
