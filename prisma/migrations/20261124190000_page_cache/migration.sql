-- The page cache (issue 24): a stored scrape result is found again by its cache key.
ALTER TABLE "document" ADD COLUMN "cache_key" TEXT;
CREATE INDEX "document_cache_key_created_at_idx" ON "document"("cache_key", "created_at" DESC);
