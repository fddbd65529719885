-- AlterTable
ALTER TABLE "crawl" ADD COLUMN     "crawl_delay_ms" INTEGER,
ADD COLUMN     "robots_txt" TEXT;
