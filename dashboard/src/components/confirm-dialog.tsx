/**
 * Confirmation before something that cannot be undone, in a native modal <dialog>: the browser
 * traps focus, makes the page behind inert and closes it on Escape. Mount it to open it; it calls
 * onClose however it closes.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { useSubmit } from '../use-submit';
import { ErrorAlert } from './alert';

interface Props {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  /** Does the work; the dialog closes when it resolves and shows the error if it rejects. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    cancelButton.current?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, []);

  const { busy, error, submit: confirm } = useSubmit(
    async () => {
      await onConfirm();
      dialog.current?.close();
    },
    { keepBusy: true },
  );

  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onClose={onClose}
      // While the request runs, Escape must not hide a dialog whose outcome is still unknown.
      onCancel={(event) => busy && event.preventDefault()}
    >
      <h2 id={titleId}>{title}</h2>
      <div id={bodyId}>{children}</div>
      <ErrorAlert error={error} />
      <div class="actions">
        <button type="button" class="danger" aria-disabled={busy || undefined} onClick={() => void confirm()}>
          {confirmLabel}
        </button>
        {/* Focus starts on Cancel: Enter or Space right after opening must not destroy anything. */}
        <button ref={cancelButton} type="button" aria-disabled={busy || undefined} onClick={() => !busy && dialog.current?.close()}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
