import { AuthError } from "../../../errors/auth-error.ts";
import type { OrganizationRelease } from "../rules.ts";

/** Refused before anything is written (nothing deleted, no mail sent, no token spent). */
export function assertNoSoleOwnership(release: OrganizationRelease): void {
  if (release.blockedBy.length > 0) throw new AuthError("SOLE_OWNER_CANNOT_BE_DELETED");
}
