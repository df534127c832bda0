/**
 * The request header naming the organization a request works in, instead of the session's active
 * one (docs/decisions.md "Active organization per request"): an organization id. http/ only lets
 * browsers send it (CORS, handler.ts); the organization feature reads and checks it. The browser
 * client sends the same name (client/request.ts, which imports nothing from here).
 */
export const ORGANIZATION_HEADER = "x-tessera-organization";
