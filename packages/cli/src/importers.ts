import { createHash } from "node:crypto";
import {
  bumpOrganizationListings,
  bumpUsersListings,
  type ImportChecks,
  storedIds,
} from "@tessera/auth-core/operator";
import { type Collection, type Db, type Document, MongoBulkWriteError, ObjectId } from "mongodb";

/**
 * Moving in from another auth library's MongoDB collections into Tessera's (`tessera import`).
 * Source ids are kept (a source id that is not an ObjectId maps to a fixed one derived from it), so
 * a second run finds everything in place and copies nothing twice. Sessions and verification
 * tokens are not copied: users sign in again. Provider tokens are not copied either (Tessera
 * stores them encrypted with its own secret): the next social sign-in stores fresh ones. Every row
 * goes through the API's own input rules first (`createImportChecks`): what sign-up, update-user or
 * organization create would refuse is refused here too, row by row, and the rest is imported.
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

type Progress = (label: string, done: number, total: number) => void;

/** A Tessera id for a source id: the same ObjectId, or one derived from the string. */
export function importedId(value: unknown): ObjectId {
  if (value instanceof ObjectId) return value;
  const text = String(value);
  if (/^[0-9a-f]{24}$/i.test(text)) return new ObjectId(text);
  return new ObjectId(createHash("sha256").update(`import:${text}`).digest().subarray(0, 12));
}

const BATCH = 1000;

class Importer {
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
  async write(collection: string, docs: Document[], duplicateReason: string): Promise<Set<string>> {
    const written = new Set<string>();
    const target: Collection = this.target.collection(collection);
    // With each document's user: an account's `_id` follows from its provider identity, so the
    // identity may be there already under another user (not this import's account: refused).
    const present = new Map(
      (await target.find({}, { projection: { _id: 1, userId: 1 } }).toArray()).map((doc) => [
        String(doc._id),
        doc.userId === undefined ? undefined : String(doc.userId),
      ]),
    );
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
      const failed = new Set<number>();
      if (!this.dryRun) {
        try {
          await target.insertMany(batch, { ordered: false });
        } catch (error) {
          if (!(error instanceof MongoBulkWriteError)) throw error;
          const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
          for (const writeError of errors) {
            if (writeError.code !== 11000) throw error;
            failed.add(writeError.index);
          }
        }
      }
      batch.forEach((doc, index) => {
        if (failed.has(index)) this.refuse(collection, doc._id, duplicateReason);
        else {
          this.count(collection).copied++;
          written.add(String(doc._id));
        }
      });
      this.progress(collection, Math.min(start + BATCH, fresh.length), fresh.length);
    }
    // Members and invitations show in their organization's listing (get-full-organization): a
    // server holding one from before the import must not answer from it.
    if (!this.dryRun && fresh.length > 0 && (collection === "members" || collection === "invitations")) {
      const organizations = new Map(fresh.map((doc) => [String(doc.organizationId), doc.organizationId]));
      await bumpOrganizationListings(this.target, [...organizations.values()] as ObjectId[]);
    }
    // Users show in admin list-users, which may answer a page held from before the import.
    if (!this.dryRun && fresh.length > 0 && collection === "users") await bumpUsersListings(this.target);
    return written;
  }

  /**
   * Each imported user's address claim (storedIds.emailClaim): without it the user is not found by
   * email; and its timeline entry (storedIds.timelineEntry), without which admin list-users reads
   * the users collection itself. Those already there (a second run) are left as they are.
   */
  async claimAddresses(users: Document[]): Promise<void> {
    if (this.dryRun || users.length === 0) return;
    const claims = this.target.collection(storedIds.emailClaimsCollection);
    const timeline = this.target.collection(storedIds.userTimelineCollection);
    const now = new Date();
    for (let start = 0; start < users.length; start += BATCH) {
      const batch = users.slice(start, start + BATCH);
      await insertIgnoringDuplicates(
        claims,
        batch.map((user) =>
          storedIds.emailClaim({ _id: user._id as ObjectId, email: String(user.email) }, now),
        ),
      );
      await insertIgnoringDuplicates(
        timeline,
        batch.map((user) =>
          storedIds.timelineEntry({ _id: user._id as ObjectId, createdAt: user.createdAt as Date }),
        ),
      );
    }
    await bumpUsersListings(this.target);
  }
}

