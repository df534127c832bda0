import type { z } from "zod";
import { AuthError } from "../errors/auth-error.ts";
import type { ErrorCode } from "../errors/catalogue.ts";

/**
 * Strict schema validation at the edge. A wrong type (an object where a string is expected — the
 * operator-injection shape) is always VALIDATION_ERROR; a well-typed value that breaks a field rule
 * may map to a catalogue error (an email that is not an email → "Invalid email").
 */
export function validateInput<T extends z.ZodType>(
  schema: T | undefined,
  input: unknown,
  fieldErrors: Partial<Record<string, ErrorCode>> | undefined,
): z.output<T> {
  if (!schema) return {} as z.output<T>;
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "");
    const mapped = fieldErrors?.[field];
    if (mapped && issue.code !== "invalid_type" && issue.path.length === 1) throw new AuthError(mapped);
  }
  throw new AuthError("VALIDATION_ERROR", {
    details: {
      issues: issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
    },
  });
}
