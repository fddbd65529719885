/**
 * Content-Security-Policy violation reports from browsers (the dashboard's `report-uri`): logged as
 * warnings, so an operator sees an attempted injection or a policy that blocks the app itself.
 * Bodies are read raw (application/csp-report), at most 16 KiB; the answer is always 204.
 */
import type { Middleware } from 'koa';
import type { Logger } from '../../../core/log.js';
import type { AppState } from '../../route.js';

const LIMIT_BYTES = 16 * 1024;

export function cspReport(log: Logger): Middleware<AppState> {
  return async (ctx) => {
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > LIMIT_BYTES) break;
      chunks.push(chunk);
    }
    let report: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { 'csp-report'?: Record<string, unknown> };
      report = parsed['csp-report'] ?? {};
    } catch {
      // Not JSON: still worth a line.
    }
    log.warn('dashboard content security policy violation', {
      directive: String(report['violated-directive'] ?? report['effective-directive'] ?? 'unknown'),
      blocked: String(report['blocked-uri'] ?? 'unknown').slice(0, 200),
      page: String(report['document-uri'] ?? 'unknown').slice(0, 200),
    });
    ctx.status = 204;
  };
}
