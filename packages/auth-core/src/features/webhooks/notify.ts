import type { AuthContext } from "../../context.ts";
import type { WebhookEndpointDoc } from "../../db/documents.ts";
import { dispatchMail } from "../mail-dispatch.ts";
import { holdsRole, listAllMembersWithUsers } from "../organization/index.ts";
import { findUserById } from "../users/index.ts";

/**
 * Tells an endpoint's owners that it was disabled after five days of failures (docs/decisions/
 * 0020-webhooks.md): the organization's owners for an organization's endpoint, whoever registered an
 * app-wide one. In the background: the worker goes on whatever the mailer does.
 */
export async function notifyEndpointDisabled(auth: AuthContext, endpoint: WebhookEndpointDoc): Promise<void> {
  auth.options.logger.warn(
    `webhooks: endpoint ${endpoint._id.toHexString()} disabled after five days of failed deliveries`,
  );
  for (const recipient of await findEndpointOwners(auth, endpoint)) {
    await dispatchMail(auth, "webhook-endpoint-disabled", recipient, { endpoint: endpoint.url }, undefined, {
      background: "webhooks: the mail about a disabled endpoint was not sent",
    });
  }
}

async function findEndpointOwners(
  auth: AuthContext,
  endpoint: WebhookEndpointDoc,
): Promise<{ email: string; language?: string | undefined }[]> {
  if (endpoint.organizationId) {
    const members = await listAllMembersWithUsers(auth, endpoint.organizationId);
    return members.flatMap(({ member, user }) =>
      user && holdsRole(member.role, "owner") ? [{ email: user.email }] : [],
    );
  }
  const creator = endpoint.createdBy ? await findUserById(auth.collections, endpoint.createdBy) : null;
  return creator ? [{ email: creator.email, language: creator.language ?? undefined }] : [];
}
