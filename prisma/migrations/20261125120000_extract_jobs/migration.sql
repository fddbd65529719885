-- Extract jobs (issue 25, item 2): one row per POST /v1|v2/extract, its answer once merged, and one
-- row per page (or chunk of a page) extracted, so a retried activity skips what is done.

-- CreateTable
CREATE TABLE "extract_job" (
    "id" TEXT NOT NULL,
    "api_key_id" TEXT,
    "payer" TEXT,
    "options" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'processing',
    "data" JSONB,
    "sources" JSONB,
    "tokens_used" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "warning" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "extract_job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "extract_page" (
    "extract_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "chunk" INTEGER NOT NULL DEFAULT 0,
    "data" JSONB,
    "error" TEXT,
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "extract_page_pkey" PRIMARY KEY ("extract_id","url","chunk")
);

-- CreateIndex
CREATE INDEX "extract_job_api_key_id_created_at_idx" ON "extract_job"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "extract_job_expires_at_idx" ON "extract_job"("expires_at");

-- AddForeignKey
ALTER TABLE "extract_job" ADD CONSTRAINT "extract_job_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "extract_page" ADD CONSTRAINT "extract_page_extract_id_fkey" FOREIGN KEY ("extract_id") REFERENCES "extract_job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
