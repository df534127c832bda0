import type { ObjectId } from "mongodb";
import type { Collections } from "../../db/collections.ts";
import { isDuplicateKeyError } from "../../db/connect.ts";
import type { SsoProviderDoc } from "../../db/documents.ts";
import { recentReads } from "../../db/recent-reads.ts";

/**
 * The only file of features/sso (SAML's replay cache aside) that talks to MongoDB, and the owner of
 * `ssoProviders` (unique `providerId`, db/migrations/0014-sso-providers.ts). Secrets arrive here
 * sealed already (service.ts); nothing here decrypts.
 */

/**
 * What this instance read of connections by providerId (db/recent-reads.ts): a sign-in reads its
 * connection at its start and again at its callback (or SAML's ACS), and every sign-in of a company
 * reads the same one. Every write below goes through `writing`, so a change made here applies to the
 * next sign-in at once; one made through another instance within RECENT_READ_MS.
 */
const recentProviders = recentReads<SsoProviderDoc | null>();

/** Inserts a connection; false when its providerId is taken (the unique index decides, races included). */
export async function insertSsoProvider(collections: Collections, doc: SsoProviderDoc): Promise<boolean> {
  try {
    await recentProviders.writing(collections, () => collections.ssoProviders.insertOne(doc));
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export function findSsoProvider(
  collections: Collections,
  providerId: string,
): Promise<SsoProviderDoc | null> {
  return collections.ssoProviders.findOne({ providerId: { $eq: providerId } });
}

/**
 * findSsoProvider for sign-ins (start, callback, ACS): what this instance read of the connection less
 * than RECENT_READ_MS ago (null too), else one read. Read-only: callers share the object. Managing
 * connections reads the database itself (findSsoProvider).
 */
export function findSsoProviderRecent(
  collections: Collections,
  providerId: string,
): Promise<SsoProviderDoc | null> {
  return recentProviders.read(collections, providerId, () => findSsoProvider(collections, providerId));
}

/** An organization's connections, oldest first. */
export function findOrganizationSsoProviders(
  collections: Collections,
  organizationIds: readonly ObjectId[],
): Promise<SsoProviderDoc[]> {
  return collections.ssoProviders
    .find({ organizationId: { $in: [...organizationIds] } })
    .sort({ organizationId: 1, createdAt: 1 })
    .toArray();
}

/**
 * Whether the organization has a connection turned on, other than `except` when given (one read,
 * on the organizationId index).
 */
export async function hasEnabledSsoProvider(
  collections: Collections,
  organizationId: ObjectId,
  except?: ObjectId,
): Promise<boolean> {
  const found = await collections.ssoProviders.findOne(
    { organizationId, enabled: true, ...(except && { _id: { $ne: except } }) },
    { projection: { _id: 1 } },
  );
  return found !== null;
}

/** The connections declaring `domain` (routing by declared domain: `sso.trustDeclaredDomains` only). */
export function findDeclaringSsoProviders(
  collections: Collections,
  domain: string,
): Promise<SsoProviderDoc[]> {
  return collections.ssoProviders
    .find({ domains: { $eq: domain } })
    .sort({ createdAt: 1 })
    .toArray();
}

/**
 * Writes the given fields of the connection as it was read (compare-and-set on `updatedAt`, so two
 * concurrent updates cannot both win); null when it changed or went meanwhile.
 */
export function updateSsoProvider(
  collections: Collections,
  current: Pick<SsoProviderDoc, "_id" | "updatedAt">,
  fields: Partial<Omit<SsoProviderDoc, "_id" | "providerId" | "organizationId">>,
): Promise<SsoProviderDoc | null> {
  return recentProviders.writing(collections, () =>
    collections.ssoProviders.findOneAndUpdate(
      { _id: current._id, updatedAt: current.updatedAt },
      { $set: fields },
      { returnDocument: "after" },
    ),
  );
}

/** False when it was gone already. */
export async function deleteSsoProvider(collections: Collections, id: ObjectId): Promise<boolean> {
  const deleted = await recentProviders.writing(collections, () =>
    collections.ssoProviders.deleteOne({ _id: id }),
  );
  return deleted.deletedCount === 1;
}
