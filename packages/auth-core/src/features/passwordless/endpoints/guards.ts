import type { AuthContext } from "../../../context.ts";
import { AuthError } from "../../../errors/auth-error.ts";
import type { Granted } from "../../../errors/refusal.ts";
import type { CodeRefusal } from "../checks.ts";

/* The answers passwordless endpoints share: a feature that is off, and a refused code. */

/** An endpoint of a feature the app did not turn on does not exist (404), like teams'. */
export function assertMagicLinkEnabled(auth: AuthContext): void {
  if (!auth.options.magicLink.enabled) throw new AuthError("NOT_FOUND");
}

export function assertEmailOTPEnabled(auth: AuthContext): void {
  if (!auth.options.emailOTP.enabled) throw new AuthError("NOT_FOUND");
}

/**
 * The accepted code, or its refusal thrown; a throttled account's answer carries how long to wait
 * (RFC 9110 Retry-After, and X-Retry-After as the rate limiter answers).
 */
export function answerCodeCheck<T>(
  outcome: Granted<T> | CodeRefusal,
  ctx: { setHeader(name: string, value: string): void },
): T {
  if (outcome.ok) return outcome.value;
  if (outcome.code === "ACCOUNT_TEMPORARILY_LOCKED") {
    ctx.setHeader("Retry-After", String(outcome.retryAfterSeconds));
    ctx.setHeader("X-Retry-After", String(outcome.retryAfterSeconds));
  }
  throw new AuthError(outcome.code);
}
