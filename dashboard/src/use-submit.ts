/** The busy flag and error of a form (or a confirm button) whose submit runs one request. */
import { useState } from 'preact/hooks';

interface Options {
  /**
   * Success ends this form's life (signing in changes the page, a confirmed dialog closes), so
   * busy stays set: the button stays disabled and a second press does nothing until it is gone.
   */
  keepBusy?: boolean;
}

/**
 * `submit` ignores presses while a run is under way, clears the last error, runs `action` and
 * shows what it throws; the form can be sent again after a failure (and after a success unless
 * `keepBusy`). Pass the event to stop the browser's own form submission.
 */
export function useSubmit(action: () => Promise<void>, { keepBusy = false }: Options = {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event?: Event) => {
    event?.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
      if (!keepBusy) setBusy(false);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return { busy, error, submit };
}
