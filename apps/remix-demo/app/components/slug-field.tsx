import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { type FormState, useErrorText } from "~/components/form";
import { useT } from "~/lib/i18n";

/** The slug input with a live availability check (JS); the server checks again on submit. */
export function SlugField({
  state,
  defaultValue,
  current,
}: {
  state?: FormState | undefined;
  defaultValue?: string;
  current?: string;
}) {
  const { t } = useT();
  const text = useErrorText();
  const fetcher = useFetcher<{ slug: string; available: boolean; code: string | null }>();
  const [slug, setSlug] = useState(state?.values?.slug ?? defaultValue ?? "");
  const { load } = fetcher;
  useEffect(() => {
    if (!slug || slug === current) return;
    const timer = setTimeout(() => load(`/organizations/check-slug?slug=${encodeURIComponent(slug)}`), 250);
    return () => clearTimeout(timer);
  }, [slug, current, load]);
  const code = state?.errors?.slug;
  const live = fetcher.data && fetcher.data.slug === slug && slug !== current ? fetcher.data : null;
  const describedBy = ["field-slug-hint", code ? "field-slug-error" : null, "field-slug-live"]
    .filter(Boolean)
    .join(" ");
  return (
    <div className={code ? "field field-invalid" : "field"}>
      <label htmlFor="field-slug">{t("organizations.fields.slug")}</label>
      <p className="hint" id="field-slug-hint">
        {t("organizations.fields.slugHint")}
      </p>
      {code ? (
        <p className="field-error" id="field-slug-error">
          {text(code)}
        </p>
      ) : null}
      <input
        id="field-slug"
        name="slug"
        value={slug}
        onChange={(event) => setSlug(event.target.value.toLowerCase())}
        pattern="[a-z0-9-]+"
        aria-invalid={code || live?.available === false ? true : undefined}
        aria-describedby={describedBy}
        autoComplete="off"
      />
      <p
        id="field-slug-live"
        className={live?.available === false ? "field-error" : "muted"}
        aria-live="polite"
      >
        {live
          ? live.available
            ? t("organizations.slugAvailable")
            : text(live.code ?? "ORGANIZATION_SLUG_TAKEN")
          : ""}
      </p>
    </div>
  );
}
