import { z } from "zod";

/** An id as sent; checked for 24 hex characters by parseId before it reaches the database. */
export const userIdField = z.string().min(1).max(64);
/** One role or several (stored comma separated, SPEC §6); each is checked against the configured roles. */
export const roleField = z.union([z.string().max(64), z.array(z.string().max(64)).min(1).max(20)]);
/** `{ resource: [action, …] }`: a few short names, never an operator object. */
export const permissionsField = z
  .record(z.string().min(1).max(64), z.array(z.string().min(1).max(64)).min(1).max(20))
  .refine((value) => Object.keys(value).length > 0 && Object.keys(value).length <= 20, "1 to 20 resources");
export const reasonField = z.string().trim().min(1).max(1000);
/** A ban length in seconds: positive, at most 100 years; Infinity, -1 or "1e309" are refused (matrix J11). */
export const banExpiresInField = z
  .number()
  .int()
  .positive()
  .max(100 * 365 * 86400);
