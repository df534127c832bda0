import { createHash } from "node:crypto";
import {
  type ImportChecks,
  type ImportedCollection,
  importRows,
  readStoredRows,
} from "@tessera/auth-core/operator";
import { type Db, type Document, ObjectId } from "mongodb";

/**
 * What every importer of `tessera import` shares (importers.ts): the report's shapes, the writer
 * that counts and refuses rows (with their row numbers) and hands them to the core's owners
 * (`importRows`: claims, timeline entries and listing bumps follow there), and the users' import,
 * whose fields go through the API's own rules.
 */
export type ImportSource = "better-auth" | "authjs";

export interface CollectionCount {
  /** Written by this run (or, with --dry-run, that would be). */
  copied: number;
  /** Already in Tessera from an earlier run. */
  existing: number;
  /** Rows that could not be taken (see `refused`). */
  refused: number;
}

export interface ImportReport {
  from: ImportSource;
  dryRun: boolean;
  counts: Record<string, CollectionCount>;
  /** Each row not taken: its collection, its position in the source collection (1-based), its id, why. */
  refused: RefusedRow[];
  seconds: number;
  usersPerSecond: number;
}

export interface RefusedRow {
  collection: string;
  /** The row's position in its source collection (1-based, in the order read); null when unknown. */
  row: number | null;
  id: string;
  reason: string;
}

export type Progress = (label: string, done: number, total: number) => void;

/** A Tessera id for a source id: the same ObjectId, or one derived from the string. */
export function importedId(value: unknown): ObjectId {
  if (value instanceof ObjectId) return value;
  const text = String(value);
  if (/^[0-9a-f]{24}$/i.test(text)) return new ObjectId(text);
  return new ObjectId(createHash("sha256").update(`import:${text}`).digest().subarray(0, 12));
}

const BATCH = 1000;

export class Importer {
  readonly counts: Record<string, CollectionCount> = {};
  readonly refused: RefusedRow[] = [];
  /** `<collection>|<Tessera id>` → the source row it came from, for refusals after the mapping. */
  private readonly rowNumbers = new Map<string, number>();

  constructor(
    readonly target: Db,
    readonly checks: ImportChecks,
    readonly dryRun: boolean,
    readonly progress: Progress,
  ) {}

  /** Remembers that the document `id` of `collection` came from source row `row` (1-based). */
  numberRow(collection: string, id: unknown, row: number): void {
    this.rowNumbers.set(`${collection}|${String(id)}`, row);
  }

  refuse(collection: string, id: unknown, reason: string, row?: number): void {
    this.count(collection).refused++;
    const number = row ?? this.rowNumbers.get(`${collection}|${String(id)}`) ?? null;
    this.refused.push({ collection, row: number, id: String(id), reason });
  }

  count(collection: string): CollectionCount {
    this.counts[collection] ??= { copied: 0, existing: 0, refused: 0 };
    return this.counts[collection];
  }

  /**
   * Inserts the docs not yet there (by _id); duplicates of a unique index are refused with the
   * reason. The target's ids are read once (one scan: an `$in` per batch scans the whole collection
   * on FerretDB).
   */
  async write(
    collection: ImportedCollection,
    docs: Document[],
    duplicateReason: string,
  ): Promise<Set<string>> {
    const written = new Set<string>();
    // With each document's user: an account's `_id` follows from its provider identity, so the
    // identity may be there already under another user (not this import's account: refused).
    const present = new Map<string, string | undefined>();
    for await (const doc of readStoredRows(this.target, collection).scan({}, ["userId"]))
      present.set(String(doc._id), doc.userId === undefined ? undefined : String(doc.userId));
    const fresh: Document[] = [];
    for (const doc of docs) {
      if (!present.has(String(doc._id))) fresh.push(doc);
      else if (doc.userId !== undefined && present.get(String(doc._id)) !== String(doc.userId))
        this.refuse(collection, doc._id, "already there, held by another Tessera user");
      else {
        this.count(collection).existing++;
        written.add(String(doc._id));
      }
    }
    for (let start = 0; start < fresh.length; start += BATCH) {
      const batch = fresh.slice(start, start + BATCH);
      const failed = this.dryRun ? new Set<number>() : await importRows(this.target, collection, batch);
      batch.forEach((doc, index) => {
        if (failed.has(index)) this.refuse(collection, doc._id, duplicateReason);
        else {
          this.count(collection).copied++;
          written.add(String(doc._id));
        }
      });
      this.progress(collection, Math.min(start + BATCH, fresh.length), fresh.length);
    }
    return written;
  }
}

export function date(value: unknown, fallback: Date): Date {
  if (value instanceof Date) return value;
  if (typeof value === "string" || typeof value === "number") {
    const parsed = new Date(value);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return fallback;
}

export function text(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/**
 * Users: email, name and image through the API's rules (the email trimmed and lower-cased, ASCII
 * only; the image an https URL, http on an http server); an email another Tessera user holds is
 * refused.
 */
export async function importUsers(
  importer: Importer,
  rows: Document[],
  map: (row: Document) => Document | string,
) {
  const now = new Date();
  const docs: Document[] = [];
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    const mapped = map(row);
    if (typeof mapped === "string") {
      importer.refuse("users", row._id, mapped, index + 1);
      continue;
    }
    const checked = importer.checks.user({ email: mapped.email, name: mapped.name, image: mapped.image });
    if (!checked.ok) {
      importer.refuse("users", row._id, checked.reason, index + 1);
      continue;
    }
    const doc: Document = { ...mapped, ...checked.value };
    importer.numberRow("users", doc._id, index + 1);
    doc.createdAt = date(doc.createdAt, now);
    doc.updatedAt = date(doc.updatedAt, doc.createdAt);
    if (seen.has(doc.email)) {
      importer.refuse(
        "users",
        row._id,
        `email ${doc.email} appears twice in the source (differing in case)`,
        index + 1,
      );
      continue;
    }
    seen.add(doc.email);
    docs.push(doc);
  }
  // Another Tessera user (another id) with the same email: refused, never merged.
  const taken = new Map<string, string>();
  for await (const user of readStoredRows(importer.target, "users").scan({}, ["email"]))
    taken.set(String(user.email), String(user._id));
  const accepted = docs.filter((doc) => {
    const owner = taken.get(doc.email);
    if (owner === undefined || owner === String(doc._id)) return true;
    importer.refuse("users", doc._id, `email ${doc.email} belongs to another Tessera user`);
    return false;
  });
  return importer.write("users", accepted, "email already used");
}
