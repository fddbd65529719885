-- The page cache's index holds only documents with a cache key (scrapes written to the cache). Crawl
-- pages, most documents, have none: each added a (NULL, created_at) entry, all of them on the same
-- leaf pages, to an index no crawl reads. `cache_key = $1` implies the predicate, so the cache's
-- lookup (api/page-cache.ts) uses the index as before.
-- DropIndex
DROP INDEX "document_cache_key_created_at_idx";

-- CreateIndex
CREATE INDEX "document_cache_key_created_at_idx" ON "document"("cache_key", "created_at" DESC) WHERE (cache_key IS NOT NULL);
