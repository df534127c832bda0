export { AuthError, isAuthError } from "./auth-error.ts";
export { ERROR_CATALOGUE, type ErrorCode } from "./catalogue.ts";
