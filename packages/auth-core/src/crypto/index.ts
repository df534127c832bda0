export { decryptString, encryptString } from "./encryption.ts";
export {
  DEFAULT_PASSWORD_PARAMS,
  hashPassword,
  normalizePassword,
  type PasswordHashParams,
  spendPasswordWork,
  verifyPassword,
} from "./password.ts";
export {
  ALPHANUMERIC,
  DIGITS,
  generateRandomString,
  generateSessionToken,
  LOWER_ALPHANUMERIC,
  sha256Base64Url,
} from "./random.ts";
export { type JwtCheck, signJwt, signValue, unsignValue, verifyJwt } from "./signing.ts";
