import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getAuth } from "~/auth.server";
import { DoneNotice, ErrorSummary, Field, Submit } from "~/components/form";
import { SlugField } from "~/components/slug-field";
import { failure, field, invalid, readForm, redirectWith } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { canManage, requireOrganization } from "~/lib/org.server";

export const handle = { title: "organizations.tabs.settings" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { organization, roles } = await requireOrganization(request, params.slug);
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    logo: organization.logo ?? "",
    metadata: organization.metadata ? JSON.stringify(organization.metadata, null, 2) : "",
    canManage: canManage(roles),
    isOwner: roles.includes("owner"),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const { organization } = await requireOrganization(request, params.slug);
  const auth = await getAuth();
  try {
    if (field(form, "intent") === "delete") {
      if (field(form, "confirm") !== organization.slug) return invalid({ confirm: "CONFIRM_SLUG" }, form);
      const result = await auth.api.deleteOrganization({
        body: { organizationId: organization.id },
        headers: request.headers,
      });
      return redirectWith("/organizations", result.headers);
    }
    const metadataText = field(form, "metadata").trim();
    let metadata: Record<string, unknown> | undefined;
    if (metadataText) {
      try {
        const parsed: unknown = JSON.parse(metadataText);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
          throw new Error("not an object");
        metadata = parsed as Record<string, unknown>;
      } catch {
        return invalid({ metadata: "INVALID_METADATA" }, form);
      }
    }
    const logo = field(form, "logo").trim();
    const { data } = await auth.api.updateOrganization({
      body: {
        organizationId: organization.id,
        data: {
          name: field(form, "name").trim(),
          slug: field(form, "slug").trim(),
          ...(logo ? { logo } : {}),
          ...(metadata ? { metadata } : {}),
        },
      },
      headers: request.headers,
    });
    return redirectWith(`/organizations/${data.slug}?done=saved`);
  } catch (error) {
    return failure(error, form, { VALIDATION_ERROR: "form" });
  }
}

export default function OrganizationSettings() {
  const { t } = useT();
  const data = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>();
  const labels = {
    name: t("organizations.fields.name"),
    slug: t("organizations.fields.slug"),
    logo: t("organizations.fields.logo"),
    metadata: t("organizations.fields.metadata"),
    confirm: t("organizations.settings.confirmLabel", { slug: data.slug }),
  };
  if (!data.canManage) return <p>{t("organizations.settings.readOnly")}</p>;
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">{t("organizations.settings.title")}</h2>
      <DoneNotice outcomes={{ saved: "common.saved" }} state={state} />
      <ErrorSummary state={state} labels={labels} />
      <Form method="post" noValidate>
        <Field name="name" label={labels.name} defaultValue={data.name} state={state} />
        <SlugField state={state} defaultValue={data.slug} current={data.slug} />
        <Field name="logo" type="url" label={labels.logo} defaultValue={data.logo} state={state} />
        <div className={state?.errors?.metadata ? "field field-invalid" : "field"}>
          <label htmlFor="field-metadata">{labels.metadata}</label>
          <p className="hint" id="field-metadata-hint">
            {t("organizations.fields.metadataHint")}
          </p>
          <textarea
            id="field-metadata"
            name="metadata"
            rows={4}
            defaultValue={state?.values?.metadata ?? data.metadata}
            aria-describedby="field-metadata-hint"
            aria-invalid={state?.errors?.metadata ? true : undefined}
          />
        </div>
        <Submit intent="save">{t("common.save")}</Submit>
      </Form>
      {data.isOwner ? (
        <Form method="post" noValidate className="danger-zone">
          <h3>{t("organizations.settings.deleteTitle")}</h3>
          <p className="warning">{t("organizations.settings.deleteWarning")}</p>
          <Field name="confirm" label={labels.confirm} state={state} autoComplete="off" />
          <Submit intent="delete" className="button button-danger">
            {t("organizations.settings.delete")}
          </Submit>
        </Form>
      ) : null}
    </section>
  );
}
