import { useFetcher } from "@remix-run/react";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { type FormState, startSentence, useErrorText, useFieldProblem } from "~/components/form";
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
  const { t, lang } = useT();
  const text = useErrorText();
  const problem = useFieldProblem();
  const fetcher = useFetcher<{ slug: string; available: boolean; code: string | null }>();
  const initial = state?.values?.slug ?? defaultValue ?? "";
  const [slug, setSlug] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  // The input is uncontrolled: a slug typed before hydration stays (a controlled input was reset
  // to the server's empty value), and the state takes it from the DOM once hydrated.
  useEffect(() => {
    const typed = input.current;
    if (!typed?.value) return;
    typed.value = typed.value.toLowerCase();
    setSlug(typed.value);
  }, []);
  const { load } = fetcher;
  useEffect(() => {
    if (!slug || slug === current) return;
    const timer = setTimeout(() => load(`/organizations/check-slug?slug=${encodeURIComponent(slug)}`), 250);
    return () => clearTimeout(timer);
  }, [slug, current, load]);
  // The server's message holds for the slug it refused; once the user types another, the live check speaks.
  const refused = state?.errors?.slug && slug === (state.values?.slug ?? "").toLowerCase();
  const code = refused ? problem(state, "slug") : null;
  const checked = fetcher.data && fetcher.data.slug === slug && slug !== current ? fetcher.data : null;
  // One message at a time: a taken slug the server already refused is not said twice.
  const live = checked && !(code && !checked.available) ? checked : null;
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
          {startSentence(code, lang)}
        </p>
      ) : null}
      <input
        id="field-slug"
        name="slug"
        ref={input}
        defaultValue={initial}
        onChange={(event) => setSlug(lowerCaseInPlace(event))}
        // The core's slug rule (contracts/organization-fields.ts slugField), as the hint says it.
        pattern="[a-z0-9](?:[a-z0-9._\-]{0,98}[a-z0-9])?"
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
            : live.code === "VALIDATION_ERROR"
              ? startSentence(t("rules.formatSlug"), lang)
              : text(live.code ?? "ORGANIZATION_SLUG_TAKEN")
          : ""}
      </p>
    </div>
  );
}

/** Slugs are lower case: the typed value is lowered where it is, the caret kept. */
function lowerCaseInPlace(event: ChangeEvent<HTMLInputElement>): string {
  const target = event.target;
  const lower = target.value.toLowerCase();
  if (lower !== target.value) {
    const { selectionStart, selectionEnd } = target;
    target.value = lower;
    target.setSelectionRange(selectionStart, selectionEnd);
  }
  return lower;
}
