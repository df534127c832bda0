import { AuthError } from "./auth-error.ts";
import type { ErrorCode } from "./catalogue.ts";

/**
 * Below the endpoints a refused transition is a value, not a throw (docs/architecture.md, "Errors"):
 * a service answers `Refused<Code>` naming the catalogue code the endpoint will answer, and only the
 * endpoint turns it into an error with `answerRefusal`.
 */
export interface Refused<Code extends ErrorCode = ErrorCode> {
  ok: false;
  code: Code;
}

export interface Granted<T> {
  ok: true;
  value: T;
}

/** What a service answers for a transition that a rule may refuse. */
export type Outcome<T, Code extends ErrorCode = ErrorCode> = Granted<T> | Refused<Code>;

export function refused<const Code extends ErrorCode>(code: Code): Refused<Code> {
  return { ok: false, code };
}

export function granted<T>(value: T): Granted<T> {
  return { ok: true, value };
}

/** For endpoints only: the granted value, or the refusal's catalogue error thrown. */
export function answerRefusal<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new AuthError(outcome.code);
  return outcome.value;
}
