/**
 * URL keys a worker knows are in a crawl's frontier (`job_url`), so the links its lanes find to
 * them are not sent to PostgreSQL again: on most sites nearly every link of a page is navigation
 * that the crawl admitted long ago, and each one sent costs a lookup by URL key in every batch store
 * (README "How far one PostgreSQL frontier goes"). A running crawl's URLs are never removed, so a key
 * learnt stays true; the set only learns what a store proved: the URLs of its batch, and the links of
 * the pages it stored when every link offered is now in the frontier (none left out by the limit or
 * by the credits). Bounded: past MAX_KEYS a crawl's set starts again, and only the crawls used last
 * are kept.
 */
/** At most ~2 MB a crawl (a key and its set entry take about 100 bytes), ~64 MB in all. */
const MAX_KEYS = 20_000;
/** A worker runs lanes of a few crawls at a time (README "Page lanes"). */
const MAX_CRAWLS = 32;

export class KnownUrls {
  private readonly crawls = new Map<string, Set<string>>();

  has(crawlId: string, urlKey: string): boolean {
    return this.crawls.get(crawlId)?.has(urlKey) ?? false;
  }

  learn(crawlId: string, urlKeys: Iterable<string>): void {
    let keys = this.crawls.get(crawlId);
    // Most recently used last: the first entry is the one to let go.
    if (keys) this.crawls.delete(crawlId);
    else {
      keys = new Set();
      if (this.crawls.size >= MAX_CRAWLS) this.crawls.delete(this.crawls.keys().next().value!);
    }
    this.crawls.set(crawlId, keys);
    for (const key of urlKeys) {
      if (keys.size >= MAX_KEYS) keys.clear();
      keys.add(key);
    }
  }
}
