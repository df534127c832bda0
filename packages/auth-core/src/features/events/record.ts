import type { EventData, EventType } from "../../contracts/events.ts";
import type { EventDoc } from "../../db/documents.ts";
import type { ObjectId } from "../../db/ids.ts";
import { newEventId } from "./ids.ts";

/** Whose change it is: the organization and user an event is listed and delivered under. */
export interface EventScope {
  organizationId?: ObjectId | string | null;
  userId?: ObjectId | string | null;
}

/**
 * An event of `type` at `at`, ready to be written with its change. `data` is checked against the
 * catalogue by its type (contracts/events.ts), so no secret can be added to it by accident.
 */
export function eventOf<T extends EventType>(
  type: T,
  at: Date,
  scope: EventScope,
  data: EventData<T>,
): EventDoc {
  return {
    _id: newEventId(at),
    type,
    createdAt: at,
    organizationId: hexOf(scope.organizationId),
    userId: hexOf(scope.userId),
    data: data as Record<string, unknown>,
  };
}

function hexOf(id: ObjectId | string | null | undefined): string | null {
  if (id === null || id === undefined) return null;
  return typeof id === "string" ? id : id.toHexString();
}
