/** The face of password: what other features may use. */

export { isPasswordResetEnabled, withQueryParam } from "./rules.ts";
export { revokeResetLinks, setPasswordByMailProof } from "./service.ts";
