import { importedAccountId, readStoredRows } from "@tessera/auth-core/operator";
import type { Db, Document } from "mongodb";
import { date, type Importer, importedId, importUsers, text } from "./import-writer.ts";

/** Better Auth's MongoDB adapter: collections named after its models, ObjectId ids and references. */
export async function importBetterAuth(source: Db, importer: Importer): Promise<number> {
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
    const id = importedAccountId(providerId, accountId);
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
      const taken = new Set<number>();
      for await (const member of readStoredRows(importer.target, "members").scan({ organizationId }, [
        "seat",
      ]))
        taken.add(Number(member.seat));
      seats.set(key, taken);
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
      const used = await readStoredRows(importer.target, "teamMembers").countWhereIn("teamId", [teamId]);
      seats.set(String(teamId), used);
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
