"""
Calls one method of the official Python SDK (firecrawl-py), unmodified, on one of its clients, runs
it to completion and prints what it returned as one JSON line, for the SDK contract tests
(test/helpers/sdk-python.ts, test/sdk-v1-python.test.ts, test/sdk-v2-python.test.ts).

stdin:  {"apiUrl": str, "apiKey": str, "client": <one of CLIENTS>, "method": str, "args": [...], "kwargs": {...}}
stdout: {"ok": true, "result": <the return value as JSON>}
     or {"ok": false, "error": <the exception's message>, "type": <its class>, "status": <HTTP status or null>,
         "code": <the SDK's error code or null>, "body": <the error response's JSON body or null>}

Clients: V1FirecrawlApp and AsyncV1FirecrawlApp (the v1 API), Firecrawl and AsyncFirecrawl (the
default clients, the v2 API). An async client's coroutine is run to completion. A dotted method
reaches through the client's attributes: `v2.get_credit_usage_historical` is the default client's
public `v2` proxy, which carries methods the client itself does not copy.

Arguments the SDK takes only as its pydantic models are given as JSON objects and built here:
`scrape_options` (V1ScrapeOptions for the v1 clients, ScrapeOptions for the default ones) and
`pagination_config` (PaginationConfig). Anywhere else in args and kwargs, an object
{"$model": "<name>", ...fields} becomes that model, from the client's types (firecrawl.v1, or
firecrawl.v2.types), e.g. {"$model": "JsonFormat", "schema": {...}, "prompt": "..."} in `formats`.
Models in the result are dumped by field name (the SDK's snake_case), leaving out what is None.
The SDK's own log lines (a paging request that failed, say) go to stderr, where the test shows them.
"""
import asyncio
import inspect
import json
import logging
import sys

import pydantic
import firecrawl.v1 as v1_types
import firecrawl.v2.types as v2_types
from firecrawl import AsyncFirecrawl, Firecrawl
from firecrawl.v1 import AsyncV1FirecrawlApp, V1FirecrawlApp

# client name -> (class, module of its models, kwargs that take only a model, by model name)
CLIENTS = {
    "V1FirecrawlApp": (V1FirecrawlApp, v1_types, {"scrape_options": "V1ScrapeOptions"}),
    "AsyncV1FirecrawlApp": (AsyncV1FirecrawlApp, v1_types, {"scrape_options": "V1ScrapeOptions"}),
    "Firecrawl": (Firecrawl, v2_types, {"scrape_options": "ScrapeOptions", "pagination_config": "PaginationConfig"}),
    "AsyncFirecrawl": (AsyncFirecrawl, v2_types, {"scrape_options": "ScrapeOptions", "pagination_config": "PaginationConfig"}),
}


def as_json(value):
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    return value


def with_models(value, types):
    """JSON arguments with every {"$model": name, ...} object built as that model."""
    if isinstance(value, list):
        return [with_models(item, types) for item in value]
    if isinstance(value, dict):
        fields = {key: with_models(item, types) for key, item in value.items() if key != "$model"}
        return getattr(types, value["$model"])(**fields) if "$model" in value else fields
    return value


def error_outcome(error):
    response = getattr(error, "response", None)
    status = getattr(response, "status_code", None) or getattr(error, "status_code", None)
    try:
        body = response.json() if response is not None else None
    except Exception:  # not JSON
        body = None
    code = getattr(error, "code", None)
    return {"ok": False, "error": str(error), "type": type(error).__name__, "status": status,
            "code": code if isinstance(code, str) else None, "body": body}


def main():
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    request = json.load(sys.stdin)
    client, types, model_kwargs = CLIENTS[request["client"]]
    app = client(api_key=request["apiKey"], api_url=request["apiUrl"])
    args = with_models(request.get("args") or [], types)
    kwargs = with_models(request.get("kwargs") or {}, types)
    for name, model in model_kwargs.items():
        if isinstance(kwargs.get(name), dict):
            kwargs[name] = getattr(types, model)(**kwargs[name])
    try:
        method = app
        for name in request["method"].split("."):
            method = getattr(method, name)
        result = method(*args, **kwargs)
        if inspect.isawaitable(result):
            result = asyncio.run(result)
    except Exception as error:  # the outcome under test: report it, the test decides
        print(json.dumps(error_outcome(error)))
        return
    print(json.dumps({"ok": True, "result": as_json(result)}))


if __name__ == "__main__":
    main()
