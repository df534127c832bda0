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
  if (nestedDeeperThan(input, MAX_INPUT_DEPTH)) throw tooDeep();
  let parsed: z.ZodSafeParseResult<z.output<T>>;
  try {
    parsed = schema.safeParse(input ?? {});
  } catch (error) {
    // A schema that recurses (z.json(), a refine that serialises) on a value built to exhaust the
    // stack: a client error, not a 500. Anything else is a defect and stays a 500.
    if (error instanceof RangeError) throw tooDeep();
    throw error;
  }
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

/**
 * Deeper than any input an endpoint takes (metadata objects included); it bounds the recursion of
 * the schemas, which would otherwise overflow the stack on a body like {"a":{"a":…10 000 levels…}}.
 * @internal Exported for its unit test (validate-input.test.ts).
 */
export const MAX_INPUT_DEPTH = 32;

function tooDeep(): AuthError {
  const message = `nested deeper than ${MAX_INPUT_DEPTH} levels`;
  return new AuthError("VALIDATION_ERROR", { details: { issues: [{ path: "", message }] } });
}

/** Iterative, so that measuring cannot overflow either; a cycle (auth.api input) counts as too deep. */
function nestedDeeperThan(input: unknown, limit: number): boolean {
  if (isFlat(input)) return false;
  const pending: [unknown, number][] = [[input, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
}

/** No object inside (a query's strings, an empty body): the common case, decided without a stack. */
function isFlat(input: unknown): boolean {
  if (typeof input !== "object" || input === null) return true;
  for (const key in input) {
    const value = (input as Record<string, unknown>)[key];
    if (typeof value === "object" && value !== null) return false;
  }
  return true;
}
