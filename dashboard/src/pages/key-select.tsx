/** The "API key" select over active keys, with a way out when there are none. */
import { useEffect } from 'preact/hooks';
import { ErrorAlert } from '../components/alert';
import { SelectField } from '../components/fields';
import { paths } from '../routes';
import type { ApiKey } from '../types';
import type { Resource } from '../use-resource';

interface Props {
  keys: Resource<ApiKey[]>;
  value: string;
  onValue: (id: string) => void;
}

export function KeySelect({ keys, value, onValue }: Props) {
  const active = keys.data ?? [];
  // Preselect the first key once the list arrives, so the common case needs no choice.
  useEffect(() => {
    if (!value && active.length) onValue(active[0].id);
  }, [keys.data]);

  return (
    <>
      <SelectField label="API key" value={value} onValue={onValue} required disabled={!active.length}>
        {active.map((key) => (
          <option key={key.id} value={key.id}>
            {key.name} ({key.prefix})
          </option>
        ))}
      </SelectField>
      <ErrorAlert error={keys.error} />
      {keys.data && !active.length && (
        <p class="hint">
          No active API keys. <a href={paths.keys}>Create a key</a> first.
        </p>
      )}
    </>
  );
}
