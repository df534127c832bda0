import { useT } from "~/lib/i18n";

/** A filter select of known values; a value typed in the URL that is none of them shows its error. */
export function ChoiceField(props: {
  name: string;
  label: string;
  choices: readonly string[];
  value: string;
  error?: string | undefined;
}) {
  const { t } = useT();
  const id = `activity-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        defaultValue={props.error ? "" : props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      >
        <option value="">{t("admin.users.filters.all")}</option>
        {props.choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
      {props.error ? (
        <p className="field-error" id={`${id}-error`}>
          {t(`validation.${props.error}`)}
        </p>
      ) : null}
    </div>
  );
}

/** A filter day (a date field: YYYY-MM-DD without JavaScript too). */
export function DayField(props: { name: string; label: string; value: string; error?: string | undefined }) {
  const { t } = useT();
  const id = `activity-${props.name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type="date"
        defaultValue={props.error ? "" : props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
      />
      {props.error ? (
        <p className="field-error" id={`${id}-error`}>
          {t(`validation.${props.error}`)}
        </p>
      ) : null}
    </div>
  );
}
