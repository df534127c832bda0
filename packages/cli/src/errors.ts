/**
 * Exit codes (documented in `tessera --help` and docs/cli.md) and the one error type the top-level
 * handler prints without a stack.
 */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  refused: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A known failure: printed as `error: <message>` (or `{ "error": { code, message } }` with --json). */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  /** The command has printed its answer already: exit with the code, print nothing more. */
  readonly reported: boolean;

  constructor(
    code: string,
    message: string,
    exitCode: ExitCode = EXIT.failure,
    options: { reported?: boolean } = {},
  ) {
    super(message);
    this.name = "CliError";
    this.code = code;
    this.exitCode = exitCode;
    this.reported = options.reported === true;
  }
}

export function usageError(message: string): CliError {
  return new CliError("USAGE", message, EXIT.usage);
}

export function notFound(code: string, message: string): CliError {
  return new CliError(code, message, EXIT.notFound);
}

/** The shape of the core's AuthError, read structurally so this module loads nothing heavy. */
interface AuthErrorLike {
  name: "AuthError";
  code: string;
  status: number;
  message: string;
}

function isAuthErrorLike(error: unknown): error is AuthErrorLike {
  return error instanceof Error && error.name === "AuthError" && "code" in error && "status" in error;
}

/**
 * A core catalogue error as the CLI reports it: not found → 3; an input the core's schemas refused →
 * 2; an outage or internal failure → 1; every other refusal (a rule: last owner, may-manage,
 * already exists…) → 4.
 */
function fromAuthError(error: AuthErrorLike): CliError {
  const exit: ExitCode =
    error.status === 404 || error.code.endsWith("NOT_FOUND")
      ? EXIT.notFound
      : error.code === "VALIDATION_ERROR"
        ? EXIT.usage
        : error.status >= 500
          ? EXIT.failure
          : EXIT.refused;
  return new CliError(error.code, error.message, exit);
}

/** Any thrown value as a known error, or null when it is a bug (printed with its stack). */
export function toKnownError(error: unknown): CliError | null {
  if (error instanceof CliError) return error;
  if (isAuthErrorLike(error)) return fromAuthError(error);
  if (error instanceof Error && error.name === "MongoServerSelectionError") {
    return new CliError("DATABASE_UNREACHABLE", `the database is unreachable: ${error.message}`);
  }
  return null;
}
