-- CreateTable
CREATE TABLE "x402_payment" (
    "id" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'verified',
    "transaction" TEXT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "x402_payment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "x402_payment_created_at_idx" ON "x402_payment"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "x402_payment_payer_nonce_key" ON "x402_payment"("payer", "nonce");

-- Status values (not expressible in schema.prisma; see prisma/client.ts)
ALTER TABLE "x402_payment" ADD CONSTRAINT "x402_payment_status_check" CHECK ("status" IN ('verified', 'settled', 'not_charged', 'settle_failed'));
