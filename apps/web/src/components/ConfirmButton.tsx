/**
 * A destructive button with a confirmation step: "Delete" (its subject named for
 * screen readers, so a table of them stays tellable apart) turns into
 * "Yes, delete …" and "Keep". Nothing is sent to the server before "Yes".
 */
import { useState } from "react";

export interface ConfirmButtonProps {
  /** The first button's word, e.g. "Delete". */
  readonly label: string;
  /** What it acts on, read after `label` by screen readers only, e.g. the agent's name. */
  readonly subject: string;
  /** The confirming button's text, e.g. "Yes, delete otter-guide". */
  readonly confirmLabel: string;
  /** Disables the confirming button while the action runs. */
  readonly busy: boolean;
  /** The compact size of a table row's other buttons. */
  readonly small?: boolean;
  /** The action; afterwards (done or failed) the first button comes back. */
  readonly onConfirm: () => Promise<unknown>;
}

/** A button that asks "Yes, …" / "Keep" before it acts. */
export function ConfirmButton({ label, subject, confirmLabel, busy, small = false, onConfirm }: ConfirmButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const size = small ? " button-small" : "";
  if (!confirming)
    return (
      <button type="button" className={`button-quiet${size}`} onClick={() => setConfirming(true)}>
        {label}
        <span className="visually-hidden"> {subject}</span>
      </button>
    );
  return (
    <>
      <button
        type="button"
        className={`button-danger${size}`}
        disabled={busy}
        onClick={() => void onConfirm().finally(() => setConfirming(false))}
      >
        {confirmLabel}
      </button>
      <button type="button" className={`button-quiet${size}`} onClick={() => setConfirming(false)}>
        Keep
      </button>
    </>
  );
}
