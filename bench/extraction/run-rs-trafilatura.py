"""Baseline runner for bench/extraction.ts: rs-trafilatura's extract_stdin on each page, one process
a page (its CLI's way), with the page's URL. Reads a JSON list of {"id", "path", "url"} on stdin,
the binary's path as the first argument; writes {"id": {"text", "ms"}} on stdout, "ms" being the
child's CPU time (user and system) as the kernel counts it."""
import json
import resource
import subprocess
import sys

binary = sys.argv[1]


def cpu_ms():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


out = {}
for page in json.load(sys.stdin):
    start = cpu_ms()
    with open(page["path"], "rb") as f:
        run = subprocess.run([binary, "--url", page["url"]], stdin=f, capture_output=True)
    ms = cpu_ms() - start
    text = ""
    if run.returncode == 0:
        text = json.loads(run.stdout).get("main_content") or ""
    else:  # a crash is an empty extraction, as for trafilatura
        print(f"rs-trafilatura: {page['id']}: exit {run.returncode}: {run.stderr.decode(errors='replace')[:200]}", file=sys.stderr)
    out[page["id"]] = {"text": text, "ms": ms}
json.dump(out, sys.stdout)
