-- CreateTable
CREATE TABLE "api_key" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl" (
    "id" TEXT NOT NULL,
    "api_key_id" TEXT,
    "payer" TEXT,
    "url" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'scraping',
    "error" TEXT,
    "total" INTEGER NOT NULL DEFAULT 0,
    "completed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "credits_used" INTEGER NOT NULL DEFAULT 0,
    "skipped" JSONB NOT NULL DEFAULT '{}',
    "discovery_done" BOOLEAN NOT NULL DEFAULT false,
    "next_sequence" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),

    CONSTRAINT "crawl_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "crawl_url" (
    "id" BIGSERIAL NOT NULL,
    "crawl_id" TEXT NOT NULL,
    "url_key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "discovery_depth" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "crawl_url_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document" (
    "id" TEXT NOT NULL,
    "crawl_id" TEXT,
    "sequence" INTEGER,
    "url_key" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "markdown" TEXT,
    "html" TEXT,
    "raw_html" TEXT,
    "links" JSONB,
    "screenshot" BYTEA,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "extract" JSONB,
    "warning" TEXT,
    "status_code" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "document_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_key_hash_key" ON "api_key"("hash");

-- CreateIndex
CREATE INDEX "crawl_api_key_id_created_at_idx" ON "crawl"("api_key_id", "created_at");

-- CreateIndex
CREATE INDEX "crawl_expires_at_idx" ON "crawl"("expires_at");

-- CreateIndex
CREATE INDEX "crawl_url_crawl_id_status_id_idx" ON "crawl_url"("crawl_id", "status", "id");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_url_crawl_id_url_key_key" ON "crawl_url"("crawl_id", "url_key");

-- CreateIndex
CREATE INDEX "document_expires_at_idx" ON "document"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "document_crawl_id_sequence_key" ON "document"("crawl_id", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "document_crawl_id_url_key_key" ON "document"("crawl_id", "url_key");

-- AddForeignKey
ALTER TABLE "crawl" ADD CONSTRAINT "crawl_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "crawl_url" ADD CONSTRAINT "crawl_url_crawl_id_fkey" FOREIGN KEY ("crawl_id") REFERENCES "crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document" ADD CONSTRAINT "document_crawl_id_fkey" FOREIGN KEY ("crawl_id") REFERENCES "crawl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddCheckConstraint (status values; Prisma cannot express these, prisma/client.ts mirrors them as types)
ALTER TABLE "crawl" ADD CONSTRAINT "crawl_status_check" CHECK ("status" IN ('scraping', 'completed', 'failed', 'cancelled'));

-- AddCheckConstraint
ALTER TABLE "crawl_url" ADD CONSTRAINT "crawl_url_status_check" CHECK ("status" IN ('queued', 'claimed', 'done', 'failed', 'dropped'));
