import type { ObjectId } from "mongodb";
import type { PasskeyPolicy } from "../../../contracts/organization-passkey-policy.ts";
import type { Collections } from "../../../db/collections.ts";
import { insertManyIgnoringDuplicates } from "../../../db/connect.ts";
import type { OrganizationDoc } from "../../../db/documents.ts";
import { runListingBump } from "../../../db/listing-version.ts";
import { escapeRegex } from "../../../db/regex.ts";
import { type StoredRows, storedRowsOf } from "../../../db/stored-rows.ts";
import {
  type EventDoc,
  type EventSource,
  eventOf,
  outboxWrittenBy,
  pushEvents,
  startRelay,
  WITHOUT_OUTBOX,
  withoutOutbox,
} from "../../events/index.ts";

/** Organizations: the only MongoDB access for them (members, invitations and teams have theirs). */

/**
 * An organization's listing version (`OrganizationDoc.listingVersion`): get-full-organization keeps
 * the lists it answered — the members with their users' public fields, the invitations — in memory
 * under the version it read before reading them (db/listing-cache.ts), and serves them again only
 * while the organization document still carries that version. So every write that changes what
 * those lists show bumps the version of each organization concerned, after the write, inside the
 * owner's write function (members/store.ts, invitations/store.ts; a user's shown fields through
 * bumpListingsOfMemberUser, which createAuth hands to the users store). A version missing on a
 * document (one written before the field existed) reads as 0; `$inc` creates it.
 */
export async function bumpListings(collections: Collections, ids: readonly ObjectId[]): Promise<void> {
  if (ids.length === 0) return;
  const update = { $inc: { listingVersion: 1 } };
  await runListingBump(() =>
    ids.length === 1
      ? collections.organizations.updateOne({ _id: ids[0] as ObjectId }, update)
      : collections.organizations.updateMany({ _id: { $in: [...ids] } }, update),
  );
}

/** The organizations' events (features/events): created with the insert, updated with a write of shown fields. */
export const organizationEventSource: EventSource = {
  name: "organizations",
  collection: (collections) => collections.organizations,
};

function organizationCreatedEvent(doc: OrganizationDoc, at: Date): EventDoc {
  const data = { organizationId: doc._id.toHexString(), name: doc.name, slug: doc.slug };
  return eventOf("organization.created", at, { organizationId: doc._id }, data);
}

/** The event of an organization's deletion, carried by its journal entry (organizations/service.ts). */
export function organizationDeletedEvent(id: ObjectId, at: Date): EventDoc {
  return eventOf("organization.deleted", at, { organizationId: id }, { organizationId: id.toHexString() });
}

export async function insertOrganization(collections: Collections, doc: OrganizationDoc): Promise<void> {
  const events = [organizationCreatedEvent(doc, collections.eventHub.now())];
  await collections.organizations.insertOne({ ...doc, _events: events });
  startRelay(collections, events);
}

export function findOrganizationById(
  collections: Collections,
  id: ObjectId,
): Promise<OrganizationDoc | null> {
  return collections.organizations.findOne({ _id: id }, { projection: WITHOUT_OUTBOX });
}

export function findOrganizationBySlug(
  collections: Collections,
  slug: string,
): Promise<OrganizationDoc | null> {
  return collections.organizations.findOne({ slug: { $eq: slug } }, { projection: WITHOUT_OUTBOX });
}

export function findOrganizationsByIds(
  collections: Collections,
  ids: readonly ObjectId[],
): Promise<OrganizationDoc[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return collections.organizations.find({ _id: { $in: [...ids] } }, { projection: WITHOUT_OUTBOX }).toArray();
}

/** Organizations whose slug contains `slugPart` (any case; all without it), oldest first: one page and the total. */
export async function listOrganizationsPage(
  collections: Collections,
  query: { slugPart?: string; limit: number; offset: number },
): Promise<{ organizations: OrganizationDoc[]; total: number }> {
  const filter = query.slugPart ? { slug: { $regex: escapeRegex(query.slugPart), $options: "i" } } : {};
  const [organizations, total] = await Promise.all([
    collections.organizations
      .find(filter, { projection: WITHOUT_OUTBOX })
      .sort({ createdAt: 1, _id: 1 })
      .skip(query.offset)
      .limit(query.limit)
      .toArray(),
    collections.organizations.countDocuments(filter),
  ]);
  return { organizations, total };
}

/**
 * Throws the driver's duplicate-key error when `fields.slug` is taken (the unique index decides).
 * Writes organization.updated with the change (relayed after the answer).
 */
export async function updateOrganizationFields(
  collections: Collections,
  id: ObjectId,
  fields: Partial<Pick<OrganizationDoc, "name" | "slug" | "logo" | "metadata">>,
): Promise<OrganizationDoc | null> {
  const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const events =
    Object.keys(changes).length === 0
      ? []
      : [
          eventOf(
            "organization.updated",
            collections.eventHub.now(),
            { organizationId: id },
            {
              organizationId: id.toHexString(),
              changes,
            },
          ),
        ];
  const updated = outboxWrittenBy(
    collections,
    collections.organizations,
    await collections.organizations.findOneAndUpdate(
      { _id: id },
      { $set: fields, ...pushEvents(events) },
      { returnDocument: "after" },
    ),
  );
  if (updated && events.length > 0) startRelay(collections, events);
  return updated;
}

/** Replaces the organization's authenticator policy; null when the organization is gone. */
export async function setOrganizationPasskeyPolicy(
  collections: Collections,
  id: ObjectId,
  policy: PasskeyPolicy,
): Promise<OrganizationDoc | null> {
  return withoutOutbox(
    await collections.organizations.findOneAndUpdate(
      { _id: id },
      { $set: { passkeyPolicy: policy } },
      { returnDocument: "after" },
    ),
  );
}

/** True for the one caller whose delete removed it. */
export async function deleteOrganizationById(collections: Collections, id: ObjectId): Promise<boolean> {
  const result = await collections.organizations.deleteOne({ _id: id });
  return result.deletedCount === 1;
}

/**
 * Rows an operator imports (`tessera import`), unordered: returns the positions a unique index
 * refused. A new organization has no listing anyone holds: nothing to bump.
 */
export async function insertOrganizationsInBulk(
  collections: Collections,
  docs: OrganizationDoc[],
): Promise<Set<number>> {
  const at = collections.eventHub.now();
  const outboxes = docs.map((doc) => ({ ...doc, _events: [organizationCreatedEvent(doc, at)] }));
  const refused = await insertManyIgnoringDuplicates(collections.organizations, outboxes);
  startRelay(
    collections,
    outboxes.filter((_, index) => !refused.has(index)).flatMap((doc) => doc._events),
  );
  return refused;
}

/** `tessera doctor`'s view of the organizations (db/stored-rows.ts): reads only, deletes go through deleteOrphanRows. */
export function organizationRowsForChecks(collections: Collections): StoredRows {
  return storedRowsOf(collections.organizations);
}
