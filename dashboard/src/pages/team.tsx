/** Team: members and pending invites. Admins change roles, remove members, revoke and create invites. */
import { useState } from 'preact/hooks';
import { del, get, post, seg } from '../api';
import { ErrorAlert, Loading, StatusMessage } from '../components/alert';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { PageTitle } from '../components/page-title';
import { formatDate, humanize } from '../format';
import { useSession } from '../session';
import type { Invite, Member, Role, TeamAnswer } from '../types';
import { useResource } from '../use-resource';
import { InviteForm } from './team-invite';

export function TeamPage() {
  const session = useSession();
  const isAdmin = session.user.role === 'admin';
  const team = useResource((signal) => get<TeamAnswer>('/team', signal), []);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const attempt = async (work: () => Promise<unknown>, done: string) => {
    setError(null);
    setStatus(null);
    try {
      await work();
      setStatus(done);
    } catch (failure) {
      setError(failure);
    } finally {
      team.reload();
    }
  };

  const changeRole = (member: Member, role: Role) =>
    attempt(() => post(`/team/members/${seg(member.id)}/role`, { role }), `${member.email} is now ${role === 'admin' ? 'an admin' : 'a member'}.`);
  const revokeInvite = (invite: Invite) => attempt(() => del(`/team/invites/${seg(invite.id)}`), 'Invite revoked.');
  const remove = async (member: Member) => {
    await del(`/team/members/${seg(member.id)}`);
    setStatus(`${member.email} was removed from the team.`);
    team.reload();
  };

  const memberHeaders = ['Email', 'Role', 'Joined', ...(isAdmin ? ['Actions'] : [])];
  const inviteHeaders = ['Role', 'Created', 'Expires', ...(isAdmin ? ['Actions'] : [])];

  return (
    <>
      <PageTitle title="Team" />
      <p>Everyone in “{session.account.name}”. Everyone can create keys and run crawls; admins also invite people and change roles.</p>
      <StatusMessage message={status} />
      <ErrorAlert error={error ?? team.error} />
      {!team.data && team.loading && <Loading what="the team" />}
      {team.data && (
        <>
          <DataTable
            caption="Members"
            headers={memberHeaders}
            empty="No members."
            rows={team.data.members.map((member) => {
              const self = member.id === session.user.id;
              return (
                <tr key={member.id}>
                  <td>
                    {member.email}
                    {self && <span class="muted"> (you)</span>}
                  </td>
                  <td>
                    {isAdmin && !self ? (
                      <select aria-label={`Role for ${member.email}`} value={member.role} onChange={(event) => void changeRole(member, event.currentTarget.value as Role)}>
                        <option value="member">Member</option>
                        <option value="admin">Admin</option>
                      </select>
                    ) : (
                      humanize(member.role)
                    )}
                  </td>
                  <td>{formatDate(member.createdAt)}</td>
                  {isAdmin && (
                    <td>
                      {!self && (
                        <button type="button" class="danger" aria-label={`Remove ${member.email}`} onClick={() => setRemoving(member)}>
                          Remove
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              );
            })}
          />
          <DataTable
            caption="Pending invites"
            headers={inviteHeaders}
            empty="No pending invites."
            rows={team.data.invites.map((invite) => (
              <tr key={invite.id}>
                <td>{humanize(invite.role)}</td>
                <td>{formatDate(invite.createdAt)}</td>
                <td>{formatDate(invite.expiresAt)}</td>
                {isAdmin && (
                  <td>
                    <button
                      type="button"
                      aria-label={`Revoke invite for a ${invite.role}, created ${formatDate(invite.createdAt)}`}
                      onClick={() => void revokeInvite(invite)}
                    >
                      Revoke invite
                    </button>
                  </td>
                )}
              </tr>
            ))}
          />
        </>
      )}
      {isAdmin && <InviteForm onCreated={team.reload} />}
      {removing && (
        <ConfirmDialog title="Remove member?" confirmLabel="Remove" onConfirm={() => remove(removing)} onClose={() => setRemoving(null)}>
          <p>{removing.email} loses access to this account at once. You can invite them again later.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
