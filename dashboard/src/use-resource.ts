/** Loads data for a page, reloads on demand, and polls while the data says work is still running. */
import { useEffect, useRef, useState } from 'preact/hooks';

/** How often a page re-reads a running crawl, batch scrape or monitor check. */
export const POLL_MS = 2000;

export interface Resource<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload: () => void;
}

interface State<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
}

/**
 * `load` runs again whenever `deps` change (its earlier answer is dropped then) or `reload()` is
 * called, and every POLL_MS while `pollWhile(data)` holds. A failed poll keeps the last data and
 * stops polling, so an outage does not hammer the API; the page shows the error.
 */
export function useResource<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
  pollWhile?: (data: T) => boolean,
): Resource<T> {
  const [state, setState] = useState<State<T>>({ data: undefined, error: undefined, loading: true });
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(deps);
  const lastKey = useRef(key);

  useEffect(() => {
    if (lastKey.current !== key) {
      lastKey.current = key;
      setState({ data: undefined, error: undefined, loading: true });
    }
    const controller = new AbortController();
    let timer: number | undefined;
    const run = async (): Promise<void> => {
      try {
        const data = await load(controller.signal);
        if (controller.signal.aborted) return;
        setState({ data, error: undefined, loading: false });
        if (pollWhile?.(data)) timer = window.setTimeout(() => void run(), POLL_MS);
      } catch (error) {
        if (controller.signal.aborted) return;
        const failure = error instanceof Error ? error : new Error(String(error));
        setState((previous) => ({ data: previous.data, error: failure, loading: false }));
      }
    };
    void run();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [key, version]);

  return { ...state, reload: () => setVersion((v) => v + 1) };
}
