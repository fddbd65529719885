/** Creating a monitor: a name, a plain-language schedule, the URLs to check, and the key to run them on. */
import { useId, useState } from 'preact/hooks';
import { post } from '../api';
import { ErrorAlert } from '../components/alert';
import { TextArea, TextField } from '../components/fields';
import type { Monitor, MonitorAnswer } from '../types';
import { useActiveKeys } from '../use-active-keys';
import { useSubmit } from '../use-submit';
import { KeySelect } from './key-select';

export function MonitorForm({ onCreated }: { onCreated: (monitor: Monitor) => void }) {
  const headingId = useId();
  const keys = useActiveKeys();
  const [name, setName] = useState('');
  const [schedule, setSchedule] = useState('');
  const [urls, setUrls] = useState('');
  const [apiKeyId, setApiKeyId] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    const body = {
      name: name.trim(),
      apiKeyId,
      schedule: { text: schedule.trim() },
      urls: urls.split('\n').map((line) => line.trim()).filter(Boolean),
    };
    const { monitor } = await post<MonitorAnswer>('/monitors', body);
    setName('');
    setSchedule('');
    setUrls('');
    onCreated(monitor);
  });

  return (
    <section class="card">
      <h2 id={headingId}>Create a monitor</h2>
      <form class="stack" aria-labelledby={headingId} onSubmit={(event) => void submit(event)}>
        <TextField label="Monitor name" value={name} onValue={setName} required />
        <TextField
          label="Schedule"
          value={schedule}
          onValue={setSchedule}
          placeholder="every 1 hour"
          hint="In words: “every 30 minutes”, “hourly”, “daily at 9am”, “weekly on monday at 08:30”."
          required
        />
        <TextArea label="URLs (one per line)" value={urls} onValue={setUrls} rows={4} required />
        <KeySelect keys={keys} value={apiKeyId} onValue={setApiKeyId} />
        <ErrorAlert error={error} />
        <button type="submit" class="primary" disabled={!apiKeyId} aria-disabled={busy || undefined}>
          Create monitor
        </button>
      </form>
    </section>
  );
}
