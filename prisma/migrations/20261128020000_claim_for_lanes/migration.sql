-- One claim for several lanes of a crawl on one worker (activities/crawl/claim-queue.ts): the lanes
-- whose claims arrive while one of theirs runs claim together next, each URL recorded under the
-- token of the lane that gets it (`p_owners`: one token per URL wanted, in the order URLs are handed
-- out). A claim costs PostgreSQL about 0.2 ms whatever its size, then ~20 µs a URL (a 64-URL claim
-- 22-25 µs a URL, an 8-URL one 40-56), and the lanes of a worker whose joint store has just ended
-- all claim at once. Otherwise as crawl_claim in 20261127030000_claim_floor: past `p_after` first,
-- then from the crawl's queue floor, which it raises.
CREATE FUNCTION crawl_claim_for(p_job text, p_owners text[], p_after bigint)
RETURNS TABLE (id bigint, url text, url_key text, depth integer, discovery_depth integer, attempts integer, throttles integer, claimed_by text)
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off SET enable_bitmapscan = off SET enable_sort = off
AS $$
#variable_conflict use_column
DECLARE
  v_want integer := COALESCE(cardinality(p_owners), 0);
  v_taken integer := 0;
  v_ids bigint[];
  v_past bigint := p_after;  -- the claim takes queued URLs with a greater id
  v_from_head boolean := p_after = 0;
  v_floor bigint;
  v_requeues bigint;
  v_head bigint;
BEGIN
  IF v_want = 0 THEN RETURN; END IF;
  LOOP
    IF v_from_head THEN
      SELECT c.queue_floor, c.requeues INTO v_floor, v_requeues FROM job c WHERE c.id = p_job;
      IF NOT FOUND THEN RETURN; END IF;
      SELECT u.id INTO v_head FROM job_url u
      WHERE u.job_id = p_job AND (u.status, u.id) >= ('queued', v_floor) AND u.status <= 'queued'
      ORDER BY u.status, u.id LIMIT 1;
      EXIT WHEN v_head IS NULL;
      v_past := v_head - 1;
    END IF;
    v_ids := ARRAY(
      SELECT u.id FROM job_url u
      WHERE u.job_id = p_job AND (u.status, u.id) > ('queued', v_past) AND u.status <= 'queued' AND (u.retry_at IS NULL OR u.retry_at <= now())
        AND EXISTS (SELECT 1 FROM job c WHERE c.id = p_job AND c.status = 'scraping' AND (c.resume_at IS NULL OR c.resume_at <= now()))
      ORDER BY u.status, u.id LIMIT v_want - v_taken FOR UPDATE SKIP LOCKED);
    IF cardinality(v_ids) > 0 THEN
      RETURN QUERY
      UPDATE job_url SET status = 'claimed', claimed_by = o.owner, claimed_at = now(), attempts = job_url.attempts + 1
      FROM unnest(v_ids, p_owners[v_taken + 1 : v_taken + cardinality(v_ids)]) AS o(id, owner)
      WHERE job_url.id = o.id
      RETURNING job_url.id, job_url.url, job_url.url_key, job_url.depth, job_url.discovery_depth, job_url.attempts, job_url.throttles, job_url.claimed_by;
      v_taken := v_taken + cardinality(v_ids);
    END IF;
    EXIT WHEN v_taken >= v_want OR v_from_head;
    v_from_head := true;
  END LOOP;

  IF v_head > v_floor THEN
    UPDATE job SET queue_floor = v_head
    WHERE job.id = (SELECT c.id FROM job c WHERE c.id = p_job AND c.queue_floor = v_floor AND c.requeues = v_requeues FOR UPDATE SKIP LOCKED);
  END IF;
END
$$;

-- The one-lane claim, kept for workers of the previous version during a rolling deploy: the same claim.
CREATE OR REPLACE FUNCTION crawl_claim(p_job text, p_token text, p_max integer, p_after bigint)
RETURNS TABLE (id bigint, url text, url_key text, depth integer, discovery_depth integer, attempts integer, throttles integer)
LANGUAGE sql VOLATILE
AS $$
  SELECT c.id, c.url, c.url_key, c.depth, c.discovery_depth, c.attempts, c.throttles
  FROM crawl_claim_for(p_job, array_fill(p_token, ARRAY[GREATEST(p_max, 0)]), p_after) AS c;
$$;
