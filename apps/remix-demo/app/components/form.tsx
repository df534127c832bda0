import { useNavigation } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { useT } from "~/lib/i18n";

export interface FormState {
  errors?: Record<string, string>;
  values?: Record<string, string>;
}

/** The catalogue message of a code, in the page language (English exact catalogue text as fallback). */
export function useErrorText(): (code: string) => string {
  const { t } = useT();
  // Catalogue codes under `errors` (the core's messages); the app's own form checks under `validation`.
  return (code) =>
    t([`errors.${code}`, `validation.${code}`], { defaultValue: t("errors.INTERNAL_SERVER_ERROR") });
}

/**
 * The list of problems above a form, focused after a failed POST so screen readers announce it;
 * each entry links to the field it concerns.
 */
export function ErrorSummary({
  state,
  labels,
}: {
  state: FormState | undefined;
  labels?: Record<string, string>;
}) {
  const { t } = useT();
  const text = useErrorText();
  const entries = Object.entries(state?.errors ?? {});
  if (entries.length === 0) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1}>
      <h2 id="error-summary-title">{t("common.errorSummary")}</h2>
      <ul>
        {entries.map(([name, code]) => (
          <li key={name}>
            {name === "form" ? (
              text(code)
            ) : (
              <a href={`#field-${name}`}>
                {labels?.[name] ? `${labels[name]}: ` : ""}
                {text(code)}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

type FieldProps = {
  name: string;
  label: string;
  state?: FormState | undefined;
  hint?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>;

/** A labelled input; its error (if any) sits under it and is tied to it with aria-describedby. */
export function Field({ name, label, state, hint, type = "text", defaultValue, ...rest }: FieldProps) {
  const text = useErrorText();
  const code = state?.errors?.[name];
  const id = `field-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, code ? `${id}-error` : null].filter(Boolean).join(" ");
  const kept = type === "password" ? undefined : (state?.values?.[name] ?? defaultValue);
  return (
    <div className={code ? "field field-invalid" : "field"}>
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {code ? (
        <p className="field-error" id={`${id}-error`}>
          {text(code)}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={kept}
        aria-invalid={code ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...rest}
      />
    </div>
  );
}

export function Checkbox({
  name,
  label,
  defaultChecked,
}: {
  name: string;
  label: string;
  defaultChecked?: boolean;
}) {
  return (
    <div className="checkbox">
      <input id={`field-${name}`} type="checkbox" name={name} value="on" defaultChecked={defaultChecked} />
      <label htmlFor={`field-${name}`}>{label}</label>
    </div>
  );
}

/** A submit button that says it is working while its form is being sent (with JS). */
export function Submit({
  children,
  intent,
  className,
  value,
}: {
  children: ReactNode;
  intent?: string;
  className?: string;
  value?: string;
}) {
  const { t } = useT();
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent ? (value ?? intent) : undefined}
      className={className ?? "button"}
      disabled={pending}
      aria-busy={pending || undefined}
    >
      {pending ? t("common.working") : children}
    </button>
  );
}

/** A one-off message after a PRG redirect (`?done=<key>`), announced politely. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}
