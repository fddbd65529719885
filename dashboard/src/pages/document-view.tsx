/**
 * One scraped document. Everything in it is hostile: title, URL, links and JSON render as text;
 * the markdown only through safe.ts.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import { ExternalUrl } from '../components/external-url';
import { ToggleGroup } from '../components/toggle-group';
import { renderMarkdown } from '../safe';
import type { Doc } from '../types';

export const documentTitle = (doc: Doc): string => doc.title?.trim() || doc.url || 'Untitled page';

const views = [
  { value: 'rendered', label: 'Rendered' },
  { value: 'json', label: 'JSON' },
] as const;

export function DocumentView({ doc }: { doc: Doc }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [view, setView] = useState<'rendered' | 'json'>('rendered');
  // Headings in the page start at h4, under this panel's h3, so the dashboard keeps one h1.
  const html = useMemo(() => renderMarkdown(doc.markdown ?? '', { base: doc.url, headingOffset: 3 }), [doc]);

  // The panel opens below the list: take the reader there.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section class="card document" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {documentTitle(doc)}
      </h3>
      <p class="url-line">
        <ExternalUrl url={doc.url} />
        {doc.statusCode !== null && <span class="muted"> · HTTP {doc.statusCode}</span>}
      </p>
      {doc.description && <p>{doc.description}</p>}
      <ToggleGroup label="Document view" options={views} value={view} onChange={setView} />
      {view === 'rendered' ? (
        doc.markdown ? (
          <div class="markdown" role="region" aria-label="Rendered markdown" tabIndex={0} dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <div class="markdown" role="region" aria-label="Rendered markdown">
            <p>This page has no markdown.</p>
          </div>
        )
      ) : (
        <pre class="code" tabIndex={0} aria-label="Document JSON">
          {JSON.stringify(doc, null, 2)}
        </pre>
      )}
      <h4>Links on the page</h4>
      {doc.links.length ? (
        <ul class="url-list">
          {doc.links.map((link, index) => (
            <li key={index}>
              <ExternalUrl url={link} />
            </li>
          ))}
        </ul>
      ) : (
        <p>No links.</p>
      )}
    </section>
  );
}
