/**
 * The API's own input rules for rows a tool writes straight into the collections (`tessera
 * import`): the same zod fields the endpoints validate with, and the same URL rule for images and
 * logos (http/user-urls.ts), so an import cannot store what sign-up, update-user or organization
 * create would refuse — a non-ASCII look-alike address, a `javascript:` image (docs/security.md
 * "Addresses that would misdeliver mail", "URLs users supply").
 */
import type { z } from "zod";
import {
  logoField,
  metadataField,
  organizationNameField,
  roleField,
  slugField,
  teamNameField,
} from "./contracts/organization-fields.ts";
import { emailField, nameField, userURLField } from "./contracts/schemas.ts";
import type { Auth } from "./create-auth.ts";
import { isAllowedUserURL } from "./http/user-urls.ts";

/** A row's values as the API would store them, or the first field it refuses and why. */
export type ImportCheck<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface ImportedUserFields {
  email: string;
  name: string;
  image: string | null;
}

export interface ImportedOrganizationFields {
  name: string;
  slug: string;
  logo: string | null;
  /** JSON text, as organizations store it. */
  metadata: string | null;
}

export interface ImportChecks {
  user(input: { email: unknown; name: unknown; image: unknown }): ImportCheck<ImportedUserFields>;
  organization(input: {
    name: unknown;
    slug: unknown;
    logo: unknown;
    metadata: unknown;
  }): ImportCheck<ImportedOrganizationFields>;
  team(input: { name: unknown }): ImportCheck<{ name: string }>;
  /** An invitation's address and role, a member's role (`email` absent). */
  invitee(input: { email?: unknown; role: unknown }): ImportCheck<{ email: string | null; role: string }>;
}

class Refusal extends Error {}

/** `"…"`: a refused value as a report shows it, cut short. */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…"` : text;
}

/**
 * What a pattern of the schemas means, for a report a person reads (zod would quote the regular
 * expression). Words only: the rules themselves are the schemas'.
 */
const FORMAT_HINTS: Record<string, string> = {
  email:
    "not an address the API accepts (printable ASCII only — no look-alike letters — at most 254 characters)",
  slug: "a slug is lower-case letters, digits and . _ - (starting and ending with a letter or digit), at most 100",
};

function parse<S extends z.ZodType>(field: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const hint = issue?.code === "invalid_format" ? FORMAT_HINTS[field] : undefined;
  throw new Refusal(`${field} ${quote(value)} is refused by the API: ${hint ?? issue?.message ?? "invalid"}`);
}

function attempt<T>(work: () => T): ImportCheck<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}

/** The checks for one instance: the URL rule depends on its baseURL (https only, http on an http server). */
export function createImportChecks(auth: Auth): ImportChecks {
  const context = auth.context;
  const schemes = context.apiURL.startsWith("http:") ? "an http(s) URL" : "an https URL";
  const url = (field: string, schema: typeof userURLField, value: unknown): string | null => {
    // Absent and empty clear, as in the API (userURLField).
    const parsed = parse(field, schema, value === undefined ? null : value);
    if (parsed !== null && !isAllowedUserURL(context, parsed))
      throw new Refusal(`${field} ${quote(value)} is refused by the API: must be ${schemes} or null`);
    return parsed;
  };
  return {
    user: (input) =>
      attempt(() => ({
        email: parse("email", emailField, input.email),
        name: parse("name", nameField, input.name),
        image: url("image", userURLField, input.image),
      })),
    organization: (input) =>
      attempt(() => {
        const metadata =
          typeof input.metadata === "string" ? parseJson(input.metadata) : (input.metadata ?? null);
        return {
          name: parse("name", organizationNameField, input.name),
          slug: parse("slug", slugField, input.slug),
          logo: url("logo", logoField, input.logo),
          metadata: metadata === null ? null : JSON.stringify(parse("metadata", metadataField, metadata)),
        };
      }),
    team: (input) => attempt(() => ({ name: parse("name", teamNameField, input.name) })),
    invitee: (input) =>
      attempt(() => ({
        email: input.email === undefined ? null : parse("email", emailField, input.email),
        role: parse("role", roleField, input.role).join(","),
      })),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Refusal(`metadata ${quote(text)} is refused by the API: not JSON`);
  }
}
