import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Command } from "commander";
import type { Document } from "mongodb";
import { notFound } from "../errors.ts";
import { writeLine } from "../io.ts";
import { contextOf, type RunContext, withAuth } from "../kit.ts";

/**
 * Everything Tessera holds about one user, as JSON (the "download my data" export). Secrets stay
 * out: no password hash, provider token, session token, key hash or second-factor secret; their
 * presence is said instead.
 */
export interface UserExport {
  exportedAt: string;
  user: Document;
  accounts: Document[];
  sessions: Document[];
  memberships: Document[];
  teamMemberships: Document[];
  invitationsReceived: Document[];
  invitationsSent: Document[];
  apiKeys: Document[];
  twoFactor: { enabled: boolean; verified: boolean; createdAt: Date } | null;
  auditEvents: Document[];
}

function pick(doc: Document, fields: readonly string[]): Document {
  const out: Document = {};
  for (const field of fields) {
    if (field in doc) out[field === "_id" ? "id" : field] = doc[field];
  }
  return out;
}

export async function exportAction(run: RunContext, email: string): Promise<UserExport> {
  return withAuth(run, async ({ auth }) => {
    const c = auth.context.collections;
    const user = await c.users.findOne({ email: email.trim().toLowerCase() });
    if (!user) throw notFound("USER_NOT_FOUND", `no user with the email ${email}`);
    const userId = user._id;
    const [accounts, sessions, members, teamMembers, received, sent, keys, twoFactor, events] =
      await Promise.all([
        c.accounts.find({ userId }).toArray(),
        c.sessions.find({ userId }).toArray(),
        c.members.find({ userId }).toArray(),
        c.teamMembers.find({ userId }).toArray(),
        c.invitations.find({ email: user.email }).toArray(),
        c.invitations.find({ inviterId: userId }).toArray(),
        c.apiKeys.find({ userId }).toArray(),
        c.twoFactors.findOne({ userId }),
        c.auditEvents.find({ subjectId: userId }).sort({ createdAt: 1 }).toArray(),
      ]);
    const orgs = await c.organizations
      .find({ _id: { $in: [...members, ...received].map((row) => row.organizationId) } })
      .toArray();
    const orgName = new Map(orgs.map((org) => [org._id.toHexString(), { name: org.name, slug: org.slug }]));
    return {
      exportedAt: new Date().toISOString(),
      user: pick(user, [
        "_id",
        "email",
        "emailVerified",
        "name",
        "image",
        "language",
        "role",
        "banned",
        "banReason",
        "banExpires",
        "twoFactorEnabled",
        "createdAt",
        "updatedAt",
      ]),
      accounts: accounts.map((account) => ({
        ...pick(account, ["_id", "providerId", "accountId", "scope", "createdAt", "updatedAt"]),
        hasPassword: account.password !== null,
        hasProviderTokens: Boolean(account.accessToken ?? account.refreshToken ?? account.idToken),
      })),
      sessions: sessions.map((session) =>
        pick(session, [
          "_id",
          "createdAt",
          "updatedAt",
          "expiresAt",
          "ipAddress",
          "userAgent",
          "activeOrganizationId",
        ]),
      ),
      memberships: members.map((member) => ({
        ...pick(member, ["_id", "organizationId", "role", "createdAt"]),
        organization: orgName.get(member.organizationId.toHexString()) ?? null,
      })),
      teamMemberships: teamMembers.map((row) => pick(row, ["_id", "teamId", "organizationId", "createdAt"])),
      invitationsReceived: received.map((invitation) => ({
        ...pick(invitation, ["_id", "organizationId", "role", "status", "expiresAt", "createdAt"]),
        organization: orgName.get(invitation.organizationId.toHexString()) ?? null,
      })),
      invitationsSent: sent.map((invitation) =>
        pick(invitation, ["_id", "organizationId", "email", "role", "status", "createdAt"]),
      ),
      apiKeys: keys.map((key) =>
        pick(key, ["_id", "name", "prefix", "start", "enabled", "expiresAt", "permissions", "createdAt"]),
      ),
      twoFactor: twoFactor
        ? {
            enabled: user.twoFactorEnabled === true,
            verified: twoFactor.verified,
            createdAt: twoFactor.createdAt,
          }
        : null,
      auditEvents: events.map((event) =>
        pick(event, ["_id", "action", "actor", "actorId", "reason", "details", "ipAddress", "createdAt"]),
      ),
    };
  });
}

export const exportCommand = new Command("export")
  .description("write everything Tessera holds about one user as JSON (secrets left out)")
  .requiredOption("--user <email>", "the user's email")
  .option("-o, --output <file>", "write to this file instead of stdout")
  .action(async (options: { user: string; output?: string }, command: Command) => {
    const run = contextOf(command);
    const data = await exportAction(run, options.user);
    const text = JSON.stringify(data, null, 2);
    if (options.output) {
      const file = resolve(run.io.cwd, options.output);
      await writeFile(file, `${text}\n`, { mode: 0o600 });
      if (run.json) writeLine(run.io.stdout, JSON.stringify({ file }));
      else writeLine(run.io.stderr, `wrote ${file}`);
    } else writeLine(run.io.stdout, text);
  });
