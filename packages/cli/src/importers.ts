/**
 * Moving in from another auth library's MongoDB collections into Tessera's (`tessera import`).
 * Source ids are kept (a source id that is not an ObjectId maps to a fixed one derived from it), so
 * a second run finds everything in place and copies nothing twice. Sessions and verification
 * tokens are not copied: users sign in again. Provider tokens are not copied either (Tessera
 * stores them encrypted with its own secret): the next social sign-in stores fresh ones. Every row
 * goes through the API's own input rules first (`createImportChecks`): what sign-up, update-user or
 * organization create would refuse is refused here too, row by row, and the rest is imported.
 */
import { type ImportChecks, importedAccountId } from "@tessera/auth-core/operator";
import { type Db, type Document, ObjectId } from "mongodb";
import { importBetterAuth } from "./import-better-auth.ts";
import {
  Importer,
  type ImportReport,
  type ImportSource,
  importedId,
  importUsers,
  type Progress,
  text,
} from "./import-writer.ts";

export type { ImportReport, ImportSource } from "./import-writer.ts";

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
    const id = importedAccountId(String(row.provider), String(row.providerAccountId));
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
