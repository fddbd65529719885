/**
 * Every environment variable the service reads: name, JSON Schema, default, which processes require
 * it, and a one-line doc. The README's configuration table is generated from this list
 * (`npm run config:table`), so the two cannot drift. Spec: shared/spec/interface.md, "Deployment settings".
 */

/** `cli`: the keys command; `migrate`: scripts/migrate.ts (a deploy step that needs the database only). */
export type Role = 'api' | 'worker' | 'browser' | 'cli' | 'migrate';

export interface Setting {
  /** JSON Schema for the value after coercion from its string form. */
  schema: Record<string, unknown>;
  default?: string | number | boolean;
  /** Processes that refuse to start without it. */
  requiredBy?: readonly Role[];
  /** Value must not appear in logs or error bodies. */
  secret?: boolean;
  doc: string;
}

const port = { type: 'integer', minimum: 1, maximum: 65535 } as const;
const positiveInt = { type: 'integer', minimum: 1 } as const;
/** Requests per minute; 0 = unlimited. At most 1,000,000 (one every 60 µs). */
const rateLimit = { type: 'integer', minimum: 0, maximum: 1000000 } as const;
const httpUrl = { type: 'string', pattern: '^https?://[^\\s]+$' } as const;
/** A price in dollars: `$0.01` or `0.01`, at most 6 decimals (positivity: core/x402-settings.ts). */
const price = { type: 'string', pattern: '^\\$?[0-9]+(\\.[0-9]{1,6})?$' } as const;

