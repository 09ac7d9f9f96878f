/**
 * A labelled text input: its label, the input, and an optional hint the input is
 * described by (`<id>-help`). The console's forms are mostly these.
 */
import type { InputHTMLAttributes, ReactNode } from "react";

export type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange"> & {
  readonly id: string;
  readonly label: ReactNode;
  readonly value: string;
  /** The new text at each change. */
  readonly onValue: (value: string) => void;
  /** A line under the input, announced with it (`aria-describedby`). */
  readonly hint?: ReactNode;
};

/** A label, its input and an optional hint. */
export function Field({ id, label, value, onValue, hint, ...input }: FieldProps) {
  const helpId = `${id}-help`;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(e) => onValue(e.target.value)}
        {...(hint === undefined ? {} : { "aria-describedby": helpId })}
        {...input}
      />
      {hint !== undefined && (
        <p id={helpId} className="hint">
          {hint}
        </p>
      )}
    </>
  );
}
