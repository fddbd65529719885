-- crawl_store_batch runs its failed and requeued settlements (and the count of failed pages) only
-- when the batch has such URLs: most batches have none, and each of those statements, a join of
-- job_url with an empty list, still cost PostgreSQL about 0.2 ms a call (pg_stat_statements in
-- bench:frontier). Otherwise unchanged.
-- CREATE OR REPLACE resets the function's settings: enable_seqscan = off is given again.
CREATE OR REPLACE FUNCTION crawl_store_batch(
  p_job text, p_ttl_seconds integer, p_max_limit integer, p_robots_max integer,
  p_left integer, p_credits_skip text, p_credits_error text,
  p_ids bigint[],
  s_ids bigint[], s_doc_ids text[], s_url_keys text[], s_urls text[], s_markdown text[], s_html text[], s_raw_html text[],
  s_links text[], s_images text[], s_attributes text[], s_summary text[], s_metadata text[], s_extract text[],
  s_change_tracking text[], s_warning text[], s_status_code integer[],
  c_page integer[], c_url_key text[], c_url text[], c_depth integer[], c_discovery_depth integer[],
  k_page integer[], k_reason text[],
  b_page integer[], b_url text[],
  f_ids bigint[], f_errors text[], f_codes text[],
  r_ids bigint[], r_retry_at timestamptz[], r_why text[]
) RETURNS jsonb
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
AS $$
DECLARE
  v_crawl record;
  v_open bigint[];
  v_have_doc bigint[];
  v_pages integer[] := '{}';   -- indexes into s_*: pages still open (settled by this batch)
  v_fresh integer[] := '{}';   -- of those, the ones whose document is inserted now
  v_unpaid bigint[] := '{}';
  v_fresh_wanted integer := 0;
  v_exhausted boolean;
  v_admitted integer := 0;
  v_new integer := 0;
  v_dropped integer := 0;
  v_failed integer;
  v_n integer;
  v_links integer[];           -- indexes into c_*: links to URLs the crawl did not know before the lock
  i integer;
