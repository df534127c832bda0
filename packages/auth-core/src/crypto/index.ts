export { decryptString, encryptString } from "./encryption.ts";
export {
  hashPassword,
  normalizePassword,
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
export { signJwt, signValue, unsignValue, verifyJwt } from "./signing.ts";
