import { ObjectId } from "mongodb";

/** The driver's id type, for code outside db/ and the stores (which alone import "mongodb"). */
export { ObjectId };

const HEX_ID = /^[0-9a-f]{24}$/i;

/** Returns null for anything that is not a 24-hex string, so a bad id never reaches the database. */
export function parseId(value: unknown): ObjectId | null {
  if (typeof value !== "string" || !HEX_ID.test(value)) return null;
  return ObjectId.createFromHexString(value);
}
