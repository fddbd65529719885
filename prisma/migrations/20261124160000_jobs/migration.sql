-- One word for a job of any kind (issue 23): the crawl and crawl_url tables hold crawls and batch
-- scrapes alike, so they become job and job_url, and crawl_id becomes job_id. Renames only: no row
-- is copied or lost, and every index, constraint and the frontier's sequence keeps its data.
-- Stop the workers and the API before applying it (a process of the previous version reads the old names).

ALTER TABLE "crawl" RENAME TO "job";
ALTER TABLE "crawl_url" RENAME TO "job_url";
ALTER TABLE "job_url" RENAME COLUMN "crawl_id" TO "job_id";
ALTER TABLE "document" RENAME COLUMN "crawl_id" TO "job_id";
ALTER SEQUENCE "crawl_url_id_seq" RENAME TO "job_url_id_seq";

ALTER TABLE "job" RENAME CONSTRAINT "crawl_pkey" TO "job_pkey";
ALTER TABLE "job" RENAME CONSTRAINT "crawl_api_key_id_fkey" TO "job_api_key_id_fkey";
ALTER TABLE "job" RENAME CONSTRAINT "crawl_status_check" TO "job_status_check";
ALTER TABLE "job" RENAME CONSTRAINT "crawl_kind_check" TO "job_kind_check";
ALTER TABLE "job_url" RENAME CONSTRAINT "crawl_url_pkey" TO "job_url_pkey";
ALTER TABLE "job_url" RENAME CONSTRAINT "crawl_url_crawl_id_fkey" TO "job_url_job_id_fkey";
ALTER TABLE "job_url" RENAME CONSTRAINT "crawl_url_status_check" TO "job_url_status_check";
ALTER TABLE "document" RENAME CONSTRAINT "document_crawl_id_fkey" TO "document_job_id_fkey";

ALTER INDEX "crawl_api_key_id_created_at_idx" RENAME TO "job_api_key_id_created_at_idx";
ALTER INDEX "crawl_expires_at_idx" RENAME TO "job_expires_at_idx";
ALTER INDEX "crawl_api_key_id_idempotency_key_key" RENAME TO "job_api_key_id_idempotency_key_key";
ALTER INDEX "crawl_payer_idempotency_key_key" RENAME TO "job_payer_idempotency_key_key";
ALTER INDEX "crawl_url_crawl_id_status_id_idx" RENAME TO "job_url_job_id_status_id_idx";
ALTER INDEX "crawl_url_crawl_id_url_key_key" RENAME TO "job_url_job_id_url_key_key";
ALTER INDEX "document_crawl_id_sequence_key" RENAME TO "document_job_id_sequence_key";
ALTER INDEX "document_crawl_id_url_key_key" RENAME TO "document_job_id_url_key_key";
