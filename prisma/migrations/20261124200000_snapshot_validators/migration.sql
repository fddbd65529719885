-- Conditional rechecks (issue 24): a snapshot keeps the page's validators and links.
ALTER TABLE "page_snapshot" ADD COLUMN "etag" TEXT;
ALTER TABLE "page_snapshot" ADD COLUMN "last_modified" TEXT;
ALTER TABLE "page_snapshot" ADD COLUMN "links" JSONB;
