-- CreateTable
CREATE TABLE "credit_hold" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "credit_hold_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "credit_hold_account_id_expires_at_idx" ON "credit_hold"("account_id", "expires_at");

-- AddForeignKey
ALTER TABLE "credit_hold" ADD CONSTRAINT "credit_hold_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
