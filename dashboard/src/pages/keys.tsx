/** API keys: create one (its full value shown once), list them, revoke after confirmation. */
import { useId, useState } from 'preact/hooks';
import { get, post, seg } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyField } from '../components/copy-field';
import { DataTable } from '../components/data-table';
import { TextField } from '../components/fields';
import { PageTitle } from '../components/page-title';
import { formatDate } from '../format';
import type { ApiKey, CreatedKey } from '../types';
import { useResource } from '../use-resource';
import { useSubmit } from '../use-submit';

export function KeysPage() {
  const keys = useResource((signal) => get<{ keys: ApiKey[] }>('/keys', signal), []);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const revoke = async (key: ApiKey) => {
    await post(`/keys/${seg(key.id)}/revoke`);
    keys.reload();
  };

  return (
    <>
      <PageTitle title="API keys" />
      <p>Programs use an API key to call the scraping API. Each key can be revoked on its own.</p>
      <CreateKeyForm
        onCreated={(key) => {
          setCreated(key);
          keys.reload();
        }}
      />
      {created && <NewKey created={created} />}
      <ErrorAlert error={keys.error} />
      {keys.data ? (
        <DataTable
          caption="Keys in this account"
          headers={['Name', 'Prefix', 'Created', 'Last used', 'State', 'Actions']}
          empty="No keys yet. Create one above."
          rows={keys.data.keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>
                <code>{key.prefix}</code>
              </td>
              <td>{formatDate(key.createdAt)}</td>
              <td>{key.lastUsedAt ? formatDate(key.lastUsedAt) : 'Never'}</td>
              <td>{key.revokedAt ? 'Revoked' : 'Active'}</td>
              <td>
                {!key.revokedAt && (
                  <button type="button" class="danger" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        />
      ) : (
        keys.loading && <Loading what="keys" />
      )}
      {revoking && (
        <ConfirmDialog
          title="Revoke key?"
          confirmLabel="Revoke"
          onConfirm={() => revoke(revoking)}
          onClose={() => setRevoking(null)}
        >
          <p>
            The key “{revoking.name}” (<code>{revoking.prefix}</code>) stops working at once. Programs using it
            get 401 answers. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const headingId = useId();
  const [name, setName] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    onCreated(await post<CreatedKey>('/keys', { name: name.trim() }));
    setName('');
  });

  return (
    <section class="card">
      <h2 id={headingId}>Create a key</h2>
      <form class="inline-form" aria-labelledby={headingId} onSubmit={(event) => void submit(event)}>
        <TextField label="Key name" value={name} onValue={setName} hint="Say what uses it, e.g. “nightly import”." required />
        <button type="submit" class="primary" aria-disabled={busy || undefined}>
          Create key
        </button>
      </form>
      <ErrorAlert error={error} />
    </section>
  );
}

function NewKey({ created }: { created: CreatedKey }) {
  return (
    <section class="card notice">
      <h2>Your new API key</h2>
      <p>
        <strong>This key is shown once. Store it now: it cannot be shown again.</strong>
      </p>
      <CopyField label="New API key" value={created.key} />
    </section>
  );
}
