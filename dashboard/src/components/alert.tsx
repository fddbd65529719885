/** Error and status messages, announced by screen readers as they appear. */
import { errorMessage } from '../api';

export function ErrorAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" class="alert">
      {errorMessage(error)}
    </p>
  );
}

export function StatusMessage({ message }: { message: string | null }) {
  return (
    <p role="status" class="status">
      {message}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return <p class="muted">Loading {what}…</p>;
}
