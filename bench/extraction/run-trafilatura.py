"""Baseline runner for bench/extraction.ts: trafilatura's extract() on each page, with the settings
its own evaluation uses (no comments, tables kept, no formatting; fallbacks on).
Reads a JSON list of {"id", "path", "url"} on stdin, writes {"id": {"text", "ms"}} on stdout."""
import json
import sys
import time

from trafilatura import extract

out = {}
for page in json.load(sys.stdin):
    with open(page["path"], "rb") as f:
        data = f.read()
    start = time.process_time()
    try:
        text = extract(data, url=page["url"], include_comments=False, include_tables=True, include_formatting=False) or ""
    except Exception as exc:  # a crash is an empty extraction, as in trafilatura's own evaluation
        print(f"trafilatura: {page['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
        text = ""
    out[page["id"]] = {"text": text, "ms": (time.process_time() - start) * 1000}
json.dump(out, sys.stdout)
