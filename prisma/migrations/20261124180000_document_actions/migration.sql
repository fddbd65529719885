-- Results of browser actions (issue 24): screenshots, scrapes, script values, PDFs.
ALTER TABLE "document" ADD COLUMN "actions" JSONB;
