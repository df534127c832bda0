/**
 * Pieces for writing an answer's JSON text directly (see `serializedJson` in run-endpoint.ts), each
 * exactly what JSON.stringify writes for the same value.
 */

/** A Date as JSON.stringify writes it: its ISO string quoted, or null for an invalid date (Date.prototype.toJSON). */
export function jsonDate(date: Date): string {
  const text: string | null = date.toJSON();
  return text === null ? "null" : `"${text}"`;
}

/** A JSON array of the given elements' JSON texts. */
export function jsonArray<T>(items: readonly T[], toJson: (item: T) => string): string {
  let text = "[";
  for (let index = 0; index < items.length; index++) {
    if (index > 0) text += ",";
    text += toJson(items[index] as T);
  }
  return `${text}]`;
}
