import { createSsoSetupLinkContract, type SsoSetupLink } from "../../../contracts/sso-setup.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { auditSource, recordAuditEvent } from "../../admin/index.ts";
import { resolveManagedOrganization } from "../service.ts";
import { createSetupLink } from "../setup-link.ts";

/** POST /sso/create-setup-link: whoever may register a connection may hand that to someone else. */
export const createSsoSetupLink = defineEndpoint(createSsoSetupLinkContract, {
  async handler(ctx): Promise<SsoSetupLink> {
    const { auth, body } = ctx;
    const caller = ctx.session!;
    const manager = { kind: "member", caller } as const;
    const organizationId = answerRefusal(
      await resolveManagedOrganization(auth, manager, body.organizationId),
    );
    const link = await createSetupLink(auth, organizationId, caller.user._id);
    // Three owners racing each other three times over: a database problem, not the caller's.
    if (!link) throw new Error("SSO setup link could not be stored");
    const { ip, userAgent, actor } = auditSource(ctx);
    await recordAuditEvent(auth, {
      action: "organization.sso-setup-link",
      actorId: caller.user._id,
      actor,
      subjectId: null,
      details: {
        organizationId: organizationId.toHexString(),
        linkId: link.linkId,
        email: body.email ?? null,
        expiresAt: link.expiresAt.toISOString(),
      },
      ip,
      userAgent,
    });
    return { url: link.url, expiresAt: link.expiresAt };
  },
});