export const settings = {
  NODE_ENV: {
    schema: { enum: ['development', 'test', 'production'] },
    default: 'development',
    doc: 'Which `.env.<NODE_ENV>` file is read; `production` turns on the production-only checks.',
  },
  DATABASE_URL: {
    schema: { type: 'string', pattern: '^postgres(ql)?://[^\\s]+$' },
    requiredBy: ['api', 'worker', 'cli', 'migrate'],
    secret: true,
    doc: 'PostgreSQL connection string (`postgresql://user:pass@host:5432/db`).',
  },
  REDIS_URL: {
    schema: { type: 'string', pattern: '^rediss?://[^\\s]+$' },
    requiredBy: ['api', 'worker'],
    secret: true,
    doc: 'Redis connection string (`redis://host:6379`); rate limits and short-lived state.',
  },
  AUTH_SECRET: {
    schema: { type: 'string', minLength: 32 },
    requiredBy: ['api'],
    secret: true,
    doc: 'Server secret, 32 or more characters; signs dashboard sessions.',
  },
  AUTH_URL: {
    schema: httpUrl,
    requiredBy: ['api'],
    doc: 'Public URL of the API, as clients reach it: absolute links the API hands out start with it (`next` for the official SDKs, batch status URLs, the OpenAPI `servers` entry).',
  },
  NEXT_URL_STYLE: {
    schema: { enum: ['auto', 'relative', 'absolute'] },
    default: 'auto',
    doc: '`next` paging links: `relative` paths (the spec), `absolute` URLs on AUTH_URL, or `auto`: absolute for the official SDKs (which fetch `next` as a URL: User-Agent axios/, python-requests/ or aiohttp), relative for everyone else.',
  },
  CORS_ORIGIN: {
    schema: { type: 'string', minLength: 1 },
    requiredBy: ['api'],
    doc: 'Comma-separated origins allowed by CORS (`https://app.example.com,https://admin.example.com`).',
  },
  TRUST_PROXY: {
    schema: { type: 'string', pattern: '^(?:[1-9]|10|[0-9A-Fa-f:.]+/[0-9]{1,3}(?:[ ]*,[ ]*[0-9A-Fa-f:.]+/[0-9]{1,3})*)$' },
    doc: 'Behind a reverse proxy: how to find the client\'s address for sign-in throttling. A hop count (`1` for one proxy that appends to `X-Forwarded-For`), or the proxies\' CIDRs (`10.0.0.0/8,fd00::/8`). Unset: the socket\'s peer, and `X-Forwarded-For` is ignored.',
  },
  DASHBOARD_ORIGINS: {
    schema: { type: 'string', minLength: 1 },
    doc: 'Comma-separated origins besides `AUTH_URL`\'s that may use the dashboard\'s API with the session cookie (a dashboard served from elsewhere). Separate from `CORS_ORIGIN`, which only opens the key-authenticated API to browsers.',
  },
  API_KEY_PEPPER: {
    schema: { type: 'string', minLength: 16 },
    requiredBy: ['api', 'cli'],
    secret: true,
    doc: 'Secret of 16 or more characters mixed into API-key hashes (HMAC-SHA256). Changing it invalidates every key.',
  },
  API_HOST: { schema: { type: 'string', minLength: 1 }, default: '127.0.0.1', doc: 'Interface the API listens on.' },
  API_PORT: { schema: port, default: 3000, doc: 'API port.' },
  API_BODY_LIMIT_BYTES: {
    schema: { type: 'integer', minimum: 1024, maximum: 52428800 },
    default: 1048576,
    doc: 'Largest accepted JSON request body, in bytes; larger bodies get 413.',
  },
  API_SHUTDOWN_GRACE_MS: {
    schema: { type: 'integer', minimum: 0, maximum: 600000 },
    default: 30000,
    doc: 'On SIGTERM the API stops accepting requests and waits up to this many ms for those in flight (30 s: a scrape at the default timeout), then cuts the rest. Give the process manager longer (Kubernetes `terminationGracePeriodSeconds`, compose `stop_grace_period`).',
  },
  // Rate limits per API key or paying address (x402), shared by all API replicas through Redis.
  // GCRA: a burst of up to N requests, then one every 60/N s; 0 switches the limit off. See api/rate-limit.ts.
  RATE_LIMIT_SCRAPE_PER_MIN: { schema: rateLimit, default: 100, doc: 'POST /v1/scrape requests per minute per caller (burst up to this many), searches included (one that scrapes its results counts 1 + limit); 0 = unlimited.' },
  RATE_LIMIT_CRAWL_PER_MIN: { schema: rateLimit, default: 15, doc: 'POST /v1/crawl (crawls started) per minute per caller (burst up to this many), with extract jobs, llms.txt jobs and crawl plans (params-preview) counted together; 0 = unlimited.' },
  RATE_LIMIT_CRAWL_STATUS_PER_MIN: {
    schema: rateLimit,
    default: 600,
    doc: 'GET /v1/crawl/{id} and GET /v1/batch/scrape/{id} (and their /errors), extract and llms.txt statuses, the usage and queue reads (GET /v1/team/…) and their v2 twins, together, requests per minute per caller: polling once a second on ten jobs at once fits; 0 = unlimited.',
  },
  RATE_LIMIT_CANCEL_PER_MIN: { schema: rateLimit, default: 60, doc: 'DELETE /v1/crawl/{id}, DELETE /v1/crawl/{id}/cancel and DELETE /v1/batch/scrape/{id} together, per minute per caller; 0 = unlimited.' },
  RATE_LIMIT_BATCH_SCRAPE_PER_MIN: { schema: rateLimit, default: 15, doc: 'POST /v1/batch/scrape (batches started) per minute per caller (burst up to this many); 0 = unlimited.' },
  RATE_LIMIT_MONITOR_PER_MIN: { schema: rateLimit, default: 120, doc: '/v2/monitor requests (every method) per minute per caller; 0 = unlimited.' },
  RATE_LIMIT_MAP_PER_MIN: { schema: rateLimit, default: 100, doc: 'POST /v1/map requests per minute per caller (burst up to this many); 0 = unlimited.' },
  LOG_LEVEL: { schema: { enum: ['debug', 'info', 'warn', 'error'] }, default: 'info', doc: 'Least severe log level printed.' },
  METRICS_TOKEN: {
    schema: { type: 'string', minLength: 16 },
    secret: true,
    doc: 'Bearer token `GET /metrics` asks for (API, worker scrape endpoint, browser service; 16+ characters). Unset: the metrics answer without one (keep the ports private).',
  },
  TEMPORAL_ADDRESS: {
    schema: { type: 'string', pattern: '^[^\\s:]+:\\d+$' },
    default: '127.0.0.1:7233',
    doc: 'Temporal frontend `host:port` (Temporal Cloud: `<ns>.<acct>.tmprl.cloud:7233`).',
  },
  TEMPORAL_NAMESPACE: { schema: { type: 'string', minLength: 1 }, default: 'default', doc: 'Temporal namespace.' },
  TEMPORAL_TASK_QUEUE: {
    schema: { type: 'string', minLength: 1 },
    default: 'pagewright',
    doc: 'Task queue for scrape, crawl and map workflows and their activities.',
  },
  TEMPORAL_API_KEY: {
    schema: { type: 'string', minLength: 1 },
    secret: true,
    doc: 'API key for Temporal Cloud; turns TLS on.',
  },
  TEMPORAL_TLS: { schema: { type: 'boolean' }, default: false, doc: 'Connect to Temporal over TLS (implied by a client certificate or API key).' },
  TEMPORAL_TLS_CERT_PATH: { schema: { type: 'string', minLength: 1 }, doc: 'Client certificate (PEM) for mutual TLS; needs TEMPORAL_TLS_KEY_PATH.' },
  TEMPORAL_TLS_KEY_PATH: { schema: { type: 'string', minLength: 1 }, doc: 'Client private key (PEM) for mutual TLS.' },
  TEMPORAL_TLS_CA_PATH: { schema: { type: 'string', minLength: 1 }, doc: 'CA bundle (PEM) that signed the server certificate, when not a public CA.' },
  TEMPORAL_TLS_SERVER_NAME: { schema: { type: 'string', minLength: 1 }, doc: 'Override of the TLS server name (SNI).' },
  WORKFLOW_BUNDLE_PATH: {
    schema: { type: 'string', minLength: 1 },
    doc: 'Workflow bundle built by scripts/bundle-workflows.ts from the same code; the worker loads it instead of bundling its workflows at start (faster start, ~90 MiB less memory). Unset: bundled at start. With traces on (OTEL_EXPORTER_OTLP_ENDPOINT), build it with `--tracing` (the image has `dist/workflow-bundle-traced.js`), or the worker bundles at start.',
  },
  WORKER_CONCURRENCY: {
    schema: positiveInt,
    default: 2,
    doc: 'Pages fetched and converted in parallel per worker, shared by the crawl lanes it runs (README "Page lanes"); also bounds its concurrent scrapes.',
  },
  WORKER_CONVERT_THREADS: {
    schema: positiveInt,
    doc: 'Threads converting pages to markdown per worker. Unset: one per core the worker may use (its cgroup CPU limit when it has one, else the machine’s cores), at most WORKER_CONCURRENCY. Set it when several workers share a machine without CPU limits.',
  },
  // The scrape path (README "Scrape path"): the API calls a worker's scrape endpoint directly.
  SCRAPE_SERVICE_TOKEN: {
    schema: { type: 'string', minLength: 32 },
    requiredBy: ['api', 'worker'],
    secret: true,
    doc: 'Shared secret, 32 or more characters, that the API presents to the workers’ scrape endpoints (bearer token).',
  },
  WORKER_SCRAPE_HOST: { schema: { type: 'string', minLength: 1 }, default: '127.0.0.1', doc: 'Interface a worker’s scrape endpoint listens on (the API must reach it; never expose it publicly).' },
  WORKER_SCRAPE_PORT: { schema: { type: 'integer', minimum: 0, maximum: 65535 }, default: 0, doc: 'Port of a worker’s scrape endpoint; 0 picks a free one (each worker announces its address in Redis).' },
  WORKER_SCRAPE_URL: { schema: httpUrl, doc: 'The URL the API reaches this worker’s scrape endpoint at, when it differs from `http://WORKER_SCRAPE_HOST:port` (containers, NAT).' },
  CRAWL_LANE_ROTATE_MS: {
    schema: { type: 'integer', minimum: 200, maximum: 600000 },
    default: 15000,
    doc: 'A crawl page lane stops claiming after this many ms and hands back to the workflow: crawls sharing a worker take turns this often, and the Temporal UI progress refreshes. Longer: fewer history events; shorter: fairer sharing.',
  },
  SERVICE_USER_AGENT: {
    schema: { type: 'string', minLength: 1 },
    default: 'PagewrightBot/0.1',
    doc: 'User-Agent sent to target sites unless the caller sets one; also the robots.txt user agent.',
  },
  ALLOW_PRIVATE_ADDRESSES: {
    schema: { type: 'boolean' },
    default: false,
    doc: 'Allow loopback/private/link-local targets (cloud metadata stays refused). Development and tests only; refused when NODE_ENV=production unless ALLOW_PRIVATE_ADDRESSES_IN_PRODUCTION=true.',
  },
  ALLOW_PRIVATE_ADDRESSES_IN_PRODUCTION: {
    schema: { type: 'boolean' },
    default: false,
    doc: 'Deliberate override: accept ALLOW_PRIVATE_ADDRESSES=true with NODE_ENV=production (e.g. an intranet-only deployment).',
  },
  // Egress: which targets and how names resolve (egress/policy.ts). The patterns are the
  // boot-time check: IPv4 in dotted decimal, IPv6 in hex with at most one "::", prefixes and ports in range.
  EGRESS_ALLOW_CIDRS: {
    schema: {
      type: 'string',
      pattern: String.raw`^(?:\s*(?:(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:/(?:3[0-2]|[12]?\d))?|(?:(?:[\da-fA-F]{1,4}:){7}[\da-fA-F]{1,4}|(?!(?::*[\da-fA-F]{1,4}(?![\da-fA-F])){8})(?:(?:[\da-fA-F]{1,4}:){0,6}[\da-fA-F]{1,4})?::(?:[\da-fA-F]{1,4}(?::[\da-fA-F]{1,4}){0,6})?)(?:/(?:12[0-8]|1[01]\d|[1-9]?\d))?)\s*(?:,(?!\s*$)|$))+$`,
    },
    doc: 'Comma-separated CIDRs (`10.20.0.0/16,fd12:3456::/48`; a bare address is that address alone) allowed as targets even with ALLOW_PRIVATE_ADDRESSES=false, e.g. the one internal site you must scrape. Cloud metadata stays refused even if listed; host names still follow the name rules (no `.internal`, `.local` or single-label names).',
  },
  DNS_SERVERS: {
    schema: {
      type: 'string',
      pattern: String.raw`^(?:\s*(?:(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)|\[(?:(?:[\da-fA-F]{1,4}:){7}[\da-fA-F]{1,4}|(?!(?::*[\da-fA-F]{1,4}(?![\da-fA-F])){8})(?:(?:[\da-fA-F]{1,4}:){0,6}[\da-fA-F]{1,4})?::(?:[\da-fA-F]{1,4}(?::[\da-fA-F]{1,4}){0,6})?)\])(?::(?:6553[0-5]|655[0-2]\d|65[0-4]\d\d|6[0-4]\d{3}|[1-5]\d{4}|[1-9]\d{0,3}))?\s*(?:,(?!\s*$)|$))+$`,
    },
    doc: 'Comma-separated DNS servers, `ip[:port]` (IPv6 in brackets: `[fd00::53]:53`; port 53 by default), that resolve every target name (A and AAAA; no /etc/hosts, no search domains). Unset: the system resolver (getaddrinfo).',
  },
  PROXY_URLS: {
    schema: { type: 'string', minLength: 1 },
    secret: true,
    doc: 'Operator proxies for target traffic (fetch engine and browsers), comma-separated: `http://`, `https://` or `socks5://`, with `user:password@` if needed; rotated per request. `PROXY_URLS_<CC>` (e.g. `PROXY_URLS_DE`) are pools for `location.country`. README "Proxies".',
  },
  STEALTH_PROXY_URLS: {
    schema: { type: 'string', minLength: 1 },
    secret: true,
    doc: 'Proxies for `proxy: "stealth"` (and `auto` after a block), same form as PROXY_URLS (residential or unblocking proxies, typically).',
  },
  ADBLOCK_LISTS: {
    schema: { type: 'string', minLength: 1 },
    doc: 'Filter lists (EasyList format) for `blockAds`, comma-separated file paths; default the bundled EasyList and EasyPrivacy (browser/filter-lists/README.md).',
  },
  BROWSER_ENGINE_URL: { schema: httpUrl, doc: 'Browser service to render pages (`remote` engine); without it workers render in-process.' },
  BROWSER_ENGINE_TOKEN: {
    schema: { type: 'string', minLength: 16 },
    secret: true,
    doc: 'Bearer token shared by the browser service and its callers (16+ characters).',
  },
  LLM_BASE_URL: { schema: httpUrl, doc: 'Chat-completions compatible endpoint base (e.g. `https://api.openai.com/v1`). Without it extraction is skipped.' },
  LLM_API_KEY: { schema: { type: 'string', minLength: 1 }, secret: true, doc: 'Key for LLM_BASE_URL.' },
  LLM_MODEL: { schema: { type: 'string', minLength: 1 }, doc: 'Model name sent to LLM_BASE_URL.' },
  EXTRACT_CHUNK_CHARS: { schema: { type: 'integer', minimum: 1000 }, default: 100000, doc: 'Extract jobs: a page longer than this many characters of markdown is extracted in pieces this long, so each fits the model’s context (about 4 characters a token).' },
  SEARXNG_ENDPOINT: { schema: httpUrl, doc: 'A SearXNG instance (its base URL, `json` in its search.formats) for POST /v1|v2/search and web search in extract jobs. Takes precedence over SERPER_API_KEY.' },
  SEARXNG_ENGINES: { schema: { type: 'string', minLength: 1 }, doc: 'Comma-separated SearXNG engines for web results (e.g. `google,bing`); default: the instance\'s own.' },
  SEARXNG_CATEGORIES: { schema: { type: 'string', minLength: 1 }, doc: 'Comma-separated SearXNG categories for web results; default `general`. News and images use SearXNG\'s `news` and `images`.' },
  SERPER_API_KEY: { schema: { type: 'string', minLength: 1 }, secret: true, doc: 'Serper (Google results) key: the search provider when SEARXNG_ENDPOINT is not set.' },
  SERPER_BASE_URL: { schema: httpUrl, default: 'https://google.serper.dev', doc: 'Serper\'s API base URL (a proxy, or a local stand-in in tests).' },
  WEBHOOK_SIGNING_SECRET: {
    schema: { type: 'string', minLength: 16 },
    requiredBy: ['api', 'worker'],
    secret: true,
    doc: 'Secret (16+ characters) behind the HMAC-SHA256 `X-Pagewright-Signature` header on webhook deliveries: each account signs with its own secret derived from it (admins see it on the dashboard\'s API keys page); work without an account (x402) is signed with it directly.',
  },
  CRAWL_TTL_SECONDS: { schema: { type: 'integer', minimum: 60 }, default: 86400, doc: 'Lifetime of crawl state and documents, in seconds.' },
  MONITOR_MIN_INTERVAL_SECONDS: { schema: { type: 'integer', minimum: 1 }, default: 60, doc: 'A monitor may not check more often than this (its schedule is refused with 400).' },
  MONITORS_PER_ACCOUNT: { schema: positiveInt, default: 50, doc: 'Monitors one account may have, over all its API keys.' },
  MONITOR_JITTER_SECONDS: { schema: { type: 'integer', minimum: 0, maximum: 3600 }, default: 0, doc: 'Each scheduled check starts up to this many seconds late, at random, so monitors on the same cron do not all start at once.' },
  MONITOR_CATCHUP_WINDOW_SECONDS: {
    schema: { type: 'integer', minimum: 10, maximum: 31536000 },
    default: 600,
    doc: 'When Temporal or the workers were down at a scheduled time, checks missed within this window are run when they are back; older ones are skipped.',
  },
  SNAPSHOT_RETENTION_DAYS: {
    schema: { type: 'integer', minimum: 1, maximum: 3650 },
    default: 90,
    doc: 'Change tracking keeps a page’s last version (and its change log) until the page has not been seen for this many days; deleted by the expire-data Schedule.',
  },
  SCRAPE_TIMEOUT_MS: {
    schema: { type: 'integer', minimum: 1000, maximum: 90000 },
    default: 30000,
    doc: 'Default scrape timeout in ms when a request gives none (1000–90000).',
  },
  CACHE_DEFAULT_MAX_AGE_MS: {
    schema: { type: 'integer', minimum: 0 },
    default: 172800000,
    doc: 'The page cache: `maxAge` of a v2 scrape that gives none, in ms (the hosted default, 2 days; 0: v2 scrapes read the site unless they ask for the cache). v1 scrapes default to 0.',
  },
  CACHE_RETENTION_SECONDS: {
    schema: { type: 'integer', minimum: 60 },
    default: 172800,
    doc: 'The page cache: how long a scrape result stays readable from the cache (its document is kept at least this long, and at least CRAWL_TTL_SECONDS); deleted by the expire-data Schedule.',
  },
  // Pay per request (x402 protocol v2; api/x402/). Off unless X402_PAY_TO is set; cross-checks in core/x402-settings.ts.
  X402_ENABLED: {
    schema: { type: 'boolean' },
    doc: 'Switch for pay-per-request (x402). Unset: on exactly when X402_PAY_TO is set. `true` without X402_PAY_TO refuses to start; `false` turns it off even with X402_PAY_TO.',
  },
  X402_PAY_TO: {
    schema: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
    doc: 'Wallet address that receives payments (`0x` + 40 hex digits; mixed case must be a valid EIP-55 checksum). Setting it enables x402.',
  },
  X402_PRICE: { schema: price, default: '$0.01', doc: 'Price of each protected request in US dollars of the stablecoin (`$0.01` or `0.01`; positive, at most 6 decimals), unless the operation has its own price.' },
  X402_SCRAPE_PRICE: { schema: price, doc: 'Price of POST /v1/scrape; default X402_PRICE.' },
  X402_CRAWL_PRICE: { schema: price, doc: 'Price of POST /v1/crawl (the whole crawl); default X402_PRICE.' },
  X402_CRAWL_STATUS_PRICE: { schema: price, doc: 'Price of GET /v1/crawl/{id} and GET /v1/batch/scrape/{id} (and their /errors); default X402_PRICE.' },
  X402_CRAWL_CANCEL_PRICE: { schema: price, doc: 'Price of DELETE /v1/crawl/{id} (and its /cancel alias) and DELETE /v1/batch/scrape/{id}; default X402_PRICE.' },
  X402_MAP_PRICE: { schema: price, doc: 'Price of POST /v1/map; default X402_PRICE.' },
  X402_BATCH_SCRAPE_PRICE: { schema: price, doc: 'Price of POST /v1/batch/scrape (the whole batch, whatever its number of URLs, as for a crawl); default X402_PRICE.' },
  X402_FACILITATOR_URL: {
    schema: httpUrl,
    doc: 'Payment facilitator ({url}/verify, /settle, /supported). Default outside production: the public testnet facilitator `https://x402.org/facilitator`, which NODE_ENV=production refuses: set a production facilitator.',
  },
  X402_NETWORK: {
    schema: { type: 'string', pattern: '^eip155:[1-9][0-9]*$' },
    doc: 'Payment network (CAIP-2). Default `eip155:84532` (Base Sepolia); with NODE_ENV=production `eip155:8453` (Base). Payment is in the network\'s USDC.',
  },
  X402_FACILITATOR_BEARER_TOKEN: { schema: { type: 'string', minLength: 1 }, secret: true, doc: 'Sent as `Authorization: Bearer ...` on every facilitator request (managed or self-hosted facilitators).' },
  X402_FACILITATOR_TIMEOUT_MS: {
    schema: { type: 'integer', minimum: 100, maximum: 300000 },
    default: 30000,
    doc: 'Timeout of each facilitator verify, settle and capability (`/supported`) request, in ms; past it the request gets 503 and no work is done.',
  },
  X402_MAX_TIMEOUT_SECONDS: {
    schema: { type: 'integer', minimum: 30, maximum: 300 },
    default: 60,
    doc: 'How long a payment authorization stays valid (30-300 s), sent to clients as `maxTimeoutSeconds`. Paid work must end 12 s before it expires, so settlement can still happen.',
  },
  // Dashboard (api/dashboard/): sessions, sign-in, team, activity log.
  DASHBOARD_SIGNUP: {
    schema: { type: 'boolean' },
    default: false,
    doc: 'Anyone who reaches the dashboard may create an account (`true`); by default only invited people join, and `npm run users` creates users.',
  },
  DASHBOARD_SESSION_TTL_HOURS: {
    schema: { type: 'integer', minimum: 1, maximum: 8760 },
    default: 168,
    doc: 'A dashboard session ends this many hours after sign-in (1–8760); sign-out and a password change end it at once.',
  },
  DASHBOARD_INVITE_TTL_HOURS: { schema: { type: 'integer', minimum: 1, maximum: 8760 }, default: 72, doc: 'An invite link stops working this many hours after it was made.' },
  SIGN_IN_RATE_LIMIT_PER_MIN: {
    schema: { type: 'integer', minimum: 1, maximum: 1000 },
    default: 10,
    doc: 'Dashboard sign-in attempts per minute per client address; half as many (at least 1) per client address and e-mail address together, so guessing one account slows down sooner while its owner, from another address, is never locked out (counted in Redis like the API limits).',
  },
  ACTIVITY_RETENTION_DAYS: {
    schema: { type: 'integer', minimum: 1, maximum: 3650 },
    default: 30,
    doc: 'The activity log (each API request made with a key: endpoint, status, duration, credits) is kept this many days; deleted by the expire-data Schedule.',
  },
  TEMPORAL_UI_URL: {
    schema: httpUrl,
    doc: 'Base URL of the Temporal Web UI (`http://127.0.0.1:8233`); when set, the dashboard links each crawl to its workflow there.',
  },
  OIDC_ISSUER: { schema: httpUrl, doc: 'OpenID Connect issuer URL (discovery at `<issuer>/.well-known/openid-configuration`); setting it adds "Sign in with OIDC_LABEL" to the dashboard.' },
  OIDC_CLIENT_ID: { schema: { type: 'string', minLength: 1 }, doc: 'OpenID Connect client id (needed with OIDC_ISSUER). Redirect URI to register: `<AUTH_URL>/dashboard/api/oidc/callback`.' },
  OIDC_CLIENT_SECRET: { schema: { type: 'string', minLength: 1 }, secret: true, doc: 'OpenID Connect client secret (needed with OIDC_ISSUER).' },
  OIDC_LABEL: { schema: { type: 'string', minLength: 1, maxLength: 60 }, default: 'single sign-on', doc: 'How the dashboard names the identity provider on its sign-in button.' },
  OIDC_DEFAULT_ROLE: { schema: { enum: ['admin', 'member'] }, default: 'member', doc: 'Role of a person who signs in through OpenID Connect for the first time; they join the account `default` when OIDC_ALLOWED_DOMAINS or OIDC_ALLOWED_GROUPS admits them.' },
  OIDC_ALLOWED_DOMAINS: { schema: { type: 'string', minLength: 1 }, doc: 'Comma-separated e-mail domains (`example.com,example.org`) whose people, with an address the provider verified, may join through OpenID Connect without an invite. With neither this nor OIDC_ALLOWED_GROUPS, only people who already have a user (or an invite) get in.' },
  OIDC_ALLOWED_GROUPS: { schema: { type: 'string', minLength: 1 }, doc: 'Comma-separated groups: a person whose OIDC_GROUPS_CLAIM lists one of them may join through OpenID Connect without an invite.' },
  OIDC_GROUPS_CLAIM: { schema: { type: 'string', minLength: 1 }, default: 'groups', doc: 'The claim (in the ID token or UserInfo) that lists a person\'s groups, for OIDC_ALLOWED_GROUPS.' },
  OIDC_SCOPE: { schema: { type: 'string', minLength: 1 }, default: 'openid email', doc: 'Scopes asked of the identity provider; add what it needs to send the groups claim (often `groups`).' },
  // Subscription billing (Polar; api/billing/). Off unless BILLING_ACCESS_TOKEN is set; cross-checks in core/billing-settings.ts.
  BILLING_ACCESS_TOKEN: {
    schema: { type: 'string', minLength: 1 },
    secret: true,
    doc: 'Polar organization access token. Setting it turns subscription billing on (then the other BILLING_ settings marked required must be set too); give it to the workers as well, which stop crawls at zero credits.',
  },
  BILLING_SUCCESS_URL: { schema: httpUrl, doc: 'Where checkout sends a customer after paying (required with billing on), e.g. `https://scraper.example.com/dashboard/billing`.' },
  BILLING_WEBHOOK_SECRET: { schema: { type: 'string', minLength: 1 }, secret: true, doc: 'Secret of the Polar webhook endpoint `<AUTH_URL>/billing/webhook` (required with billing on); signatures are verified with it.' },
  BILLING_PLANS: {
    schema: { type: 'string', pattern: '^[^=,\\s]+=[1-9][0-9]{0,8}(,[^=,\\s]+=[1-9][0-9]{0,8})*$' },
    doc: 'The plans (required with billing on): Polar product id = monthly page credits, comma-separated (`prod_basic=10000,prod_pro=100000`).',
  },
  BILLING_ENVIRONMENT: { schema: { enum: ['sandbox', 'production'] }, doc: 'Which Polar environment the access token belongs to (required with billing on).' },
  BILLING_API_URL: { schema: httpUrl, doc: "Polar API base URL, instead of the environment's (a proxy, or a local server in tests)." },
  BILLING_FREE_CREDITS: {
    schema: { type: 'integer', minimum: 0, maximum: 100000000 },
    default: 100,
    doc: 'Page credits per calendar month (UTC) for an account without a subscription, with billing on. With billing off, usage is unlimited.',
  },
  // Traces (OpenTelemetry; telemetry/tracing.ts, README "Traces"). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set. These
  // use the standard OTEL_ names, but we read them here and hand the SDK explicit values.
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    schema: httpUrl,
    doc: 'OTLP/HTTP collector base URL (`http://otel-collector:4318`): setting it turns tracing on in the API and the workers, which send spans as JSON to `<url>/v1/traces`. Unset: no tracing, at no cost.',
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    schema: { type: 'string', pattern: '^[^=,\\s]+=[^,]*(,[^=,\\s]+=[^,]*)*$' },
    secret: true,
    doc: 'Headers sent with every span export, `name=value` pairs, comma-separated (`authorization=Bearer abc,x-team=ops`); a hosted backend\'s key goes here. Values are URL-decoded.',
  },
  OTEL_SERVICE_NAME: {
    schema: { type: 'string', minLength: 1, maxLength: 255 },
    doc: 'The `service.name` on this process\'s spans. Unset: `pagewright-api` for the API, `pagewright-worker` for workers.',
  },
  OTEL_TRACES_SAMPLER_ARG: {
    schema: { type: 'number', minimum: 0, maximum: 1 },
    default: 1,
    doc: 'Share of traces recorded, 0 to 1, decided where a trace starts (an API request): the rest of the trace follows that decision (OpenTelemetry\'s parentbased_traceidratio sampler).',
  },
  OTEL_BSP_SCHEDULE_DELAY: {
    schema: { type: 'integer', minimum: 50, maximum: 60000 },
    default: 5000,
    doc: 'Finished spans are sent in batches at most this many ms after they end (or sooner, 512 at a time).',
  },
  PORT: { schema: port, default: 3002, doc: 'Browser service port.' },
  BROWSER_SERVICE_HOST: { schema: { type: 'string', minLength: 1 }, default: '127.0.0.1', doc: 'Interface the browser service listens on.' },
  CHROMIUM_PATH: {
    schema: { type: 'string', minLength: 1 },
    default: '/usr/lib/chromium/chromium',
    doc: "Chromium executable (Debian's `chromium` package by default).",
  },
  PLAYWRIGHT_MAX_CONTEXTS: { schema: positiveInt, default: 4, doc: 'Browser contexts per process.' },
  BROWSER_MAX_USES_PER_CONTEXT: { schema: positiveInt, default: 200, doc: 'A browser context is recycled after this many pages.' },
  BROWSER_IDLE_TIMEOUT_MS: { schema: positiveInt, default: 60000, doc: 'Idle browser contexts are closed after this many ms.' },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof settings;
