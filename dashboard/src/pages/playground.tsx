/** Playground: run a scrape, map or crawl with one of the account's keys, and see the same request as code. */
import { useId, useState } from 'preact/hooks';
import { post } from '../api';
import { ErrorAlert } from '../components/alert';
import { CheckboxField, SelectField, TextField } from '../components/fields';
import { PageTitle } from '../components/page-title';
import { ToggleGroup } from '../components/toggle-group';
import { useActiveKeys } from '../use-active-keys';
import { useSubmit } from '../use-submit';
import { KeySelect } from './key-select';
import { PlaygroundResult, type RunResult } from './playground-result';
import {
  curlSample, javascriptSample, pythonSample, requestBody, scrapeFormats,
  type Operation, type PlaygroundForm, type ScrapeFormat,
} from './playground-request';

const languages = [
  { value: 'curl', label: 'curl', sample: curlSample },
  { value: 'javascript', label: 'JavaScript', sample: javascriptSample },
  { value: 'python', label: 'Python', sample: pythonSample },
] as const;
type Language = (typeof languages)[number]['value'];

export function PlaygroundPage() {
  const keys = useActiveKeys();
  const [apiKeyId, setApiKeyId] = useState('');
  const [operation, setOperation] = useState<Operation>('scrape');
  const [url, setUrl] = useState('');
  const [formats, setFormats] = useState<ScrapeFormat[]>(['markdown']);
  const [onlyMainContent, setOnlyMainContent] = useState(false);
  const [limit, setLimit] = useState('10');
  const [search, setSearch] = useState('');
  const [language, setLanguage] = useState<Language>('curl');
  const [result, setResult] = useState<RunResult | null>(null);
  const requestId = useId();
  const resultId = useId();

  const form: PlaygroundForm = { operation, url, formats, onlyMainContent, limit: Math.max(1, Math.floor(Number(limit)) || 10), search };
  const sample = languages.find((l) => l.value === language)?.sample(form, location.origin) ?? '';

  const toggleFormat = (format: ScrapeFormat, on: boolean) =>
    setFormats(scrapeFormats.filter((f) => (f === format ? on : formats.includes(f))));

  const { busy, error, submit: run } = useSubmit(async () => {
    setResult(null);
    const answer = await post<unknown>(`/playground/${operation}`, { apiKeyId, request: requestBody(form) });
    setResult({ operation, answer } as RunResult);
  });

  return (
    <>
      <PageTitle title="Playground" />
      <p>Try the API with one of your keys. Runs here cost credits like any other request.</p>
      <form class="stack card" aria-label="Playground request" onSubmit={(event) => void run(event)}>
        <SelectField label="Operation" value={operation} onValue={(value) => setOperation(value as Operation)}>
          <option value="scrape">Scrape</option>
          <option value="map">Map</option>
          <option value="crawl">Crawl</option>
        </SelectField>
        <KeySelect keys={keys} value={apiKeyId} onValue={setApiKeyId} />
        <TextField label="URL" type="url" value={url} onValue={setUrl} placeholder="https://example.com" required />
        {operation === 'scrape' && (
          <>
            <fieldset>
              <legend>Formats</legend>
              {scrapeFormats.map((format) => (
                <CheckboxField key={format} label={format} checked={formats.includes(format)} onChecked={(on) => toggleFormat(format, on)} />
              ))}
            </fieldset>
            <CheckboxField label="Only main content" checked={onlyMainContent} onChecked={setOnlyMainContent} />
          </>
        )}
        {operation === 'crawl' && <TextField label="Limit" type="number" min={1} value={limit} onValue={setLimit} hint="The most pages to crawl." />}
        {operation === 'map' && <TextField label="Search" value={search} onValue={setSearch} hint="Optional: order links by relevance to these words." />}
        <button type="submit" class="primary" disabled={!apiKeyId} aria-disabled={busy || undefined}>
          Run
        </button>
      </form>

      <section aria-labelledby={requestId}>
        <h2 id={requestId}>Request</h2>
        <ToggleGroup label="Code sample language" options={languages} value={language} onChange={setLanguage} />
        <pre class="code" tabIndex={0} aria-label={`Request as ${languages.find((l) => l.value === language)?.label}`}>
          <code>{sample}</code>
        </pre>
      </section>

      <section aria-labelledby={resultId} aria-busy={busy}>
        <h2 id={resultId}>Result</h2>
        <ErrorAlert error={error} />
        {result ? <PlaygroundResult result={result} /> : !error && <p class="muted">{busy ? 'Running…' : 'Run a request to see its result here.'}</p>}
      </section>
    </>
  );
}
