import { z } from "zod";
import { defineContract } from "./contract.ts";
import { sessionAndUserSchema, sessionSchema, statusTrueSchema, successTrueSchema } from "./models.ts";
import { queryBoolean, tokenField } from "./schemas.ts";

export const getSessionContract = defineContract({
  name: "getSession",
  method: "GET",
  path: "/get-session",
  // Signed out is an answer (null), not a refusal; a session cookie or, where keys stand for
  // sessions, an API key is read when sent (http/served-errors.ts adds the key's refusals then).
  auth: "optional",
  query: z.strictObject({
    disableCookieCache: queryBoolean.optional(),
    disableRefresh: queryBoolean.optional(),
  }),
  response: sessionAndUserSchema.nullable(),
  errors: [],
  summary: "The caller's session and user, or null when signed out.",
  notes:
    "The query flags `disableCookieCache` and `disableRefresh` turn off the cookie cache and the session refresh for this call.",
  tags: ["session"],
});

export const listSessionsContract = defineContract({
  name: "listSessions",
  method: "GET",
  path: "/list-sessions",
  auth: "fresh-session",
  response: z.array(sessionSchema),
  errors: [],
  summary: "The caller's unexpired sessions, newest first (at most 100).",
  notes: "The caller's live sessions.",
  tags: ["session"],
});

export const revokeSessionContract = defineContract({
  name: "revokeSession",
  method: "POST",
  path: "/revoke-session",
  auth: "session",
  body: z.strictObject({ token: tokenField }),
  response: statusTrueSchema,
  errors: ["SESSION_NOT_FOUND"],
  summary: "Ends one of the caller's sessions, named by its token.",
  tags: ["session"],
});

export const revokeSessionsContract = defineContract({
  name: "revokeSessions",
  method: "POST",
  path: "/revoke-sessions",
  auth: "session",
  response: statusTrueSchema,
  errors: [],
  summary: "Ends every session of the caller, this one included.",
  tags: ["session"],
});

export const revokeOtherSessionsContract = defineContract({
  name: "revokeOtherSessions",
  method: "POST",
  path: "/revoke-other-sessions",
  auth: "session",
  response: statusTrueSchema,
  errors: [],
  summary: "Ends every session of the caller except this one.",
  tags: ["session"],
});

export const signOutContract = defineContract({
  name: "signOut",
  method: "POST",
  path: "/sign-out",
  auth: "none",
  setsSessionCookies: true,
  response: successTrueSchema,
  errors: [],
  summary: "Ends the caller's session and clears its cookies.",
  notes: "Clears the cookies.",
  tags: ["session"],
});
