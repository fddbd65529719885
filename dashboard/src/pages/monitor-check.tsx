/** One monitor check: each page's status, and the diff of every page that changed (as text). */
import { get, seg } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { DataTable } from '../components/data-table';
import { ExternalUrl } from '../components/external-url';
import { PageTitle } from '../components/page-title';
import { formatDate, formatNumber, humanize } from '../format';
import { paths } from '../routes';
import type { CheckAnswer, CheckPage } from '../types';
import { useResource } from '../use-resource';
import { checkRunning } from './monitor-detail';

interface Props {
  id: string;
  checkId: string;
}

export function MonitorCheckPage({ id, checkId }: Props) {
  const result = useResource(
    (signal) => get<CheckAnswer>(`/monitors/${seg(id)}/checks/${seg(checkId)}`, signal),
    [id, checkId],
    (data) => checkRunning(data.check),
  );
  const check = result.data?.check;
  const diffs = result.data?.pages.filter((page) => page.diff) ?? [];

  return (
    <>
      <PageTitle title={check?.startedAt ? `Check of ${formatDate(check.startedAt)}` : 'Check'} />
      <p>
        <a href={paths.monitor(id)}>Back to the monitor</a>
      </p>
      <ErrorAlert error={result.error} />
      {!result.data && result.loading && <Loading what="the check" />}
      {check && (
        <dl class="summary">
          <dt>Status</dt>
          <dd>{humanize(check.status)}</dd>
          <dt>Trigger</dt>
          <dd>{humanize(check.trigger)}</dd>
          <dt>Started</dt>
          <dd>{formatDate(check.startedAt)}</dd>
          <dt>Finished</dt>
          <dd>{formatDate(check.finishedAt)}</dd>
          <dt>Pages</dt>
          <dd>{formatNumber(check.summary.totalPages)}</dd>
        </dl>
      )}
      {result.data && (
        <>
          <h2>Pages</h2>
          <DataTable
            caption="Pages in this check"
            hideCaption
            headers={['URL', 'Status']}
            empty="No pages in this check."
            rows={result.data.pages.map((page, index) => (
              <tr key={index}>
                <td class="url-cell">
                  <ExternalUrl url={page.url} />
                </td>
                <td>{humanize(page.status)}</td>
              </tr>
            ))}
          />
          <h2>Changes</h2>
          {diffs.length ? diffs.map((page, index) => <Diff key={index} page={page} />) : <p>No page changed.</p>}
        </>
      )}
    </>
  );
}

/** A unified diff, coloured by line; every line stays plain text. */
function Diff({ page }: { page: CheckPage }) {
  const lines = (page.diff ?? '').replace(/\n$/, '').split('\n');
  return (
    <section class="diff-block">
      <h3 class="url">{page.url}</h3>
      <pre class="code diff" tabIndex={0} aria-label={`Diff of ${page.url}`}>
        {lines.map((line, index) => (
          <span key={index} class={lineClass(line)}>
            {line}
            {'\n'}
          </span>
        ))}
      </pre>
    </section>
  );
}

function lineClass(line: string): string | undefined {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-file';
  if (line.startsWith('@@')) return 'diff-hunk';
  if (line.startsWith('+')) return 'diff-add';
  if (line.startsWith('-')) return 'diff-remove';
  return undefined;
}
