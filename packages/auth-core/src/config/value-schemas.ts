import { z } from "zod";
import { normalizeOriginPattern } from "../http/origins.ts";

/*
 * Schemas of single option values whose checks need more than a zod primitive (options.ts), and
 * the wording of a refused option. Each refusal names what the value must be.
 */

/**
 * `baseURL`: an absolute http(s) URL, written with its scheme (`"localhost:3000"` parses as a URL of
 * scheme `localhost:` and gave links on "null"). Only its origin is used — mail links, the trusted
 * origin, secure cookies — so a query, fragment or credentials are refused rather than ignored; its
 * path is checked against basePath in resolveOptions.
 */
export const baseURLSchema = z.string().superRefine((value, ctx) => {
  const problem = findBaseURLProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

function findBaseURLProblem(value: string): string | null {
  const expected = `must be an absolute http(s) URL such as https://auth.example.com (got "${value}")`;
  // Literally `http://` or `https://` first: create-auth.ts decides secure cookies on that prefix.
  if (!/^https?:\/\/[^\s\\]+$/.test(value)) return expected;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return expected;
  }
  if (!url.hostname) return expected;
  if (url.username || url.password) return "must not contain credentials";
  if (value.includes("?") || value.includes("#")) return "must not have a query or fragment";
  return null;
}

/** An HTTP field name (RFC 9110 §5.1 token): anything else makes `Headers.get` throw per request. */
export const headerNameSchema = z
  .string()
  .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, "must be an HTTP header name such as x-forwarded-for");

/** A `trustedOrigins` entry: an origin pattern (http/origins.ts normalizeOriginPattern). */
export const originPatternSchema = z.string().superRefine((value, ctx) => {
  if (normalizeOriginPattern(value) !== null) return;
  ctx.addIssue({
    code: "custom",
    message: `"${value}" is not an origin pattern: scheme://host[:port] with http or https, \`*\` wildcards in the host, or a host alone (https); no path, query or fragment`,
  });
});

/** One line per problem, each naming the option's full path (an unknown key by its own path). */
export function describeIssue(issue: z.core.$ZodIssue): string[] {
  const at = (path: readonly PropertyKey[]) => path.map(String).join(".") || "(root)";
  if (issue.code === "unrecognized_keys")
    return issue.keys.map((key) => `${at([...issue.path, key])}: unknown option`);
  if (issue.code === "invalid_key")
    return [`${at(issue.path)}: ${issue.issues.map((inner) => inner.message).join(", ")}`];
  return [`${at(issue.path)}: ${issue.message}`];
}
