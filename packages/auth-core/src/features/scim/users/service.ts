import type { AuthContext } from "../../../context.ts";
import type { ScimUserDoc, UserDoc } from "../../../db/documents.ts";
import { ObjectId } from "../../../db/ids.ts";
import { deleteUserAndData } from "../../deletion/index.ts";
import {
  addMemberWithinLimit,
  findMember,
  findUserMemberships,
  removeMembership,
} from "../../organization/index.ts";
import { emailDomainOf, findVerifiedDomain } from "../../sso-domains/index.ts";
import {
  createUserAlone,
  findUserByEmail,
  findUserById,
  findUsersPage,
  updateUser,
} from "../../users/index.ts";
import { recordScimChange } from "../audit.ts";
import type { ScimCaller } from "../endpoints/serve.ts";
import { ScimFilterError } from "../filter/tokenize.ts";
import { translateFilter } from "../filter/translate.ts";
import { ScimError } from "../protocol/scim-error.ts";
import type { UserChanges } from "./input.ts";
import * as store from "./store.ts";

/**
 * The directory's users of one organization (docs/security.md "SCIM"). Deprovisioning removes the
 * membership (no suspended state: an inactive user holds no membership, so every access check of the
 * organization refuses at once); the directory's row stays with active false until DELETE.
 */

/** The role a provisioned member holds (group mappings, later, may give others). */
const PROVISIONED_ROLE = "member";
/** A filter on account fields may match at most this many accounts (RFC 7644 §3.12 tooMany). */
const MAX_FILTERED_ACCOUNTS = 10_000;

export interface ScimUserRecord {
  user: UserDoc;
  link: ScimUserDoc;
}

export async function findScimUserRecord(
  auth: AuthContext,
  caller: ScimCaller,
  id: string,
): Promise<ScimUserRecord> {
  const userId = /^[0-9a-f]{24}$/i.test(id) ? new ObjectId(id) : null;
  const link = userId ? await store.findScimUser(auth.collections, caller.organizationId, userId) : null;
  const user = link ? await findUserById(auth.collections, link.userId) : null;
  if (!link || !user) throw new ScimError(404, `User ${id} not found`);
  return { user, link };
}

export async function createScimUser(
  auth: AuthContext,
  caller: ScimCaller,
  input: UserChanges & { userName: string; email: string },
): Promise<ScimUserRecord> {
  const taken = () =>
    new ScimError(409, `User ${input.userName} already exists in this organization`, "uniqueness");
  if (await store.findScimUserByName(auth.collections, caller.organizationId, input.userName)) throw taken();
  let user = await findUserByEmail(auth.collections, input.email);
  const createdByDirectory = user === null;
  if (user && (await findMember(auth, caller.organizationId, user._id))) throw taken();
  if (!user) {
    // The directory vouches for an address only on a domain this organization has proven.
    const verified = await findVerifiedDomain(auth.collections, emailDomainOf(input.email) ?? "");
    const created = await createUserAlone(auth, {
      email: input.email,
      name: input.displayName ?? input.email,
      image: null,
      emailVerified: verified?.organizationId.equals(caller.organizationId) === true,
    });
    if (!created.ok) throw new ScimError(409, `User ${input.email} already exists`, "uniqueness");
    user = created.user;
    await recordScimChange(auth, caller, "user.create", user._id, { role: "user" });
  }
  const now = auth.now();
  const link: ScimUserDoc = {
    _id: new ObjectId(),
    organizationId: caller.organizationId,
    userId: user._id,
    userName: input.userName,
    userNameKey: input.userName.toLowerCase(),
    externalId: input.externalId ?? null,
    formatted: input.formatted ?? null,
    givenName: input.givenName ?? null,
    familyName: input.familyName ?? null,
    active: input.active !== false,
    createdByDirectory,
    tokenId: caller.tokenId,
    createdAt: now,
    updatedAt: now,
  };
  if ((await store.insertScimUser(auth.collections, link)) === "exists") throw taken();
  if (link.active) await grantMembership(auth, caller, user._id);
  return { user, link };
}

/** PUT and PATCH: the account's fields only for an account this directory created and alone holds. */
export async function updateScimUser(
  auth: AuthContext,
  caller: ScimCaller,
  record: ScimUserRecord,
  changes: UserChanges,
): Promise<ScimUserRecord> {
  let { user, link } = record;
  const taken = () =>
    new ScimError(409, `User ${changes.userName} already exists in this organization`, "uniqueness");
  if (changes.userName !== undefined) {
    const named = await store.findScimUserByName(auth.collections, link.organizationId, changes.userName);
    if (named && !named._id.equals(link._id)) throw taken();
  }
  const accountFields: Partial<UserDoc> = {};
  if (changes.email !== undefined && changes.email !== user.email) accountFields.email = changes.email;
  if (changes.displayName !== undefined && changes.displayName !== user.name)
    accountFields.name = changes.displayName;
  if (Object.keys(accountFields).length > 0 && (await ownsAccount(auth, link))) {
    const holder = changes.email ? await findUserByEmail(auth.collections, changes.email) : null;
    if (holder && !holder._id.equals(user._id))
      throw new ScimError(409, `User ${changes.email} already exists`, "uniqueness");
    user = (await updateUser(auth, user._id, accountFields)) ?? user;
    await recordScimChange(auth, caller, "user.update", user._id, { fields: Object.keys(accountFields) });
  }
  const linkFields: Partial<ScimUserDoc> = {};
  for (const key of ["userName", "externalId", "formatted", "givenName", "familyName"] as const)
    if (changes[key] !== undefined && changes[key] !== (link[key] ?? null))
      Object.assign(linkFields, { [key]: changes[key] });
  if (linkFields.userName !== undefined) linkFields.userNameKey = linkFields.userName.toLowerCase();
  // A removed (unassigned) active reads as active, as on create without it, and is answered unassigned.
  if (changes.active !== undefined) {
    const active = changes.active ?? true;
    if (active !== link.active) linkFields.active = active;
    if ((changes.active === null) !== (link.activeUnset === true))
      linkFields.activeUnset = changes.active === null;
  }
  if (Object.keys(linkFields).length > 0) {
    if (linkFields.active === false) await revokeMembership(auth, caller, user._id);
    if (linkFields.active === true) await grantMembership(auth, caller, user._id);
    const updated = await store.updateScimUser(auth.collections, link._id, {
      ...linkFields,
      updatedAt: auth.now(),
    });
    if (updated === "exists") throw taken();
    link = updated ?? link;
  }
  return { user, link };
}

