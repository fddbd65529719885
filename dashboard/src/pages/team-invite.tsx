/** Admins create an invite link for a role; the link is shown once. */
import { useId, useState } from 'preact/hooks';
import { post } from '../api';
import { ErrorAlert } from '../components/alert';
import { CopyField } from '../components/copy-field';
import { SelectField } from '../components/fields';
import type { CreatedInvite, Role } from '../types';
import { useSubmit } from '../use-submit';

export function InviteForm({ onCreated }: { onCreated: () => void }) {
  const headingId = useId();
  const [role, setRole] = useState<Role>('member');
  const [link, setLink] = useState<string | null>(null);
  const { busy, error, submit } = useSubmit(async () => {
    const invite = await post<CreatedInvite>('/team/invites', { role });
    setLink(invite.url);
    onCreated();
  });

  return (
    <section class="card">
      <h2 id={headingId}>Invite someone</h2>
      <form class="inline-form" aria-labelledby={headingId} onSubmit={(event) => void submit(event)}>
        <SelectField label="Role" value={role} onValue={(value) => setRole(value as Role)}>
          <option value="member">Member</option>
          <option value="admin">Admin</option>
        </SelectField>
        <button type="submit" class="primary" aria-disabled={busy || undefined}>
          Create invite link
        </button>
      </form>
      <ErrorAlert error={error} />
      {link && (
        <div class="notice">
          <p>
            <strong>This link is shown once.</strong> Send it to the person you are inviting.
          </p>
          <CopyField label="Invite link" value={link} />
        </div>
      )}
    </section>
  );
}
