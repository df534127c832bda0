/** The face of password: what other features may use. */
export { revokeResetLinks } from "./service.ts";
