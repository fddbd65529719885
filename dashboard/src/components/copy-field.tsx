/** A secret shown once (a new API key, an invite link): read-only, selected on focus, with a Copy button. */
import { useEffect, useId, useRef, useState } from 'preact/hooks';

export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'unavailable'>('idle');

  // Land on the new value, so keyboard and screen reader users find it without searching.
  useEffect(() => {
    setState('idle');
    input.current?.focus();
    input.current?.select();
  }, [value]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // navigator.clipboard exists only in secure contexts (HTTPS or localhost).
      input.current?.focus();
      input.current?.select();
      setState('unavailable');
    }
  };

  return (
    <div class="field copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input
          id={id}
          ref={input}
          type="text"
          readOnly
          value={value}
          spellcheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" onClick={() => void copy()}>
          {state === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      {state === 'unavailable' && (
        <p role="alert" class="hint">
          This browser does not allow copying here. The text is selected: press Ctrl+C (⌘C on a Mac).
        </p>
      )}
    </div>
  );
}
