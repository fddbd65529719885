-- AlterTable
ALTER TABLE "crawl" ADD COLUMN     "resume_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "crawl_url" ADD COLUMN     "page_event_sent" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "retry_at" TIMESTAMPTZ(3),
ADD COLUMN     "throttles" INTEGER NOT NULL DEFAULT 0;
