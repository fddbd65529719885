/**
 * The crawl benchmark's baseline, in a process of its own: Crawlee's CheerioCrawler crawling the
 * fixture site with our markdown conversion (`processPage` from core/html, formats markdown +
 * links) on every page, the page's links (from processPage) enqueued within a glob of the site
 * folder, results pushed to an in-memory Dataset. Storage is in memory only (`persistStorage:
 * false`, and a throwaway data directory in case anything were written). The crawl is bounded by
 * the glob, not `maxRequestsPerCrawl`, which stalls the end of a crawl (shared/DEPENDENCY-NOTES.md).
 *
 * Forked by bench/crawl.ts with a JSON `BaselineRequest` as its argument; it runs each crawl in
 * turn (a warm-up, then the measured one) and sends one `BaselineReport` per crawl (printed as
 * JSON when run by hand, e.g. `node --cpu-prof --import tsx bench/crawl-baseline.ts '<request>'`
 * against `node --import tsx bench/crawl-site.ts /site/:2000 /warm/:100`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { processPage } from '../core/html/index.js';

export interface BaselineCrawl {
  label: string;
  seed: string;
  /** Only links matching this glob are enqueued, e.g. `http://127.0.0.1:1234/site/**`. */
  glob: string;
}

export interface BaselineRequest {
  crawls: BaselineCrawl[];
  /** maxConcurrency, and minConcurrency too: the crawl runs at a fixed concurrency like ours. */
  concurrency: number;
  /** processPage's onlyMainContent, as our side is asked for. */
  onlyMainContent: boolean;
}

export interface BaselineReport {
  type: 'crawl';
  label: string;
  /** From `crawler.run()` being called to it returning, ms. */
  wallMs: number;
  pages: number;
  /** Distinct URLs among the pages pushed to the dataset. */
  distinct: number;
  failed: number;
  /** Sum of markdown lengths, characters (proof the conversion ran). */
  markdownChars: number;
  /** CPU of this process during the crawl (user + system, all threads), ms. */
  cpuMs: number;
  /** Peak RSS of this process so far (getrusage ru_maxrss), KiB. */
  maxRssKiB: number;
}

async function runCrawl(crawl: BaselineCrawl, concurrency: number, onlyMainContent: boolean, storageDir: string): Promise<BaselineReport> {
  // A Configuration per crawl: its own in-memory request queue and dataset.
  const config = new Configuration({ persistStorage: false, purgeOnStart: true, storageClientOptions: { localDataDirectory: storageDir, persistStorage: false } });
  let markdownChars = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestRetries: 2,
      async requestHandler({ request, body, contentType, enqueueLinks, pushData }) {
        const url = request.loadedUrl ?? request.url;
        const page = await processPage({ body, contentType: `${contentType.type}; charset=${contentType.encoding}`, url, formats: new Set(['markdown', 'links']), onlyMainContent });
        markdownChars += page.markdown?.length ?? 0;
        await enqueueLinks({ urls: page.links ?? [], globs: [crawl.glob] });
        await pushData({ url, markdown: page.markdown });
      },
    },
    config,
  );
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const stats = await crawler.run([crawl.seed]);
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const { items } = await (await crawler.getDataset()).getData({ limit: 1_000_000 });
  const urls = items.map((item) => String(item.url));
  await crawler.teardown();
  return {
    type: 'crawl',
    label: crawl.label,
    wallMs,
    pages: urls.length,
    distinct: new Set(urls).size,
    failed: stats.requestsFailed,
    markdownChars,
    cpuMs: (cpu.user + cpu.system) / 1000,
    maxRssKiB: process.resourceUsage().maxRSS,
  };
}

const request = JSON.parse(process.argv[2] ?? '{}') as BaselineRequest;
if (!request.crawls?.length || !(request.concurrency >= 1)) throw new Error('crawl-baseline: expects a JSON BaselineRequest argument (bench/crawl.ts forks it)');
log.setLevel(log.LEVELS.WARNING);
const storageDir = mkdtempSync(join(tmpdir(), 'pagewright-crawlee-'));
try {
  for (const crawl of request.crawls) {
    const report = await runCrawl(crawl, request.concurrency, request.onlyMainContent, storageDir);
    // Run by hand (no IPC channel, e.g. under --cpu-prof): print the report instead.
    if (!process.send) console.log(JSON.stringify(report));
    else await new Promise<void>((resolve, reject) => process.send!(report, (err: Error | null) => (err ? reject(err) : resolve())));
  }
} finally {
  rmSync(storageDir, { recursive: true, force: true });
}
process.exit(0);
