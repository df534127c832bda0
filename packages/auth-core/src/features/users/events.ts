import type { UserDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { type EventDoc, eventOf } from "../events/index.ts";

type UserFields = Partial<Omit<UserDoc, "_id">>;

const SHOWN_FIELDS = ["name", "email", "image", "language", "role"] as const;

/** The flags whose turning is an event of its own (the rest are user.updated's changes). */
const FLAGS = ["banned", "emailVerified", "twoFactorEnabled"] as const;

/** The events of a user write: `flagEvents` only when a flag turns, `events` whenever written. */
export interface UserWriteEvents {
  events: EventDoc[];
  flagEvents: EventDoc[];
  /** A filter matching a user on whom the write turns at least one flag; null without flags. */
  flagsTurn: Record<string, unknown> | null;
}

/**
 * The events a write of `fields` to a user means (features/users/store.ts writes them with it): a
 * ban or its lifting, a proven address, a second factor turned on or off — when the flag turns, not
 * when it is written again — and the profile fields written with their new values. Fields of
 * bookkeeping (updatedAt) mean none.
 */
export function eventsOfUserWrite(userId: ObjectId, fields: UserFields, at: Date): UserWriteEvents {
  const scope = { userId };
  const id = userId.toHexString();
  const flagEvents: EventDoc[] = [];
  if (fields.banned === true)
    flagEvents.push(
      eventOf("user.banned", at, scope, {
        userId: id,
        banReason: fields.banReason ?? null,
        banExpires: fields.banExpires ? fields.banExpires.toISOString() : null,
      }),
    );
  if (fields.banned === false) flagEvents.push(eventOf("user.unbanned", at, scope, { userId: id }));
  if (fields.emailVerified === true) flagEvents.push(eventOf("email.verified", at, scope, { userId: id }));
  if (fields.twoFactorEnabled === true)
    flagEvents.push(eventOf("two_factor.enabled", at, scope, { userId: id }));
  if (fields.twoFactorEnabled === false)
    flagEvents.push(eventOf("two_factor.disabled", at, scope, { userId: id }));
  const changes: Record<string, unknown> = {};
  for (const key of SHOWN_FIELDS) if (fields[key] !== undefined) changes[key] = fields[key];
  // A new address is unproven: say so with the change.
  if (fields.emailVerified === false) changes.emailVerified = false;
  const events =
    Object.keys(changes).length > 0 ? [eventOf("user.updated", at, scope, { userId: id, changes })] : [];
  // An absent flag reads as false: turning on is "not true now", turning off "true now". An
  // address made unproven is no event of its own (user.updated says it).
  const turns = FLAGS.filter((flag) => typeof fields[flag] === "boolean")
    .filter((flag) => flag !== "emailVerified" || fields.emailVerified === true)
    .map((flag) => (fields[flag] ? { [flag]: { $ne: true } } : { [flag]: true }));
  const flagsTurn = turns.length === 0 ? null : { $or: turns };
  return { events, flagEvents, flagsTurn };
}

export function userCreatedEvent(doc: UserDoc, at: Date): EventDoc {
  return eventOf(
    "user.created",
    at,
    { userId: doc._id },
    { userId: doc._id.toHexString(), email: doc.email, name: doc.name, emailVerified: doc.emailVerified },
  );
}

export function userDeletedEvent(userId: ObjectId, at: Date): EventDoc {
  return eventOf("user.deleted", at, { userId }, { userId: userId.toHexString() });
}
