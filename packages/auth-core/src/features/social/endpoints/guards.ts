import type { AuthContext } from "../../../context.ts";
import type { AccountDoc } from "../../../db/documents.ts";
import { type ObjectId, parseId } from "../../../db/ids.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import { ERROR_CATALOGUE } from "../../../errors/catalogue.ts";
import { answerRefusal, type Outcome } from "../../../errors/refusal.ts";
import type { SessionWithUser } from "../../session/index.ts";
import { bannedUserError } from "../../users/index.ts";
import { findProvider } from "../provider-access.ts";
import type { OAuthProvider } from "../providers/types.ts";
import { findUserProviderAccount } from "../service.ts";

/**
 * The checks social endpoints start with, and the answers to refusals of the services below that
 * need more than answerRefusal (a message with the provider id, the ban message). Services below
 * never throw a catalogue error: they answer null or a refusal value.
 */

export interface TokenRequest {
  providerId: string;
  accountId?: string | undefined;
  userId?: string | undefined;
}

/**
 * the token endpoints need a session; server code (auth.api) may name a user instead.
 * Over HTTP a `userId` is never honoured — it would read anyone's provider tokens.
 */
export function resolveTokenOwner(
  session: SessionWithUser | null,
  isServerCall: boolean,
  userId: string | undefined,
): ObjectId {
  if (session) return session.user._id;
  if (!isServerCall) throw new AuthError("UNAUTHORIZED");
  const id = userId === undefined ? null : parseId(userId);
  if (!id) throw new AuthError("USER_ID_OR_SESSION_REQUIRED");
  return id;
}

/** the error catalogue "Provider {id} is not supported", with the id filled in. */
export function providerNotSupported(providerId: string): AuthError {
  const message = ERROR_CATALOGUE.PROVIDER_NOT_SUPPORTED.message.replace("{id}", providerId);
  return new AuthError("PROVIDER_NOT_SUPPORTED", { message });
}

/** The configured provider and the owner's account of it; catalogue errors when either is missing. */
export async function requireTokenAccount(
  auth: AuthContext,
  userId: ObjectId,
  request: TokenRequest,
): Promise<{ provider: OAuthProvider; account: AccountDoc }> {
  const provider = await findProvider(auth, request.providerId);
  if (!provider) throw providerNotSupported(request.providerId);
  const account = await findUserProviderAccount(auth, userId, provider.id, request.accountId);
  if (!account) throw new AuthError("ACCOUNT_NOT_FOUND");
  return { provider, account };
}

/** A sign-in's refusal: a ban answered with `admin.bannedUserMessage`, like every sign-in path. */
export function answerSignInRefusal<T>(auth: AuthContext, outcome: Outcome<T>): T {
  if (!outcome.ok && outcome.code === "BANNED_USER") throw bannedUserError(auth);
  return answerRefusal(outcome);
}
