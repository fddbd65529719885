-- A crawl's batch store as one call into PostgreSQL (issue 26, the frontier's ceiling): every store
-- holds the crawl's row lock, and while the store was a transaction of several statements sent one
-- by one the lock was held across the worker's round trips (its busy event loop included), so the
-- lanes of a crawl queued behind it. `crawl_store_batch` does the whole store in one statement:
-- the lock is held for the time PostgreSQL works, not for round trips (activities/crawl/store.ts
-- says what it stores; README "How far one PostgreSQL frontier goes").
--
-- Each statement inside a PL/pgSQL function (VOLATILE) takes a new snapshot, so everything after
-- the lock sees what the previous holder committed: the "check, then insert" stays exact.
--
-- Also here: `crawl_claim`, a lane's claim, which seeks past the lane's last claim instead of
-- walking the dead index entries that claimed URLs leave at the head of the queue.

-- Skip counts by reason, plus one per reason given (a reason may repeat).
CREATE FUNCTION crawl_add_skips(skipped jsonb, reasons text[]) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT COALESCE(jsonb_object_agg(k, n), '{}'::jsonb) FROM (
    SELECT k, sum(n)::bigint AS n FROM (
      SELECT key AS k, value::bigint AS n FROM jsonb_each_text(COALESCE(skipped, '{}'::jsonb))
      UNION ALL SELECT r, 1 FROM unnest(reasons) AS r
    ) AS a GROUP BY k
  ) AS b
$$;

-- The URLs robots.txt kept the crawl from: the known ones, then the new ones in order, no repeats,
-- at most `max` (a list already full stays as it is).
CREATE FUNCTION crawl_add_robots_blocked(known jsonb, found text[], max integer) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN cardinality(found) = 0 OR jsonb_array_length(known) >= max THEN known ELSE (
    SELECT COALESCE(jsonb_agg(u ORDER BY o), '[]'::jsonb) FROM (
      SELECT u, min(o) AS o FROM (
        SELECT value AS u, ord AS o FROM jsonb_array_elements_text(known) WITH ORDINALITY AS k(value, ord)
        UNION ALL SELECT value, 1000000000 + ord FROM unnest(found) WITH ORDINALITY AS f(value, ord)
      ) AS a GROUP BY u ORDER BY min(o) LIMIT max
    ) AS b) END
$$;

