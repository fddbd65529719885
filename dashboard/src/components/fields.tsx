/** Labelled form controls: every input gets a real <label>, and an optional hint tied by aria-describedby. */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** The label and hint around one control, which gets the id the label points at and the hint's id to describe it. */
function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string, hintId?: string) => ComponentChildren }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      )}
      {children(id, hintId)}
    </div>
  );
}

interface TextProps {
  label: string;
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'url' | 'number';
  hint?: string;
  placeholder?: string;
  autoComplete?: string;
  required?: boolean;
  min?: number;
  max?: number;
}

export function TextField({ label, value, onValue, type = 'text', hint, ...rest }: TextProps) {
  return (
    <Field label={label} hint={hint}>
      {(id, hintId) => (
        <input
          id={id}
          // Preact types <input> as a union keyed by a literal type; ours is one of the plain text-like kinds.
          type={type as 'text'}
          value={value}
          aria-describedby={hintId}
          onInput={(event) => onValue(event.currentTarget.value)}
          {...rest}
        />
      )}
    </Field>
  );
}

interface AreaProps {
  label: string;
  value: string;
  onValue: (value: string) => void;
  hint?: string;
  required?: boolean;
  rows?: number;
}

export function TextArea({ label, value, onValue, hint, ...rest }: AreaProps) {
  return (
    <Field label={label} hint={hint}>
      {(id, hintId) => (
        <textarea id={id} value={value} aria-describedby={hintId} onInput={(event) => onValue(event.currentTarget.value)} {...rest} />
      )}
    </Field>
  );
}

interface SelectProps {
  label: string;
  value: string;
  onValue: (value: string) => void;
  children: ComponentChildren;
  required?: boolean;
  disabled?: boolean;
}

export function SelectField({ label, value, onValue, children, ...rest }: SelectProps) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(event) => onValue(event.currentTarget.value)} {...rest}>
          {children}
        </select>
      )}
    </Field>
  );
}

export function CheckboxField({ label, checked, onChecked }: { label: string; checked: boolean; onChecked: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div class="checkbox">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChecked(event.currentTarget.checked)} />
      <label for={id}>{label}</label>
    </div>
  );
}
