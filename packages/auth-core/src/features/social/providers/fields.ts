/**
 * Reading untrusted provider JSON without `any`: each accessor returns null for a missing or
 * wrongly-typed field, so a provider changing its shape yields "no profile", never a crash.
 */

export type JsonRecord = Record<string, unknown>;

export function asRecord(value: unknown): JsonRecord | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonRecord) : null;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A non-empty string, trimmed; null otherwise. */
export function asString(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

/** Provider ids arrive as strings or numbers (GitHub, GitLab, Kick); stored as strings (ProviderProfile.id). */
export function asId(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return asString(value);
}

/** True only for `true` or the string "true" (Apple sends strings); anything else is not a verification. */
export function isTrue(value: unknown): boolean {
  return value === true || value === "true";
}

/** An http(s) URL, or null (no `javascript:` or data URLs from a provider into our user records). */
export function asImageURL(value: unknown): string | null {
  const text = asString(value);
  if (text === null) return null;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * docs/decisions/ gives every user a name, and some providers give none (Apple after the first consent,
 * a Reddit/TikTok handle aside): fall back to the first non-empty candidate, then to the email's
 * local part, then to "".
 */
export function pickName(candidates: unknown[], email: string | null): string {
  for (const candidate of candidates) {
    const name = asString(candidate);
    if (name !== null) return name;
  }
  return email?.split("@")[0] ?? "";
}

/** Joins first and last name parts that exist. */
export function joinName(...parts: unknown[]): string | null {
  const present = parts.map(asString).filter((part): part is string => part !== null);
  return present.length === 0 ? null : present.join(" ");
}

/** The standard OIDC claims (userinfo or id token) as a profile; null without `sub`. */
export function profileFromOidcClaims(claims: JsonRecord | null) {
  if (!claims) return null;
  const id = asId(claims.sub);
  if (id === null) return null;
  const email = asString(claims.email);
  return {
    id,
    email,
    emailVerified: email !== null && isTrue(claims.email_verified),
    name: pickName(
      [claims.name, joinName(claims.given_name, claims.family_name), claims.preferred_username],
      email,
    ),
    image: asImageURL(claims.picture),
  };
}
