"""
Calls one method of the official Python SDK's v1 client (firecrawl-py: V1FirecrawlApp, or with
"client": "async" AsyncV1FirecrawlApp, run to completion), unmodified, and prints what it returned
as one JSON line, for test/sdk-v1-python.test.ts.

stdin:  {"apiUrl": str, "apiKey": str, "client": "sync" | "async", "method": str, "args": [...], "kwargs": {...}}
stdout: {"ok": true, "result": <the return value as JSON>}
     or {"ok": false, "error": <the SDK's exception message>, "type": <its class>, "status": <HTTP status or null>}

`scrape_options` is given as an object and handed to the SDK as its V1ScrapeOptions model (its
crawl methods take only the model). The SDK's own log lines (a paging request that failed, say) go
to stderr, where the test shows them.
"""
import asyncio
import inspect
import json
import logging
import sys

import pydantic
from firecrawl.v1 import AsyncV1FirecrawlApp, V1FirecrawlApp, V1ScrapeOptions


def as_json(value):
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    return value


def main():
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    request = json.load(sys.stdin)
    client = AsyncV1FirecrawlApp if request.get("client") == "async" else V1FirecrawlApp
    app = client(api_key=request["apiKey"], api_url=request["apiUrl"])
    kwargs = dict(request.get("kwargs") or {})
    if "scrape_options" in kwargs:
        kwargs["scrape_options"] = V1ScrapeOptions(**kwargs["scrape_options"])
    try:
        result = getattr(app, request["method"])(*request.get("args", []), **kwargs)
        if inspect.isawaitable(result):
            result = asyncio.run(result)
    except Exception as error:  # the outcome under test: report it, the test decides
        response = getattr(error, "response", None)
        print(json.dumps({"ok": False, "error": str(error), "type": type(error).__name__,
                          "status": getattr(response, "status_code", None)}))
        return
    print(json.dumps({"ok": True, "result": as_json(result)}))


if __name__ == "__main__":
    main()
