/**
 * One user action that calls the server (a form's submit, a row's button): busy
 * while it runs, so its button is disabled, and the text of its failure in the
 * server's own words. Every form and table row of the console needs the same two
 * states around the same try/catch; here they are once.
 */
import { useCallback, useState } from "react";
import { errorText } from "./api";

/** What {@link useAsyncAction} gives a component. */
export interface AsyncAction {
  /** True while the action runs (and after a success with `busyAfterSuccess`). */
  readonly busy: boolean;
  /** The last failure's text, or null. */
  readonly error: string | null;
  /** Shows a text of the caller's own (a check made before calling the server, a failed load) or clears it. Stable. */
  readonly setError: (text: string | null) => void;
  /**
   * Runs `work` with `busy` on and the error cleared; a rejection becomes `error`.
   * Never rejects: resolves to whether `work` succeeded. Stable.
   */
  readonly run: (work: () => Promise<unknown>) => Promise<boolean>;
}

/** Options of {@link useAsyncAction}. */
export interface AsyncActionOptions {
  /**
   * Stay busy after a success: for an action whose control goes away once it is done
   * (a revoked key's row until the list reloads, the sign-in form), so it cannot be
   * pressed a second time meanwhile.
   */
  readonly busyAfterSuccess?: boolean;
}

/** The busy and error states of one server-calling action, and the runner that keeps them. */
export function useAsyncAction(options: AsyncActionOptions = {}): AsyncAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busyAfterSuccess = options.busyAfterSuccess === true;
  const run = useCallback(
    async (work: () => Promise<unknown>): Promise<boolean> => {
      setBusy(true);
      setError(null);
      try {
        await work();
        if (!busyAfterSuccess) setBusy(false);
        return true;
      } catch (err) {
        setError(errorText(err));
        setBusy(false);
        return false;
      }
    },
    [busyAfterSuccess],
  );
  return { busy, error, setError, run };
}
