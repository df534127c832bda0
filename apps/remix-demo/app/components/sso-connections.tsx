import { useLocation } from "@remix-run/react";
import { useT } from "~/lib/i18n";
import type { FormState } from "./form";
import { SsoConnectionCard, type SsoConnectionView } from "./sso-connection";
import { SsoConnectionForm } from "./sso-connection-form";

/** The action's answer as the connections read it (lib/sso-page.server.ts). */
type SsoAnswer =
  | FormState
  | {
      tested: {
        providerId: string;
        checks: string[] | null;
        code: string | null;
        expiresAt: string | null;
      };
    }
  | undefined;

/**
 * An organization's connections and the add form: Organization → Security → Single sign-on and the
 * setup link's page render this one component (the setup link cannot delete: `canDelete` false).
 */
export function SsoConnections({
  connections,
  deleting,
  canDelete,
  answer,
  apiURL,
}: {
  connections: SsoConnectionView[];
  deleting: string | null;
  canDelete: boolean;
  answer: SsoAnswer;
  /** The core's API base (auth.context.apiURL), for the addresses the add form shows. */
  apiURL: string;
}) {
  const { t } = useT();
  const location = useLocation();
  const tested = answer && "tested" in answer ? answer.tested : null;
  const state = answer && "errors" in answer ? answer : undefined;
  const failedOn = state?.values?.intent !== "add" ? state?.values?.providerId : undefined;
  return (
    <>
      {connections.length === 0 ? <p>{t("organizations.sso.none")}</p> : null}
      {connections.map((connection) => (
        <SsoConnectionCard
          key={connection.providerId}
          connection={connection}
          deleting={deleting === connection.providerId}
          canDelete={canDelete}
          tested={tested?.providerId === connection.providerId ? tested : null}
          state={failedOn === connection.providerId ? state : undefined}
        />
      ))}
      <SsoConnectionForm
        state={state?.values?.intent === "add" ? state : undefined}
        apiURL={apiURL}
        key={location.key}
      />
    </>
  );
}
