-- AlterTable
ALTER TABLE "crawl" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'crawl',
ADD COLUMN     "robots_blocked" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "crawl_url" ADD COLUMN     "error_code" TEXT,
ADD COLUMN     "failed_at" TIMESTAMPTZ(3);

-- Allowed values (Prisma cannot express them in the schema).
ALTER TABLE "crawl" ADD CONSTRAINT "crawl_kind_check" CHECK ("kind" IN ('crawl', 'batch_scrape'));
