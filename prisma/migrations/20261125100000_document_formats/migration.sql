-- The images, attributes and summary formats (issue 25): stored with the document like links and extract.
ALTER TABLE "document" ADD COLUMN "images" JSONB;
ALTER TABLE "document" ADD COLUMN "attributes" JSONB;
ALTER TABLE "document" ADD COLUMN "summary" TEXT;
