/** One `<select>` for a fixed list of values (claim kinds, stages, evidence levels, source kinds, …), each shown by its label. */
import type { JSX } from 'preact';

/**
 * Props of an `EnumSelect`: the values, how each is labelled, and an optional first option for "none" (value '').
 * `V` is the type of `value`; it includes '' exactly when there is an `empty` option.
 */
export type EnumSelectProps<V extends string> = Omit<JSX.SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'label'> & {
  values: readonly Exclude<V, ''>[];
  value: V;
  label: (value: Exclude<V, ''>) => string;
  onChange: (value: V) => void;
  /** The label of a first option with the value '' (no choice, any, none). */
  empty?: string;
};

/** A select over `values`; `onChange` gets the chosen value ('' for the `empty` option, when there is one). */
export function EnumSelect<V extends string>({ values, value, label, onChange, empty, ...attributes }: EnumSelectProps<V>) {
  return (
    <select {...attributes} value={value} onChange={(e) => onChange(e.currentTarget.value as V)}>
      {empty !== undefined && <option value="">{empty}</option>}
      {values.map((v) => (
        <option key={v} value={v}>
          {label(v)}
        </option>
      ))}
    </select>
  );
}
