/** Usage: pages scraped per day over the last 30 days, as a chart and as a table. */
import { get } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { DataTable } from '../components/data-table';
import { PageTitle } from '../components/page-title';
import { formatDay, formatNumber } from '../format';
import type { UsageAnswer } from '../types';
import { useResource } from '../use-resource';
import { UsageChart } from './usage-chart';

export function UsagePage() {
  const usage = useResource((signal) => get<UsageAnswer>('/usage', signal), []);
  const days = usage.data?.days;
  const total = days?.reduce((sum, day) => sum + day.pages, 0) ?? 0;

  return (
    <>
      <PageTitle title="Usage" />
      <ErrorAlert error={usage.error} />
      {!days && usage.loading && <Loading what="usage" />}
      {days && (
        <>
          <section>
            <h2>Pages per day, last 30 days</h2>
            <p>
              {formatNumber(total)} pages in total.
            </p>
            <UsageChart
              days={days}
              label={`Bar chart of pages per day over the last 30 days: ${formatNumber(total)} pages in total. The table below lists every day.`}
            />
          </section>
          <section>
            <h2>Pages by day</h2>
            <DataTable
              caption="Pages per day, last 30 days"
              hideCaption
              headers={['Day', 'Pages']}
              empty="No usage yet."
              rows={days.map((day) => (
                <tr key={day.day}>
                  <td>{formatDay(day.day)}</td>
                  <td>{formatNumber(day.pages)}</td>
                </tr>
              ))}
            />
          </section>
        </>
      )}
    </>
  );
}
