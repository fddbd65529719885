/**
 * Webhook URLs checked when a job or monitor is created, with the same rules as page URLs (without
 * DNS, which delivery still checks at connect time): a receiver the policy refuses is a 400 naming
 * the field now, rather than a delivery that fails later.
 */
import type { WebhookOptions } from '../core/job-contracts.js';
import type { ErrorDetail } from '../core/errors.js';
import { checkUrlSyntax, type SafetyOptions, UnsafeUrlError } from '../core/url-safety.js';

export function webhookUrlProblems(options: WebhookOptions, safety: SafetyOptions): ErrorDetail[] {
  const urls = (options.webhookUrls ?? []).map((url, i) => ({ field: `webhookUrls[${i}]`, url }));
  if (typeof options.webhook === 'string') urls.push({ field: 'webhook', url: options.webhook });
  else if (options.webhook) urls.push({ field: 'webhook.url', url: options.webhook.url });
  const problems: ErrorDetail[] = [];
  for (const { field, url } of urls) {
    try {
      checkUrlSyntax(url, safety);
    } catch (err) {
      if (!(err instanceof UnsafeUrlError)) throw err;
      problems.push({ field, message: `is not a URL webhooks may be sent to: ${err.message}` });
    }
  }
  return problems;
}
