-- AlterTable
ALTER TABLE "crawl" ADD COLUMN     "idempotency_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "crawl_api_key_id_idempotency_key_key" ON "crawl"("api_key_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "crawl_payer_idempotency_key_key" ON "crawl"("payer", "idempotency_key");
