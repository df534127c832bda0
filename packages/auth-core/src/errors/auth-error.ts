import { ERROR_CATALOGUE, type ErrorCode } from "./catalogue.ts";

/** The one error class of the core: a catalogue code, its status and its message. */
export class AuthError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra, safe-to-show details (for example which field failed validation). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    options?: { message?: string; details?: Record<string, unknown>; cause?: unknown },
  ) {
    super(options?.message ?? ERROR_CATALOGUE[code].message, { cause: options?.cause });
    this.name = "AuthError";
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.details = options?.details;
  }

  toJSON(): { code: ErrorCode; message: string } & Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}
