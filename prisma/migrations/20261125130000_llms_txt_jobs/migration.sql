-- llms.txt jobs (issue 25, item 4): one row per POST /v1/llmstxt with the texts once built, and one
-- row per page read, so a retried activity skips what is done.

-- CreateTable
CREATE TABLE "llms_txt_job" (
    "id" TEXT NOT NULL,
    "api_key_id" TEXT,
    "payer" TEXT,
    "url" TEXT NOT NULL,
    "max_urls" INTEGER NOT NULL,
    "show_full_text" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'processing',
    "llmstxt" TEXT,
    "llmsfulltxt" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "llms_txt_job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "llms_txt_page" (
    "job_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "markdown" TEXT,
    "error" TEXT,

    CONSTRAINT "llms_txt_page_pkey" PRIMARY KEY ("job_id","url")
);

-- CreateIndex
CREATE INDEX "llms_txt_job_expires_at_idx" ON "llms_txt_job"("expires_at");

-- AddForeignKey
ALTER TABLE "llms_txt_job" ADD CONSTRAINT "llms_txt_job_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "llms_txt_page" ADD CONSTRAINT "llms_txt_page_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "llms_txt_job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
