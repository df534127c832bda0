import { isAuthError } from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { toPasskeyRow } from "~/components/passkey-table";
import { describeDevice } from "~/lib/device";

/**
 * What the admin's user page shows of one user (routes/admin.users.$id.tsx): the user, their
 * sessions, linked accounts, passkeys and latest audit events. A 404 response for an unknown id.
 */
export async function loadAdminUser(headers: Headers, userId: string) {
  const auth = await getAuth();
  try {
    // Sessions, accounts and events may be refused for some targets (other admins): the page shows the rest.
    const [user, sessions, accounts, events, passkeys, mails] = await Promise.all([
      auth.api.getUser({ query: { id: userId }, headers }),
      auth.api.listUserSessions({ body: { userId }, headers }).catch(refusedAs({ data: { sessions: [] } })),
      auth.api
        .adminListUserAccounts({ body: { userId }, headers })
        .catch(refusedAs({ data: { accounts: [] } })),
      auth.api
        .listAuditEvents({ query: { subjectId: userId, limit: 20 }, headers })
        .catch(refusedAs({ data: { events: [] } })),
      auth.api
        .adminListUserPasskeys({ body: { userId }, headers })
        .catch(refusedAs({ data: { passkeys: [] } })),
      auth.api.adminListUserMails({ body: { userId }, headers }).catch(refusedAs({ data: { mails: [] } })),
    ]);
    const u = user.data;
    return {
      user: {
        id: u.id,
        name: u.name,
        email: u.email,
        role: u.role,
        emailVerified: u.emailVerified,
        banned: u.banned,
        banReason: u.banReason,
        banExpires: u.banExpires?.toISOString() ?? null,
        twoFactorEnabled: u.twoFactorEnabled === true,
        createdAt: u.createdAt.toISOString(),
      },
      sessions: sessions.data.sessions.map((session) => ({
        id: session.id,
        device: describeDevice(session.userAgent),
        ipAddress: session.ipAddress,
        updatedAt: session.updatedAt.toISOString(),
        impersonated: session.impersonatedBy !== null,
      })),
      accounts: accounts.data.accounts.map((account) => ({
        id: account.id,
        providerId: account.providerId,
        accountId: account.accountId,
        createdAt: account.createdAt.toISOString(),
      })),
      passkeys: passkeys.data.passkeys.map(toPasskeyRow),
      mails: mails.data.mails.map((mail) => ({
        id: mail.id,
        kind: mail.kind,
        state: mail.state,
        attempts: mail.attempts,
        lastError: mail.lastError,
        createdAt: mail.createdAt.toISOString(),
      })),
      events: events.data.events.map((event) => ({
        id: event.id,
        action: event.action,
        actorId: event.actorId,
        reason: event.reason,
        createdAt: event.createdAt.toISOString(),
      })),
    };
  } catch (error) {
    if (isAuthError(error) && error.code === "USER_NOT_FOUND")
      throw new Response("Not found", { status: 404 });
    throw error;
  }
}

function refusedAs<T>(fallback: T) {
  return (error: unknown): T => {
    if (isAuthError(error) && error.status === 403) return fallback;
    throw error;
  };
}
