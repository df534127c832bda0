/**
 * The face of admin: what other features may use (endpoints: endpoints/index.ts; create-auth.ts and
 * the operator API reach the rest). The audit trail is admin's (store.ts owns `auditEvents`).
 */
export { findAuditEventsAbout } from "./store.ts";
