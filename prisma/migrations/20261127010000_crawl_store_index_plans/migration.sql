-- crawl_store_batch plans its statements with index scans only, like crawl_claim. PL/pgSQL keeps a
-- statement's plan for the session, and after five calls it may keep a generic one: made while
-- job_url is small or has no statistics (a fresh database's first crawl), that plan settles the
-- batch's URLs and checks which are open by reading all of job_url, and it stays until an ANALYZE
-- of the table invalidates it, while job_url grows by the crawl's URLs and their dead versions.
-- Seen in bench:scale-out: the first crawl on a fresh database cost PostgreSQL 6.4 ms a page
-- against 1.2-1.6 in the next ones. Every statement of the function has an index to use (the
-- job's id, job_url's id, (job_id, url_key)); the setting also holds for crawl_admit, called inside.
ALTER FUNCTION crawl_store_batch SET enable_seqscan = off;