BEGIN
  -- Links to URLs the crawl already knows are set aside before the lock (a running crawl's URLs are
  -- never removed): most links of a crawled page point at known pages, and what is left for
  -- admission under the lock is the new ones. Looked up one by one in the unique index (see crawl_admit).
  v_links := ARRAY(SELECT j FROM generate_subscripts(c_page, 1) AS j
    WHERE (SELECT u.id FROM job_url u WHERE u.job_id = p_job AND u.url_key = c_url_key[j]) IS NULL ORDER BY j);

  SELECT status, total, COALESCE((options->>'limit')::int, p_max_limit) AS lim, next_sequence
    INTO v_crawl FROM job WHERE id = p_job FOR UPDATE;
  IF NOT FOUND OR v_crawl.status <> 'scraping' THEN
    UPDATE job_url SET status = 'dropped' WHERE id = ANY(p_ids) AND status IN ('queued', 'claimed');
    RETURN jsonb_build_object('stopped', true);
  END IF;

  -- Only URLs still open are settled here (one settled meanwhile by another attempt stays as it
  -- is), and a page whose document exists is not stored again.
  -- The document's id is the crawl's id and the URL key (documentIdFor): see the top of this file.
  SELECT COALESCE(array_agg(u.id), '{}'),
         COALESCE(array_agg(u.id) FILTER (WHERE EXISTS (SELECT 1 FROM document d WHERE d.id = p_job || ':' || u.url_key)), '{}')
    INTO v_open, v_have_doc
    FROM job_url u WHERE u.id = ANY(p_ids) AND u.status IN ('queued', 'claimed');

  -- Billing: pages past the account's credits are not stored, and the crawl stops as if its limit were reached.
  v_n := COALESCE(cardinality(s_ids), 0);
  FOR i IN 1 .. v_n LOOP
    CONTINUE WHEN NOT s_ids[i] = ANY(v_open);
    IF NOT s_ids[i] = ANY(v_have_doc) THEN
      v_fresh_wanted := v_fresh_wanted + 1;
      IF p_left IS NOT NULL AND v_fresh_wanted > GREATEST(p_left, 0) THEN
        v_unpaid := v_unpaid || s_ids[i];
        CONTINUE;
      END IF;
      v_fresh := v_fresh || i;
    END IF;
    v_pages := v_pages || i;
  END LOOP;
  v_exhausted := p_left IS NOT NULL AND p_left - v_fresh_wanted <= 0;

  IF NOT v_exhausted THEN
    SELECT a.admitted, a.fresh INTO v_admitted, v_new FROM crawl_admit(p_job, v_crawl.lim - v_crawl.total,
      ARRAY(SELECT c_url_key[j] FROM unnest(v_links) AS j WHERE c_page[j] = ANY(v_pages) ORDER BY j),
      ARRAY(SELECT c_url[j] FROM unnest(v_links) AS j WHERE c_page[j] = ANY(v_pages) ORDER BY j),
      ARRAY(SELECT c_depth[j] FROM unnest(v_links) AS j WHERE c_page[j] = ANY(v_pages) ORDER BY j),
      ARRAY(SELECT c_discovery_depth[j] FROM unnest(v_links) AS j WHERE c_page[j] = ANY(v_pages) ORDER BY j)) AS a;
  ELSE
    UPDATE job_url SET status = 'dropped' WHERE job_id = p_job AND (status = 'queued' OR id = ANY(v_unpaid));
    GET DIAGNOSTICS v_dropped = ROW_COUNT;
    UPDATE job SET error = p_credits_error WHERE id = p_job AND error IS NULL;
  END IF;

  INSERT INTO document (id, job_id, sequence, url_key, url, markdown, html, raw_html, links, images, attributes, summary, metadata, extract, change_tracking, warning, status_code, expires_at)
  SELECT s_doc_ids[j], p_job, v_crawl.next_sequence + n - 1, s_url_keys[j], s_urls[j], s_markdown[j], s_html[j], s_raw_html[j],
    s_links[j]::jsonb, s_images[j]::jsonb, s_attributes[j]::jsonb, s_summary[j], s_metadata[j]::jsonb, s_extract[j]::jsonb,
    s_change_tracking[j]::jsonb, s_warning[j], s_status_code[j], now() + make_interval(secs => p_ttl_seconds)
  FROM unnest(v_fresh) WITH ORDINALITY AS f(j, n);

  UPDATE job_url SET status = 'done' WHERE id = ANY(ARRAY(SELECT s_ids[j] FROM unnest(v_pages) AS j));

  v_failed := 0;
  IF cardinality(f_ids) > 0 THEN
    SELECT count(*) INTO v_failed FROM unnest(f_ids) AS id WHERE id = ANY(v_open);
  END IF;
  UPDATE job SET next_sequence = next_sequence + cardinality(v_fresh), completed = completed + cardinality(v_fresh) + v_failed,
    failed = failed + v_failed, credits_used = credits_used + cardinality(v_fresh), total = total + v_admitted - v_dropped,
    skipped = crawl_add_skips(skipped,
      ARRAY(SELECT k_reason[j] FROM generate_subscripts(k_page, 1) AS j WHERE k_page[j] = ANY(v_pages) ORDER BY j)
      || array_fill('limit_reached'::text, ARRAY[v_new - v_admitted]) || array_fill(p_credits_skip, ARRAY[v_dropped])),
    robots_blocked = crawl_add_robots_blocked(robots_blocked,
      ARRAY(SELECT b_url[j] FROM generate_subscripts(b_page, 1) AS j WHERE b_page[j] = ANY(v_pages) ORDER BY j), p_robots_max),
    updated_at = now(),
    queue_floor = LEAST(queue_floor, COALESCE((SELECT min(r) FROM unnest(r_ids) AS r WHERE r = ANY(v_open)), queue_floor)),
    requeues = requeues + (SELECT count(*) FROM unnest(r_ids) AS r WHERE r = ANY(v_open))
  WHERE id = p_job;

  -- Failed (with its error), or back to the queue (a failed try counts as an attempt, a throttle or
  -- an untried URL does not): the URLs this batch settles besides those done.
  IF v_failed > 0 THEN
    UPDATE job_url u SET status = 'failed', error = f.error, error_code = f.code, failed_at = now()
    FROM unnest(f_ids, f_errors, f_codes) AS f(id, error, code) WHERE u.id = f.id AND f.id = ANY(v_open);
  END IF;
  IF cardinality(r_ids) > 0 THEN
    UPDATE job_url u SET status = 'queued', claimed_by = NULL, claimed_at = NULL, retry_at = r.at,
      throttles = u.throttles + (r.why = 'throttled')::int, attempts = u.attempts - (r.why <> 'tried')::int
    FROM unnest(r_ids, r_retry_at, r_why) AS r(id, at, why) WHERE u.id = r.id AND r.id = ANY(v_open);
  END IF;

  RETURN jsonb_build_object('stopped', false, 'admitted', v_admitted, 'fresh', cardinality(v_fresh),
    'links_admitted', NOT v_exhausted AND v_new = v_admitted,
    'stored', COALESCE((SELECT jsonb_agg(s_ids[j]::text ORDER BY n) FROM unnest(v_fresh) WITH ORDINALITY AS f(j, n)), '[]'::jsonb));
END
$$;
