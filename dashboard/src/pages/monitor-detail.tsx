/** One monitor: its settings and check history, refreshed while a check is queued or running. */
import { get, seg } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { DataTable } from '../components/data-table';
import { PageTitle } from '../components/page-title';
import { formatDate, formatNumber, humanize } from '../format';
import { paths } from '../routes';
import type { Check, ChecksAnswer, MonitorsAnswer } from '../types';
import { useResource } from '../use-resource';

export const checkRunning = (check: Check): boolean => check.status === 'queued' || check.status === 'running';

export function MonitorDetailPage({ id }: { id: string }) {
  // There is no GET /monitors/:id; the list is small (one account's monitors).
  const monitor = useResource(
    (signal) => get<MonitorsAnswer>('/monitors', signal).then((answer) => answer.monitors.find((m) => m.id === id) ?? null),
    [id],
  );
  const checks = useResource(
    (signal) => get<ChecksAnswer>(`/monitors/${seg(id)}/checks`, signal),
    [id],
    (data) => data.checks.some(checkRunning),
  );
  const found = monitor.data;

  return (
    <>
      <PageTitle title={found ? `Monitor: ${found.name}` : 'Monitor'} />
      <p>
        <a href={paths.monitors}>All monitors</a>
      </p>
      <ErrorAlert error={monitor.error} />
      {monitor.data === null && <p role="alert">This monitor does not exist or was deleted.</p>}
      {found && (
        <dl class="summary">
          <dt>Status</dt>
          <dd>{humanize(found.status)}</dd>
          <dt>Schedule</dt>
          <dd>{found.schedule}</dd>
          <dt>Last run</dt>
          <dd>{formatDate(found.lastRunAt)}</dd>
          <dt>Next run</dt>
          <dd>{found.status === 'paused' ? 'Paused' : formatDate(found.nextRunAt)}</dd>
          <dt>Created</dt>
          <dd>{formatDate(found.createdAt)}</dd>
        </dl>
      )}
      <h2>Check history</h2>
      <ErrorAlert error={checks.error} />
      {checks.data ? (
        <DataTable
          caption="Check history"
          hideCaption
          headers={['Started', 'Status', 'Trigger', 'Same', 'Changed', 'New', 'Removed', 'Errors']}
          empty="No checks yet."
          rows={checks.data.checks.map((check) => (
            <tr key={check.id}>
              <td>
                <a href={paths.check(id, check.id)}>{check.startedAt ? formatDate(check.startedAt) : 'Not started'}</a>
              </td>
              <td>{humanize(check.status)}</td>
              <td>{humanize(check.trigger)}</td>
              <td>{formatNumber(check.summary.same)}</td>
              <td>{formatNumber(check.summary.changed)}</td>
              <td>{formatNumber(check.summary.new)}</td>
              <td>{formatNumber(check.summary.removed)}</td>
              <td>{formatNumber(check.summary.error)}</td>
            </tr>
          ))}
        />
      ) : (
        checks.loading && <Loading what="checks" />
      )}
    </>
  );
}
