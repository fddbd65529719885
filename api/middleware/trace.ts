/**
 * A server span per API request (README "Traces"), outermost, so it sees the answer the error
 * middleware made. Named `<method> <route template>` once the router has matched (`POST /v1/crawl`,
 * `GET /v1/crawl/:id`); everything the handler awaits (workflow starts, scrape calls) is inside it.
 *
 * Each request starts a trace of its own: a public caller's `traceparent` is not continued, so
 * nobody outside decides our trace ids or sampling.
 */
import type { Middleware } from 'koa';
import { answered, type Tracing } from '../../telemetry/tracing.js';
import type { AppState } from '../route.js';

export function traceRequests(tracing: Tracing): Middleware<AppState> {
  return (ctx, next) =>
    tracing.span(
      ctx.method,
      async (span) => {
        try {
          await next();
        } finally {
          const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
          if (typeof route === 'string') {
            span.updateName(`${ctx.method} ${route}`);
            span.setAttribute('http.route', route);
          }
          if (ctx.state.requestId) span.setAttribute('pagewright.request_id', ctx.state.requestId);
          answered(span, ctx.status);
        }
      },
      { kind: 'server', parent: 'root', attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path } },
    );
}
