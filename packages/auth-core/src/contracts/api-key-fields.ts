import { z } from "zod";

/**
 * Field schemas of the API-key endpoints. Lengths follow Better Auth's defaults (name and prefix
 * 1–32); everything that ends up as a document field name is restricted to plain characters.
 */
export const keyIdField = z.string().max(64);
export const nameField = z.string().trim().min(1).max(32);
/** Part of the key a client sends in a header: no separators, no spaces. */
export const prefixField = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "1–32 of A–Z a–z 0–9 _ -");
/** Seconds, bounded by `apiKey.keyExpiration` in the service. */
export const expiresInField = z.number().int().positive();

/** Any JSON value; the API document names it `JsonValue` (openapi/models.ts). */
export const jsonValueField = z.json();

const METADATA_MAX_CHARS = 4096;
/** A JSON object (matrix K: metadata type checks), at most 4096 characters serialised. */
export const metadataField = z
  .record(z.string().max(128), jsonValueField)
  .refine((value) => JSON.stringify(value).length <= METADATA_MAX_CHARS, "metadata too large");

/** resource → actions; resources become document field names, hence the character set. */
export const permissionsField = z.record(
  z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/),
  z.array(z.string().min(1).max(64)).max(64),
);

/**
 * The server-only limit fields, validated all the same: over HTTP a body naming one is refused
 * (features/api-key/rules.ts SERVER_ONLY_FIELDS lists the same names).
 */
export const limitFields = {
  userId: z.string().max(64).optional(),
  remaining: z.number().int().min(0).nullable().optional(),
  refillAmount: z.number().int().positive().optional(),
  /** Milliseconds. */
  refillInterval: z.number().int().min(1000).optional(),
  rateLimitEnabled: z.boolean().optional(),
  /** Milliseconds. */
  rateLimitTimeWindow: z.number().int().min(1000).optional(),
  rateLimitMax: z.number().int().positive().optional(),
  permissions: permissionsField.nullable().optional(),
};

/** A refill needs both its amount and its interval (Better Auth REFILL_*_REQUIRED). */
export function refillComplete(body: {
  refillAmount?: number | undefined;
  refillInterval?: number | undefined;
}) {
  return (body.refillAmount === undefined) === (body.refillInterval === undefined);
}
