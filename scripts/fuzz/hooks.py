"""Schemathesis hooks for scripts/fuzz.ts (loaded through SCHEMATHESIS_HOOKS=hooks).

The request schemas allow any string as `url`, so schemathesis mostly sends strings that are not
URLs, and the API refuses them before any work starts. To drive requests through Temporal and the
worker as well, about half of the bodies whose `url` is a valid string (1 to 8192 characters, so
the swap never changes whether the body is valid) get a realistic target instead: random host
names under common and reserved TLDs, random IPv4 and IPv6 literals, ports and paths. Inside the
fuzz sandbox every lookup and connection fails, so these end as 400 url_not_allowed or 502
scrape_failed; they can never reach the internet (scripts/fuzz.ts checks the isolation first).
"""

import schemathesis
from hypothesis import strategies as st

_label = st.from_regex(r"[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?", fullmatch=True)
_tld = st.sampled_from(["com", "org", "net", "io", "de", "jp", "xyz", "invalid", "test", "example", "local", "internal"])
_host = st.one_of(
    st.builds(lambda labels, tld: ".".join([*labels, tld]), st.lists(_label, min_size=1, max_size=3), _tld),
    st.ip_addresses(v=4).map(str),
    st.ip_addresses(v=6).map(lambda a: f"[{a}]"),
)
_port = st.one_of(st.just(""), st.integers(min_value=1, max_value=65535).map(lambda p: f":{p}"))
_path = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-._~/%?=&#", max_size=40)
_url = st.builds(lambda scheme, host, port, path: f"{scheme}://{host}{port}/{path}", st.sampled_from(["http", "https"]), _host, _port, _path)


@schemathesis.hook
def flatmap_body(ctx, body):
    url = body.get("url") if isinstance(body, dict) else None
    if not isinstance(url, str) or not 1 <= len(url) <= 8192:
        return st.just(body)
    return st.one_of(st.just(body), _url.map(lambda u: {**body, "url": u}))
