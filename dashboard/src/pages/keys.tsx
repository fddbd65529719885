/**
 * API keys: create one (its full value shown once), list them, revoke after confirmation. Below
 * them, the account's webhook signing secret: admins reveal it or rotate it.
 */
import { useId, useState } from 'preact/hooks';
import { get, post, seg } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyField } from '../components/copy-field';
import { DataTable } from '../components/data-table';
import { TextField } from '../components/fields';
import { PageTitle } from '../components/page-title';
import { formatDate } from '../format';
import { useSession } from '../session';
import type { ApiKey, CreatedKey, KeysAnswer, WebhookSecret, WebhookSecretState } from '../types';
import { useResource } from '../use-resource';
import { useSubmit } from '../use-submit';

export function KeysPage() {
  const keys = useResource((signal) => get<KeysAnswer>('/keys', signal), []);
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
      <WebhookSecretSection />
    </>
  );
}

/** The account's own webhook signing secret: what receivers verify `X-Pagewright-Signature` with. */
function WebhookSecretSection() {
  const headingId = useId();
  const admin = useSession().user.role === 'admin';
  const state = useResource((signal) => get<WebhookSecretState>('/webhook-secret', signal), []);
  const [shown, setShown] = useState<WebhookSecret | null>(null);
  const [rotating, setRotating] = useState(false);
  const reveal = useSubmit(async () => setShown(await post<WebhookSecret>('/webhook-secret/reveal')));
  const rotate = async () => {
    setShown(await post<WebhookSecret>('/webhook-secret/rotate'));
    state.reload();
  };

  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Webhook signing secret</h2>
      <p>
        Webhook deliveries for this account's keys carry an <code>X-Pagewright-Signature</code> header made with this
        account's own secret. Verify it in your receiver: deliveries that other accounts send to it will not match.
      </p>
      {state.data && <p>{state.data.rotatedAt ? `Last rotated ${formatDate(state.data.rotatedAt)}.` : 'Never rotated.'}</p>}
      <ErrorAlert error={state.error ?? reveal.error} />
      {admin ? (
        <div class="actions">
          <button type="button" aria-disabled={reveal.busy || undefined} onClick={(event) => void reveal.submit(event)}>
            Reveal secret
          </button>
          <button type="button" class="danger" onClick={() => setRotating(true)}>
            Rotate secret
          </button>
        </div>
      ) : (
        <p>Only admins can see or rotate it.</p>
      )}
      {shown && <CopyField label="Webhook signing secret" value={shown.secret} />}
      {rotating && (
        <ConfirmDialog title="Rotate the webhook signing secret?" confirmLabel="Rotate" onConfirm={rotate} onClose={() => setRotating(false)}>
          <p>Deliveries are signed with a new secret from now on. Receivers still checking the old one will refuse them until you update them.</p>
        </ConfirmDialog>
      )}
    </section>
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
