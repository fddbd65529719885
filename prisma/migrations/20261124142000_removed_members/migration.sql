-- CreateTable
CREATE TABLE "removed_member" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "oidc_subject" TEXT,
    "removed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "removed_member_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "removed_member_email_idx" ON "removed_member"("email");

-- CreateIndex
CREATE INDEX "removed_member_oidc_subject_idx" ON "removed_member"("oidc_subject");

-- AddForeignKey
ALTER TABLE "removed_member" ADD CONSTRAINT "removed_member_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