-- Admit candidates into a crawl's frontier, at most `room` new ones, in the order given; the first
-- spelling of a URL key is the one kept. The caller holds the crawl's lock. `admitted`: inserted;
-- `fresh`: new URL keys (those past `room` are the caller's limit_reached skips).
--
-- Each candidate is looked up on its own in the unique (job_id, url_key) index: a scalar subquery,
-- which the planner runs per candidate. Written as NOT EXISTS, it may become a hash anti-join that
-- reads every URL of the crawl on every batch whenever the statistics think the crawl is small.
CREATE FUNCTION crawl_admit(p_job text, p_room integer, p_url_keys text[], p_urls text[], p_depths integer[], p_discovery_depths integer[],
  OUT admitted integer, OUT fresh integer)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  -- PL/pgSQL, not SQL: its statement's plan is kept for the session instead of made on every call.
  WITH cand AS (
    SELECT DISTINCT ON (t.url_key) t.* FROM unnest(p_url_keys, p_urls, p_depths, p_discovery_depths) WITH ORDINALITY AS t(url_key, url, depth, discovery_depth, ord)
    ORDER BY t.url_key, t.ord),
  unseen AS (
    SELECT cand.* FROM cand WHERE (SELECT u.id FROM job_url u WHERE u.job_id = p_job AND u.url_key = cand.url_key) IS NULL),
  ins AS (
    INSERT INTO job_url (job_id, url_key, url, depth, discovery_depth)
    SELECT p_job, unseen.url_key, unseen.url, unseen.depth, unseen.discovery_depth FROM unseen ORDER BY unseen.ord LIMIT GREATEST(0, p_room)
    ON CONFLICT (job_id, url_key) DO NOTHING RETURNING 1)
  SELECT (SELECT count(*) FROM ins)::integer, (SELECT count(*) FROM unseen)::integer INTO admitted, fresh;
END
$$;

-- One batch of a crawl's finished pages (activities/crawl/store.ts builds the arguments):
--   p_ids: every URL of the batch; s_*: the pages to store, in order (their documents' columns);
--   c_*: the links they found (c_page: the index in s_* of the page that found each); k_*: their
--   skips; b_*: the URLs robots.txt kept them from; f_*: failed URLs; r_*: URLs back to the queue.
--   p_left: credits the account has left (NULL: not billed; the caller holds the account's row).
-- Returns {stopped} when the crawl no longer runs (its URLs are dropped), else {stored: URL ids
-- whose documents were inserted, admitted, fresh}.
CREATE FUNCTION crawl_store_batch(
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
LANGUAGE plpgsql VOLATILE AS $$
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
  SELECT COALESCE(array_agg(u.id), '{}'),
         COALESCE(array_agg(u.id) FILTER (WHERE EXISTS (SELECT 1 FROM document d WHERE d.job_id = u.job_id AND d.url_key = u.url_key)), '{}')
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

  SELECT count(*) INTO v_failed FROM unnest(f_ids) AS id WHERE id = ANY(v_open);
  UPDATE job SET next_sequence = next_sequence + cardinality(v_fresh), completed = completed + cardinality(v_fresh) + v_failed,
    failed = failed + v_failed, credits_used = credits_used + cardinality(v_fresh), total = total + v_admitted - v_dropped,
    skipped = crawl_add_skips(skipped,
      ARRAY(SELECT k_reason[j] FROM generate_subscripts(k_page, 1) AS j WHERE k_page[j] = ANY(v_pages) ORDER BY j)
      || array_fill('limit_reached'::text, ARRAY[v_new - v_admitted]) || array_fill(p_credits_skip, ARRAY[v_dropped])),
    robots_blocked = crawl_add_robots_blocked(robots_blocked,
      ARRAY(SELECT b_url[j] FROM generate_subscripts(b_page, 1) AS j WHERE b_page[j] = ANY(v_pages) ORDER BY j), p_robots_max),
    updated_at = now()
  WHERE id = p_job;

  -- Failed (with its error), or back to the queue (a failed try counts as an attempt, a throttle or
  -- an untried URL does not): the URLs this batch settles besides those done.
  UPDATE job_url u SET status = 'failed', error = f.error, error_code = f.code, failed_at = now()
  FROM unnest(f_ids, f_errors, f_codes) AS f(id, error, code) WHERE u.id = f.id AND f.id = ANY(v_open);
  UPDATE job_url u SET status = 'queued', claimed_by = NULL, claimed_at = NULL, retry_at = r.at,
    throttles = u.throttles + (r.why = 'throttled')::int, attempts = u.attempts - (r.why <> 'tried')::int
  FROM unnest(r_ids, r_retry_at, r_why) AS r(id, at, why) WHERE u.id = r.id AND r.id = ANY(v_open);

  RETURN jsonb_build_object('stopped', false, 'admitted', v_admitted, 'fresh', cardinality(v_fresh),
    'stored', COALESCE((SELECT jsonb_agg(s_ids[j]::text ORDER BY n) FROM unnest(v_fresh) WITH ORDINALITY AS f(j, n)), '[]'::jsonb));
END
$$;

-- A lane claims up to `p_max` queued URLs of a running crawl (not paused, backoff passed), oldest
-- first, under its lane run's token, looking past `p_after` (the highest id the lane run claimed)
-- first and from the head of the queue when that comes up short (activities/crawl/frontier.ts
-- claimBatch says why). The planner settings pin the plan to an ordered scan of the (job_id,
-- status, id) index that seeks to ('queued', p_after): with the statistics of a young or changing
-- table it would otherwise pick a bitmap scan and a sort of every queued URL of the crawl, or a walk
-- of the primary key. PL/pgSQL also keeps the plan for the session.
CREATE FUNCTION crawl_claim(p_job text, p_token text, p_max integer, p_after bigint)
RETURNS TABLE (id bigint, url text, url_key text, depth integer, discovery_depth integer, attempts integer, throttles integer)
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
AS $$
#variable_conflict use_column
DECLARE
  v_after bigint := p_after;
  v_want integer := p_max;
  v_got integer;
BEGIN
  LOOP
    RETURN QUERY
    UPDATE job_url SET status = 'claimed', claimed_by = p_token, claimed_at = now(), attempts = job_url.attempts + 1
    WHERE job_url.id IN (
      SELECT u.id FROM job_url u
      WHERE u.job_id = p_job AND (u.status, u.id) > ('queued', v_after) AND u.status <= 'queued' AND (u.retry_at IS NULL OR u.retry_at <= now())
        AND EXISTS (SELECT 1 FROM job c WHERE c.id = p_job AND c.status = 'scraping' AND (c.resume_at IS NULL OR c.resume_at <= now()))
      ORDER BY u.status, u.id LIMIT v_want FOR UPDATE SKIP LOCKED)
    RETURNING job_url.id, job_url.url, job_url.url_key, job_url.depth, job_url.discovery_depth, job_url.attempts, job_url.throttles;
    GET DIAGNOSTICS v_got = ROW_COUNT;
    v_want := v_want - v_got;
    EXIT WHEN v_want <= 0 OR v_after = 0;
    v_after := 0;
  END LOOP;
END
$$;
