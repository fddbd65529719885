/** What a playground run answered. The scraped content is hostile: markdown only through safe.ts, the rest as text. */
import { useMemo } from 'preact/hooks';
import { paths } from '../routes';
import { renderMarkdown } from '../safe';

interface ScrapeAnswer {
  success: boolean;
  data?: { markdown?: string; screenshot?: string; metadata?: { sourceURL?: string; url?: string } };
}
interface MapAnswer {
  success: boolean;
  links?: unknown[];
}
interface CrawlAnswer {
  success: boolean;
  id: string;
  url: string;
}

export type RunResult =
  | { operation: 'scrape'; answer: ScrapeAnswer }
  | { operation: 'map'; answer: MapAnswer }
  | { operation: 'crawl'; answer: CrawlAnswer };

export function PlaygroundResult({ result }: { result: RunResult }) {
  if (result.operation === 'crawl') {
    return (
      <p>
        The crawl started. <a href={paths.job(result.answer.id)}>View crawl</a>
      </p>
    );
  }
  if (result.operation === 'map') {
    const links = (result.answer.links ?? []).map((link) => (typeof link === 'string' ? link : JSON.stringify(link)));
    return (
      <>
        <p>{links.length} links found.</p>
        <ul class="url-list">
          {links.map((link, index) => (
            <li key={index}>{link}</li>
          ))}
        </ul>
      </>
    );
  }
  return <ScrapeResult answer={result.answer} />;
}

/** Screenshots come back as data: URLs from our own browser service; the CSP allows those as images. */
const SCREENSHOT = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/;

function ScrapeResult({ answer }: { answer: ScrapeAnswer }) {
  const data = answer.data;
  const base = data?.metadata?.sourceURL ?? data?.metadata?.url;
  // Headings in the page start at h3, under the "Result" h2.
  const html = useMemo(() => (data?.markdown ? renderMarkdown(data.markdown, { base, headingOffset: 2 }) : ''), [data, base]);
  const screenshot = data?.screenshot && SCREENSHOT.test(data.screenshot) ? data.screenshot : undefined;

  return (
    <>
      {html && <div class="markdown" role="region" aria-label="Rendered markdown" tabIndex={0} dangerouslySetInnerHTML={{ __html: html }} />}
      {screenshot && <img class="screenshot" src={screenshot} alt="Screenshot of the scraped page" />}
      <pre class="code" tabIndex={0} aria-label="Response JSON">
        {JSON.stringify(answer, null, 2)}
      </pre>
    </>
  );
}
