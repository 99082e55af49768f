import type { ComponentChildren, InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { Field } from './ui';

/** What every field row takes besides its control's own attributes. */
type Row<V> = { label: string; hint?: string; value: V; onValue: (value: V) => void };

/** The attributes the dashboard's text inputs use. */
type InputAttributes = {
  name?: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'search' | 'date' | 'datetime-local';
  required?: boolean;
  disabled?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number;
  placeholder?: string;
  autoComplete?: string;
  onBlur?: () => void;
};

/** A labelled input showing `value` (a number input's too); `onValue` gets each edit as typed. */
export const TextField = ({
  label,
  hint,
  value,
  onValue,
  ...input
}: Omit<Row<string>, 'value'> & { value: string | number } & InputAttributes) => (
  <Field label={label} hint={hint}>
    {/* Preact types an input's attributes per literal `type`; these are checked as InputAttributes. */}
    <input {...(input as InputHTMLAttributes<HTMLInputElement>)} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
  </Field>
);

/** A labelled textarea whose text is `value`; `onValue` gets each edit. */
export const TextAreaField = ({
  label,
  hint,
  value,
  onValue,
  ...textarea
}: Row<string> & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onInput'>) => (
  <Field label={label} hint={hint}>
    <textarea {...textarea} value={value} onInput={(e) => onValue(e.currentTarget.value)} />
  </Field>
);

/** A labelled select of `options` (value and text); `onValue` gets the chosen value. */
export const SelectField = <V extends string>({
  label,
  hint,
  value,
  onValue,
  options,
  ...select
}: Row<V> & { options: ReadonlyArray<readonly [V, ComponentChildren]> } & Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    'value' | 'onChange' | 'role'
  >) => (
  <Field label={label} hint={hint}>
    <select {...select} value={value} onChange={(e) => onValue(e.currentTarget.value as V)}>
      {options.map(([option, text]) => (
        <option key={option} value={option}>
          {text}
        </option>
      ))}
    </select>
  </Field>
);

/** A checkbox with its text as its label, drawn as a toggle row. */
export const Toggle = ({
  checked,
  onChecked,
  children,
  ...input
}: { checked: boolean; onChecked: (checked: boolean) => void; children: ComponentChildren } & Pick<
  InputAttributes,
  'name' | 'disabled'
>) => (
  <label class="toggle">
    <input {...input} type="checkbox" checked={checked} onChange={(e) => onChecked(e.currentTarget.checked)} />
    {children}
  </label>
);

/**
 * What a field row needs to edit one property of a form's values: the property's key as the
 * control's `name`, its `value`, and an `onValue` that answers the values with it changed.
 */
export const fieldOf = <T, K extends keyof T & string>(values: T, onChange: (next: T) => void, name: K) => ({
  name,
  value: values[name],
  onValue: (value: T[K]) => onChange({ ...values, [name]: value }),
});

/** A form's values kept in one state: `field(key)` binds a field row to one of them (see fieldOf). */
export const useFields = <T extends object>(initial: T) => {
  const [values, setValues] = useState(initial);
  return {
    values,
    field: <K extends keyof T & string>(name: K) => fieldOf(values, setValues, name),
    /** Back to the initial values: all of them, or only those named. */
    reset: (names?: ReadonlyArray<keyof T>) =>
      setValues((current) => (names ? { ...current, ...Object.fromEntries(names.map((name) => [name, initial[name]])) } : initial)),
  };
};
