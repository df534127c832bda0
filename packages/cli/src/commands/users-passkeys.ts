import type { Passkey } from "@tessera/auth-core";
import { Command, Option } from "commander";
import { notFound } from "../errors.ts";
import { confirmOrRefuse, contextOf, noteEmpty, type RunContext, report } from "../kit.ts";
import { describeUserBriefly, resolveUser, resolveUserId, withOperator } from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

/**
 * `tessera users passkeys` and `tessera users remove-passkey`: the admin endpoints
 * /admin/list-user-passkeys and /admin/remove-user-passkey as the operator (the removal is audited
 * as `passkey.remove`, like the admin page's). Registered under `users` by commands/users.ts.
 */

export interface UserPasskeys {
  userId: string;
  passkeys: Passkey[];
}

export async function usersPasskeysAction(run: RunContext, ref: string): Promise<UserPasskeys> {
  return withOperator(run, async (session) => {
    const userId = await resolveUserId(session, ref);
    const { data } = await session.api.adminListUserPasskeys({ body: { userId }, headers: session.headers });
    return { userId, passkeys: data.passkeys };
  });
}

export interface PasskeyRemoved {
  success: true;
  userId: string;
  passkeyId: string;
}

/** Asks first (a lost authenticator: its owner can no longer sign in with it); --yes without a terminal. */
export async function usersRemovePasskeyAction(
  run: RunContext,
  ref: string,
  passkeyId: string,
  options: { yes?: boolean | undefined },
): Promise<PasskeyRemoved> {
  return withOperator(run, async (session) => {
    const target = await resolveUser(session, ref);
    const userId = target.id;
    const { data } = await session.api.adminListUserPasskeys({ body: { userId }, headers: session.headers });
    const passkey = data.passkeys.find((one) => one.id === passkeyId);
    if (!passkey)
      throw notFound("PASSKEY_NOT_FOUND", `${describeUserBriefly(target)} has no passkey ${passkeyId}`);
    await confirmOrRefuse(
      run,
      options.yes,
      `Remove the passkey ${describePasskey(passkey)} of ${describeUserBriefly(target)}?`,
    );
    await session.api.adminRemoveUserPasskey({ body: { userId, passkeyId }, headers: session.headers });
    return { success: true, userId, passkeyId };
  });
}

/** "“Laptop” (iCloud Keychain, synced)": what a prompt names. */
function describePasskey(passkey: Passkey): string {
  return `“${passkey.name ?? "unnamed"}” (${passkey.authenticatorName ?? "unknown authenticator"}, ${kindOf(passkey)})`;
}

function kindOf(passkey: Passkey): string {
  return passkey.deviceType === "multiDevice" ? "synced" : "device-bound";
}

function passkeyLines(run: RunContext, passkeys: readonly Passkey[]): string[] {
  return formatTable(
    run.io,
    ["ID", "NAME", "AUTHENTICATOR", "CREATED", "LAST USED", "KIND"],
    passkeys.map((passkey) => [
      passkey.id,
      passkey.name ?? "-",
      passkey.authenticatorName ?? passkey.aaguid ?? "unknown",
      formatDate(passkey.createdAt),
      formatDate(passkey.lastUsedAt),
      kindOf(passkey),
    ]),
  );
}

export const usersPasskeysCommand = new Command("passkeys")
  .description("list a user's passkeys (a table on a terminal, tab-separated otherwise)")
  .argument("<user>", "the user's email or id")
  .action(async (ref: string, _options, command: Command) => {
    const run = contextOf(command);
    const listed = await usersPasskeysAction(run, ref);
    noteEmpty(run, listed.passkeys.length, `No passkeys for ${ref}.`);
    report(run, listed, (data) => passkeyLines(run, data.passkeys));
  });

export const usersRemovePasskeyCommand = new Command("remove-passkey")
  .description("remove one of a user's passkeys (a lost or stolen authenticator), audited")
  .argument("<user>", "the user's email or id")
  .argument("<id>", "the passkey's id (tessera users passkeys <user>)")
  .addOption(new Option("-y, --yes", "do it without asking (needed without a terminal)"))
  .action(async (ref: string, id: string, options: { yes?: boolean }, command: Command) => {
    const run = contextOf(command);
    report(run, await usersRemovePasskeyAction(run, ref, id, options), () => [
      `removed passkey ${id} of ${ref}`,
    ]);
  });
