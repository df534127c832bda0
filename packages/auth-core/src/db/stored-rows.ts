import type { Collection, Document, Filter } from "mongodb";
import { parseId } from "./ids.ts";

/**
 * One collection's rows as an operator's checks read them (`tessera doctor`: rows whose parent is
 * gone, organizations without an owner, duplicate addresses). Each owner hands out the view of its
 * own collection (`…RowsForChecks`), so the checks name no collection; writes stay the owners'.
 */
export interface StoredRows {
  /** The distinct values of `field`, null left out. */
  distinctValues(field: string): Promise<unknown[]>;
  /**
   * Which of `ids` are `_id`s here, as `String(_id)` (one `$in` read by `_id`). A hex string is read
   * as its ObjectId (references stored as text: an invitation's team ids); other strings match none.
   */
  findPresentIds(ids: readonly unknown[]): Promise<Set<string>>;
  /** How many rows have `field` equal to one of `values`. */
  countWhereIn(field: string, values: readonly unknown[]): Promise<number>;
  /** The rows `filter` matches, each with `_id` and `fields` only. */
  scan(filter: Record<string, unknown>, fields: readonly string[]): AsyncIterable<Document>;
}

/**
 * The view an owner whose deletes need nothing after them (no listing bump, no claim, no entry)
 * hands out: `tessera doctor --fix` deletes rows whose user is gone through it.
 */
export interface RemovableRows extends StoredRows {
  /** Deletes the rows with `field` equal to one of `values`; answers how many went. */
  deleteWhereIn(field: string, values: readonly unknown[]): Promise<number>;
}

export function removableRowsOf<T extends Document>(collection: Collection<T>): RemovableRows {
  const rows = collection as unknown as Collection<Document>;
  return {
    ...storedRowsOf(collection),
    async deleteWhereIn(field, values) {
      return (await rows.deleteMany({ [field]: { $in: [...values] } } as Filter<Document>)).deletedCount;
    },
  };
}

export function storedRowsOf<T extends Document>(collection: Collection<T>): StoredRows {
  const rows = collection as unknown as Collection<Document>;
  return {
    async distinctValues(field) {
      return (await rows.distinct(field, { [field]: { $ne: null } })) as unknown[];
    },
    async findPresentIds(ids) {
      const asIds = ids.flatMap((id) => (typeof id !== "string" ? [id] : (parseId(id) ?? [])));
      const filter = { _id: { $in: asIds } } as Filter<Document>;
      const found = await rows.find(filter, { projection: { _id: 1 } }).toArray();
      return new Set(found.map((doc) => String(doc._id)));
    },
    countWhereIn(field, values) {
      return rows.countDocuments({ [field]: { $in: [...values] } } as Filter<Document>);
    },
    scan(filter, fields) {
      const projection = Object.fromEntries([["_id", 1], ...fields.map((field) => [field, 1])]);
      return rows.find(filter as Filter<Document>, { projection });
    },
  };
}
