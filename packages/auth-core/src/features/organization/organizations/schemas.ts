import { AuthError } from "../../../errors/auth-error.ts";

/**
 * The server-side checks of organization input that answer a catalogue error of their own. The zod
 * field schemas are in contracts/organization-fields.ts, where the contracts can import them.
 */

/** docs/decisions.md "Organization ID is required" where the body names the organization explicitly. */
export function requireOrganizationIdField(value: string | undefined): string {
  if (value === undefined || value.length === 0) throw new AuthError("ORGANIZATION_ID_REQUIRED");
  return value;
}
