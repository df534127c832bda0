import { accountEventSource } from "./db/accounts.ts";
import { apiKeyEventSource } from "./features/api-key/index.ts";
import type { EventSource } from "./features/events/index.ts";
import {
  invitationEventSource,
  memberEventSource,
  organizationEventSource,
  teamEventSource,
  teamMemberEventSource,
} from "./features/organization/index.ts";
import { passkeyEventSource } from "./features/passkey/index.ts";
import { sessionEventSource } from "./features/session/index.ts";
import { userEventSource } from "./features/users/index.ts";

/**
 * Every owner whose writes carry events (docs/architecture.md, "Events written with the change"):
 * the repair pass relays what a crash left in their documents. A new owner of events adds its
 * source here; events.test.ts checks that each one's writes record their events.
 */
export const CORE_EVENT_SOURCES: readonly EventSource[] = [
  userEventSource,
  accountEventSource,
  sessionEventSource,
  organizationEventSource,
  memberEventSource,
  invitationEventSource,
  teamEventSource,
  teamMemberEventSource,
  apiKeyEventSource,
  passkeyEventSource,
];
