/** One crawl or batch scrape: progress, skips, errors, robots.txt blocks, and its documents. */
import { useState } from 'preact/hooks';
import { get, post, seg } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { DataTable } from '../components/data-table';
import { ExternalUrl } from '../components/external-url';
import { PageTitle } from '../components/page-title';
import { formatDate, formatNumber, humanize, kindName } from '../format';
import { safeHref } from '../safe';
import type { JobDetail, JobDetailAnswer } from '../types';
import { useResource } from '../use-resource';
import { JobDocuments } from './job-documents';

export function JobDetailPage({ id }: { id: string }) {
  const job = useResource(
    (signal) => get<JobDetailAnswer>(`/jobs/${seg(id)}`, signal).then((answer) => answer.job),
    [id],
    (data) => data.status === 'scraping',
  );
  const data = job.data;
  const title = data ? `${kindName(data.kind)}: ${data.url}` : 'Job';

  return (
    <>
      <PageTitle title={title} />
      <ErrorAlert error={job.error} />
      {data ? <JobBody job={data} onChanged={job.reload} /> : job.loading && <Loading what="the job" />}
    </>
  );
}

function JobBody({ job, onChanged }: { job: JobDetail; onChanged: () => void }) {
  const [cancelling, setCancelling] = useState(false);
  const [cancelError, setCancelError] = useState<unknown>(null);
  const temporal = safeHref(job.temporalUrl);
  const skipped = Object.entries(job.skipped);

  const cancel = async () => {
    if (cancelling) return;
    setCancelling(true);
    setCancelError(null);
    try {
      await post(`/jobs/${seg(job.id)}/cancel`);
      onChanged();
    } catch (failure) {
      setCancelError(failure);
    } finally {
      setCancelling(false);
    }
  };

  return (
    <>
      <div class="toolbar">
        {job.status === 'scraping' && (
          <button
            type="button"
            class="danger"
            aria-label={`Cancel ${kindName(job.kind).toLowerCase()}`}
            aria-disabled={cancelling || undefined}
            onClick={() => void cancel()}
          >
            Cancel
          </button>
        )}
        {temporal && (
          <a href={temporal} target="_blank" rel="noopener noreferrer">
            Open in Temporal UI
          </a>
        )}
      </div>
      <ErrorAlert error={cancelError} />

      <section>
        <h2>Summary</h2>
        <dl class="summary">
          <dt>Status</dt>
          <dd>{humanize(job.status)}</dd>
          <dt>Total</dt>
          <dd>{formatNumber(job.total)}</dd>
          <dt>Completed</dt>
          <dd>{formatNumber(job.completed)}</dd>
          <dt>Failed</dt>
          <dd>{formatNumber(job.failed)}</dd>
          <dt>Credits</dt>
          <dd>{formatNumber(job.creditsUsed)}</dd>
          <dt>Started</dt>
          <dd>{formatDate(job.createdAt)}</dd>
          <dt>API key</dt>
          <dd>{job.apiKeyPrefix ? <code>{job.apiKeyPrefix}</code> : '—'}</dd>
        </dl>
        {job.error && (
          <p class="alert-static">
            <strong>Error:</strong> {job.error}
          </p>
        )}
      </section>

      <section>
        <h2>Skipped pages</h2>
        <DataTable
          caption="Skipped pages by reason"
          hideCaption
          headers={['Reason', 'Pages']}
          empty="No pages were skipped."
          rows={skipped.map(([reason, count]) => (
            <tr key={reason}>
              <td>{humanize(reason)}</td>
              <td>{formatNumber(count)}</td>
            </tr>
          ))}
        />
      </section>

      <section>
        <h2>Errors</h2>
        <DataTable
          caption="Pages that failed"
          hideCaption
          headers={['URL', 'Code', 'Error']}
          empty="No errors."
          rows={job.errors.map((failure, index) => (
            <tr key={index}>
              <td class="url-cell">
                <ExternalUrl url={failure.url} />
              </td>
              <td>
                <code>{failure.code}</code>
              </td>
              <td>{failure.error}</td>
            </tr>
          ))}
        />
      </section>

      <section>
        <h2>Blocked by robots.txt</h2>
        {job.robotsBlocked.length ? (
          <ul class="url-list">
            {job.robotsBlocked.map((url, index) => (
              <li key={index}>
                <ExternalUrl url={url} />
              </li>
            ))}
          </ul>
        ) : (
          <p>No pages were blocked by robots.txt.</p>
        )}
      </section>

      <JobDocuments jobId={job.id} completed={job.completed} />
    </>
  );
}
