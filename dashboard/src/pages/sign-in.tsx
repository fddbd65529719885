/** Sign in with email and password, or through the identity provider, or create an account when sign-up is open. */
import { useId, useState } from 'preact/hooks';
import { request } from '../api';
import { ErrorAlert } from '../components/alert';
import { TextField } from '../components/fields';
import { PageTitle } from '../components/page-title';
import type { Session, SignedOut } from '../types';
import { useSubmit } from '../use-submit';

interface Props {
  info: SignedOut;
  onSignedIn: (session: Session) => void;
}

/**
 * Why a sign-in through the identity provider failed: the API sends the browser back with
 * `?error=<code>`, worded here. Any other text in the link is not shown: a link anyone can make
 * must not put their words on this page.
 */
const PROVIDER_ERRORS: Record<string, string> = {
  oidc_flow_expired: 'The sign-in took too long or started elsewhere: start again from the sign-in page.',
  oidc_failed: 'The identity provider’s answer was refused. Try again; if it keeps failing, an admin can find the reason in the server log.',
  oidc_no_email: 'The identity provider did not share your e-mail address: it must allow the “email” scope for this server.',
  oidc_unverified_email: 'A user with your e-mail address exists, but the identity provider has not verified that address, so the two are not linked.',
  oidc_removed: 'You were removed from this account. Only a new invite from an admin brings you back.',
  oidc_not_allowed: 'Your identity provider account is not allowed to join here without an invite. Ask an admin for one.',
  not_found: 'Single sign-on is not configured on this server.',
};
const providerError = () => {
  const code = new URLSearchParams(window.location.search).get('error');
  return code ? (PROVIDER_ERRORS[code] ?? 'Single sign-on did not complete. Try again.') : null;
};

export function SignInPage({ info, onSignedIn }: Props) {
  const fromProvider = providerError();
  return (
    <main id="main" tabIndex={-1} class="narrow">
      <PageTitle title="Sign in" />
      {fromProvider && (
        <p role="alert" class="alert">
          {fromProvider}
        </p>
      )}
      <SignInForm onSignedIn={onSignedIn} />
      {info.oidc.enabled && (
        <p>
          <a class="button-link" href="/dashboard/api/oidc/start">
            Sign in with {info.oidc.label}
          </a>
        </p>
      )}
      {info.signUpOpen && <SignUpForm onSignedIn={onSignedIn} />}
    </main>
  );
}

function SignInForm({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(
    async () => onSignedIn(await request<Session>('POST', '/sign-in', { body: { email, password }, signedOut: true })),
    { keepBusy: true },
  );

  return (
    <form class="stack" aria-label="Sign in" onSubmit={(event) => void submit(event)}>
      <ErrorAlert error={error} />
      <TextField label="Email" type="email" value={email} onValue={setEmail} autoComplete="username" required />
      <TextField label="Password" type="password" value={password} onValue={setPassword} autoComplete="current-password" required />
      <button type="submit" class="primary" aria-disabled={busy || undefined}>
        Sign in
      </button>
    </form>
  );
}

function SignUpForm({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const headingId = useId();
  const [accountName, setAccountName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(
    async () => onSignedIn(await request<Session>('POST', '/sign-up', { body: { email, password, accountName }, signedOut: true })),
    { keepBusy: true },
  );

  return (
    <section class="card">
      <h2 id={headingId}>Create an account</h2>
      <form class="stack" aria-labelledby={headingId} onSubmit={(event) => void submit(event)}>
        <ErrorAlert error={error} />
        <TextField label="Account name" value={accountName} onValue={setAccountName} autoComplete="organization" required />
        <TextField label="Email" type="email" value={email} onValue={setEmail} autoComplete="email" required />
        <TextField label="Password" type="password" value={password} onValue={setPassword} autoComplete="new-password" required />
        <button type="submit" class="primary" aria-disabled={busy || undefined}>
          Create account
        </button>
      </form>
    </section>
  );
}
