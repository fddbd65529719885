/** Activity: the account's recent API requests, newest first. */
import { get } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { DataTable } from '../components/data-table';
import { PageTitle } from '../components/page-title';
import { formatDate, formatNumber } from '../format';
import type { ActivityAnswer } from '../types';
import { useResource } from '../use-resource';

export function ActivityPage() {
  const activity = useResource((signal) => get<ActivityAnswer>('/activity', signal), []);

  return (
    <>
      <PageTitle title="Activity" />
      <p>Recent requests made with this account’s API keys, newest first.</p>
      <ErrorAlert error={activity.error} />
      {activity.data ? (
        <DataTable
          caption="Recent API requests"
          hideCaption
          headers={['Time', 'Method', 'Endpoint', 'Status', 'Duration (ms)', 'Credits', 'Key']}
          empty="No requests yet."
          rows={activity.data.entries.map((entry, index) => (
            <tr key={index}>
              <td>{formatDate(entry.at)}</td>
              <td>{entry.method}</td>
              <td>
                <code>{entry.path}</code>
              </td>
              <td>{entry.status}</td>
              <td>{formatNumber(entry.durationMs)}</td>
              <td>{formatNumber(entry.credits)}</td>
              <td>{entry.keyPrefix ? <code>{entry.keyPrefix}</code> : '—'}</td>
            </tr>
          ))}
        />
      ) : (
        activity.loading && <Loading what="activity" />
      )}
    </>
  );
}
