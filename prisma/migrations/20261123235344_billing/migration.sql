-- CreateTable
CREATE TABLE "account_billing" (
    "account_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'free',
    "subscription_id" TEXT,
    "customer_id" TEXT,
    "product_id" TEXT,
    "plan_name" TEXT,
    "credits_granted" INTEGER NOT NULL,
    "credits_used" INTEGER NOT NULL DEFAULT 0,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "period_end" TIMESTAMPTZ(3) NOT NULL,
    "cancel_at_period_end" BOOLEAN NOT NULL DEFAULT false,
    "state_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_billing_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "billing_event" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "account_id" TEXT,
    "payload" JSONB NOT NULL,
    "outcome" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "billing_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "account_billing_subscription_id_idx" ON "account_billing"("subscription_id");

-- CreateIndex
CREATE INDEX "billing_event_received_at_idx" ON "billing_event"("received_at");

-- AddForeignKey
ALTER TABLE "account_billing" ADD CONSTRAINT "account_billing_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Allowed values (schema.prisma keeps them as text)
ALTER TABLE "account_billing" ADD CONSTRAINT "account_billing_status_check" CHECK ("status" IN ('free', 'active', 'past_due', 'canceled', 'revoked'));
ALTER TABLE "billing_event" ADD CONSTRAINT "billing_event_outcome_check" CHECK ("outcome" IN ('applied', 'ignored'));
