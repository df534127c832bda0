/**
 * The face of admin: what other features may use (endpoints: endpoints/index.ts; create-auth.ts and
 * the operator API reach the rest). The audit trail is admin's (store.ts owns `auditEvents`).
 */
/** The admin area's guard, for the app-wide endpoints another feature serves (features/webhooks). */
export { requireAdminPermission } from "./endpoints/guards.ts";
/**
 * Other features record their own audit events (features/sso-domains) through these, and read an
 * organization's own trail (features/organization's list-audit-events).
 */
export {
  auditSource,
  findOrganizationAuditEvents,
  type OrganizationActor,
  recordAuditEvent,
  recordOrganizationChange,
} from "./service.ts";
export { findAuditEventsAbout } from "./store.ts";