/** Documents already there (a second run) are left as they are. */
async function insertIgnoringDuplicates(collection: Collection, docs: Document[]): Promise<void> {
  try {
    await collection.insertMany(docs, { ordered: false });
  } catch (error) {
    if (!(error instanceof MongoBulkWriteError)) throw error;
    const errors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    if (errors.some((writeError) => writeError.code !== 11000)) throw error;
  }
}

function date(value: unknown, fallback: Date): Date {
  if (value instanceof Date) return value;
  if (typeof value === "string" || typeof value === "number") {
    const parsed = new Date(value);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return fallback;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/**
 * Users: email, name and image through the API's rules (the email trimmed and lower-cased, ASCII
 * only; the image an https URL, http on an http server); an email another Tessera user holds is
 * refused.
 */
async function importUsers(importer: Importer, rows: Document[], map: (row: Document) => Document | string) {
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
  for (const user of await importer.target
    .collection("users")
    .find({}, { projection: { _id: 1, email: 1 } })
    .toArray()) {
    taken.set(String(user.email), String(user._id));
  }
  const accepted = docs.filter((doc) => {
    const owner = taken.get(doc.email);
    if (owner === undefined || owner === String(doc._id)) return true;
    importer.refuse("users", doc._id, `email ${doc.email} belongs to another Tessera user`);
    return false;
  });
  const written = await importer.write("users", accepted, "email already used");
  await importer.claimAddresses(accepted.filter((doc) => written.has(String(doc._id))));
  return written;
}

/** Better Auth's MongoDB adapter: collections named after its models, ObjectId ids and references. */
async function importBetterAuth(source: Db, importer: Importer): Promise<number> {
  const now = new Date();
  const users = await source.collection("user").find({}).toArray();
  const userIds = await importUsers(importer, users, (row) => {
    const email = text(row.email);
    if (!email) return "no email";
    return {
      _id: importedId(row._id),
      email,
      emailVerified: row.emailVerified === true,
      name: text(row.name) ?? email.trim().split("@")[0],
      image: row.image ?? null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ...(text(row.role) ? { role: row.role } : {}),
      ...(row.banned === true
        ? {
            banned: true,
            banReason: text(row.banReason),
            banExpires: row.banExpires ? date(row.banExpires, now) : null,
          }
        : {}),
    };
  });

  const accounts: Document[] = [];
  for (const [index, row] of (await source.collection("account").find({}).toArray()).entries()) {
    const userId = importedId(row.userId);
    if (!userIds.has(String(userId))) {
      importer.refuse("accounts", row._id, "its user was not imported", index + 1);
      continue;
    }
    const credential = row.providerId === "credential";
    if (
      credential &&
      !(typeof row.password === "string" && /^[0-9a-f]{32}:[0-9a-f]{128}$/.test(row.password))
    ) {
      importer.refuse("accounts", row._id, "credential account without a Better Auth scrypt hash", index + 1);
      continue;
    }
    const providerId = String(row.providerId);
    const accountId = credential ? userId.toHexString() : String(row.accountId);
    // The account's identity gives its _id (docs/scale.md): the same on every run.
    const id = storedIds.account(providerId, accountId);
    importer.numberRow("accounts", id, index + 1);
    accounts.push({
      _id: id,
      providerId,
      accountId,
      userId,
      password: credential ? row.password : null,
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scope: text(row.scope),
      createdAt: date(row.createdAt, now),
      updatedAt: date(row.updatedAt, now),
    });
  }
  await importer.write("accounts", accounts, "this provider account is already linked to another user");

  const organizations: Document[] = [];
  for (const [index, row] of (await source.collection("organization").find({}).toArray()).entries()) {
    const checked = importer.checks.organization({
      name: row.name,
      slug: row.slug,
      logo: row.logo ?? null,
      metadata: row.metadata ?? null,
    });
    if (!checked.ok) {
      importer.refuse("organizations", row._id, checked.reason, index + 1);
      continue;
    }
    const id = importedId(row._id);
    importer.numberRow("organizations", id, index + 1);
    organizations.push({ _id: id, ...checked.value, createdAt: date(row.createdAt, now) });
  }
  const orgIds = await importer.write(
    "organizations",
    organizations,
    "the slug is taken by another organization",
  );

  const teamRows = await source.collection("team").find({}).toArray();
  const teams: Document[] = [];
  for (const [index, row] of teamRows.entries()) {
    const organizationId = importedId(row.organizationId);
    if (!orgIds.has(String(organizationId))) {
      importer.refuse("teams", row._id, "its organization was not imported", index + 1);
      continue;
    }
    const checked = importer.checks.team({ name: row.name });
    if (!checked.ok) {
      importer.refuse("teams", row._id, checked.reason, index + 1);
      continue;
    }
    importer.numberRow("teams", importedId(row._id), index + 1);
    teams.push({
      _id: importedId(row._id),
      name: checked.value.name,
      organizationId,
      createdAt: date(row.createdAt, now),
      updatedAt: row.updatedAt ? date(row.updatedAt, now) : null,
    });
  }
  const teamIds = await importer.write("teams", teams, "a team with this name exists");

  await importMembers(importer, await source.collection("member").find({}).toArray(), userIds, orgIds);
  await importTeamMembers(
    importer,
    await source.collection("teamMember").find({}).toArray(),
    userIds,
    teamIds,
    teamRows,
  );

  const invitations: Document[] = [];
  for (const [index, row] of (await source.collection("invitation").find({}).toArray()).entries()) {
    const organizationId = importedId(row.organizationId);
    if (!orgIds.has(String(organizationId))) {
      importer.refuse("invitations", row._id, "its organization was not imported", index + 1);
      continue;
    }
    const checked = importer.checks.invitee({ email: row.email, role: row.role ?? "member" });
    if (!checked.ok) {
      importer.refuse("invitations", row._id, checked.reason, index + 1);
      continue;
    }
    const id = importedId(row._id);
    importer.numberRow("invitations", id, index + 1);
    const email = checked.value.email!;
    const status = ["pending", "accepted", "rejected", "canceled"].includes(row.status)
      ? row.status
      : "canceled";
    invitations.push({
      _id: id,
      organizationId,
      email,
      role: checked.value.role,
      status,
      teamId: row.teamId ? String(importedId(row.teamId)) : null,
      inviterId: importedId(row.inviterId),
      expiresAt: date(row.expiresAt, now),
      createdAt: date(row.createdAt, now),
      slot:
        status === "pending"
          ? `pending:${organizationId.toHexString()}:${email}`
          : `closed:${id.toHexString()}`,
    });
  }
  await importer.write("invitations", invitations, "a pending invitation to this address exists");
  return users.length;
}

/** Members need a seat (unique per organization): the lowest free ones. */
async function importMembers(
  importer: Importer,
  rows: Document[],
  userIds: Set<string>,
  orgIds: Set<string>,
) {
  const now = new Date();
  const seats = new Map<string, Set<number>>();
  const docs: Document[] = [];
  for (const [index, row] of rows.entries()) {
    const organizationId = importedId(row.organizationId);
    const userId = importedId(row.userId);
    if (!orgIds.has(String(organizationId)) || !userIds.has(String(userId))) {
      importer.refuse("members", row._id, "its organization or user was not imported", index + 1);
      continue;
    }
    const checked = importer.checks.invitee({ role: row.role ?? "member" });
    if (!checked.ok) {
      importer.refuse("members", row._id, checked.reason, index + 1);
      continue;
    }
    importer.numberRow("members", importedId(row._id), index + 1);
    const key = String(organizationId);
    if (!seats.has(key)) {
      const used = await importer.target
        .collection("members")
        .find({ organizationId }, { projection: { seat: 1 } })
        .toArray();
      seats.set(key, new Set(used.map((member) => Number(member.seat))));
    }
    const taken = seats.get(key)!;
    let seat = 0;
    while (taken.has(seat)) seat++;
    taken.add(seat);
    docs.push({
      _id: importedId(row._id),
      organizationId,
      userId,
      role: checked.value.role,
      createdAt: date(row.createdAt, now),
      teamId: row.teamId ? importedId(row.teamId) : null,
      seat,
    });
  }
  await importer.write("members", docs, "the user is already a member");
}

async function importTeamMembers(
  importer: Importer,
  rows: Document[],
  userIds: Set<string>,
  teamIds: Set<string>,
  teams: Document[],
) {
  const now = new Date();
  const orgOfTeam = new Map(
    teams.map((team) => [String(importedId(team._id)), importedId(team.organizationId)]),
  );
  const seats = new Map<string, number>();
  const docs: Document[] = [];
  for (const [index, row] of rows.entries()) {
    const teamId = importedId(row.teamId);
    const userId = importedId(row.userId);
    if (!teamIds.has(String(teamId)) || !userIds.has(String(userId))) {
      importer.refuse("teamMembers", row._id, "its team or user was not imported", index + 1);
      continue;
    }
    importer.numberRow("teamMembers", importedId(row._id), index + 1);
    if (!seats.has(String(teamId))) {
      seats.set(String(teamId), await importer.target.collection("teamMembers").countDocuments({ teamId }));
    }
    const seat = seats.get(String(teamId))!;
    seats.set(String(teamId), seat + 1);
    docs.push({
      _id: importedId(row._id),
      teamId,
      organizationId: orgOfTeam.get(String(teamId))!,
      userId,
      createdAt: date(row.createdAt, now),
      seat,
    });
  }
  await importer.write("teamMembers", docs, "the user is already in the team");
}

/** Auth.js's MongoDB adapter: `users` and their OAuth `accounts` (no passwords there). */
async function importAuthJs(source: Db, importer: Importer): Promise<number> {
  const now = new Date();
  const users = await source.collection("users").find({}).toArray();
  const userIds = await importUsers(importer, users, (row) => {
    const email = text(row.email);
    if (!email) return "no email";
    return {
      _id: importedId(row._id),
      email,
      emailVerified: row.emailVerified instanceof Date || row.emailVerified === true,
      name: text(row.name) ?? email.trim().split("@")[0],
      image: row.image ?? null,
      createdAt: row.createdAt ?? (row._id instanceof ObjectId ? row._id.getTimestamp() : now),
      updatedAt: row.updatedAt,
    };
  });
  const accounts: Document[] = [];
  for (const [index, row] of (await source.collection("accounts").find({}).toArray()).entries()) {
    const userId = importedId(row.userId);
    if (!userIds.has(String(userId))) {
      importer.refuse("accounts", row._id, "its user was not imported", index + 1);
      continue;
    }
    if (row.type !== "oauth" && row.type !== "oidc") {
      importer.refuse(
        "accounts",
        row._id,
        `account type ${String(row.type)} has no Tessera equivalent`,
        index + 1,
      );
      continue;
    }
    const id = storedIds.account(String(row.provider), String(row.providerAccountId));
    importer.numberRow("accounts", id, index + 1);
    accounts.push({
      _id: id,
      providerId: String(row.provider),
      accountId: String(row.providerAccountId),
      userId,
      password: null,
      accessToken: null,
      refreshToken: null,
      idToken: null,
      accessTokenExpiresAt: null,
      refreshTokenExpiresAt: null,
      scope: text(row.scope),
      createdAt: now,
      updatedAt: now,
    });
  }
  await importer.write("accounts", accounts, "this provider account is already linked to another user");
  return users.length;
}

export async function importFrom(
  from: ImportSource,
  source: Db,
  target: Db,
  options: { checks: ImportChecks; dryRun: boolean; progress?: Progress },
): Promise<ImportReport> {
  const started = process.hrtime.bigint();
  const importer = new Importer(target, options.checks, options.dryRun, options.progress ?? (() => {}));
  const users =
    from === "better-auth" ? await importBetterAuth(source, importer) : await importAuthJs(source, importer);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    from,
    dryRun: options.dryRun,
    counts: importer.counts,
    refused: importer.refused,
    seconds: Math.round(seconds * 1000) / 1000,
    usersPerSecond: seconds > 0 ? Math.round(users / seconds) : users,
  };
}
