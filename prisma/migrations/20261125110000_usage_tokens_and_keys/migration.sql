-- Usage endpoints (issue 25, item 6): LLM tokens per account and day, when the account last stored
-- a page (queue status's mostRecentSuccess), and pages and tokens per API key and day (historical
-- usage by key). Per-key counts start with this migration; earlier pages stay counted per account.
ALTER TABLE "usage_day" ADD COLUMN "tokens" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "usage_day" ADD COLUMN "last_page_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "usage_key_day" (
    "api_key_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "pages" INTEGER NOT NULL DEFAULT 0,
    "tokens" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_key_day_pkey" PRIMARY KEY ("api_key_id","day")
);

-- AddForeignKey
ALTER TABLE "usage_key_day" ADD CONSTRAINT "usage_key_day_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_key"("id") ON DELETE CASCADE ON UPDATE CASCADE;
