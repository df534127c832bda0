import type { AuthContext } from "../../../context.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import type { CookieJar } from "../../../http/cookie-jar.ts";
import type { SessionWithUser } from "../../session/index.ts";
import { resolveSsoManager, type SsoManager } from "../manager.ts";

/** The endpoints' guard: the request's manager (manager.ts), or 401 UNAUTHORIZED. */
export async function requireSsoManager(ctx: {
  auth: AuthContext;
  session: SessionWithUser | null;
  cookies: CookieJar;
}): Promise<SsoManager> {
  const manager = await resolveSsoManager(ctx);
  if (!manager) throw new AuthError("UNAUTHORIZED");
  return manager;
}
