/**
 * Choosing a password: the password, typed twice, with the server's rule as its
 * hint (at least 8 characters, not a common password). The form that shows them
 * checks that the two agree before it calls the server.
 */
import { Field } from "./Field";

export interface NewPasswordFieldsProps {
  /** Prefixes the inputs' ids: `<idPrefix>-password` and `<idPrefix>-confirm`. */
  readonly idPrefix: string;
  readonly label: string;
  readonly repeatLabel: string;
  /** A sentence after the rule, e.g. what changing the password does. */
  readonly hint?: string;
  readonly password: string;
  readonly repeat: string;
  readonly onPassword: (value: string) => void;
  readonly onRepeat: (value: string) => void;
}

/** A new password and its repetition. */
export function NewPasswordFields({
  idPrefix,
  label,
  repeatLabel,
  hint,
  password,
  repeat,
  onPassword,
  onRepeat,
}: NewPasswordFieldsProps) {
  return (
    <>
      <Field
        id={`${idPrefix}-password`}
        label={label}
        type="password"
        autoComplete="new-password"
        minLength={8}
        value={password}
        onValue={onPassword}
        hint={
          hint === undefined
            ? "At least 8 characters, not a common password."
            : `At least 8 characters, not a common password. ${hint}`
        }
        required
      />
      <Field
        id={`${idPrefix}-confirm`}
        label={repeatLabel}
        type="password"
        autoComplete="new-password"
        value={repeat}
        onValue={onRepeat}
        required
      />
    </>
  );
}
