import { openSsoSetupLinkContract, type SsoSetupOpened } from "../../../contracts/sso-setup.ts";
import { answerRefusal } from "../../../errors/refusal.ts";
import { defineEndpoint } from "../../../http/define-endpoint.ts";
import { auditSource, recordAuditEvent } from "../../admin/index.ts";
import { openSetupLink } from "../setup-link.ts";

/** POST /sso/open-setup-link: spends the token once and sets the setup cookie (setup-link.ts). */
export const openSsoSetupLink = defineEndpoint(openSsoSetupLinkContract, {
  async handler(ctx): Promise<SsoSetupOpened> {
    const { auth } = ctx;
    const opened = answerRefusal(await openSetupLink(auth, ctx.cookies, ctx.body.token));
    const { organization, linkId, expiresAt } = opened;
    const { ip, userAgent } = auditSource(ctx);
    await recordAuditEvent(auth, {
      action: "organization.sso-setup-open",
      actorId: null,
      actor: `setup-link:${linkId}`,
      subjectId: null,
      details: { organizationId: organization._id.toHexString(), linkId },
      ip,
      userAgent,
    });
    return {
      organization: { id: organization._id.toHexString(), name: organization.name, slug: organization.slug },
      expiresAt,
    };
  },
});
