/** A job's documents, 20 at a time; choosing one opens it below the list. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, seg } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { formatNumber } from '../format';
import type { Doc, DocumentsAnswer } from '../types';
import { useResource } from '../use-resource';
import { DocumentView, documentTitle } from './document-view';

const PAGE_SIZE = 20;

export function JobDocuments({ jobId, completed }: { jobId: string; completed: number }) {
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<Doc | null>(null);
  const docs = useResource(
    (signal) => get<DocumentsAnswer>(`/jobs/${seg(jobId)}/documents?offset=${offset}&limit=${PAGE_SIZE}`, signal),
    [jobId, offset],
  );

  // New pages arrive while the job runs; re-read the list in place (no flash of "Loading").
  const seen = useRef(completed);
  useEffect(() => {
    if (seen.current === completed) return;
    seen.current = completed;
    docs.reload();
  }, [completed]);

  const total = docs.data?.total ?? 0;
  const shown = docs.data?.documents ?? [];

  return (
    <section>
      <h2>Documents</h2>
      <ErrorAlert error={docs.error} />
      {!docs.data && docs.loading && <Loading what="documents" />}
      {docs.data && total === 0 && <p>No documents yet.</p>}
      {shown.length > 0 && (
        <>
          <p>
            Documents {formatNumber(offset + 1)}–{formatNumber(offset + shown.length)} of {formatNumber(total)}
          </p>
          <ol class="doc-list" start={offset + 1}>
            {shown.map((doc) => (
              <li key={doc.id}>
                <button
                  type="button"
                  class="link-button"
                  aria-current={selected?.id === doc.id ? 'true' : undefined}
                  onClick={() => setSelected(doc)}
                >
                  {documentTitle(doc)}
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
      {total > 0 && (
        <div class="pager">
          <button type="button" aria-disabled={offset === 0 || undefined} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Previous
          </button>
          <button
            type="button"
            aria-disabled={offset + PAGE_SIZE >= total || undefined}
            onClick={() => offset + PAGE_SIZE < total && setOffset(offset + PAGE_SIZE)}
          >
            Next
          </button>
        </div>
      )}
      {selected && <DocumentView key={selected.id} doc={selected} />}
    </section>
  );
}
