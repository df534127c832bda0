/**
 * A member's roles: the comma separated list of docs/decisions/, trimmed, without empty entries.
 * Pure and free of zod: the input schemas (organization-fields.ts), the server's role rules
 * (features/organization/members/rules.ts) and the browser-safe `@tessera/auth-core/roles` entry
 * split roles the same way.
 */
export function parseRoles(role: string | readonly string[]): string[] {
  const parts = typeof role === "string" ? role.split(",") : role.flatMap((entry) => entry.split(","));
  return [...new Set(parts.map((part) => part.trim()).filter((part) => part.length > 0))];
}
