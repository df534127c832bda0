/**
 * How the app reads a VALIDATION_ERROR's details for a form: which field each issue concerns and
 * which rule it broke. Pure (no imports): app/lib/forms.server.ts `failure` uses it, and
 * tests/browser/field-problems.test.ts checks it against the core's real answers.
 */

/**
 * A broken field rule, read from the core's VALIDATION_ERROR details (`issues: [{ path, message }]`,
 * zod's messages): a length or count limit, a required value, a format, a URL scheme.
 */
export interface FieldRule {
  rule: "max" | "min" | "required" | "format" | "url" | "urlHttp" | "invalid";
  limit?: number;
}

/** Each issue of a VALIDATION_ERROR on the form field it concerns, with the rule read from zod's message. */
export function fieldProblems(
  issues: unknown,
  form: FormData | null,
  fieldFor: Record<string, string> = {},
): { errors: Record<string, string>; rules: Record<string, FieldRule> } {
  const errors: Record<string, string> = {};
  const rules: Record<string, FieldRule> = {};
  for (const issue of Array.isArray(issues) ? issues : []) {
    const path = typeof issue?.path === "string" ? issue.path : "";
    const message = typeof issue?.message === "string" ? issue.message : "";
    const name = fieldFor[path] ?? path.split(".").pop() ?? "";
    if (!name || !form?.has(name) || errors[name]) continue;
    errors[name] = "VALIDATION_ERROR";
    rules[name] = readRule(message);
  }
  return { errors, rules };
}

/** zod 4's English messages ("Too big: expected string to have <=256 characters") as a rule. */
function readRule(message: string): FieldRule {
  const limit = /[<>]=?\s*(\d+) characters/.exec(message);
  if (/^Too big/.test(message) && limit) return { rule: "max", limit: Number(limit[1]) };
  if (/^Too small/.test(message) && limit)
    return Number(limit[1]) <= 1 ? { rule: "required" } : { rule: "min", limit: Number(limit[1]) };
  if (/^Invalid string: must match pattern/.test(message)) return { rule: "format" };
  // assertUserURLsAllowed (core http/user-urls.ts): "must be an https URL or null", or "an http(s)
  // URL" while the app itself runs on http: the message says which schemes this app takes.
  if (/http\(s\) URL/.test(message)) return { rule: "urlHttp" };
  if (/URL/.test(message)) return { rule: "url" };
  return { rule: "invalid" };
}
