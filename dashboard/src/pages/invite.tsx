/** Accepting an invite link: the new member chooses the email and password they will sign in with. */
import { useState } from 'preact/hooks';
import { request } from '../api';
import { ErrorAlert } from '../components/alert';
import { TextField } from '../components/fields';
import { PageTitle } from '../components/page-title';
import type { Session } from '../types';
import { useSubmit } from '../use-submit';

interface Props {
  token: string;
  onSignedIn: (session: Session) => void;
}

export function InvitePage({ token, onSignedIn }: Props) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(
    async () => onSignedIn(await request<Session>('POST', '/invites/accept', { body: { token, email, password }, signedOut: true })),
    { keepBusy: true },
  );

  return (
    <main id="main" tabIndex={-1} class="narrow">
      <PageTitle title="Join the team" />
      <p>You were invited to a team. Choose the email and password you will sign in with.</p>
      <form class="stack" aria-label="Join the team" onSubmit={(event) => void submit(event)}>
        <ErrorAlert error={error} />
        <TextField label="Email" type="email" value={email} onValue={setEmail} autoComplete="email" required />
        <TextField label="Password" type="password" value={password} onValue={setPassword} autoComplete="new-password" required />
        <button type="submit" class="primary" aria-disabled={busy || undefined}>
          Join
        </button>
      </form>
    </main>
  );
}
