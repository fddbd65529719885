-- crawl_add_skips and crawl_add_robots_blocked in PL/pgSQL, returning at once when there is nothing
-- to add. As SQL functions that the planner cannot inline (they aggregate), each was planned anew on
-- every call: twice in every crawl_store_batch, under the crawl's row lock, almost always for
-- nothing (a store rarely skips a URL). PL/pgSQL keeps its statements' plans for the session.
CREATE OR REPLACE FUNCTION crawl_add_skips(skipped jsonb, reasons text[]) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF cardinality(reasons) = 0 THEN RETURN COALESCE(skipped, '{}'::jsonb); END IF;
  RETURN (SELECT COALESCE(jsonb_object_agg(k, n), '{}'::jsonb) FROM (
    SELECT k, sum(n)::bigint AS n FROM (
      SELECT key AS k, value::bigint AS n FROM jsonb_each_text(COALESCE(skipped, '{}'::jsonb))
      UNION ALL SELECT r, 1 FROM unnest(reasons) AS r
    ) AS a GROUP BY k
  ) AS b);
END
$$;

-- Its own body names the new URLs `$2`: a parameter called `found` would be PL/pgSQL's FOUND.
CREATE OR REPLACE FUNCTION crawl_add_robots_blocked(known jsonb, found text[], max integer) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF cardinality($2) = 0 OR jsonb_array_length(known) >= max THEN RETURN known; END IF;
  RETURN (SELECT COALESCE(jsonb_agg(u ORDER BY o), '[]'::jsonb) FROM (
    SELECT u, min(o) AS o FROM (
      SELECT value AS u, ord AS o FROM jsonb_array_elements_text(known) WITH ORDINALITY AS k(value, ord)
      UNION ALL SELECT value, 1000000000 + ord FROM unnest($2) WITH ORDINALITY AS f(value, ord)
    ) AS a GROUP BY u ORDER BY min(o) LIMIT max
  ) AS b);
END
$$;
