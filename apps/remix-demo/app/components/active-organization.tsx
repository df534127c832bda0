import { Form } from "@remix-run/react";
import { useT } from "~/lib/i18n";

/**
 * Whether an organization is the session's active one, or the button that makes it so (posted to
 * the organizations list's action, which returns to `returnTo` when it is an organization's page).
 */
export function ActiveOrganizationToggle({
  organization,
  isActive,
  returnTo,
}: {
  organization: { id: string; name: string };
  isActive: boolean;
  returnTo?: string;
}) {
  const { t } = useT();
  if (isActive) return <strong data-testid="organization-is-active">{t("organizations.active")}</strong>;
  return (
    <Form method="post" action="/organizations?index">
      <input type="hidden" name="organizationId" value={organization.id} />
      {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
      <button type="submit" name="intent" value="activate" className="button button-small button-secondary">
        {t("organizations.makeActive")}
        <span className="visually-hidden"> {organization.name}</span>
      </button>
    </Form>
  );
}
