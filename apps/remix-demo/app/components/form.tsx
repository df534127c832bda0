import { useNavigation, useSearchParams } from "@remix-run/react";
import { type InputHTMLAttributes, type ReactNode, useEffect, useRef } from "react";
import { useT } from "~/lib/i18n";

export interface FormState {
  errors?: Record<string, string>;
  values?: Record<string, string>;
  /** A field's broken rule (app/lib/forms.server.ts FieldRule), for a VALIDATION_ERROR. */
  rules?: Record<string, { rule: string; limit?: number }>;
}

/**
 * What a user reads for a code, in the page language: the app's own wording (`problems`, saying
 * what happened and what to do), else the core's catalogue message (`errors`, kept equal to
 * @tessera/auth-core/i18n), else the app's own form checks (`validation`).
 */
export function useErrorText(): (code: string) => string {
  const { t } = useT();
  return (code) =>
    t([`problems.${code}`, `errors.${code}`, `validation.${code}`], {
      defaultValue: t("problems.INTERNAL_SERVER_ERROR"),
    });
}

/**
 * The message of one field: the rule it broke ("at most 256 characters") when the core named it,
 * else its code's text; null when the field is fine.
 */
export function useFieldProblem(): (state: FormState | undefined, name: string) => string | null {
  const { t } = useT();
  const text = useErrorText();
  return (state, name) => {
    const code = state?.errors?.[name];
    if (!code) return null;
    const broken = state?.rules?.[name];
    if (!broken) return text(code);
    const specific = `rules.${broken.rule}${name.charAt(0).toUpperCase()}${name.slice(1)}`;
    return t([specific, `rules.${broken.rule}`], { count: broken.limit ?? 0 });
  };
}

/** A rule's text starts a sentence under its field ("At most 256 characters"). */
export function startSentence(text: string, lang: string): string {
  return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
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
  const { t, lang } = useT();
  const problem = useFieldProblem();
  const summary = useRef<HTMLDivElement>(null);
  const entries = Object.entries(state?.errors ?? {});
  // A new failed submit (a new action result) moves focus here: the pending button was disabled,
  // which would otherwise leave focus on <body> (WCAG 2.4.3, 3.3.1).
  useEffect(() => {
    if (state?.errors && Object.keys(state.errors).length > 0) summary.current?.focus();
  }, [state]);
  if (entries.length === 0) return null;
  return (
    <div
      className="error-summary"
      role="alert"
      aria-labelledby="error-summary-title"
      tabIndex={-1}
      ref={summary}
      data-testid="error-summary"
    >
      <h2 id="error-summary-title">{t("common.errorSummary")}</h2>
      <ul>
        {entries.map(([name]) => (
          <li key={name}>
            {name === "form" ? (
              problem(state, name)
            ) : (
              <a href={`#field-${name}`}>
                {/* The same sentence as under the field, capital included, after the field's name
                    as the language writes it ("Code : …" in French). */}
                {labels?.[name]
                  ? t("common.errorSummaryItem", {
                      label: labels[name],
                      problem: startSentence(problem(state, name) ?? "", lang),
                    })
                  : startSentence(problem(state, name) ?? "", lang)}
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
  const { lang } = useT();
  const problem = useFieldProblem()(state, name);
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
      {problem ? (
        <p className="field-error" id={`${id}-error`}>
          {startSentence(problem, lang)}
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

/**
 * The notice of a PRG redirect's `?done=<outcome>`: looked up among the page's own outcomes only
 * (the URL is anyone's: `?done=toString` is no outcome), and hidden while the page shows an action's
 * answer (a refused form, a new API key) — `?done=` stays in the URL the next form posts to, and one
 * notice tells what happened last.
 */
export function DoneNotice({
  outcomes,
  state,
}: {
  /** outcome → message key */
  outcomes: Record<string, string>;
  /** The page's action data. */
  state?: object | undefined;
}) {
  const { t } = useT();
  const [params] = useSearchParams();
  const done = params.get("done");
  if (done === null || state !== undefined || !Object.hasOwn(outcomes, done)) return null;
  return <Notice>{t(outcomes[done]!)}</Notice>;
}
