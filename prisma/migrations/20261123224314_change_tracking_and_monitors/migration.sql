-- AlterTable
ALTER TABLE "document" ADD COLUMN     "change_tracking" JSONB;

-- CreateTable
CREATE TABLE "page_snapshot" (
    "owner" TEXT NOT NULL,
    "url_key" TEXT NOT NULL,
    "tag" TEXT NOT NULL DEFAULT '',
    "url" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    "status_code" INTEGER,
    "scraped_at" TIMESTAMPTZ(3) NOT NULL,
    "document_id" TEXT,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "page_snapshot_pkey" PRIMARY KEY ("owner","url_key","tag")
);

-- CreateTable
CREATE TABLE "page_change" (
    "id" BIGSERIAL NOT NULL,
    "owner" TEXT NOT NULL,
    "url_key" TEXT NOT NULL,
    "tag" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL,
    "diff" TEXT,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "page_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor" (
    "id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "schedule_text" TEXT,
    "cron" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "targets" JSONB NOT NULL,
    "webhook" JSONB,
    "retention_days" INTEGER NOT NULL,
    "goal" TEXT,
    "judge_enabled" BOOLEAN NOT NULL DEFAULT false,
    "paused_reason" TEXT,
    "last_run_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_check" (
    "id" TEXT NOT NULL,
    "monitor_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "trigger" TEXT NOT NULL,
    "scheduled_for" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "summary" JSONB NOT NULL DEFAULT '{}',
    "target_results" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "judge_skipped" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_check_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_check_page" (
    "id" BIGSERIAL NOT NULL,
    "check_id" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "url_key" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "status_code" INTEGER,
    "error" TEXT,
    "diff" JSONB,
    "snapshot" JSONB,
    "judgment" JSONB,
    "current_scrape_id" TEXT,
    "previous_scrape_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "monitor_check_page_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "page_snapshot_last_seen_at_idx" ON "page_snapshot"("last_seen_at");

-- CreateIndex
CREATE INDEX "page_change_owner_url_key_tag_seen_at_idx" ON "page_change"("owner", "url_key", "tag", "seen_at");

-- CreateIndex
CREATE INDEX "page_change_seen_at_idx" ON "page_change"("seen_at");

-- CreateIndex
CREATE INDEX "monitor_api_key_id_created_at_idx" ON "monitor"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "monitor_check_monitor_id_created_at_idx" ON "monitor_check"("monitor_id", "created_at");

-- CreateIndex
CREATE INDEX "monitor_check_page_check_id_status_id_idx" ON "monitor_check_page"("check_id", "status", "id");

-- AddForeignKey
ALTER TABLE "monitor_check" ADD CONSTRAINT "monitor_check_monitor_id_fkey" FOREIGN KEY ("monitor_id") REFERENCES "monitor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_check_page" ADD CONSTRAINT "monitor_check_page_check_id_fkey" FOREIGN KEY ("check_id") REFERENCES "monitor_check"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Allowed values (Prisma cannot express them in the schema).
ALTER TABLE "page_change" ADD CONSTRAINT "page_change_status_check" CHECK ("status" IN ('new', 'changed', 'removed'));
ALTER TABLE "monitor" ADD CONSTRAINT "monitor_status_check" CHECK ("status" IN ('active', 'paused'));
ALTER TABLE "monitor_check" ADD CONSTRAINT "monitor_check_status_check" CHECK ("status" IN ('queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap'));
ALTER TABLE "monitor_check" ADD CONSTRAINT "monitor_check_trigger_check" CHECK ("trigger" IN ('scheduled', 'manual'));
ALTER TABLE "monitor_check_page" ADD CONSTRAINT "monitor_check_page_status_check" CHECK ("status" IN ('same', 'new', 'changed', 'removed', 'error'));
