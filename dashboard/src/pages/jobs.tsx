/** Crawls and batch scrapes: the newest 100 of one kind, refreshed while any is still running. */
import { get } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { DataTable } from '../components/data-table';
import { PageTitle } from '../components/page-title';
import { formatDate, formatNumber, humanize } from '../format';
import { paths } from '../routes';
import type { JobKind, JobsAnswer } from '../types';
import { useResource } from '../use-resource';

const titles: Record<JobKind, { title: string; noun: string }> = {
  crawl: { title: 'Crawls', noun: 'crawls' },
  batch_scrape: { title: 'Batch scrapes', noun: 'batch scrapes' },
};

export function JobsPage({ kind }: { kind: JobKind }) {
  const { title, noun } = titles[kind];
  const jobs = useResource(
    (signal) => get<JobsAnswer>(`/jobs?kind=${kind}`, signal),
    [kind],
    (data) => data.jobs.some((job) => job.status === 'scraping'),
  );

  return (
    <>
      <PageTitle title={title} />
      <p>The newest 100 {noun} started with this account’s keys or in the playground. Running ones update by themselves.</p>
      <ErrorAlert error={jobs.error} />
      {jobs.data ? (
        <DataTable
          caption={title}
          hideCaption
          headers={['URL', 'Status', 'Progress', 'Failed', 'Credits', 'Started']}
          empty={`No ${noun} yet.`}
          rows={jobs.data.jobs.map((job) => (
            <tr key={job.id}>
              <td class="url-cell">
                <a href={paths.job(job.id)}>{job.url}</a>
              </td>
              <td>{humanize(job.status)}</td>
              <td>
                {formatNumber(job.completed)} / {formatNumber(job.total)}
              </td>
              <td>{formatNumber(job.failed)}</td>
              <td>{formatNumber(job.creditsUsed)}</td>
              <td>{formatDate(job.createdAt)}</td>
            </tr>
          ))}
        />
      ) : (
        jobs.loading && <Loading what={noun} />
      )}
    </>
  );
}
