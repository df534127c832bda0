/**
 * An operator's SSO connection work for `@tessera/auth-core/operator` (`tessera orgs sso`): the
 * endpoints' own paths (features/sso manage.ts) with the operator as the organization's manager, so
 * every rule holds — the schema, reserved and taken ids, discovery and its checks, the outbound
 * guard — and each change is audited with the operator as actor.
 */
import { registerSsoProviderContract, type SsoProviderTest } from "./contracts/sso.ts";
import type { SsoProvider } from "./contracts/sso-models.ts";
import type { Auth } from "./create-auth.ts";
import type { OrganizationDoc } from "./db/documents.ts";
import { AuthError } from "./errors/auth-error.ts";
import { answerRefusal } from "./errors/refusal.ts";
import {
  listManagedProviders,
  registerManagedConnection,
  removeManagedConnection,
  testManagedConnection,
  toSsoProvider,
  updateManagedConnection,
} from "./features/sso/index.ts";

export type { SsoProvider, SsoProviderTest };

/** Refusals are AuthErrors (catalogue code and message), as from auth.api. */
export function createOperatorSso(auth: Auth, actor: string) {
  const context = auth.context;
  const source = { ip: null, headers: new Headers(), session: null };
  const as = (org: OrganizationDoc) => ({ kind: "operator", actor, organizationId: org._id }) as const;
  return {
    async list(org: OrganizationDoc): Promise<SsoProvider[]> {
      const docs = await listManagedProviders(context, as(org));
      return Promise.all(docs.map((doc) => toSsoProvider(context, doc)));
    },
    /**
     * `input` is /sso/register's body without organizationId, checked by its schema: VALIDATION_ERROR
     * naming the first field refused.
     */
    async add(org: OrganizationDoc, input: Record<string, unknown>): Promise<SsoProvider> {
      const parsed = registerSsoProviderContract.body!.safeParse({
        ...input,
        organizationId: org._id.toHexString(),
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = issue.path.join(".");
        throw new AuthError("VALIDATION_ERROR", {
          message: `Invalid request: ${field ? `${field}: ` : ""}${issue.message}`,
        });
      }
      return answerRefusal(await registerManagedConnection(context, source, as(org), parsed.data));
    },
    async test(org: OrganizationDoc, providerId: string): Promise<SsoProviderTest> {
      return answerRefusal(await testManagedConnection(context, source, as(org), providerId));
    },
    /** Turns a connection on or off (/sso/update-provider's path: audited as organization.sso-update). */
    async setEnabled(org: OrganizationDoc, providerId: string, enabled: boolean): Promise<SsoProvider> {
      return answerRefusal(await updateManagedConnection(context, source, as(org), { providerId, enabled }));
    },
    async remove(
      org: OrganizationDoc,
      providerId: string,
    ): Promise<{ providerId: string; accountsRemoved: number }> {
      const { accountsRemoved } = answerRefusal(
        await removeManagedConnection(context, source, as(org), providerId),
      );
      return { providerId, accountsRemoved };
    },
  };
}
