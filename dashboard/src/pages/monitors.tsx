/** Monitors: create one, run it now, pause or resume it, delete it after confirmation. */
import { useState } from 'preact/hooks';
import { del, get, post, seg } from '../api';
import { ErrorAlert, Loading, StatusMessage } from '../components/alert';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { PageTitle } from '../components/page-title';
import { formatDate, humanize } from '../format';
import { paths } from '../routes';
import type { Monitor, MonitorsAnswer } from '../types';
import { useResource } from '../use-resource';
import { MonitorForm } from './monitor-form';

export function MonitorsPage() {
  const monitors = useResource((signal) => get<MonitorsAnswer>('/monitors', signal), []);
  const [deleting, setDeleting] = useState<Monitor | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const act = async (monitor: Monitor, action: 'run' | 'pause' | 'resume') => {
    if (busyId) return;
    setBusyId(monitor.id);
    setError(null);
    setStatus(null);
    try {
      await post(`/monitors/${seg(monitor.id)}/${action}`);
      const done = { run: 'A check started for', pause: 'Paused', resume: 'Resumed' }[action];
      setStatus(`${done} “${monitor.name}”.`);
      monitors.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (monitor: Monitor) => {
    await del(`/monitors/${seg(monitor.id)}`);
    setStatus(`Deleted “${monitor.name}”.`);
    monitors.reload();
  };

  return (
    <>
      <PageTitle title="Monitors" />
      <p>A monitor checks its URLs on a schedule and records what changed since the last check.</p>
      <MonitorForm
        onCreated={(monitor) => {
          setStatus(`Created “${monitor.name}”.`);
          monitors.reload();
        }}
      />
      <StatusMessage message={status} />
      <ErrorAlert error={error ?? monitors.error} />
      {monitors.data ? (
        <DataTable
          caption="Monitors in this account"
          headers={['Name', 'Status', 'Schedule', 'Last run', 'Next run', 'Actions']}
          empty="No monitors yet."
          rows={monitors.data.monitors.map((monitor) => (
            <tr key={monitor.id}>
              <td>
                <a href={paths.monitor(monitor.id)}>{monitor.name}</a>
              </td>
              <td>{humanize(monitor.status)}</td>
              <td>{monitor.schedule}</td>
              <td>{formatDate(monitor.lastRunAt)}</td>
              <td>{monitor.status === 'paused' ? 'Paused' : formatDate(monitor.nextRunAt)}</td>
              <td>
                <div class="row-actions">
                  <button type="button" aria-label={`Run now ${monitor.name}`} aria-disabled={busyId === monitor.id || undefined} onClick={() => void act(monitor, 'run')}>
                    Run now
                  </button>
                  {monitor.status === 'paused' ? (
                    <button type="button" aria-label={`Resume ${monitor.name}`} aria-disabled={busyId === monitor.id || undefined} onClick={() => void act(monitor, 'resume')}>
                      Resume
                    </button>
                  ) : (
                    <button type="button" aria-label={`Pause ${monitor.name}`} aria-disabled={busyId === monitor.id || undefined} onClick={() => void act(monitor, 'pause')}>
                      Pause
                    </button>
                  )}
                  <button type="button" class="danger" aria-label={`Delete ${monitor.name}`} onClick={() => setDeleting(monitor)}>
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        />
      ) : (
        monitors.loading && <Loading what="monitors" />
      )}
      {deleting && (
        <ConfirmDialog title="Delete monitor?" confirmLabel="Delete" onConfirm={() => remove(deleting)} onClose={() => setDeleting(null)}>
          <p>
            The monitor “{deleting.name}” and its schedule are deleted. Its checks stop. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
