-- One statement for the batches of several crawls (activities/crawl/store.ts, storeBatches): a worker
-- whose lanes belong to different crawls stores what they finished while its last store ran in one
-- call, one transaction and one round trip instead of one per crawl. Each crawl's part is
-- crawl_store_batch as before, run in the order of `p_jobs` (the caller sorts them by id, so two such
-- calls lock crawls in the same order). The arrays are those of crawl_store_batch, the crawls' parts
-- one after the other; n_* give each crawl's count in each group of arrays (`c_page`, `k_page` and
-- `b_page` count from 1 within the crawl's pages). Returns crawl_store_batch's results in a JSON
-- array, in the order of `p_jobs`. Not for billing: a crawl whose credits are read first is stored on
-- its own.
CREATE FUNCTION crawl_store_batches(
  p_jobs text[], p_ttl_seconds integer, p_max_limit integer, p_robots_max integer, p_credits_skip text, p_credits_error text,
  n_ids integer[], n_pages integer[], n_links integer[], n_skips integer[], n_blocked integer[], n_failed integer[], n_requeued integer[],
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
AS $$
DECLARE
  v_out jsonb := '[]';
  -- Where the current crawl's part starts in each group of arrays.
  o_ids integer := 0; o_pages integer := 0; o_links integer := 0; o_skips integer := 0;
  o_blocked integer := 0; o_failed integer := 0; o_requeued integer := 0;
  i integer;
BEGIN
  FOR i IN 1 .. COALESCE(cardinality(p_jobs), 0) LOOP
    v_out := v_out || jsonb_build_array(crawl_store_batch(
      p_jobs[i], p_ttl_seconds, p_max_limit, p_robots_max, NULL, p_credits_skip, p_credits_error,
      p_ids[o_ids + 1 : o_ids + n_ids[i]],
      s_ids[o_pages + 1 : o_pages + n_pages[i]], s_doc_ids[o_pages + 1 : o_pages + n_pages[i]], s_url_keys[o_pages + 1 : o_pages + n_pages[i]],
      s_urls[o_pages + 1 : o_pages + n_pages[i]], s_markdown[o_pages + 1 : o_pages + n_pages[i]], s_html[o_pages + 1 : o_pages + n_pages[i]],
      s_raw_html[o_pages + 1 : o_pages + n_pages[i]], s_links[o_pages + 1 : o_pages + n_pages[i]], s_images[o_pages + 1 : o_pages + n_pages[i]],
      s_attributes[o_pages + 1 : o_pages + n_pages[i]], s_summary[o_pages + 1 : o_pages + n_pages[i]], s_metadata[o_pages + 1 : o_pages + n_pages[i]],
      s_extract[o_pages + 1 : o_pages + n_pages[i]], s_change_tracking[o_pages + 1 : o_pages + n_pages[i]], s_warning[o_pages + 1 : o_pages + n_pages[i]],
      s_status_code[o_pages + 1 : o_pages + n_pages[i]],
      c_page[o_links + 1 : o_links + n_links[i]], c_url_key[o_links + 1 : o_links + n_links[i]], c_url[o_links + 1 : o_links + n_links[i]],
      c_depth[o_links + 1 : o_links + n_links[i]], c_discovery_depth[o_links + 1 : o_links + n_links[i]],
      k_page[o_skips + 1 : o_skips + n_skips[i]], k_reason[o_skips + 1 : o_skips + n_skips[i]],
      b_page[o_blocked + 1 : o_blocked + n_blocked[i]], b_url[o_blocked + 1 : o_blocked + n_blocked[i]],
      f_ids[o_failed + 1 : o_failed + n_failed[i]], f_errors[o_failed + 1 : o_failed + n_failed[i]], f_codes[o_failed + 1 : o_failed + n_failed[i]],
      r_ids[o_requeued + 1 : o_requeued + n_requeued[i]], r_retry_at[o_requeued + 1 : o_requeued + n_requeued[i]], r_why[o_requeued + 1 : o_requeued + n_requeued[i]]));
    o_ids := o_ids + n_ids[i]; o_pages := o_pages + n_pages[i]; o_links := o_links + n_links[i]; o_skips := o_skips + n_skips[i];
    o_blocked := o_blocked + n_blocked[i]; o_failed := o_failed + n_failed[i]; o_requeued := o_requeued + n_requeued[i];
  END LOOP;
  RETURN v_out;
END
$$;
