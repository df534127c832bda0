/**
 * The client's route table is generated from the contracts (`pnpm gen` writes routes.generated.ts;
 * a contract's `client` names its method). Plain strings, so that the browser bundle carries no zod.
 */
export { ROUTES } from "./routes.generated.ts";

/** A route table: leaves `"G/path"` or `"P/path"`, possibly nested one level. */
export interface RouteTable {
  [name: string]: string | RouteTable;
}

/**
 * Which stores a successful call makes stale (re-read 10 ms later, SPEC §7): the session after
 * every call that mints, ends or changes one (the two-factor, passkey and passwordless sign-ins,
 * setting the active organization, impersonation included); the organization stores after
 * organization writes and session changes; the passkey list after passkey writes and session changes.
 * Reads change nothing, except the two mailed links a client may call (verify-email signs in,
 * delete-user/callback ends the user).
 */
export function staleStoresAfter(
  method: "GET" | "POST",
  path: string,
): { session: boolean; organizations: boolean; passkeys: boolean } {
  if (method === "GET") {
    const changed = path === "/verify-email" || path === "/delete-user/callback";
    return { session: changed, organizations: changed, passkeys: changed };
  }
  // sign-in/magic-link only mails a link; the passwordless paths that sign in, verify or end every
  // session (a reset by code) and the passkey verifications (a sign-in, a passkey-first sign-up) do.
  const session =
    path !== "/sign-in/magic-link" &&
    /^\/(sign-in|sign-up|two-factor)\/|^\/(sign-out|update-user|delete-user|change-email|change-password|revoke-sessions?|revoke-other-sessions)$|^\/organization\/(set-active|set-active-team|create|delete|leave|accept-invitation)$|^\/admin\/(impersonate-user|stop-impersonating)$|^\/(magic-link\/verify|email-otp\/(verify-email|reset-password)|passkey\/verify-(authentication|registration))$/.test(
      path,
    );
  return {
    session,
    organizations: session || path.startsWith("/organization/"),
    passkeys: session || path.startsWith("/passkey/"),
  };
}
