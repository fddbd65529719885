-- AlterTable
ALTER TABLE "account" ADD COLUMN     "webhook_secret_rotated_at" TIMESTAMPTZ(3),
ADD COLUMN     "webhook_secret_version" INTEGER NOT NULL DEFAULT 1;
