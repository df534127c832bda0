import { ERROR_CATALOGUE, type ErrorCode } from "../../errors/catalogue.ts";

/** English is the catalogue itself: the messages the API answers, never a copy that could drift. */
export const enMessages = Object.fromEntries(
  Object.entries(ERROR_CATALOGUE).map(([code, { message }]) => [code, message]),
) as Record<ErrorCode, string>;
