/**
 * `AbortSignal.timeout(ms)` that is safe inside `AbortSignal.any([...])`. On Node 20 a timeout
 * signal whose only holder is a composite signal may be garbage-collected before it fires, so the
 * composite never aborts (nodejs/node#57736): a budget that silently stops being enforced. Here the
 * pending timer holds the controller, so the signal lives until it fires. The timer is unref'd: it
 * never keeps a process alive on its own.
 */
export function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException(`The operation timed out after ${ms} ms`, 'TimeoutError')), ms).unref();
  return controller.signal;
}