/** DELETE: the membership and the row go; an account only this directory held is deleted with its data. */
export async function deleteScimUser(
  auth: AuthContext,
  caller: ScimCaller,
  record: ScimUserRecord,
): Promise<void> {
  const { user, link } = record;
  await revokeMembership(auth, caller, user._id);
  const sole = await ownsAccount(auth, link);
  await store.deleteScimUser(auth.collections, link._id);
  if (!sole) return;
  const deleted = await deleteUserAndData(auth, user);
  if (!deleted.ok)
    auth.options.logger.warn(`SCIM delete kept account ${user._id.toHexString()}: ${deleted.code}`);
  else await recordScimChange(auth, caller, "user.remove", user._id, {});
}

export async function listScimUsers(
  auth: AuthContext,
  caller: ScimCaller,
  filter: string | undefined,
  page: { startIndex: number; count: number },
): Promise<{ records: ScimUserRecord[]; total: number }> {
  const translated = filter === undefined ? { user: null, link: null } : translateOrRefuse(filter);
  const clauses: Record<string, unknown>[] = translated.link ? [translated.link] : [];
  if (translated.user) {
    // The organization's own users first, when there are not too many: an account filter (`co` on
    // the address) then reads those accounts only, whatever the number of users in the database.
    const own = await store.listScimUserIds(
      auth.collections,
      caller.organizationId,
      translated.link ?? {},
      MAX_FILTERED_ACCOUNTS + 1,
    );
    const scope = own.length <= MAX_FILTERED_ACCOUNTS ? { _id: { $in: own } } : {};
    const matched = await findUsersPage(
      auth.collections,
      { ...translated.user, ...scope },
      {
        sort: { _id: 1 },
        offset: 0,
        limit: MAX_FILTERED_ACCOUNTS + 1,
      },
    );
    if (matched.length > MAX_FILTERED_ACCOUNTS)
      throw new ScimError(400, "The filter matches too many accounts: narrow it", "tooMany");
    clauses.push({ userId: { $in: matched.map((user) => user._id) } });
  }
  const where = clauses.length === 0 ? {} : clauses.length === 1 ? clauses[0]! : { $and: clauses };
  const total = await store.countScimUsers(auth.collections, caller.organizationId, where);
  if (page.count === 0) return { records: [], total };
  const links = await store.findScimUsersPage(auth.collections, caller.organizationId, where, {
    offset: page.startIndex - 1,
    limit: page.count,
  });
  const users =
    links.length === 0
      ? []
      : await findUsersPage(
          auth.collections,
          { _id: { $in: links.map((link) => link.userId) } },
          {
            sort: { _id: 1 },
            offset: 0,
            limit: links.length,
          },
        );
  const byId = new Map(users.map((user) => [user._id.toHexString(), user]));
  const records = links.flatMap((link) => {
    const user = byId.get(link.userId.toHexString());
    return user ? [{ user, link }] : [];
  });
  return { records, total };
}

function translateOrRefuse(filter: string): ReturnType<typeof translateFilter> {
  try {
    return translateFilter(filter);
  } catch (error) {
    if (error instanceof ScimFilterError) throw new ScimError(400, error.message, "invalidFilter");
    throw error;
  }
}

/** The directory created the account and no other organization holds it. */
async function ownsAccount(auth: AuthContext, link: ScimUserDoc): Promise<boolean> {
  if (!link.createdByDirectory) return false;
  const memberships = await findUserMemberships(auth, link.userId);
  return memberships.every((member) => member.organizationId.equals(link.organizationId));
}

async function grantMembership(auth: AuthContext, caller: ScimCaller, userId: ObjectId): Promise<void> {
  const added = await addMemberWithinLimit(auth, {
    organizationId: caller.organizationId,
    userId,
    role: PROVISIONED_ROLE,
    teamId: null,
  });
  if (!added.ok && added.reason === "limit")
    throw new ScimError(400, "The organization has reached its membership limit", "invalidValue");
  if (added.ok)
    await recordScimChange(auth, caller, "organization.add-member", userId, { role: PROVISIONED_ROLE });
}

/**
 * Deprovisioning: the membership goes through the members' owner, which also takes the organization
 * off the user's sessions (their active organization) and their team memberships in it.
 */
async function revokeMembership(auth: AuthContext, caller: ScimCaller, userId: ObjectId): Promise<void> {
  const member = await findMember(auth, caller.organizationId, userId);
  if (!member) return;
  const removed = await removeMembership(auth, member);
  if (removed === false)
    throw new ScimError(400, "The organization's only owner cannot be deprovisioned", "mutability");
  if (removed)
    await recordScimChange(auth, caller, "organization.remove-member", userId, { role: member.role });
}
